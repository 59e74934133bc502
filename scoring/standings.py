"""Standings from the database: load the tables' results, run the pure computation, keep a snapshot.

Reads and writes of standings live here (the bridge between tournaments' models and
scoring.rules.standings); the Celery task and the pages call these functions.
"""
import time
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from scoring.rules.seats import active_seats
from scoring.rules.standings import REUEGELD, WEITERGELD, Money, StandingsResult, TableResult, compute_standings

from .models import StandingsSnapshot

SOLO_CONTRACTS = ("wenz", "solo")  # Tout and Sie are played as one of these


@dataclass(frozen=True)
class PlayerInfo:
    registration_id: int
    start_number: int
    name: str
    sort_name: str
    club: str
    substitute_for: str  # name of the player whose seat and points he took over, or ""


def _accounts(tournament) -> tuple[dict[int, int], dict[int, PlayerInfo]]:
    """registration id -> the registration holding its points (a substitute takes them over)."""
    from tournaments.models import Registration

    regs = list(Registration.objects.filter(tournament=tournament).values_list(
        "pk", "start_number", "substitute_for_id", "player__first_name", "player__last_name", "player__club__name"))
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


# One pass over the games gives every table's points per seat, its won and lost solos per
# declaring seat and the games that cost money: grouping the games by table (a few columns per seat
# number) reads each game once, where joining every game to its four or five seats first made four
# to five times the rows and cost more than a plain SUM ... GROUP BY over the same points.
MAX_SEATS = 5
_SEAT_POINTS = {
    "postgresql": "(h.points ->> '{seat}')::int",
    "sqlite": """CAST(json_extract(h.points, '$."{seat}"') AS INTEGER)""",
}
_CONCAT = {"postgresql": "string_agg", "sqlite": "group_concat"}
_SOLO = "h.contract IN ({})".format(", ".join(f"'{c}'" for c in SOLO_CONTRACTS))
# "number:declarer:dealer:contract:reuegeld:weitergeld" of every game that cost money, comma separated.
_MONEY = ("{concat}(h.number || ':' || COALESCE(h.declarer, 0) || ':' || h.dealer || ':' || h.contract"
          " || ':' || h.reuegeld_cents"
          " || ':' || h.weitergeld_cents, ',') FILTER (WHERE h.reuegeld_cents > 0 OR h.weitergeld_cents > 0)")


def _table_sums_sql(vendor: str) -> str:
    seats = range(1, MAX_SEATS + 1)
    points = [f"COALESCE(SUM({_SEAT_POINTS[vendor].format(seat=n)}), 0)" for n in seats]
    won = [f"COUNT(*) FILTER (WHERE h.declarer = {n} AND {_SOLO} AND h.declarer_won)" for n in seats]
    lost = [f"COUNT(*) FILTER (WHERE h.declarer = {n} AND {_SOLO} AND NOT h.declarer_won)" for n in seats]
    return f"""
        SELECT h.table_id, {", ".join(points + won + lost)}, {_MONEY.format(concat=_CONCAT[vendor])}
        FROM tournaments_hand h
        JOIN tournaments_table t ON t.id = h.table_id JOIN tournaments_round r ON r.id = t.round_id
        WHERE r.tournament_id = %s AND (%s = 0 OR r.status = 'closed')
        GROUP BY h.table_id"""


@dataclass(frozen=True)
class _TableSums:
    points: tuple[int, ...]  # indexed by seat number − 1
    won: tuple[int, ...]
    lost: tuple[int, ...]
    # (game, declarer, dealer, contract, reuegeld, weitergeld) by game
    money: tuple[tuple[int, int, int, str, int, int], ...]


def _money_games(text: str | None) -> tuple[tuple[int, int, int, str, int, int], ...]:
    games = []
    for item in (text or "").split(","):
        if item:
            number, declarer, dealer, contract, reuegeld, weitergeld = item.split(":")
            games.append((int(number), int(declarer), int(dealer), contract, int(reuegeld), int(weitergeld)))
    return tuple(sorted(games))


def _table_sums(tournament, closed_only: bool) -> dict[int, _TableSums]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(_table_sums_sql(connection.vendor), [tournament.pk, int(closed_only)])
        return {
            row[0]: _TableSums(points=row[1:1 + MAX_SEATS], won=row[1 + MAX_SEATS:1 + 2 * MAX_SEATS],
                               lost=row[1 + 2 * MAX_SEATS:1 + 3 * MAX_SEATS], money=_money_games(row[-1]))
            for row in cursor.fetchall()
        }


