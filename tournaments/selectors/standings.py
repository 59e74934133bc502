"""Reads for the standings pages, downloads, prize list and cash list (from the snapshot)."""

import datetime
import functools
import threading
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, NamedTuple

import orjson
from django.db import connection, connections, models
from django.db.models import Count, Exists, Max, OuterRef, Q, Value
from django.db.models.fields.json import KT
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.formats import time_format
from django.utils.translation import gettext

from schafkopfrennen import forget
from schafkopfrennen.meanwhile import statement_meanwhile
from scoring.models import PackedJSONField, PackedRows, StandingsSnapshot
from scoring.rules.cash import CashBalance
from scoring.rules.categories import Entrant, award_categories
from scoring.rules.collation import namesake_suffixes
from scoring.rules.outcome import outcome_from_dict
from scoring.rules.prizes import PrizeSpec, Ranked, split_prizes
from scoring.rules.standings import (
    Money,
    Standing,
    StandingsResult,
    TableResult,
    closed_early,
    compute_standings,
    game_money,
    round_results,
    round_standings,
    table_result,
)
from scoring.rules.table import games_required
from scoring.storage import POINTS_COLUMNS

from ..models import (
    Hand,
    HandRevision,
    Prize,
    PrizeCategory,
    PrizePlan,
    Registration,
    Round,
    Seat,
    Table,
    TableConfirmation,
    Tournament,
)
from ..models.tournament import club_label
from .tables import table_progress

# --- The tables' results and the standings computed from them (the snapshot's writer uses them too) ---


class PlayerInfo(NamedTuple):  # a named tuple: the snapshot's writers make one per player on every change
    registration_id: int
    start_number: int
    name: str
    sort_name: str
    club: str
    substitute_for: str  # name of the player whose seat and points he took over, or ""


class Accounts(dict):
    """Registration id -> the registration holding its points; only substituted ones are kept, any
    other holds his own."""

    def __missing__(self, key: int) -> int:
        return key


def _accounts(substitutions: Iterable[tuple[int, int]]) -> Accounts:
    """From (substitute, whom he substitutes) pairs: each substituted registration -> the last of his chain."""
    successor = {sub_for: pk for pk, sub_for in substitutions}
    account = Accounts()
    for pk in successor:
        key, seen = pk, {pk}
        while key in successor and successor[key] not in seen:
            key = successor[key]
            seen.add(key)
        account[pk] = key
    return account


def _fetched(queryset) -> list[tuple]:
    """The rows of a ``values_list()`` of plain columns (integers, text) as the driver gives them.

    The ORM's own iteration (fetches in chunks of 100, a converter pass per row) cost more CPU than
    the database's work for the full recompute's thousands of rows; none of these columns needs a
    converter on any backend, so the compiled statement's rows are the ORM's rows.
    """
    sql, params = queryset.query.get_compiler(queryset.db).as_sql()
    with connections[queryset.db].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def substitutions(tournament_id: int, *, frozen: bool = False) -> tuple[int, Accounts]:
    """How many substitutes there are, and whose points they hold (a small read: substitutes only).
    ``frozen`` (ruleset ``substitute_points``): nobody takes over anyone's points."""
    pairs = list(
        Registration.objects.filter(tournament_id=tournament_id, substitute_for__isnull=False)
        .values_list("pk", "substitute_for_id")
        .order_by()
    )
    return len(pairs), Accounts() if frozen else _accounts(pairs)


def points_frozen(rules) -> bool:
    """rules.md section 2's option: a leaving player's points are frozen, his substitute plays for the table only."""
    return rules.substitute_points == "frozen"


def player_accounts(tournament_id: int, *, frozen: bool = False) -> tuple[Accounts, dict[int, PlayerInfo]]:
    """registration id -> the registration holding its points (a substitute takes them over, unless ``frozen``)."""
    return player_accounts_of(registration_rows(tournament_id), frozen=frozen)


def unranked_substitutes(info: dict[int, PlayerInfo], rules) -> set[int]:
    """The substitutes who have no rank of their own (ruleset ``substitute_points = frozen``)."""
    return {pk for pk, player in info.items() if player.substitute_for} if points_frozen(rules) else set()


def registration_rows(tournament_id: int) -> list[tuple]:
    """What ``player_accounts_of`` makes the accounts and the players' names of (one read)."""
    return _fetched(
        Registration.objects.filter(tournament_id=tournament_id)
        .values_list(
            "pk",
            "start_number",
            "substitute_for_id",
            "player__first_name",
            "player__last_name",
            "player__club__name",
            "club_name",
        )
        .order_by()
    )


def player_accounts_of(regs: list[tuple], *, frozen: bool = False) -> tuple[Accounts, dict[int, PlayerInfo]]:
    """The accounts and each player's PlayerInfo from ``registration_rows`` (``frozen``: everyone holds his own)."""
    info = {
        pk: _player_info(
            (pk, number, f"{first} {last}".strip(), f"{last}, {first}" if first else last, club_label(said, club), "")
        )
        for pk, number, _sub_for, first, last, club, said in regs
    }
    # namesakes: every list shows their start numbers (and clubs when they differ), from the snapshot's names
    for pk, suffix in namesake_suffixes(
        (p.registration_id, p.name, p.start_number, p.club) for p in info.values()
    ).items():
        info[pk] = info[pk]._replace(name=info[pk].name + suffix, sort_name=info[pk].sort_name + suffix)
    pairs = [(pk, sub_for) for pk, _n, sub_for, *_ in regs if sub_for]
    for pk, sub_for in pairs:  # the few substitutes: whose seat and points they took over
        info[pk] = info[pk]._replace(substitute_for=info[sub_for].name)
    return Accounts() if frozen else _accounts(pairs), info


_player_info = functools.partial(tuple.__new__, PlayerInfo)  # 4,000 at once, without the Python-level __new__


# What a standings row says about its player, in this order (``standing_rows``): PlayerInfo without its id.
IDENTITY = PlayerInfo._fields[1:]


def player_identities(info: dict[int, PlayerInfo]) -> dict[int, tuple]:
    return dict(zip(info, map(_IDENTITY_OF, info.values())))  # 4,000 at once: no Python loop


_IDENTITY_OF = itemgetter(slice(1, None))  # a PlayerInfo's IDENTITY values


def tie_note_row(tiebreak: str, below_start_number: int, below_name: str) -> dict[str, Any]:
    """A standings row's tie note as the snapshot keeps it: which tie-break put him above whom."""
    return {"tiebreak": tiebreak, "below": below_name, "below_start_number": below_start_number}


