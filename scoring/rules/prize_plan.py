"""The prize plan: from the pool and the number of players to one prize per place. Pure: stdlib only.

The pool is the entry fees × payout % + the sponsors' money − the costs (``plan_pool``). A **curve**
says how many places win money and how the pool is shared among them:

- ``third``: "das obere Drittel" – a third of the players (rounded down) win money; each place gets
  ``decay_percent`` % less than the one above (0: all the same), the whole pool shared.
- ``nth``: "jeder Vierte" – every ``every_n``-th player wins money; shared like ``third``.
- ``table``: a fixed table of shares of the pool, one per place, in hundredths of a per cent
  (2150 = 21,5 %), e.g. skat-online's 30 players × 10 € → 64,50 / 55,50 / 45 / …
- ``geometric``: "1st gets x, each next y % less" – the first gets ``first_cents``, each next place
  ``decay_percent`` % less, as long as the pool lasts (and there are players).

Each amount is **rounded down** to the rounding unit (1 cent, a whole euro or 5 €). For ``third``,
``nth`` and ``table`` the whole units the rounding freed are handed out again, one unit per place
from the first place down (the order stays: nobody gets more than the place above); what is less
than a unit **stays in the pool** (``remainder_cents``), as does what a ``geometric`` curve leaves.

After the money places come the **goods places** ("die folgenden 120 Platzierungen" choose from the
prize table), then optionally the consolation prize for the last place. No more places than players.
Shared places are not this module's business: ``prizes.split_prizes`` applies rules.md section 8 to
the plan's output exactly as to prizes typed by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from .prizes import PrizeSpec

CURVES = ("third", "nth", "table", "geometric")
ROUNDINGS = (1, 100, 500)  # cents: to the cent, whole euros, 5 euros


class PlanError(ValueError):
    """A plan that cannot be computed; ``field`` names the setting at fault."""

    def __init__(self, field: str, code: str):
        super().__init__(f"{field}: {code}")
        self.field = field
        self.code = code


@dataclass(frozen=True, slots=True)
class PrizePlanSpec:
    curve: str = "third"
    every_n: int = 4  # nth: every n-th player wins money
    decay_percent: int = 10  # each next place y % less (third, nth, geometric)
    first_cents: int = 0  # geometric: what the first place gets
    table_bp: tuple[int, ...] = ()  # table: each place's share of the pool in hundredths of a per cent
    rounding_cents: int = 100
    goods_places: int = 0  # places after the money places that choose goods
    goods_label: str = ""  # what a goods place gets ("" : the caller's default wording)
    last_place_goods: str = ""  # the consolation prize for the last place ("": none)


@dataclass(frozen=True, slots=True)
class PlannedPrizes:
    players: int
    pool_cents: int
    prizes: tuple[PrizeSpec, ...] = field(default_factory=tuple)  # places 1.. in order, then the last place
    money_places: int = 0
    goods_places: int = 0
    paid_cents: int = 0  # the money the plan hands out
    remainder_cents: int = 0  # what stays in the pool (rounding, a geometric curve's rest)

    @property
    def places(self) -> int:
        return self.money_places + self.goods_places


def plan_pool(*, fees_cents: int, payout_percent: int, sponsored_cents: int = 0, costs_cents: int = 0) -> int:
    """Entry fees × payout % (rounded down to the cent) + sponsors − costs; never below 0."""
    return max(0, fees_cents * payout_percent // 100 + sponsored_cents - costs_cents)


def check_plan(spec: PrizePlanSpec) -> None:
    """Raise ``PlanError`` naming the setting that makes no plan."""
    if spec.curve not in CURVES:
        raise PlanError("curve", "unknown")
    if spec.rounding_cents not in ROUNDINGS:
        raise PlanError("rounding_cents", "unknown")
    if spec.curve == "nth" and spec.every_n < 2:
        raise PlanError("every_n", "too_small")
    if not 0 <= spec.decay_percent < 100:
        raise PlanError("decay_percent", "out_of_range")
    if spec.curve == "geometric" and spec.first_cents <= 0:
        raise PlanError("first_cents", "required")
    if spec.curve == "table":
        if not spec.table_bp or any(s <= 0 for s in spec.table_bp):
            raise PlanError("table_bp", "required")
        if sum(spec.table_bp) > 10000:
            raise PlanError("table_bp", "over_100")
    if spec.goods_places < 0:
        raise PlanError("goods_places", "negative")


def money_place_count(spec: PrizePlanSpec, players: int) -> int:
    if spec.curve == "third":
        return players // 3
    if spec.curve == "nth":
        return players // spec.every_n
    if spec.curve == "table":
        return min(len(spec.table_bp), players)
    return players  # geometric: as many as the pool lasts, at most one per player


def _weights(spec: PrizePlanSpec, count: int) -> list[Fraction]:
    if spec.curve == "table":
        return [Fraction(s, 10000) for s in spec.table_bp[:count]]
    ratio = Fraction(100 - spec.decay_percent, 100)
    raw = [ratio**i for i in range(count)]
    total = sum(raw)
    return [w / total for w in raw]


def _shared(pool: int, weights: list[Fraction], unit: int, *, spread: Fraction) -> list[int]:
    """Each place's share rounded down to the unit; the freed whole units once more from the top."""
    amounts = [int(pool * w) // unit * unit for w in weights]
    spare = (int(pool * spread) - sum(amounts)) // unit
    for i in range(min(spare, len(amounts))):
        amounts[i] += unit
    return amounts


def _geometric(spec: PrizePlanSpec, pool: int, players: int) -> list[int]:
    unit = spec.rounding_cents
    ratio = Fraction(100 - spec.decay_percent, 100)
    amounts: list[int] = []
    exact = Fraction(spec.first_cents)
    left = pool
    while len(amounts) < players:
        amount = int(exact) // unit * unit
        if amount <= 0 or amount > left:
            break
        amounts.append(amount)
        left -= amount
        exact *= ratio
    return amounts


def plan_prizes(spec: PrizePlanSpec, *, players: int, pool_cents: int, default_goods: str = "") -> PlannedPrizes:
    """The prizes the plan gives ``players`` players from ``pool_cents``: money places, goods places, last place."""
    check_plan(spec)
    if players <= 0:
        return PlannedPrizes(players=max(players, 0), pool_cents=pool_cents, remainder_cents=pool_cents)
    count = money_place_count(spec, players)
    if spec.curve == "geometric":
        amounts = _geometric(spec, pool_cents, players)
    elif count:
        weights = _weights(spec, count)
        amounts = _shared(pool_cents, weights, spec.rounding_cents, spread=sum(weights))
    else:
        amounts = []
    amounts = [a for a in amounts if a > 0]
    goods = min(spec.goods_places, players - len(amounts))
    label = spec.goods_label or default_goods
    prizes = [PrizeSpec(place=i + 1, amount_cents=a) for i, a in enumerate(amounts)]
    prizes += [PrizeSpec(place=len(amounts) + i + 1, amount_cents=None, goods=label) for i in range(goods)]
    if spec.last_place_goods and len(prizes) < players:
        prizes.append(PrizeSpec(place=None, amount_cents=None, goods=spec.last_place_goods))
    paid = sum(amounts)
    return PlannedPrizes(
        players=players,
        pool_cents=pool_cents,
        prizes=tuple(prizes),
        money_places=len(amounts),
        goods_places=goods,
        paid_cents=paid,
        remainder_cents=pool_cents - paid,
    )


__all__ = [
    "CURVES",
    "ROUNDINGS",
    "PlanError",
    "PlannedPrizes",
    "PrizePlanSpec",
    "check_plan",
    "money_place_count",
    "plan_pool",
    "plan_prizes",
]
