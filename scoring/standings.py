"""Standings from the database: the tables' results, the pure computation, the snapshot.

A table's result comes from the outcomes stored with its games (``Hand.outcome``, the engine's whole
HandScore) through the pure ``rules.standings.table_result``: no SQL of any vendor re-expands them and
no game is scored again. The snapshot keeps every table's result next to the standings, so a change at
one table costs that table's work: ``standings_update`` reads only the changed tables' games and
merges them in; ``standings_recompute`` (the repair path) reads every game. Both give the same
snapshot (tests/scoring/test_standings_incremental.py checks it over random sequences of changes).

Which tables changed is read from the revision log (every change of a game or of paper totals writes
a ``HandRevision``): the snapshot remembers the newest revision it reflects, overall and per table.
Writers of one tournament's snapshot take its row lock (``FOR NO KEY UPDATE`` on the tournament), so
two workers never merge over each other; the second finds nothing new and writes nothing.
"""
import contextlib
import gc
import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, IntegerField, Max, Q, Sum
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast
from django.utils import timezone

from scoring.rules.hand import SOLO_CONTRACTS
from scoring.rules.outcome import outcome_from_dict, table_result_from_dict, table_result_to_dict
from scoring.rules.standings import StandingsResult, TableResult, compute_standings, table_result

from .models import StandingsSnapshot

# Changes commit in an order slightly different from their revision ids; a merge looks back this many
# revisions behind the newest it reflected, so a change that committed late is still found.
REVISION_LOOKBACK = 1000


@dataclass(frozen=True)
class PlayerInfo:
    registration_id: int
    start_number: int
    name: str
    sort_name: str
    club: str
    substitute_for: str  # name of the player whose seat and points he took over, or ""


def _accounts(tournament_id: int) -> tuple[dict[int, int], dict[int, PlayerInfo]]:
    """registration id -> the registration holding its points (a substitute takes them over)."""
    from tournaments.models import Registration

    regs = list(Registration.objects.filter(tournament_id=tournament_id).values_list(
        "pk", "start_number", "substitute_for_id", "player__first_name", "player__last_name",
        "player__club__name").order_by())
    successor = {sub_for: pk for pk, _n, sub_for, *_ in regs if sub_for}
    names = {pk: f"{first} {last}".strip() for pk, _n, _s, first, last, _c in regs}
    account = {}
    for pk, *_ in regs:
        key, seen = pk, {pk}
        while key in successor and successor[key] not in seen:
            key = successor[key]
            seen.add(key)
        account[pk] = key
    info = {
        pk: PlayerInfo(
            registration_id=pk, start_number=number, name=names[pk],
            sort_name=f"{last}, {first}" if first else last, club=club or "",
            substitute_for=names[sub_for] if sub_for else "",
        )
        for pk, number, sub_for, first, last, club in regs
    }
    return account, info


def _table_results(tournament_id: int, *, account: dict[int, int], closed_only: bool = False,
                   table_ids: Iterable[int] | None = None) -> dict[int, TableResult]:
    """table id -> its TableResult, from the stored outcomes of its games (every table, or those given)."""
    from tournaments.models import Hand, Round, Seat, Table

    if table_ids is not None:
        where = Q(table_id__in=list(table_ids))
        tables_where = Q(pk__in=list(table_ids))
    else:
        where = Q(table__round__tournament_id=tournament_id)
        tables_where = Q(round__tournament_id=tournament_id)
        if closed_only:
            where &= Q(table__round__status=Round.Status.CLOSED)
            tables_where &= Q(round__status=Round.Status.CLOSED)
    tables = {
        pk: (rnd, number, paper)
        for pk, rnd, number, paper in Table.objects.filter(tables_where).values_list(
            "pk", "round__number", "number", "paper_totals").order_by()  # no default ordering: no joins to sort
    }
    seats: dict[int, dict[int, int]] = {pk: {} for pk in tables}
    for table_id, seat, reg_id in Seat.objects.filter(where).values_list("table_id", "number", "registration_id").order_by():
        seats[table_id][seat] = account[reg_id]
    games: dict[int, list] = defaultdict(list)
    for table_id, number, outcome in Hand.objects.filter(where).values_list("table_id", "number", "outcome").order_by():
        games[table_id].append((number, outcome_from_dict(outcome)))
    results = {}
    for pk, (rnd, number, paper) in tables.items():
        played = sorted(games.get(pk, ()), key=lambda game: game[0])
        totals = {int(seat): total for seat, total in (paper or {}).items()}
        results[pk] = table_result(rnd, number, seats[pk], played, paper_totals=totals)
    return results