def standing_rows(
    standings: Iterable[Standing], identity: dict[int, tuple], *, with_round_solos: bool = False
) -> list[dict[str, Any]]:
    """The rows of a standings list as the snapshot and the pages have them; ``identity``: player ->
    his IDENTITY values. The overall list carries ``round_solos`` too (each round's list is ranked from it).

    The snapshot's rows (``with_round_solos``) are encoded and never changed inside: they keep the
    standing's own tuples of round points and solos (encoded as JSON arrays, the same bytes as lists)
    rather than 20,000 copies as lists at 4,000 players; rows read back from the snapshot have lists.
    """
    rows = []
    add = rows.append
    # Unpacked, not read by field name: a full recompute makes 4,000 of these rows.
    for rank, player, points, won, lost, round_points, tie, round_solos in standings:
        number, name, sort_name, club, substitute_for = identity[player]
        note = None
        if tie is not None:
            below = identity[tie.below]
            note = tie_note_row(tie.tiebreak, below[0], below[1])
        row = {
            "rank": rank,
            "registration": player,
            "start_number": number,
            "name": name,
            "sort_name": sort_name,
            "club": club,
            "substitute_for": substitute_for,
            "points": points,
            "won_solos": won,
            "lost_solos": lost,
            "round_points": round_points if with_round_solos else list(round_points),
            "note": note,
        }
        if with_round_solos:
            row["round_solos"] = round_solos
        add(row)
    return rows


def round_rows(
    overall: list[dict[str, Any]], round: int, tiebreaks: Iterable[str], lot_seed: int
) -> list[dict[str, Any]]:
    """One round's list, ranked from the snapshot's overall rows (``scoring.rules.standings.round_standings``)."""
    results = round_results(((r["registration"], r["round_points"], r["round_solos"]) for r in overall), round)
    identity = {r["registration"]: tuple(r[k] for k in IDENTITY) for r in overall}
    return standing_rows(round_standings(results, round, tuple(tiebreaks), lot_seed), identity)


def _tables_and_seats(
    tournament_id: int, *, account: dict[int, int], closed_only: bool = False, table_ids: Iterable[int] | None = None
) -> tuple[Q, dict[int, tuple], dict[int, dict[int, int]]]:
    """The filter on games and seats, table id -> (round, number, paper totals), table id -> seat -> account."""
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
        for pk, rnd, number, paper in Table.objects.filter(tables_where)
        .values_list("pk", "round__number", "number", "paper_totals")
        .order_by()  # no default ordering: no joins to sort
    }
    seats: dict[int, dict[int, int]] = {pk: {} for pk in tables}
    for table_id, seat, reg_id in (
        Seat.objects.filter(where).values_list("table_id", "number", "registration_id").order_by()
    ):
        seats[table_id][seat] = account[reg_id]
    return where, tables, seats


def table_results_by_id(
    tournament_id: int, *, account: dict[int, int], closed_only: bool = False, table_ids: Iterable[int] | None = None
) -> dict[int, TableResult]:
    """table id -> its TableResult, from the stored outcomes of its games (every table, or those given)."""
    where, tables, seats = _tables_and_seats(
        tournament_id, account=account, closed_only=closed_only, table_ids=table_ids
    )
    games: dict[int, list] = defaultdict(list)
    for table_id, number, outcome in Hand.objects.filter(where).values_list("table_id", "number", "outcome").order_by():
        games[table_id].append((number, outcome_from_dict(outcome)))
    results = {}
    for pk, (rnd, number, paper) in tables.items():
        played = sorted(games.get(pk, ()), key=lambda game: game[0])
        totals = {int(seat): total for seat, total in (paper or {}).items()}
        results[pk] = table_result(rnd, number, seats[pk], played, paper_totals=totals)
    return _closed_early(tournament_id, results, account)


def _shared_seats(tournament_id: int, results: dict[int, TableResult], account) -> dict[int, TableResult]:
    """The tables where a substitute sat down mid-round (``Seat.since_game``): the games before are the
    earlier player's (``rules.standings.table_result``'s ``earlier``), read again game by game. One small
    read: the shared seats of the tournament (usually none)."""
    shared: dict[int, dict[int, tuple[int, int]]] = defaultdict(dict)
    for table_id, seat, since, earlier in (
        Seat.objects.filter(round__tournament_id=tournament_id, earlier__isnull=False, since_game__gt=1)
        .values_list("table_id", "number", "since_game", "earlier_id")
        .order_by()
    ):
        if table_id in results:
            shared[table_id][seat] = (since, account.get(earlier, earlier))
    if not shared:
        return results
    games: dict[int, list] = defaultdict(list)
    for table_id, number, outcome in (
        Hand.objects.filter(table_id__in=list(shared))
        .values_list("table_id", "number", "outcome")
        .order_by("table_id", "number")
    ):
        games[table_id].append((number, outcome_from_dict(outcome)))
    paper = dict(Table.objects.filter(pk__in=list(shared)).values_list("pk", "paper_totals"))
    for pk, earlier in shared.items():
        old = results[pk]
        seats = {seat: player for seat, player in old.seats.items() if seat > 0}
        totals = {int(seat): total for seat, total in (paper.get(pk) or {}).items()}
        results[pk] = table_result(old.round, old.table, seats, games[pk], paper_totals=totals, earlier=earlier)
    return results


def _closed_early(tournament_id: int, results: dict[int, TableResult], account) -> dict[int, TableResult]:
    """The tables the organiser closed before their last game, their points as the ruleset says
    (``rules.standings.closed_early``: as played, or scaled to the full round). One small read: the
    closed tables of the tournament (usually none). Seats shared by a substitute are split first."""
    results = _shared_seats(tournament_id, results, account)
    closed = [
        row
        for row in Table.objects.filter(round__tournament_id=tournament_id)
        .exclude(closed_reason="")
        .annotate(played=Count("hands", filter=Q(hands__thrown_in=False)))
        .values_list("pk", "size", "played", "games_with_four")
        .order_by()
        if row[0] in results
    ]
    if closed:
        rules = Tournament.objects.only("rules").get(pk=tournament_id).ruleset
        for pk, size, played, with_four in closed:
            required = with_four or games_required(rules.games_per_round, size)
            results[pk] = closed_early(results[pk], played, required, rules)
    return results


