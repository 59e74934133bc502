"""Category prizes: best under 30, best woman, best local … beside the overall prizes. Pure: stdlib only.

A category says who belongs to it from what the desk or the sign-up collected (year of birth, gender,
local or guest; a player who did not give a field belongs to no category that asks for it) and holds
its own places and prizes. Who wins what:

- The overall prize list comes first, then the categories **in the organiser's order**: that order says
  which prize is the better one. A player receives one prize: the first in that order he wins. A player
  who already holds a prize is passed over, and the category's place goes to the next of its players.
  The organiser may allow both (``allow_both``): then each category ranks all its players.
- Within a category its players keep their overall order; a category's place is its rank among them
  (players tied overall stay tied in the category: 1, 1, 3) and shared places split as rules.md section 8
  says, through ``prizes.split_prizes``. A tie across a category's boundary (one of two players on the
  same overall place belongs to it) is no tie in the category.
- Age is the tournament's year less the year of birth: "U30" (``max_age`` 29) holds whoever turns at most
  29 in the tournament's year; ``min_age`` 60 holds the seniors who turn 60 or more.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .prizes import PrizeSpec, Ranked, split_prizes

GENDERS = ("f", "m", "d")


@dataclass(frozen=True, slots=True)
class Entrant:
    player: int
    rank: int  # overall rank (1, 1, 3 for a shared place)
    birth_year: int | None = None
    gender: str = ""  # "" not given
    local: bool | None = None  # None: not given


@dataclass(frozen=True, slots=True)
class Category:
    key: str
    min_age: int | None = None
    max_age: int | None = None
    gender: str = ""  # "": anyone
    local: bool | None = None  # True: locals only, False: guests only, None: anyone
    prizes: tuple[PrizeSpec, ...] = ()  # place within the category (None: the category's last)

    @property
    def needs(self) -> frozenset[str]:
        """The fields the desk and the sign-up must ask for this category (and only then)."""
        wanted = set()
        if self.min_age is not None or self.max_age is not None:
            wanted.add("birth_year")
        if self.gender:
            wanted.add("gender")
        if self.local is not None:
            wanted.add("local")
        return frozenset(wanted)


@dataclass(frozen=True, slots=True)
class CategoryAward:
    category: str
    player: int
    places: tuple[int, ...]  # the category places he holds (several when shared)
    amount_cents: int
    goods: str
    shared_with: int


def belongs(category: Category, entrant: Entrant, *, year: int) -> bool:
    if category.min_age is not None or category.max_age is not None:
        if entrant.birth_year is None:
            return False
        age = year - entrant.birth_year
        if category.min_age is not None and age < category.min_age:
            return False
        if category.max_age is not None and age > category.max_age:
            return False
    if category.gender and entrant.gender != category.gender:
        return False
    return category.local is None or entrant.local is category.local


def _category_ranks(members: Sequence[Entrant]) -> list[Ranked]:
    """Members in overall order, ranked among themselves: tied overall stay tied (1, 1, 3)."""
    ranked = []
    for index, member in enumerate(members):
        if index and member.rank == members[index - 1].rank:
            ranked.append(Ranked(member.player, ranked[-1].rank))
        else:
            ranked.append(Ranked(member.player, index + 1))
    return ranked


def award_categories(
    entrants: Sequence[Entrant],
    categories: Sequence[Category],
    *,
    year: int,
    lot_seed: int,
    already_awarded: Iterable[int] = (),
    allow_both: bool = False,
) -> tuple[CategoryAward, ...]:
    """Each category's prizes, in the organiser's order; ``already_awarded``: the overall prize list's winners."""
    ordered = sorted(entrants, key=lambda e: e.rank)
    holding = set(already_awarded)
    awards: list[CategoryAward] = []
    for category in categories:
        members = [e for e in ordered if belongs(category, e, year=year) and (allow_both or e.player not in holding)]
        split = split_prizes(_category_ranks(members), category.prizes, lot_seed=lot_seed)
        for award in split.awards:
            awards.append(
                CategoryAward(
                    category.key, award.player, award.places, award.amount_cents, award.goods, award.shared_with
                )
            )
            holding.add(award.player)
    return tuple(awards)


__all__ = ["GENDERS", "Category", "CategoryAward", "Entrant", "award_categories", "belongs"]