class _SeatKey(KeyTextTransform):
    """A seat's entry ("1".."5") of a JSON map as text: Django takes a digit key for an array index
    (``->> 1``, ``$[1]``); a seat is an object key (``->> '1'``, ``$."1"``)."""

    def as_postgresql(self, compiler, connection):
        lhs, params = compiler.compile(self.lhs)
        return f"({lhs} ->> %s)", [*params, str(self.key_name)]

    def as_sqlite(self, compiler, connection):
        lhs, params = compiler.compile(self.lhs)
        return f"JSON_EXTRACT({lhs}, %s)", [*params, f'$."{self.key_name}"']


def _table_results_summed(tournament_id: int, *, account: dict[int, int],
                          closed_only: bool = False) -> dict[int, TableResult]:
    """Every table's TableResult summed by the database: the same as ``_table_results``, in a few reads.

    The full recompute (the repair path, the archive) reads tens of thousands of games: their points
    per seat are summed per table (``SUM … GROUP BY`` through the ORM, any database), solos are
    counted per table and declarer, and only the few games that cost money (Reuegeld, Weitergeld)
    are read one by one for the ledger. All of it from the stored outcomes (``points`` is the
    outcome's points per seat, kept beside it for the sheets), nothing scored again;
    tests/scoring/test_standings_incremental.py checks that both ways agree.
    """
    from tournaments.models import Hand, Round, Seat, Table

    where = Q(table__round__tournament_id=tournament_id)
    tables_where = Q(round__tournament_id=tournament_id)
    if closed_only:
        where &= Q(table__round__status=Round.Status.CLOSED)
        tables_where &= Q(round__status=Round.Status.CLOSED)
    tables = {
        pk: (rnd, number, paper)
        for pk, rnd, number, paper in Table.objects.filter(tables_where).values_list(
            "pk", "round__number", "number", "paper_totals").order_by()
    }
    seats: dict[int, dict[int, int]] = {pk: {} for pk in tables}
    for table_id, seat, reg_id in Seat.objects.filter(where).values_list("table_id", "number", "registration_id").order_by():
        seats[table_id][seat] = account[reg_id]
    hands = Hand.objects.filter(where).order_by()
    sums = {f"p{seat}": Sum(Cast(_SeatKey(str(seat), "points"), IntegerField())) for seat in range(1, 6)}
    points: dict[int, dict[int, int]] = {}
    for row in hands.values("table_id").annotate(**sums):
        points[row["table_id"]] = {seat: row[f"p{seat}"] or 0 for seat in range(1, 6)}
    won: dict[int, dict[int, int]] = defaultdict(dict)
    lost: dict[int, dict[int, int]] = defaultdict(dict)
    solos = hands.filter(outcome__contract__in=sorted(SOLO_CONTRACTS)).values(
        "table_id", solo_declarer=Cast(KeyTextTransform("declarer", "outcome"), IntegerField()),
    ).annotate(won=Count("id", filter=Q(outcome__declarer_won=True)),
               lost=Count("id", filter=Q(outcome__declarer_won=False)))
    for row in solos:
        if row["won"]:
            won[row["table_id"]][row["solo_declarer"]] = row["won"]
        if row["lost"]:
            lost[row["table_id"]][row["solo_declarer"]] = row["lost"]
    money: dict[int, list] = defaultdict(list)
    paying = hands.exclude(outcome__reuegeld={}, outcome__weitergeld={}).values_list("table_id", "number", "outcome")
    for table_id, number, outcome in sorted(paying, key=lambda row: (row[0], row[1])):
        money[table_id].append((number, outcome_from_dict(outcome)))
    results = {}
    for pk, (rnd, number, paper) in tables.items():
        summed = points.get(pk, {})
        totals = {seat: 0 for seat in seats[pk]}
        for seat, total in (paper or {}).items():
            totals[int(seat)] += total
        for seat in totals:
            totals[seat] += summed.get(seat, 0)
        paid = table_result(rnd, number, seats[pk], money.get(pk, ())).money  # the ledger's items, in game order
        results[pk] = TableResult(rnd, number, seats[pk], totals, won.get(pk, {}), lost.get(pk, {}), paid)
    return results


def table_results(tournament, *, closed_only: bool = False, account: dict[int, int] | None = None) -> list[TableResult]:
    """Every table of the tournament's rounds (in round and table order), from the games' stored outcomes."""
    if account is None:
        account, _info = _accounts(tournament.pk)
    results = _table_results_summed(tournament.pk, account=account, closed_only=closed_only)
    return sorted(results.values(), key=lambda t: (t.round, t.table))


def standings_compute(tournament, *, closed_only: bool = False) -> tuple[StandingsResult, dict[int, PlayerInfo]]:
    account, info = _accounts(tournament.pk)
    result = compute_standings(table_results(tournament, closed_only=closed_only, account=account),
                               tournament.ruleset, lot_seed=tournament.lot_seed)
    return result, info