@functools.cache
def _results_sql(closed_only: bool, tables: int = 0, revisions: bool = False) -> str:
    """Per table, in round and table order: its id, round, number and paper totals, who sits on each
    seat, the points per seat summed and the solos won and lost per seat counted (written once), and
    (``revisions``) the id of its newest game revision (one index probe a table).

    Of every table of a tournament, or (``tables``) of that many tables given by id; the filter comes
    three times in the parameters (the tables, their seats, their games). Standard SQL over the
    models' tables, one statement instead of three: the full recompute reads every game, and the
    ORM's converters for the aggregates of thousands of tables and their seats cost more CPU than the
    statement itself."""
    column = {f.name: f.column for f in Hand._meta.concrete_fields}
    h, t, r, s, revision = (m._meta.db_table for m in (Hand, Table, Round, Seat, HandRevision))
    seat_numbers = tuple(POINTS_COLUMNS)
    regs = [f"MAX(CASE WHEN s.number = {seat} THEN s.registration_id END)" for seat in seat_numbers]
    sums = [f"SUM(h.{name})" for name in POINTS_COLUMNS.values()]
    sums += [
        f"COUNT(CASE WHEN h.{column[kind]} = {seat} THEN 1 END)"
        for kind in ("solo_won", "solo_lost")
        for seat in seat_numbers
    ]
    if tables:
        ids = ", ".join(["%s"] * tables)
        where, of_tables = f"t.id IN ({ids})", ids
    else:
        status = " AND r.status = %s" if closed_only else ""
        where = f"r.tournament_id = %s{status}"
        of_tables = f'SELECT t.id FROM "{t}" t JOIN "{r}" r ON r.id = t.round_id WHERE {where}'
    seat_cols = ", ".join(f"s.r{seat}" for seat in seat_numbers)
    sum_cols = ", ".join(f"g.v{index}" for index in range(len(sums)))
    if revisions:
        sum_cols += f', (SELECT MAX(x.id) FROM "{revision}" x WHERE x.table_id = t.id)'
    return (
        f"SELECT t.id, r.number, t.number, t.paper_totals, {seat_cols}, {sum_cols} "
        f'FROM "{t}" t JOIN "{r}" r ON r.id = t.round_id '
        f"LEFT JOIN (SELECT s.table_id, {', '.join(f'{x} AS r{seat}' for x, seat in zip(regs, seat_numbers))} "
        f'FROM "{s}" s WHERE s.table_id IN ({of_tables}) GROUP BY s.table_id) s ON s.table_id = t.id '
        f"LEFT JOIN (SELECT h.{column['table']} AS table_id, {', '.join(f'{x} AS v{i}' for i, x in enumerate(sums))} "
        f'FROM "{h}" h WHERE h.{column["table"]} IN ({of_tables}) GROUP BY h.{column["table"]}) g ON g.table_id = t.id '
        f"WHERE {where} ORDER BY r.number, t.number"
    )


def _parsed(text: str | None, cache: dict) -> dict[int, int]:
    """A game's Reuegeld or Weitergeld ({"3": 50} as text) as seat -> cents; the few distinct texts
    are decoded once (the dicts are shared: nobody changes them)."""
    found = cache.get(text)
    if found is None:
        found = cache[text] = {int(s): c for s, c in orjson.loads(text or "{}").items()}
    return found


_table_result = functools.partial(tuple.__new__, TableResult)  # without the named tuple's Python-level __new__


def table_results_summed(
    tournament_id: int,
    *,
    account: dict[int, int] | Callable[[], dict[int, int]],
    closed_only: bool = False,
    table_ids: Iterable[int] | None = None,
    revisions: dict[int, int] | None = None,
) -> dict[int, TableResult]:
    """Every table's TableResult (or those of ``table_ids``) summed by the database: the same as
    ``table_results_by_id``, in two reads; in round and table order. ``revisions``, if given, gets
    each table's newest game revision (tables without one are left out), read in the same statement
    as its games: the snapshot reflects exactly those. ``account`` may be a function that works the
    accounts out: it is called while the database sums the games (``statement_meanwhile``).

    The full recompute (the repair path, the archive) reads tens of thousands of games: their points
    per seat are summed per table and solos counted per table and seat, beside each table's seats
    (one statement of plain columns, any database: ``_results_sql``), and only the few games that
    cost money (Reuegeld, Weitergeld) are read one by one for the ledger. All of it from the columns
    written with each game's outcome (``scoring.storage.outcome_columns``: points per seat, who won
    or lost a solo, whether the game costs money), plain column conditions, nothing scored again;
    tests/scoring/test_standings_incremental.py checks that both ways agree.
    """
    table_ids = None if table_ids is None else sorted(table_ids)
    if table_ids == []:
        return {}
    if table_ids is None:
        sql = _results_sql(closed_only, revisions=revisions is not None)
        params = [tournament_id, Round.Status.CLOSED.value] if closed_only else [tournament_id]
        hands = Hand.objects.filter(table__round__tournament_id=tournament_id)
        if closed_only:
            hands = hands.filter(table__round__status=Round.Status.CLOSED)
    else:
        sql, params = _results_sql(False, len(table_ids), revisions is not None), table_ids
        hands = Hand.objects.filter(table_id__in=table_ids)
    with statement_meanwhile(sql, params * 3) as summed:
        if callable(account):
            account = account()
        rows = summed().fetchall()
    # Of the paying games only their Reuegeld and Weitergeld, as text decoded here by orjson (a tenth of
    # the time of the JSON field's own; the whole outcome as text cost the database a third more); read
    # while the tables' rows are made into their figures.
    paying_games = (
        hands.filter(pays=True)
        .order_by("table_id", "number")
        .values_list("table_id", "number", KT("outcome__reuegeld"), KT("outcome__weitergeld"), "solo_lost")
    )
    with statement_meanwhile(*paying_games.query.get_compiler(paying_games.db).as_sql()) as paying_rows:
        tables = _table_figures(rows, account, revisions)
        paying = paying_rows().fetchall()
    money: dict[int, list[Money]] = {}
    # A game's Money is the same wherever that game number cost the same: each (number, Reuegeld,
    # Weitergeld, lost solo) is made once (a few hundred of them for thousands of paying games).
    texts: dict = {}
    made: dict[tuple, list[Money]] = {}
    items: list[Money] = []
    last = None
    for table_id, number, reuegeld, weitergeld, solo_lost in paying:
        if table_id != last:
            items = money[table_id] = []
            last = table_id
        found = made.get(key := (number, reuegeld, weitergeld, solo_lost))
        if found is None:
            found = made[key] = game_money(
                number, _parsed(reuegeld, texts), _parsed(weitergeld, texts), solo_lost is not None
            )
        items += found
    no_money = ()
    get_money = money.get
    return _closed_early(
        tournament_id,
        account=account,
        results={
            pk: _table_result(
                (rnd, number, seats, totals, won, lost, tuple(paid) if (paid := get_money(pk)) else no_money)
            )
            for pk, rnd, number, seats, totals, won, lost in tables
        },
    )


