"""What a tournament's prize plan gives at the registrations as they stand (the prize page's live preview)."""

from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring.rules.prize_plan import PlanError, PlannedPrizes, plan_pool, plan_prizes

from ..models import PrizeCategory, PrizePlan, Tournament
from .standings import entry_fees


@dataclass(frozen=True)
class PlanPreview:
    plan: PrizePlan
    players: int
    fees_cents: int
    pool_cents: int
    planned: PlannedPrizes | None
    error_field: str = ""
    category_cents: int = 0  # the category prizes' money, kept out of the curve (paid from the same pool)

    @property
    def first_amounts(self) -> list[int]:
        return [p.amount_cents for p in self.planned.prizes[:5] if p.amount_cents] if self.planned else []


def prize_plan_of(tournament: Tournament) -> PrizePlan:
    """The stored plan, or an unsaved one with the defaults (a third, 10 % less each, whole euros)."""
    return PrizePlan.objects.filter(tournament=tournament).first() or PrizePlan(tournament=tournament)


def plan_players(tournament: Tournament) -> tuple[int, int]:
    """(players, entry fees) the plan counts: before the start everyone registered and not withdrawn, each with
    his fee; once play has begun the fees due as the cash list counts them."""
    regs = tournament.registrations.exclude(withdrawn_after_round=0).filter(substitute_for__isnull=True)
    players = regs.count()
    if tournament.status == Tournament.Status.PLANNED:
        return players, regs.filter(fee_due=True).count() * tournament.entry_fee_cents
    return players, entry_fees(tournament).total_cents


def goods_default() -> str:
    return _("goods from the prize table")


def prize_plan_preview(tournament: Tournament, plan: PrizePlan | None = None) -> PlanPreview:
    plan = plan or prize_plan_of(tournament)
    players, fees = plan_players(tournament)
    categories = sum(
        p.get("amount_cents") or 0
        for prizes in PrizeCategory.objects.filter(tournament=tournament).values_list("prizes", flat=True)
        for p in prizes
    )
    pool = max(
        0,
        plan_pool(
            fees_cents=fees,
            payout_percent=tournament.payout_percent,
            sponsored_cents=tournament.sponsored_cents,
            costs_cents=plan.costs_cents,
        )
        - categories,
    )
    try:
        planned = plan_prizes(plan.spec, players=players, pool_cents=pool, default_goods=goods_default())
    except PlanError as err:
        return PlanPreview(plan, players, fees, pool, None, error_field=err.field, category_cents=categories)
    return PlanPreview(plan, players, fees, pool, planned, category_cents=categories)