def _substitutes(tournament_id: int) -> int:
    from tournaments.models import Registration

    return Registration.objects.filter(tournament_id=tournament_id, substitute_for__isnull=False).count()


def games_marker(tournament) -> str:
    """Which state of the games a snapshot reflects: the newest revision and the substitutes.

    Reads every revision of the tournament: for the catch-up and for tests; pages ask the cheaper
    ``revisions_after``.
    """
    from tournaments.models import HandRevision

    last = HandRevision.objects.filter(table__round__tournament_id=tournament.pk).aggregate(m=Max("id"))["m"] or 0
    return f"{last}:{_substitutes(tournament.pk)}"


def revisions_after(tournament_id: int, revision: int) -> bool:
    """Whether a change of this tournament's games is newer than ``revision`` (reads only newer rows)."""
    from tournaments.models import HandRevision

    return HandRevision.objects.filter(pk__gt=revision, table__round__tournament_id=tournament_id).exists()


def _layout(tournament_id: int) -> list[int]:
    """Which tables and seats there are: a redraw, a seat swap or a new round changes it."""
    from tournaments.models import Seat

    row = Seat.objects.filter(round__tournament_id=tournament_id).order_by().aggregate(
        seats=Count("id"), top_seat=Max("id"), tables=Count("table_id", distinct=True), top_table=Max("table_id"))
    return [row["seats"], row["top_seat"] or 0, row["tables"], row["top_table"] or 0]


def _standing_rows(standings, info: dict[int, PlayerInfo]) -> list[dict[str, Any]]:
    rows = []
    for s in standings:
        player = info[s.player]
        note = None
        if s.note is not None:
            note = {"tiebreak": s.note.tiebreak, "below": info[s.note.below].name,
                    "below_start_number": info[s.note.below].start_number}
        rows.append({
            "rank": s.rank, "registration": s.player, "start_number": player.start_number, "name": player.name,
            "sort_name": player.sort_name, "club": player.club, "substitute_for": player.substitute_for,
            "points": s.points, "won_solos": s.won_solos, "lost_solos": s.lost_solos,
            "round_points": list(s.round_points), "note": note,
        })
    return rows


def snapshot_data(result: StandingsResult, info: dict[int, PlayerInfo]) -> dict[str, Any]:
    return {
        "overall": _standing_rows(result.overall, info),
        "rounds": {str(r): _standing_rows(rows, info) for r, rows in result.rounds.items()},
        "tischbeste": [
            {"round": t.round, "table": t.table, "points": t.points, "collected_cents": t.collected_cents,
             "payout_cents": t.payout_cents,
             "players": [{"start_number": info[p].start_number, "name": info[p].name} for p in t.players]}
            for t in result.tischbeste
        ],
        "ledger": [
            {"start_number": info[e.player].start_number, "name": info[e.player].name, "round": e.round,
             "table": e.table, "hand": e.hand, "kind": e.kind, "cents": e.cents}
            for e in result.ledger
        ],
        "collected_cents": result.collected_cents,
        "paid_out_cents": result.paid_out_cents,
        "pot_cents": result.pot_cents,
    }


def _locked_tournament(tournament_id: int):
    """The tournament's row, locked for the snapshot's writers (FK inserts elsewhere are not blocked)."""
    from tournaments.models import Tournament

    return Tournament.objects.select_for_update(no_key=True).only("pk", "rules", "lot_seed").get(pk=tournament_id)


def _write(tournament, *, snapshot: StandingsSnapshot | None, revision: int, parts: dict[str, Any],
           result: StandingsResult, info: dict[int, PlayerInfo], started: float) -> StandingsSnapshot:
    values = {
        "marker": f"{revision}:{sum(1 for p in info.values() if p.substitute_for)}",
        "revision": revision, "version": (snapshot.version if snapshot else 0) + 1, "parts": parts,
        "computed_at": timezone.now(), "data": snapshot_data(result, info),
        "duration_ms": round((time.perf_counter() - started) * 1000),
    }
    if snapshot is None or not _snapshot_update(tournament.pk, values):
        StandingsSnapshot.objects.create(tournament=tournament, **values)
    return StandingsSnapshot(tournament=tournament, **values)