def _table_figures(rows: list[tuple], account: dict[int, int], revisions: dict[int, int] | None) -> list[tuple]:
    """Each table's (id, round, number, seats, points per seat, solos won and lost per seat) from the rows
    of ``_results_sql``; ``revisions``, if given, gets each table's newest game revision."""
    get = account.get
    seat_numbers = tuple(POINTS_COLUMNS)  # seats 1 to 5, as the statement's columns come
    tables = []
    add = tables.append
    # 3,000 tables: the usual four seats, won and lost solos as dict displays and plain tests, not loops.
    for (
        pk,
        rnd,
        number,
        paper,
        r1,
        r2,
        r3,
        r4,
        r5,
        p1,
        p2,
        p3,
        p4,
        p5,
        w1,
        w2,
        w3,
        w4,
        w5,
        l1,
        l2,
        l3,
        l4,
        l5,
        *revision,
    ) in rows:
        if revisions is not None and revision and revision[0] is not None:
            revisions[pk] = revision[0]
        if r5 is None and None not in (r1, r2, r3, r4):
            seats = (
                {1: get(r1, r1), 2: get(r2, r2), 3: get(r3, r3), 4: get(r4, r4)}
                if account
                else {1: r1, 2: r2, 3: r3, 4: r4}
            )  # no substitutes: everyone holds his own points
            totals = {1: p1 or 0, 2: p2 or 0, 3: p3 or 0, 4: p4 or 0}
        else:
            seats = {seat: get(reg, reg) for seat, reg in zip(seat_numbers, (r1, r2, r3, r4, r5)) if reg is not None}
            points = (None, p1, p2, p3, p4, p5)
            totals = {seat: points[seat] or 0 for seat in seats}
        if paper:
            for seat, total in (orjson.loads(paper) if isinstance(paper, str) else paper).items():
                totals[int(seat)] += total
        won, lost = {}, {}  # seat -> solos, where he has any
        if w1:
            won[1] = w1
        if w2:
            won[2] = w2
        if w3:
            won[3] = w3
        if w4:
            won[4] = w4
        if w5:
            won[5] = w5
        if l1:
            lost[1] = l1
        if l2:
            lost[2] = l2
        if l3:
            lost[3] = l3
        if l4:
            lost[4] = l4
        if l5:
            lost[5] = l5
        add((pk, rnd, number, seats, totals, won, lost))
    return tables


def table_results(tournament, *, closed_only: bool = False, account: dict[int, int] | None = None) -> list[TableResult]:
    """Every table of the tournament's rounds (in round and table order), from the games' stored outcomes."""
    if account is None:
        account, _info = player_accounts(tournament.pk, frozen=points_frozen(tournament.ruleset))
    results = table_results_summed(tournament.pk, account=account, closed_only=closed_only)
    return sorted(results.values(), key=lambda t: (t.round, t.table))


def standings_compute(tournament, *, closed_only: bool = False) -> tuple[StandingsResult, dict[int, PlayerInfo]]:
    rules = tournament.ruleset
    account, info = player_accounts(tournament.pk, frozen=points_frozen(rules))
    result = compute_standings(
        table_results(tournament, closed_only=closed_only, account=account),
        rules,
        lot_seed=tournament.lot_seed,
        unranked=unranked_substitutes(info, rules),
    )
    return result, info


def _substitutes(tournament_id: int) -> int:
    return Registration.objects.filter(tournament_id=tournament_id, substitute_for__isnull=False).count()


def games_marker(tournament) -> str:
    """Which state of the games a snapshot reflects: the newest revision and the substitutes.

    Reads every revision of the tournament: for the catch-up and for tests; pages ask the cheaper
    ``revisions_after``.
    """
    last = HandRevision.objects.filter(table__round__tournament_id=tournament.pk).aggregate(m=Max("id"))["m"] or 0
    return f"{last}:{_substitutes(tournament.pk)}"


def revisions_after(tournament_id: int, revision: int) -> bool:
    """Whether a change of this tournament's games is newer than ``revision`` (reads only newer rows)."""
    return HandRevision.objects.filter(pk__gt=revision, table__round__tournament_id=tournament_id).exists()


def seating_layout(tournament_id: int) -> list[int]:
    """Which tables and seats there are: a redraw, a seat swap or a new round changes it."""
    row = (
        Seat.objects.filter(round__tournament_id=tournament_id)
        .order_by()
        .aggregate(
            seats=Count("id"), top_seat=Max("id"), tables=Count("table_id", distinct=True), top_table=Max("table_id")
        )
    )
    return [row["seats"], row["top_seat"] or 0, row["tables"], row["top_table"] or 0]


def standings_is_current(tournament, snapshot: StandingsSnapshot | None = None) -> bool:
    """No game revision is newer than the snapshot (one indexed read of the newest revisions).

    ``snapshot``: the tournament's snapshot when the caller has read it already.
    """
    if snapshot is None:
        snapshot = getattr(tournament, "standings_snapshot", None)
    return snapshot is not None and not revisions_after(tournament.pk, snapshot.revision)


def tournaments_lagging(changed_before) -> list[int]:
    """The running tournaments with a game revision made before ``changed_before`` that their snapshot
    does not count (no snapshot: any revision); one statement, for a worker's look every few seconds."""
    missed = HandRevision.objects.filter(
        table__round__tournament_id=OuterRef("pk"),
        at__lt=changed_before,
        pk__gt=Coalesce(OuterRef("standings_snapshot__revision"), Value(0)),
    )
    return list(
        Tournament.objects.filter(status=Tournament.Status.RUNNING)
        .filter(Exists(missed))
        .order_by("pk")
        .values_list("pk", flat=True)
    )


# --- The pages' reads of the snapshot ---


PAGE_SIZE = 50  # rows per page of the public standings (the projector scrolls the whole list)
# Games waiting this long to be counted are no longer "being counted": the list says plainly since when
# it is behind (a chain counts a game within a quarter of a second; a worker catches up within seconds).
STALE_AFTER = datetime.timedelta(minutes=1)


def stale_note(waiting_since) -> str:
    """The sentence that says the standings are behind, since the first game not counted (``waiting_since``),
    once that has waited longer than STALE_AFTER; '' otherwise. For the page, the projector and the CSV."""
    if waiting_since is None or timezone.now() - waiting_since <= STALE_AFTER:
        return ""
    return gettext("Standings as of %(time)s – the latest games have not been counted yet.") % {
        "time": time_format(timezone.localtime(waiting_since), "H:i")
    }


@dataclass(frozen=True)
class StandingsView:
    rows: Sequence[dict[str, Any]]  # a page of them (a list), or the whole list (PackedRows)
    round: int | None  # None = overall
    rounds: list[int]
    computed_at: Any
    current: bool  # False: newer games are still being counted (or the worker is behind)
    exists: bool
    page: int = 1
    pages: int = 1
    total: int = 0  # rows before paging (after a search)
    me: dict[str, Any] | None = None  # the viewer's own row (from his player page), wherever it stands
    version: int = 0
    waiting_since: Any = None  # when the first game not counted was entered (None: current)
    short: dict[int, str] = field(default_factory=dict)  # start number -> his fewer games (``short_rounds``)

    @property
    def stale_note(self) -> str:
        return stale_note(self.waiting_since)


def _snapshot(tournament) -> StandingsSnapshot | None:
    return StandingsSnapshot.objects.filter(tournament=tournament).first()


