"""Who receives which prize when places are shared (rules.md section 8). Pure: stdlib only.

The rule, as the prize list prints it: players who share a place (1, 1, 3) occupy the places
from their rank on (two on "1." occupy places 1 and 2). They share the **sum of the money
prizes of the places they occupy**, evenly, rounded down to the cent; the cents that do not
divide go back to the prize pool. **Goods** cannot be divided: the places' goods go to the tied
players in the order of the tournament's stored lot (the same seed that decides the lot
tie-break), the first goods to the first by lot.

The consolation prize (place ``None``) belongs to the last place occupied.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PrizeSpec:
    place: int | None  # None: the last place
    amount_cents: int | None
    goods: str = ""


@dataclass(frozen=True, slots=True)
class Ranked:
    player: int
    rank: int  # 1, 1, 3: a shared place keeps the rank of the first of them


@dataclass(frozen=True, slots=True)
class Award:
    player: int
    rank: int
    places: tuple[int, ...]  # the places his group occupies
    amount_cents: int  # his money (0: none)
    goods: str  # the goods he receives ("" none)
    shared_with: int  # how many share these places (1: nobody)


@dataclass(frozen=True, slots=True)
class PrizeSplit:
    awards: tuple[Award, ...]  # in standings order, one per player who receives anything
    awarded_cents: int  # the money that goes to players
    rounding_cents: int  # the cents of shared places that do not divide (back to the pool)


def lot_order(players: Sequence[int], lot_seed: int) -> dict[int, int]:
    """The stored lot's position of each player (smaller first), built as the standings' lot tie-break."""
    ordered = sorted(players)
    order = list(range(len(ordered)))
    random.Random(lot_seed).shuffle(order)
    return dict(zip(ordered, order, strict=True))


def split_prizes(ranked: Sequence[Ranked], prizes: Sequence[PrizeSpec], *, lot_seed: int) -> PrizeSplit:
    """Every prize to the players holding its place; shared places split as the module says."""
    count = len(ranked)
    by_place: dict[int, list[PrizeSpec]] = {}
    for prize in prizes:
        place = count if prize.place is None else prize.place
        by_place.setdefault(place, []).append(prize)
    lot = lot_order([r.player for r in ranked], lot_seed)
    awards: list[Award] = []
    awarded = rounding = 0
    index = 0
    while index < count:
        group = [ranked[index]]
        while index + len(group) < count and ranked[index + len(group)].rank == group[0].rank:
            group.append(ranked[index + len(group)])
        places = tuple(range(index + 1, index + len(group) + 1))
        index += len(group)
        specs = [p for place in places for p in by_place.get(place, [])]
        total = sum(p.amount_cents or 0 for p in specs)
        each = total // len(group)
        rounding += total - each * len(group)
        goods = [p.goods for p in specs if p.goods]
        by_lot = sorted(group, key=lambda r: lot[r.player])
        goods_for = {r.player: goods[i] if i < len(goods) else "" for i, r in enumerate(by_lot)}
        if len(goods) > len(group):  # more goods than players (a place's prize holds several): the last takes the rest
            goods_for[by_lot[-1].player] = ", ".join(goods[len(group) - 1 :])
        for r in group:
            if each or goods_for[r.player]:
                awards.append(
                    Award(
                        player=r.player,
                        rank=r.rank,
                        places=places,
                        amount_cents=each,
                        goods=goods_for[r.player],
                        shared_with=len(group),
                    )
                )
                awarded += each
    return PrizeSplit(awards=tuple(awards), awarded_cents=awarded, rounding_cents=rounding)


__all__ = ["Award", "PrizeSpec", "PrizeSplit", "Ranked", "lot_order", "split_prizes"]
