"""The prize table call-up (Preistisch): the places called one by one in rank order, the desk's phone and the
projector following the same state."""

from dataclasses import dataclass

from ..models import PrizePlan, Tournament
from .standings import AwardRow, prize_list


@dataclass(frozen=True)
class CallUp:
    current: AwardRow | None  # the place called now (None: everybody has his prize)
    coming: list[AwardRow]  # the next few, to get ready
    done: list[tuple[AwardRow, str]]  # the last ones handed over, newest first, with what each took
    total: int
    handed: int
    goods: list[str]  # the prize table's goods to pick from

    @property
    def remaining(self) -> int:
        return self.total - self.handed


def call_order(prizes) -> list[AwardRow]:
    """The overall list in rank order, then the category prizes; each winner once (his first prize)."""
    seen, order = set(), []
    for award in [*prizes.awards, *prizes.category_awards]:
        if award.registration not in seen:
            seen.add(award.registration)
            order.append(award)
    return order


def prize_call_up(tournament: Tournament, *, coming: int = 3, done: int = 5) -> CallUp:
    order = call_order(prize_list(tournament))
    chosen = dict(tournament.registrations.filter(prize_handed_over=True).values_list("pk", "prize_chosen"))
    waiting = [a for a in order if a.registration not in chosen]
    taken = [a for a in order if a.registration in chosen]
    goods = PrizePlan.objects.filter(tournament=tournament).values_list("goods_list", flat=True).first() or ""
    return CallUp(
        current=waiting[0] if waiting else None,
        coming=waiting[1 : 1 + coming],
        done=[(a, chosen[a.registration]) for a in reversed(taken[-done:])] if done else [],
        total=len(order),
        handed=len(taken),
        goods=[g for g in goods.splitlines() if g.strip()],
    )