@functools.cache
def _state_sql(vendor: str) -> str:
    """One statement for the standings' poll token; standard SQL over the models' tables, written once."""
    t, s, r, tb, c, h = (
        m._meta.db_table for m in (Tournament, StandingsSnapshot, Round, Table, TableConfirmation, HandRevision)
    )
    rounds = f'SELECT COUNT(*) FROM "{r}" r WHERE r.tournament_id = t.id'
    of_tournament = (
        f'JOIN "{tb}" tb ON tb.id = x.table_id JOIN "{r}" r ON r.id = tb.round_id WHERE r.tournament_id = t.id'
    )
    return (
        f"SELECT t.id, t.status, t.standings_public, s.version, s.computed_at, s.id, s.revision, "
        f"({rounds} AND r.status = 'published'), ({rounds} AND r.status = 'closed'), "
        f"(SELECT COUNT(*) FROM \"{c}\" x {of_tournament} AND r.status = 'published'), "
        f'(SELECT COUNT(*) FROM "{tb}" x JOIN "{r}" r ON r.id = x.round_id WHERE r.tournament_id = t.id '
        f"AND x.closed_reason > ''), "
        f'CASE WHEN (SELECT MAX(x.id) FROM "{h}" x) <= s.revision THEN NULL '
        f'ELSE (SELECT x.at FROM "{h}" x {of_tournament} AND x.id > s.revision ORDER BY x.id LIMIT 1) END '
        f'FROM "{t}" t LEFT JOIN "{s}" s ON s.tournament_id = t.id WHERE t.'
    )


def _aware(value: Any) -> Any:
    """A timestamp read by plain SQL, as the ORM reads it: PostgreSQL gives an aware datetime, SQLite a
    naive one (or text) in UTC, which the ORM's converter makes aware in the connection's time zone."""
    if isinstance(value, str):
        value = parse_datetime(value)
    if value is not None and timezone.is_naive(value):
        value = timezone.make_aware(value, connection.timezone)
    return value


class StandingsPoll(NamedTuple):
    """What a standings page may reuse of its poll's read (``standings_state``): whether newer games wait
    (and since when), and the snapshot's identity (no snapshot: ``snapshot_id`` None)."""

    current: bool
    tournament_id: int
    snapshot_id: int | None
    version: int | None
    revision: int | None
    computed_at: Any
    waiting_since: Any = None
    # when the token changes without a commit, as games waiting turn stale (``polling.UnchangedPolls``)
    recheck_after: Any = None

    def snapshot(self) -> StandingsSnapshot | None:
        """The snapshot without its documents (what ``standings_view`` reads of it)."""
        return (
            None
            if self.snapshot_id is None
            else StandingsSnapshot(
                pk=self.snapshot_id,
                tournament_id=self.tournament_id,
                version=self.version,
                revision=self.revision,
                computed_at=self.computed_at,
            )
        )


def standings_state(
    slug: str | None = None, *, tournament_id: int | None = None
) -> tuple[str, Any, StandingsPoll] | None:
    """What the public standings of a tournament show follows from this token (None: no such tournament).

    One small read, never the snapshot's document: the tournament with its snapshot's version, what
    the progress line counts (rounds published and closed, the round being played's confirmations,
    tables closed with a reason), and whether a game revision is newer than the snapshot: asked of
    this tournament's tables only when the newest revision of all is newer (one index probe while
    nothing is entered, as between rounds: 3,000 probes at 4,000 players otherwise). Plain SQL: every phone in the
    hall sends this every 20 seconds, and building the ORM query cost more than running it.
    """
    with connection.cursor() as cursor:
        if tournament_id is not None:
            cursor.execute(_state_sql(connection.vendor) + "id = %s", [tournament_id])
        else:
            cursor.execute(_state_sql(connection.vendor) + "slug = %s", [slug])
        row = cursor.fetchone()
    if row is None:
        return None
    (
        pk,
        status,
        public,
        version,
        computed_at,
        snapshot_id,
        revision,
        published,
        closed,
        confirmed,
        with_reason,
        waiting,
    ) = row
    waiting = _aware(waiting)  # the first game the snapshot does not count: when it was entered
    current = version is not None and waiting is None
    progress = f"{published or 0}.{closed or 0}.{confirmed or 0}.{with_reason or 0}"
    computed_at = _aware(computed_at)
    stale = bool(stale_note(waiting))
    counted = "s" if stale else int(current)  # s: behind for longer than STALE_AFTER
    return (
        f"{version}-{counted}-{int(bool(public))}-{status}-{progress}",
        computed_at,
        StandingsPoll(
            current,
            pk,
            snapshot_id,
            version,
            revision,
            computed_at,
            waiting,
            None if waiting is None or stale else waiting + STALE_AFTER,
        ),
    )


_LISTS: dict[tuple, tuple[PackedRows, list[int]]] = {}  # a few lists read, newest last
_LISTS_KEPT = 8
_LISTS_LOCK = threading.Lock()
forget.keeps(_LISTS.clear)  # its lists name the players: an erase empties it


@functools.cache
def _overall_sql() -> str:
    meta = StandingsSnapshot._meta
    overall, index = (meta.get_field(name).column for name in ("overall", "overall_index"))
    return f'SELECT s."{overall}", s."{index}" FROM "{meta.db_table}" s WHERE s."{meta.pk.column}" = %s'


def _overall_rows(snapshot_id: int) -> PackedRows:
    """The snapshot's overall list as stored, decoded as far as it is read (``PackedRows``)."""
    with connection.cursor() as cursor:
        cursor.execute(_overall_sql(), [snapshot_id])
        raw, index = cursor.fetchone()
    return PackedRows.read(raw, None if index is None else PackedJSONField._loads(index))


def _snapshot_list(snapshot: StandingsSnapshot, round: int | None, tournament) -> tuple[PackedRows, list[int]]:
    """The overall or one round's list of a snapshot, and the rounds there are; read (a round's list:
    ranked from the overall one) once per process, the overall list decoded only as far as it is read.

    A snapshot is never changed in place (every write gives it a new version and time), so its lists
    are kept by that identity: the phones polling between two writes share one decoded list instead
    of reading and decoding it (a third of a megabyte at 1,000 players) for every poll. Callers must
    not change the rows.
    """
    key = (snapshot.pk, snapshot.version, snapshot.revision, snapshot.computed_at, round)
    found = _LISTS.get(key)
    if found is not None:
        return found
    if round is None:
        rows = _overall_rows(snapshot.pk)
        rounds = list(range(1, len(rows[0]["round_points"]) + 1)) if rows else []
    else:
        overall, rounds = _snapshot_list(snapshot, None, tournament)
        rows = PackedRows.of(
            round_rows(overall, round, tournament.ruleset.tiebreaks, tournament.lot_seed) if round in rounds else []
        )
    with _LISTS_LOCK:  # a threaded server (runserver) shares the dict between requests
        _LISTS[key] = rows, rounds
        while len(_LISTS) > _LISTS_KEPT:
            _LISTS.pop(next(iter(_LISTS)))
    return rows, rounds


