"""Category prizes (scoring.rules.categories): who belongs, who wins, one prize per player in the organiser's order."""

import pytest

from scoring.rules.categories import Category, Entrant, award_categories, belongs
from scoring.rules.prizes import PrizeSpec

YEAR = 2026
U30 = Category("u30", max_age=29, prizes=(PrizeSpec(1, 5000),))
WOMEN = Category("damen", gender="f", prizes=(PrizeSpec(1, 3000), PrizeSpec(2, None, "Blumen")))
LOCAL = Category("lokal", local=True, prizes=(PrizeSpec(1, None, "Stadtwurst"),))
SENIORS = Category("senioren", min_age=70, prizes=(PrizeSpec(1, 2000),))


def e(player, rank, born=None, gender="", local=None):
    return Entrant(player, rank, birth_year=born, gender=gender, local=local)


@pytest.mark.parametrize(
    ("category", "entrant", "inside"),
    [
        (U30, e(1, 1, born=1997), True),  # turns 29 in 2026
        (U30, e(1, 1, born=1996), False),  # turns 30: no longer under 30
        (U30, e(1, 1), False),  # gave no year of birth
        (SENIORS, e(1, 1, born=1956), True),
        (SENIORS, e(1, 1, born=1957), False),
        (WOMEN, e(1, 1, gender="f"), True),
        (WOMEN, e(1, 1, gender="m"), False),
        (LOCAL, e(1, 1, local=True), True),
        (LOCAL, e(1, 1, local=False), False),
        (LOCAL, e(1, 1), False),
    ],
)
def test_who_belongs(category, entrant, inside):
    assert belongs(category, entrant, year=YEAR) is inside


def awards(entrants, categories, **kwargs):
    return [
        (a.category, a.player, a.amount_cents, a.goods, a.shared_with)
        for a in award_categories(entrants, categories, year=YEAR, lot_seed=5, **kwargs)
    ]


def test_the_overall_winners_are_passed_over_and_the_next_of_the_category_wins():
    field = [e(1, 1, born=2000), e(2, 2, born=1960), e(3, 3, born=2001), e(4, 4, born=2002)]
    assert awards(field, [U30], already_awarded=[1]) == [("u30", 3, 5000, "", 1)]
    assert awards(field, [U30], already_awarded=[1], allow_both=True) == [("u30", 1, 5000, "", 1)]


def test_a_tie_across_the_category_boundary_is_no_tie_in_the_category():
    # players 2 and 3 share overall place 2; only 3 is under 30: he alone is the best U30, the whole prize is his
    field = [e(1, 1, born=1950), e(2, 2, born=1980), e(3, 2, born=2000), e(4, 4, born=2001)]
    assert awards(field, [U30]) == [("u30", 3, 5000, "", 1)]


def test_a_tie_inside_the_category_shares_its_places():
    # 3 and 4 share overall place 3, both under 30: they share the U30 prize (and a 2nd place it has not)
    field = [e(1, 1, born=1950), e(2, 2, born=1980), e(3, 3, born=2000), e(4, 3, born=2001)]
    assert awards(field, [U30]) == [("u30", 3, 2500, "", 2), ("u30", 4, 2500, "", 2)]


def test_a_player_winning_two_categories_takes_the_first_in_the_organisers_order():
    # player 2 is a young woman: first in line for U30 and for the women's prize
    field = [
        e(1, 1, born=1950, gender="m"),
        e(2, 2, born=2000, gender="f"),
        e(3, 3, born=1990, gender="f"),
        e(4, 4, born=2003, gender="m"),
        e(5, 5, born=1970, gender="f"),
    ]
    assert awards(field, [U30, WOMEN]) == [
        ("u30", 2, 5000, "", 1),
        ("damen", 3, 3000, "", 1),
        ("damen", 5, 0, "Blumen", 1),
    ]
    assert awards(field, [WOMEN, U30]) == [
        ("damen", 2, 3000, "", 1),
        ("damen", 3, 0, "Blumen", 1),
        ("u30", 4, 5000, "", 1),
    ]
    assert awards(field, [U30, WOMEN], allow_both=True) == [
        ("u30", 2, 5000, "", 1),
        ("damen", 2, 3000, "", 1),
        ("damen", 3, 0, "Blumen", 1),
    ]


def test_a_category_nobody_belongs_to_gives_nothing():
    assert awards([e(1, 1, local=False)], [LOCAL]) == []


def test_a_category_asks_only_for_the_fields_it_needs():
    assert U30.needs == {"birth_year"} and WOMEN.needs == {"gender"} and LOCAL.needs == {"local"}
    assert Category("alle").needs == frozenset()