def table_results(tournament, *, closed_only: bool = False, account: dict[int, int] | None = None) -> list[TableResult]:
    """Every table of the tournament's rounds, aggregated from the games' stored outcomes."""
    from tournaments.models import Round, Seat, Table

    rounds = Round.objects.filter(tournament=tournament)
    if closed_only:
        rounds = rounds.filter(status=Round.Status.CLOSED)
    if account is None:
        account, _info = _accounts(tournament)
    tables = {
        pk: (rnd, number, paper)
        for pk, rnd, number, paper in Table.objects.filter(round__in=rounds).values_list(
            "pk", "round__number", "number", "paper_totals").order_by()  # no default ordering: no joins to sort
    }
    seats: dict[int, dict[int, int]] = {pk: {} for pk in tables}
    for table_id, seat, reg_id in Seat.objects.filter(round__in=rounds).values_list(
            "table_id", "number", "registration_id").order_by():
        seats[table_id][seat] = account[reg_id]
    points: dict[int, dict[int, int]] = {pk: {} for pk in tables}
    won: dict[int, dict[int, int]] = {pk: {} for pk in tables}
    lost: dict[int, dict[int, int]] = {pk: {} for pk in tables}
    money: dict[int, list[Money]] = {pk: [] for pk in tables}
    for table_id, sums in _table_sums(tournament, closed_only).items():
        for seat in seats[table_id]:
            points[table_id][seat] = int(sums.points[seat - 1])
            if sums.won[seat - 1] or sums.lost[seat - 1]:
                won[table_id][seat], lost[table_id][seat] = sums.won[seat - 1], sums.lost[seat - 1]
        for number, declarer, dealer, contract, reuegeld, weitergeld in sums.money:
            if reuegeld:
                money[table_id].append(Money(number, declarer, REUEGELD, reuegeld, contract in SOLO_CONTRACTS))
            if weitergeld:  # who took part in the deal pays: at a table of five not the dealer (rules.md 6)
                payers = active_seats(len(seats[table_id]), dealer) if len(seats[table_id]) in (4, 5) \
                    else tuple(seats[table_id])
                money[table_id].extend(Money(number, seat, WEITERGELD, weitergeld) for seat in payers)
    results = []
    for pk, (rnd, number, paper) in sorted(tables.items(), key=lambda kv: (kv[1][0], kv[1][1])):
        seat_points = {seat: points[pk].get(seat, 0) for seat in seats[pk]}
        for seat, total in (paper or {}).items():
            seat_points[int(seat)] = seat_points.get(int(seat), 0) + total
        results.append(TableResult(round=rnd, table=number, seats=seats[pk], points=seat_points,
                                   won_solos=won[pk], lost_solos=lost[pk], money=tuple(money[pk])))
    return results


def standings_compute(tournament, *, closed_only: bool = False) -> tuple[StandingsResult, dict[int, PlayerInfo]]:
    account, info = _accounts(tournament)
    result = compute_standings(table_results(tournament, closed_only=closed_only, account=account),
                               tournament.ruleset, lot_seed=tournament.lot_seed)
    return result, info


def games_marker(tournament) -> str:
    """Which state of the games a snapshot reflects: the newest revision and the paper tables."""
    from tournaments.models import HandRevision, Table

    last_revision = HandRevision.objects.filter(table__round__tournament=tournament).aggregate(m=Max("id"))["m"] or 0
    paper = Table.objects.filter(round__tournament=tournament, paper_totals__isnull=False).count()
    seats = tournament.registrations.filter(substitute_for__isnull=False).count()
    return f"{last_revision}:{paper}:{seats}"


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


@transaction.atomic
def standings_recompute(*, tournament_id: int) -> StandingsSnapshot:
    """Recompute everything from the games and replace the snapshot; running it twice gives the same."""
    from tournaments.models import Tournament

    started = time.perf_counter()
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    marker = games_marker(tournament)
    result, info = standings_compute(tournament)
    data = snapshot_data(result, info)
    values = {"marker": marker, "computed_at": timezone.now(), "data": data,
              "duration_ms": round((time.perf_counter() - started) * 1000)}
    if not _snapshot_update(tournament.pk, values):
        StandingsSnapshot.objects.create(tournament=tournament, **values)
    return StandingsSnapshot(tournament=tournament, **values)


_SNAPSHOT_UPDATE_SQL = f"""
    UPDATE {StandingsSnapshot._meta.db_table} SET marker = %s, computed_at = %s, data = %s, duration_ms = %s
    WHERE tournament_id = %s"""


def _snapshot_update(tournament_id: int, values: dict[str, Any]) -> bool:
    """Overwrite the snapshot without reading the old one back; False if there is none yet.

    On PostgreSQL the document (1.5 MB for 1,000 players over three rounds) is encoded by orjson
    and sent as a parameter of its own: Django's psycopg cursor quotes parameters into the SQL
    text, and quoting and encoding the document cost more than the rest of the write.
    """
    from django.db import connection

    if connection.vendor != "postgresql":
        return bool(StandingsSnapshot.objects.filter(tournament_id=tournament_id).update(**values))
    import orjson
    import psycopg
    from psycopg.types.json import Jsonb

    connection.ensure_connection()
    with psycopg.Cursor(connection.connection) as cursor:  # server-side binding
        cursor.execute(_SNAPSHOT_UPDATE_SQL, [
            values["marker"], values["computed_at"], Jsonb(values["data"], dumps=lambda o: orjson.dumps(o).decode()),
            values["duration_ms"], tournament_id])
        return cursor.rowcount > 0