def standings_view(
    tournament,
    *,
    round: int | None = None,
    query: str = "",
    page: int | None = None,
    me: int | None = None,
    paged: bool = False,
    poll: StandingsPoll | None = None,
    start_numbers: set[int] | None = None,
) -> StandingsView:
    """The overall or one round's standings from the snapshot, searched and (``paged``) one page of them.

    Reads only the list shown (the overall list or the rounds'), not the ledger and the rest.
    ``poll``: what the poll's token (``standings_state``) read a moment ago, the snapshot and whether
    newer games wait; without it both are read. ``start_numbers``: only these players' rows (a venue's list
    of the joint standings: each keeps his place in the whole field).
    """
    if poll is None:
        snapshot = StandingsSnapshot.objects.filter(tournament=tournament).defer("overall", "data", "parts").first()
        waiting = None if snapshot is None else _waiting_since(tournament.pk, snapshot.revision)
        current = snapshot is not None and waiting is None
    else:
        snapshot, current, waiting = poll.snapshot(), poll.current, poll.waiting_since
    if snapshot is None:
        return StandingsView([], round, [], None, False, False)
    rows, rounds = _snapshot_list(snapshot, round, tournament)
    mine = rows.by_number(me) if me is not None else None
    if start_numbers is not None:
        rows = [r for r in rows if r["start_number"] in start_numbers]
    query = query.strip().casefold()
    if query:
        rows = [r for r in rows if query in r["name"].casefold() or query == str(r["start_number"])]
    total = len(rows)
    pages = max(1, -(-total // PAGE_SIZE)) if paged else 1
    if paged:
        page = min(max(page or 1, 1), pages)
        rows = rows[(page - 1) * PAGE_SIZE : page * PAGE_SIZE]
    return StandingsView(
        rows,
        round,
        rounds,
        snapshot.computed_at,
        current,
        True,
        page=page or 1,
        pages=pages,
        total=total,
        me=mine,
        version=snapshot.version,
        waiting_since=waiting,
        short=short_rounds(tournament, round),
    )


def _waiting_since(tournament_id: int, revision: int):
    """When the first game revision newer than ``revision`` was made (None: none is)."""
    return (
        HandRevision.objects.filter(pk__gt=revision, table__round__tournament_id=tournament_id)
        .order_by("pk")
        .values_list("at", flat=True)
        .first()
    )


def short_rounds(tournament, round: int | None = None) -> dict[int, str]:
    """Start number -> "Runde 1: 24 von 32 Spielen (Tisch 7: <reason>)" for every player (the holder of the
    seat's points) whose table the organiser closed before its last game (rules.md section 2), in every
    round or in ``round``; the standings mark his row with it. One small read when no table was closed."""
    tables = Table.objects.filter(round__tournament=tournament).exclude(closed_reason="")
    if round is not None:
        tables = tables.filter(round__number=round)
    rules = tournament.ruleset
    short = {}
    for pk, number, table, size, played, reason, with_four in (
        tables.annotate(played=Count("hands", filter=Q(hands__thrown_in=False)))
        .values_list("pk", "round__number", "number", "size", "played", "closed_reason", "games_with_four")
        .order_by("round__number", "number")
    ):
        required = with_four or games_required(rules.games_per_round, size)
        if played < required:
            facts = {"round": number, "played": played, "required": required, "table": table, "reason": reason}
            short[pk] = (
                gettext(
                    "Round %(round)d: %(played)d of %(required)d games, points scaled to the round "
                    "(table %(table)d: %(reason)s)"
                )
                if rules.closed_table_points == "scaled"
                else gettext("Round %(round)d: %(played)d of %(required)d games (table %(table)d: %(reason)s)")
            ) % facts
    marks: dict[int, list[str]] = defaultdict(list)
    if short:
        _count, account = substitutions(tournament.pk, frozen=points_frozen(rules))
        seats = list(Seat.objects.filter(table_id__in=short).values_list("table_id", "registration_id").order_by())
        numbers = dict(
            Registration.objects.filter(pk__in={account[reg] for _t, reg in seats}).values_list("pk", "start_number")
        )
        for table_id, reg in sorted(seats, key=lambda seat: list(short).index(seat[0])):
            marks[numbers[account[reg]]].append(short[table_id])
    for number, text in left_marks(tournament).items():
        marks[number].insert(0, text)
    return {number: "; ".join(texts) for number, texts in marks.items()}


def left_marks(tournament) -> dict[int, str]:
    """Start number -> "ausgeschieden in Runde 2 (Punkte eingefroren)" for every player who left and keeps a
    row of his own with fewer games: whose substitute plays for the table only (ruleset
    ``substitute_points = frozen``), or who left a table of five that played on with four. One small read."""
    frozen = points_frozen(tournament.ruleset)
    at_five = Q(
        left_during_round=True,
        seats__table__seat_left__isnull=False,
        seats__number=models.F("seats__table__seat_left"),
        seats__round__number=models.F("withdrawn_after_round"),
    )
    leavers = Registration.objects.filter(
        Q(substituted_by__isnull=False) | at_five if frozen else at_five,
        tournament=tournament,
        withdrawn_after_round__gte=1,
    )
    marks = {}
    for number, after, during, substituted in (
        leavers.values_list("start_number", "withdrawn_after_round", "left_during_round", "substituted_by")
        .distinct()
        .order_by()
    ):
        text = (gettext("left in round %(round)d") if during else gettext("left after round %(round)d")) % {
            "round": after
        }
        marks[number] = text + (" " + gettext("(points frozen)") if frozen and substituted else "")
    return marks


@dataclass(frozen=True)
class PrizeRow:
    label: str  # "1." or "last"
    place: int | None
    amount_cents: int | None
    goods: str
    winner: dict[str, Any] | None  # the first holder of the place (several when the place is shared)
    holders: tuple[dict[str, Any], ...] = ()
    by_lot: bool = False  # a lot decided between the winner and a player with the same points (lot_decided)


@dataclass(frozen=True)
class AwardRow:
    """What one player receives, after shared places are split (scoring.rules.prizes)."""

    rank: int
    start_number: int
    name: str
    club: str
    points: int
    amount_cents: int
    goods: str
    shared_with: int  # 1: his place alone
    places: tuple[int, ...]
    registration: int = 0
    by_lot: bool = False  # his place and a neighbour's with the same points were decided by lot
    handed_over: bool = False  # the desk ticked it at the prize-giving (Registration.prize_handed_over)
    category: str = ""  # a category prize's name ("": the overall prize list)
    chosen: str = ""  # what he took from the prize table when called


@dataclass(frozen=True)
class PrizeList:
    entry_fees_cents: int  # every player's fee, paid or still owed
    entry_share_cents: int
    pot_share_cents: int
    sponsored_cents: int
    pool_cents: int
    prizes: list[PrizeRow]
    assigned_cents: int  # the money prizes as set
    awards: list[AwardRow] = field(default_factory=list)
    awarded_cents: int = 0  # the money that goes to players
    rounding_cents: int = 0  # cents of shared places that did not divide
    fees_owed_cents: int = 0
    handed_over_cents: int = 0  # the money prizes the desk ticked as handed over (awarded_cents: as planned)
    costs_cents: int = 0  # the prize plan's costs, taken from the pool before the prizes
    category_awards: list[AwardRow] = field(default_factory=list)  # in the organiser's order of the categories

    @property
    def category_cents(self) -> int:
        return sum(a.amount_cents for a in self.category_awards)

    @property
    def paid_cents(self) -> int:
        """All money prizes: the overall list's and the categories'."""
        return self.awarded_cents + self.category_cents

    @property
    def handed_over_any(self) -> bool:
        """The prize-giving has begun: the plan is no longer applied."""
        return any(a.handed_over for a in [*self.awards, *self.category_awards])

    @property
    def winners(self) -> set[int]:
        """Registrations that receive something (overall or in a category)."""
        return {a.registration for a in self.awards} | {a.registration for a in self.category_awards}

    @property
    def leftover_cents(self) -> int:
        """What stays in the prize pool (negative: the prizes need more than the pool holds)."""
        return self.pool_cents - self.paid_cents

    @property
    def shared(self) -> bool:
        return any(a.shared_with > 1 for a in self.awards)


def default_prize_places(tournament) -> list[int | None]:
    """DEFAULT: as many prizes as tables in round 1, the last of them for the last place."""
    first = tournament.rounds.filter(number=1).first()
    tables = first.tables.count() if first else 0
    return [*range(1, tables), None] if tables else []


@dataclass(frozen=True)
class EntryFees:
    due: dict[int, bool]  # registration id -> paid?
    paid_cents: int
    owed_cents: int

    @property
    def total_cents(self) -> int:
        return self.paid_cents + self.owed_cents


def entry_fees(tournament) -> EntryFees:
    """Who owes the entry fee: whoever paid, checked in or sat at a table (withdrawn before the start: nobody;
    a substitute who took over a paid seat without a fee of his own: nobody)."""
    seated = set(Seat.objects.filter(round__tournament=tournament).values_list("registration_id", flat=True))
    due = {}
    for pk, paid, checked_in, withdrawn, fee_due in tournament.registrations.values_list(
        "pk", "paid", "checked_in", "withdrawn_after_round", "fee_due"
    ):
        if not fee_due:
            continue
        if paid or pk in seated or (checked_in and withdrawn != 0):
            due[pk] = paid
    fee = tournament.entry_fee_cents
    paid_count = sum(due.values())
    return EntryFees(due=due, paid_cents=paid_count * fee, owed_cents=(len(due) - paid_count) * fee)


def lot_tie_text() -> str:
    """What a list says beside a player whose place a lot decided: the one home of that wording."""
    return gettext("tie – decided by lot")


def lot_decided(overall: Iterable[dict[str, Any]]) -> set[int]:
    """Start numbers of the players whose place a lot decided against another with the same points: the
    one placed above by lot and the one below him (the standings' tie notes, ``tie_note_row``)."""
    numbers: set[int] = set()
    for row in overall:
        note = row.get("note")
        if note and note["tiebreak"] == "lot":
            numbers.update((row["start_number"], note["below_start_number"]))
    return numbers


def prize_list(tournament) -> PrizeList:
    snapshot = _snapshot(tournament)
    overall = snapshot.overall if snapshot else []
    pot = snapshot.data["pot_cents"] if snapshot else 0
    fees = entry_fees(tournament)
    entry_share = fees.total_cents * tournament.payout_percent // 100
    prizes = list(Prize.objects.filter(tournament=tournament))
    costs = PrizePlan.objects.filter(tournament=tournament).values_list("costs_cents", flat=True).first() or 0
    if not prizes:
        prizes = [Prize(tournament=tournament, place=p) for p in default_prize_places(tournament)]
    by_lot = lot_decided(overall)
    rows = []
    for prize in prizes:
        if prize.place is None:
            holders = [r for r in overall if overall and r["rank"] == overall[-1]["rank"]]
            label = "last"
        else:
            held = overall[prize.place - 1] if len(overall) >= prize.place else None
            holders = [r for r in overall if held and r["rank"] == held["rank"]]
            label = f"{prize.place}."
        rows.append(
            PrizeRow(
                label,
                prize.place,
                prize.amount_cents,
                prize.goods,
                holders[0] if holders else None,
                tuple(holders),
                by_lot=any(h["start_number"] in by_lot for h in holders),
            )
        )
    split = split_prizes(
        [Ranked(r["registration"], r["rank"]) for r in overall],
        [PrizeSpec(p.place, p.amount_cents, p.goods) for p in prizes],
        lot_seed=tournament.lot_seed,
    )
    by_registration = {r["registration"]: r for r in overall}
    handed = dict(tournament.registrations.filter(prize_handed_over=True).values_list("pk", "prize_chosen"))
    awards = [
        AwardRow(
            rank=a.rank,
            start_number=by_registration[a.player]["start_number"],
            name=name_with_substitute(
                by_registration[a.player]["name"], by_registration[a.player].get("substitute_for") or ""
            ),
            club=by_registration[a.player].get("club", ""),
            points=by_registration[a.player]["points"],
            amount_cents=a.amount_cents,
            goods=a.goods,
            shared_with=a.shared_with,
            places=a.places,
            registration=a.player,
            by_lot=by_registration[a.player]["start_number"] in by_lot,
            handed_over=a.player in handed,
            chosen=handed.get(a.player, ""),
        )
        for a in split.awards
    ]
    category_awards = _category_awards(tournament, overall, by_registration, handed, awards)
    return PrizeList(
        category_awards=category_awards,
        entry_fees_cents=fees.total_cents,
        entry_share_cents=entry_share,
        pot_share_cents=pot,
        sponsored_cents=tournament.sponsored_cents,
        pool_cents=max(0, entry_share + pot + tournament.sponsored_cents - costs),
        costs_cents=costs,
        prizes=rows,
        assigned_cents=sum(p.amount_cents or 0 for p in rows),
        awards=awards,
        awarded_cents=split.awarded_cents,
        rounding_cents=split.rounding_cents,
        fees_owed_cents=fees.owed_cents,
        handed_over_cents=sum(a.amount_cents for a in [*awards, *category_awards] if a.handed_over),
    )


def _category_awards(tournament, overall, by_registration, handed, awards) -> list[AwardRow]:
    """The category prizes (scoring.rules.categories) after the overall list, one prize per player unless the plan
    allows both."""
    categories = list(PrizeCategory.objects.filter(tournament=tournament))
    if not categories or not overall:
        return []
    facts = {
        pk: (year, gender, local)
        for pk, year, gender, local in tournament.registrations.values_list("pk", "birth_year", "gender", "local")
    }
    entrants = [Entrant(r["registration"], r["rank"], *facts.get(r["registration"], (None, "", None))) for r in overall]
    allow_both = PrizePlan.objects.filter(tournament=tournament, categories_allow_both=True).exists()
    names = {str(c.pk): c.name for c in categories}
    rows = []
    for a in award_categories(
        entrants,
        [c.rule for c in categories],
        year=tournament.date.year,
        lot_seed=tournament.lot_seed,
        already_awarded={w.registration for w in awards},
        allow_both=allow_both,
    ):
        row = by_registration[a.player]
        rows.append(
            AwardRow(
                rank=a.places[0],
                start_number=row["start_number"],
                name=name_with_substitute(row["name"], row.get("substitute_for") or ""),
                club=row.get("club", ""),
                points=row["points"],
                amount_cents=a.amount_cents,
                goods=a.goods,
                shared_with=a.shared_with,
                places=a.places,
                registration=a.player,
                handed_over=a.player in handed,
                category=names[a.category],
                chosen=handed.get(a.player, ""),
            )
        )
    return rows


@dataclass
class CashRow:
    start_number: int
    name: str
    entry_fee_cents: int = 0  # his fee (0: none due, he did not play)
    fee_paid: bool = True
    reuegeld_cents: int = 0
    weitergeld_cents: int = 0
    payout_cents: int = 0  # what he receives as Tischbester (positive)
    club: str = ""

    @property
    def fee_owed_cents(self) -> int:
        return 0 if self.fee_paid else self.entry_fee_cents

    @property
    def owes_cents(self) -> int:
        """Still to pay at the desk (negative: he receives): an unpaid fee, Reuegeld, Weitergeld, less his payout."""
        return self.fee_owed_cents + self.reuegeld_cents + self.weitergeld_cents - self.payout_cents


@dataclass
class CashList(CashBalance):
    rows: list[CashRow]
    tischbeste: list[dict[str, Any]]
    entry_fees_cents: int  # every fee due, paid or owed
    reuegeld_cents: int
    weitergeld_cents: int
    payouts_cents: int
    pot_cents: int
    club_share_cents: int  # entry fees not for the prize pool
    computed_at: Any = None
    current: bool = True
    totals: dict[str, int] = field(default_factory=dict)
    fees_owed_cents: int = 0
    sponsored_cents: int = 0
    prizes_cents: int = 0  # money prizes that go to players
    pool_left_cents: int = 0  # what the prizes leave in the pool
    costs_cents: int = 0  # the prize plan's costs paid from the pool

    @property
    def to_pay_cents(self) -> int:
        return sum(r.owes_cents for r in self.rows)


def cash_list(tournament) -> CashList:
    """What each player owes and receives; totals that balance (fees + Reuegeld/Weitergeld in = prizes +
    Tischbeste out + what the club keeps)."""
    snapshot = _snapshot(tournament)
    data = snapshot.data if snapshot else {"money": {}, "tischbeste": [], "pot_cents": 0}
    fees = entry_fees(tournament)
    rows: dict[int, CashRow] = {}
    for reg in tournament.registrations.select_related("player__club", "substitute_for__player").order_by(
        "start_number"
    ):
        due = reg.pk in fees.due
        replaced = reg.substitute_for.player.name if reg.substitute_for else ""
        rows[reg.start_number] = CashRow(
            reg.start_number,
            name_with_substitute(reg.player.name, replaced),
            entry_fee_cents=tournament.entry_fee_cents if due else 0,
            fee_paid=fees.due.get(reg.pk, True),
            club=reg.club_label,
        )
    sums: dict[str, int] = defaultdict(int)
    for number, (reuegeld, weitergeld, payout) in data["money"].items():
        row = rows[int(number)]
        row.reuegeld_cents += reuegeld
        row.weitergeld_cents += weitergeld
        row.payout_cents += payout
        sums["reuegeld"] += reuegeld
        sums["weitergeld"] += weitergeld
        sums["payout"] -= payout
    total = fees.total_cents
    prizes = prize_list(tournament)
    return CashList(
        rows=list(rows.values()),
        tischbeste=data["tischbeste"],
        entry_fees_cents=total,
        reuegeld_cents=sums["reuegeld"],
        weitergeld_cents=sums["weitergeld"],
        payouts_cents=-sums["payout"],
        pot_cents=data["pot_cents"],
        club_share_cents=total - total * tournament.payout_percent // 100,
        computed_at=snapshot.computed_at if snapshot else timezone.now(),
        current=snapshot is not None and standings_is_current(tournament, snapshot),
        fees_owed_cents=fees.owed_cents,
        sponsored_cents=tournament.sponsored_cents,
        prizes_cents=prizes.paid_cents,
        pool_left_cents=prizes.leftover_cents,
        costs_cents=prizes.entry_share_cents + prizes.pot_share_cents + prizes.sponsored_cents - prizes.pool_cents,
    )


TIEBREAK_REASONS = {
    "won_solos": lambda: gettext("more won solos"),
    "lost_solos": lambda: gettext("fewer lost solos"),
    "last_round": lambda: gettext("better last round"),
    "lot": lambda: gettext("by lot"),
    "shared": lambda: gettext("shared place"),
}


def name_with_substitute(name: str, substitute_for: str) -> str:
    """ "Quirin Ächter (für Xaver Bräu)": a row of a player who took over another's seat, on every list that
    is not HTML (the pages say the same in ``standings/_row.html``, with the very same words)."""
    return f"{name} ({gettext('for %(name)s') % {'name': substitute_for}})" if substitute_for else name


def tie_note(note) -> str:
    """ "vor Huber: mehr gewonnene Soli" """
    if not note:
        return ""
    reason = TIEBREAK_REASONS.get(note["tiebreak"], lambda: note["tiebreak"])()
    if note["tiebreak"] == "shared":
        return gettext("shares the place with %(name)s") % {"name": note["below"]}
    return gettext("ahead of %(name)s: %(reason)s") % {"name": note["below"], "reason": reason}


@dataclass(frozen=True)
class TournamentProgress:
    """Where the evening stands, for the standings' status line and the projector."""

    state: str  # before | running (a round is being played) | between (after a round) | final
    round: int  # the round being played, or the last one closed
    rounds: int  # rounds the tournament plays
    tables_done: int = 0
    tables_total: int = 0

    @property
    def provisional(self) -> bool:
        return self.state in ("running", "between")


def tournament_progress(tournament) -> TournamentProgress:
    planned = tournament.ruleset.rounds
    if tournament.status == Tournament.Status.FINISHED:
        return TournamentProgress("final", planned, planned)
    playing = tournament.rounds.filter(status=Round.Status.PUBLISHED).order_by("-number").first()
    if playing is not None:
        playing.tournament = tournament
        tables = table_progress(playing)
        return TournamentProgress("running", playing.number, planned, sum(1 for t in tables if t.complete), len(tables))
    closed = tournament.rounds.filter(status=Round.Status.CLOSED).order_by("-number").first()
    if closed is not None:
        return TournamentProgress("between", closed.number, planned)
    return TournamentProgress("before", 0, planned)


def podium(tournament, places: int = 3) -> list[tuple[int, list[dict[str, Any]]]]:
    """The winners by place, shared places together: [(1, [row, row]), (3, [row])]."""
    snapshot = _snapshot(tournament)
    steps: dict[int, list[dict[str, Any]]] = {}
    for row in snapshot.overall if snapshot else []:
        if row["rank"] > places:
            break
        steps.setdefault(row["rank"], []).append(row)
    return sorted(steps.items())