@contextlib.contextmanager
def _without_gc():
    """Python's cyclic garbage collector off for one merge or recompute.

    Both build hundreds of thousands of small dicts and tuples (every table's result, every row of
    the lists) that hold no reference cycles; meanwhile the collector ran again and again over the
    whole, growing heap: a third of a merge's CPU at 1,000 players. Reference counting still frees
    everything; the collector is switched back on afterwards.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@_without_gc()
@transaction.atomic
def standings_recompute(*, tournament_id: int) -> StandingsSnapshot:
    """Recompute everything from the games and replace the snapshot; running it twice gives the same."""
    from tournaments.models import HandRevision

    started = time.perf_counter()
    tournament = _locked_tournament(tournament_id)
    snapshot = StandingsSnapshot.objects.filter(tournament_id=tournament_id).defer("data", "parts").first()
    layout = _layout(tournament_id)
    # Revisions before games: a change committing in between is then counted again later, never missed.
    revs = dict(HandRevision.objects.filter(table__round__tournament_id=tournament_id).order_by()
                .values("table_id").annotate(m=Max("id")).values_list("table_id", "m"))
    account, info = _accounts(tournament_id)
    results = _table_results_summed(tournament_id, account=account)
    parts = {"layout": layout, "accounts": {str(k): v for k, v in account.items()},
             "tables": {str(pk): {**table_result_to_dict(r), "rev": revs.get(pk, 0)} for pk, r in results.items()}}
    result = compute_standings(sorted(results.values(), key=lambda t: (t.round, t.table)), tournament.ruleset,
                               lot_seed=tournament.lot_seed)
    return _write(tournament, snapshot=snapshot, revision=max(revs.values(), default=0), parts=parts,
                  result=result, info=info, started=started)


@_without_gc()
@transaction.atomic
def standings_update(*, tournament_id: int, table_ids: Iterable[int] = ()) -> StandingsSnapshot | None:
    """Merge the changed tables into the snapshot: their games are read, no other table's.

    ``table_ids`` are tables known to have changed; others are found in the revision log. Returns
    None when the snapshot already reflects every change (another worker merged them). Falls back to
    ``standings_recompute`` when there is no snapshot yet, or tables, seats or substitutes changed.
    """
    from tournaments.models import HandRevision

    started = time.perf_counter()
    tournament = _locked_tournament(tournament_id)
    snapshot = StandingsSnapshot.objects.filter(tournament_id=tournament_id).defer("data").first()
    if snapshot is None or not snapshot.parts or snapshot.parts.get("layout") != _layout(tournament_id):
        return standings_recompute(tournament_id=tournament_id)
    parts = snapshot.parts
    stored = parts["tables"]
    known = Q(table_id__in=list(table_ids)) if table_ids else Q(pk__in=[])
    latest = dict(HandRevision.objects.filter(
        Q(pk__gt=snapshot.revision - REVISION_LOOKBACK, table__round__tournament_id=tournament_id) | known,
    ).order_by().values("table_id").annotate(m=Max("id")).values_list("table_id", "m"))
    if any(str(pk) not in stored for pk in latest):
        return standings_recompute(tournament_id=tournament_id)
    stale = sorted(pk for pk, rev in latest.items() if rev > stored[str(pk)]["rev"])
    if not stale:
        return None
    account, info = _accounts(tournament_id)
    if {str(k): v for k, v in account.items()} != parts["accounts"]:
        return standings_recompute(tournament_id=tournament_id)
    for pk, result in _table_results(tournament_id, account=account, table_ids=stale).items():
        stored[str(pk)] = {**table_result_to_dict(result), "rev": latest[pk]}
    results = sorted((table_result_from_dict(t) for t in stored.values()), key=lambda t: (t.round, t.table))
    result = compute_standings(results, tournament.ruleset, lot_seed=tournament.lot_seed)
    return _write(tournament, snapshot=snapshot, revision=max(snapshot.revision, *latest.values()), parts=parts,
                  result=result, info=info, started=started)


_SNAPSHOT_UPDATE_SQL = f"""
    UPDATE {StandingsSnapshot._meta.db_table} SET marker = %s, revision = %s, version = %s, parts = %s,
    computed_at = %s, data = %s, duration_ms = %s WHERE tournament_id = %s"""


def _snapshot_update(tournament_id: int, values: dict[str, Any]) -> bool:
    """Overwrite the snapshot without reading the old one back; False if there is none yet.

    On PostgreSQL the documents (1.5 MB for 1,000 players over three rounds) are encoded by orjson
    and sent as parameters of their own: Django's psycopg cursor quotes parameters into the SQL
    text, and quoting and encoding the document cost more than the rest of the write.
    """
    from django.db import connection

    if connection.vendor != "postgresql":
        return bool(StandingsSnapshot.objects.filter(tournament_id=tournament_id).update(**values))
    import orjson
    import psycopg
    from psycopg.types.json import Jsonb

    def dumps(o):
        return orjson.dumps(o).decode()

    connection.ensure_connection()
    with psycopg.Cursor(connection.connection) as cursor:  # server-side binding
        cursor.execute(_SNAPSHOT_UPDATE_SQL, [
            values["marker"], values["revision"], values["version"], Jsonb(values["parts"], dumps=dumps),
            values["computed_at"], Jsonb(values["data"], dumps=dumps), values["duration_ms"], tournament_id])
        return cursor.rowcount > 0
