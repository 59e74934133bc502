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


# One pass over seats and games gives each seat's registration, points and won and lost solos as
# declarer. Reading one key of each game's points per seat is as fast as a plain SUM ... GROUP BY
# over the same points (expanding every game's JSON object with jsonb_each took twice as long at
# 36,000 games, and separate queries for seats and solos scanned the games again).
_SEATS_SQL = """
    SELECT s.table_id, s.number, s.registration_id, COALESCE(SUM({value}), 0),
           COUNT(h.id) FILTER (WHERE {solo} AND h.declarer_won),
           COUNT(h.id) FILTER (WHERE {solo} AND NOT h.declarer_won)
    FROM tournaments_seat s
    JOIN tournaments_table t ON t.id = s.table_id JOIN tournaments_round r ON r.id = t.round_id
    LEFT JOIN tournaments_hand h ON h.table_id = s.table_id
    WHERE r.tournament_id = %s AND (%s = 0 OR r.status = 'closed')
    GROUP BY s.table_id, s.number, s.registration_id"""
_SEAT_POINTS_VALUE = {
    "postgresql": "(h.points ->> s.number::text)::int",
    "sqlite": """CAST(json_extract(h.points, '$."' || s.number || '"') AS INTEGER)""",
}
_SOLO = "h.declarer = s.number AND h.contract IN ({})".format(", ".join(f"'{c}'" for c in SOLO_CONTRACTS))


def _seat_rows(tournament, closed_only: bool) -> list[tuple[int, int, int, int, int, int]]:
    """(table id, seat, registration id, points, won solos, lost solos) for every seat."""
    from django.db import connection

    sql = _SEATS_SQL.format(value=_SEAT_POINTS_VALUE[connection.vendor], solo=_SOLO)
    with connection.cursor() as cursor:
        cursor.execute(sql, [tournament.pk, int(closed_only)])
        return cursor.fetchall()


def table_results(tournament, *, closed_only: bool = False, account: dict[int, int] | None = None) -> list[TableResult]:
    """Every table of the tournament's rounds, aggregated from the games' stored outcomes."""
    from django.db.models import Q

    from tournaments.models import Hand, Round, Table

    rounds = Round.objects.filter(tournament=tournament)
    if closed_only:
        rounds = rounds.filter(status=Round.Status.CLOSED)
    if account is None:
        account, _info = _accounts(tournament)
    tables = {
        pk: (rnd, number, paper)
        for pk, rnd, number, paper in Table.objects.filter(round__in=rounds).values_list(
            "pk", "round__number", "number", "paper_totals")
    }
    seats: dict[int, dict[int, int]] = {pk: {} for pk in tables}
    points: dict[int, dict[int, int]] = {pk: {} for pk in tables}
    won: dict[int, dict[int, int]] = {pk: {} for pk in tables}
    lost: dict[int, dict[int, int]] = {pk: {} for pk in tables}
    for table_id, seat, reg_id, seat_points, n_won, n_lost in _seat_rows(tournament, closed_only):
        seats[table_id][seat] = account[reg_id]
        points[table_id][seat] = int(seat_points)
        if n_won or n_lost:
            won[table_id][seat], lost[table_id][seat] = n_won, n_lost
    hands = Hand.objects.filter(table__round__in=rounds)
    money: dict[int, list[Money]] = {pk: [] for pk in tables}
    for table_id, number, declarer, contract, reuegeld, weitergeld in (
        hands.filter(Q(reuegeld_cents__gt=0) | Q(weitergeld_cents__gt=0)).order_by("table_id", "number")
        .values_list("table_id", "number", "declarer", "contract", "reuegeld_cents", "weitergeld_cents")
    ):
        if reuegeld:
            money[table_id].append(Money(number, declarer, REUEGELD, reuegeld, contract in SOLO_CONTRACTS))
        if weitergeld:
            money[table_id].extend(Money(number, seat, WEITERGELD, weitergeld) for seat in sorted(seats[table_id]))
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
    # Replace without reading the old snapshot back (it is large, and only overwritten).
    if not StandingsSnapshot.objects.filter(tournament=tournament).update(**values):
        StandingsSnapshot.objects.create(tournament=tournament, **values)
    return StandingsSnapshot(tournament=tournament, **values)
