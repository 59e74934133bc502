"""Reads for the standings pages, downloads, prize list and cash list (from the snapshot)."""
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from .models import StandingsSnapshot
from .schedule import standings_is_current


@dataclass(frozen=True)
class StandingsView:
    rows: list[dict[str, Any]]
    round: int | None  # None = overall
    rounds: list[int]
    computed_at: Any
    current: bool  # False: newer games are still being counted (or the worker is behind)
    exists: bool


def _snapshot(tournament) -> StandingsSnapshot | None:
    return StandingsSnapshot.objects.filter(tournament=tournament).first()


def standings_view(tournament, *, round: int | None = None, query: str = "") -> StandingsView:
    snapshot = _snapshot(tournament)
    tournament.standings_snapshot = snapshot  # for standings_is_current without another query
    current = snapshot is not None and standings_is_current(tournament)
    if snapshot is None:
        return StandingsView([], round, [], None, False, False)
    data = snapshot.data
    rounds = sorted(int(r) for r in data["rounds"])
    rows = data["overall"] if round is None else data["rounds"].get(str(round), [])
    query = query.strip().casefold()
    if query:
        rows = [r for r in rows if query in r["name"].casefold() or query == str(r["start_number"])]
    return StandingsView(rows, round, rounds, snapshot.computed_at, current, True)


@dataclass(frozen=True)
class PrizeRow:
    label: str  # "1." or "letzter Platz"
    place: int | None
    amount_cents: int | None
    goods: str
    winner: dict[str, Any] | None


@dataclass(frozen=True)
class PrizeList:
    entry_fees_cents: int
    entry_share_cents: int
    pot_share_cents: int
    sponsored_cents: int
    pool_cents: int
    prizes: list[PrizeRow]
    assigned_cents: int


def default_prize_places(tournament) -> list[int | None]:
    """DEFAULT: as many prizes as tables in round 1, the last of them for the last place."""
    first = tournament.rounds.filter(number=1).first()
    tables = first.tables.count() if first else 0
    return [*range(1, tables), None] if tables else []


def prize_list(tournament) -> PrizeList:
    from tournaments.models import Prize

    snapshot = _snapshot(tournament)
    overall = snapshot.data["overall"] if snapshot else []
    pot = snapshot.data["pot_cents"] if snapshot else 0
    paid = tournament.registrations.filter(paid=True).count()
    fees = paid * tournament.entry_fee_cents
    entry_share = fees * tournament.payout_percent // 100
    prizes = list(Prize.objects.filter(tournament=tournament))
    if not prizes:
        prizes = [Prize(tournament=tournament, place=p) for p in default_prize_places(tournament)]
    rows = []
    for prize in prizes:
        if prize.place is None:
            winner = overall[-1] if overall else None
            label = "last"
        else:
            winner = overall[prize.place - 1] if len(overall) >= prize.place else None
            label = f"{prize.place}."
        rows.append(PrizeRow(label, prize.place, prize.amount_cents, prize.goods, winner))
    return PrizeList(
        entry_fees_cents=fees, entry_share_cents=entry_share, pot_share_cents=pot,
        sponsored_cents=tournament.sponsored_cents, pool_cents=entry_share + pot + tournament.sponsored_cents,
        prizes=rows, assigned_cents=sum(p.amount_cents or 0 for p in rows),
    )


@dataclass
class CashRow:
    start_number: int
    name: str
    entry_fee_cents: int = 0
    reuegeld_cents: int = 0
    weitergeld_cents: int = 0
    payout_cents: int = 0  # what he receives as Tischbester (positive)

    @property
    def owes_cents(self) -> int:
        return self.reuegeld_cents + self.weitergeld_cents - self.payout_cents


@dataclass
class CashList:
    rows: list[CashRow]
    tischbeste: list[dict[str, Any]]
    entry_fees_cents: int
    reuegeld_cents: int
    weitergeld_cents: int
    payouts_cents: int
    pot_cents: int
    club_share_cents: int  # entry fees not paid out as prizes
    computed_at: Any = None
    current: bool = True
    totals: dict[str, int] = field(default_factory=dict)


def cash_list(tournament) -> CashList:
    """What each player owes and receives; totals that balance (in = out + pot)."""
    snapshot = _snapshot(tournament)
    data = snapshot.data if snapshot else {"ledger": [], "tischbeste": [], "pot_cents": 0}
    rows: dict[int, CashRow] = {}
    for reg in tournament.registrations.select_related("player").order_by("start_number"):
        rows[reg.start_number] = CashRow(reg.start_number, reg.player.name,
                                         entry_fee_cents=tournament.entry_fee_cents if reg.paid else 0)
    sums: dict[str, int] = defaultdict(int)
    for entry in data["ledger"]:
        row = rows[entry["start_number"]]
        if entry["kind"] == "reuegeld":
            row.reuegeld_cents += entry["cents"]
        elif entry["kind"] == "weitergeld":
            row.weitergeld_cents += entry["cents"]
        else:
            row.payout_cents -= entry["cents"]
        sums[entry["kind"]] += entry["cents"]
    fees = sum(r.entry_fee_cents for r in rows.values())
    tournament.standings_snapshot = snapshot
    return CashList(
        rows=list(rows.values()), tischbeste=data["tischbeste"], entry_fees_cents=fees,
        reuegeld_cents=sums["reuegeld"], weitergeld_cents=sums["weitergeld"], payouts_cents=-sums["payout"],
        pot_cents=data["pot_cents"], club_share_cents=fees - fees * tournament.payout_percent // 100,
        computed_at=snapshot.computed_at if snapshot else timezone.now(),
        current=snapshot is not None and standings_is_current(tournament),
    )
