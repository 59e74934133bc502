"""Who qualifies for a qualifier series' final (scoring/rules/qualification.py), against hand-computed cases."""

import random

import pytest

from scoring.rules.errors import RuleError
from scoring.rules.qualification import (
    EVENING,
    LOTTERY,
    TOP,
    TOP_NOT_QUALIFIED,
    WILDCARD,
    EveningOrder,
    QualificationRules,
    Wildcard,
    evening_winners,
    qualify,
)

# Three evenings (the winner first). Player 1 and 2 do well twice, 3 wins the third evening.
EVENINGS = (
    EveningOrder("a", (1, 2, 3, 4, 5)),
    EveningOrder("b", (2, 1, 6, 7, 8)),
    EveningOrder("c", (3, 9, 1, 10, 11)),
)

CASES = [
    # (name, mode, k, wildcards, declined, qualified as (player, how, evening, place), next in line)
    (
        "top: the first two of each evening; places won twice are lost",
        TOP,
        2,
        (),
        (),
        [(1, EVENING, "a", 1), (2, EVENING, "a", 2), (3, EVENING, "c", 1), (9, EVENING, "c", 2)],
        {"a": (4, 5), "b": (6, 7, 8), "c": (10, 11)},
    ),
    (
        "top not qualified: at b 2 and 1 are in already, 6 and 7 move up",
        TOP_NOT_QUALIFIED,
        2,
        (),
        (),
        [
            (1, EVENING, "a", 1),
            (2, EVENING, "a", 2),
            (6, EVENING, "b", 3),
            (7, EVENING, "b", 4),
            (3, EVENING, "c", 1),
            (9, EVENING, "c", 2),
        ],
        {"a": (4, 5), "b": (8,), "c": (10, 11)},
    ),
    (
        "a wildcard (the defending champion 3) is in before the evenings: at c 9 and 10 qualify",
        TOP_NOT_QUALIFIED,
        2,
        (Wildcard(3, "Titelverteidiger"),),
        (),
        [
            (3, WILDCARD, "", 0),
            (1, EVENING, "a", 1),
            (2, EVENING, "a", 2),
            (6, EVENING, "b", 3),
            (7, EVENING, "b", 4),
            (9, EVENING, "c", 2),
            (10, EVENING, "c", 4),
        ],
        {"a": (4, 5), "b": (8,), "c": (11,)},
    ),
    (
        "2 declined after the evenings: his place at a goes to a's next not in: 3 is in (c), so 4",
        TOP_NOT_QUALIFIED,
        2,
        (),
        (2,),
        [
            (1, EVENING, "a", 1),
            (4, EVENING, "a", 4),
            (6, EVENING, "b", 3),
            (7, EVENING, "b", 4),
            (3, EVENING, "c", 1),
            (9, EVENING, "c", 2),
        ],
        {"a": (5,), "b": (8,), "c": (10, 11)},
    ),
    (
        "top, 1 declined: his place at a goes to 4 (3 is in from c); b's places were lost already",
        TOP,
        2,
        (),
        (1,),
        [(4, EVENING, "a", 4), (2, EVENING, "a", 2), (3, EVENING, "c", 1), (9, EVENING, "c", 2)],
        {"a": (5,), "b": (6, 7, 8), "c": (10, 11)},
    ),
    (
        "a declined wildcard lapses",
        TOP,
        1,
        (Wildcard(4, "Wahl des Wirts"),),
        (4,),
        [(1, EVENING, "a", 1), (2, EVENING, "b", 1), (3, EVENING, "c", 1)],
        {"a": (5,), "b": (6, 7, 8), "c": (9, 10, 11)},
    ),  # 4 declined, 1, 2, 3 are in
]


@pytest.mark.parametrize(
    ("name", "mode", "k", "wildcards", "declined", "expected", "next_in_line"), CASES, ids=[c[0] for c in CASES]
)
def test_who_qualifies(name, mode, k, wildcards, declined, expected, next_in_line):
    result = qualify(EVENINGS, QualificationRules(per_evening=k, mode=mode), wildcards=wildcards, declined=declined)
    assert [(q.player, q.how, q.evening, q.place) for q in result.qualified] == expected
    assert result.next_in_line == next_in_line


def test_next_in_line_leaves_out_whoever_qualified_anywhere():
    # k = 1, top: 1, 2, 3 win; who follows them and is not in himself
    result = qualify(EVENINGS, QualificationRules(per_evening=1, mode=TOP))
    assert result.players == (1, 2, 3)
    assert result.next_in_line == {"a": (4, 5), "b": (6, 7, 8), "c": (9, 10, 11)}


def test_the_lottery_draws_among_regulars_and_is_reproducible():
    # 58 evenings are many; here four, with k = 1 (top not qualified). Winners 1, 2, 3, 4.
    evenings = (
        EveningOrder("1", (1, 5, 6, 7)),
        EveningOrder("2", (2, 5, 6, 8)),
        EveningOrder("3", (3, 5, 7, 9)),
        EveningOrder("4", (4, 6, 8, 10)),
    )
    rules = QualificationRules(per_evening=1, mode=TOP_NOT_QUALIFIED, lottery_places=2, lottery_min_evenings=2)
    result = qualify(evenings, rules, lot_seed=2026)
    # played at least twice and not qualified: 5 (3 evenings), 6 (3), 7 (2), 8 (2); 9 and 10 once only
    assert result.lottery_candidates == (5, 6, 7, 8)
    # the draw: Python's random.Random(2026).shuffle over the candidates in key order (as the lot tie-break)
    expected = [5, 6, 7, 8]
    random.Random(2026).shuffle(expected)
    assert list(result.lottery_order) == expected
    lottery = [q for q in result.qualified if q.how == LOTTERY]
    assert [(q.player, q.place) for q in lottery] == [(expected[0], 1), (expected[1], 2)]  # place: in the draw
    assert [q.player for q in result.qualified if q.how == EVENING] == [1, 2, 3, 4]
    # the same seed draws the same; one that declines is replaced by the next of the same draw
    assert qualify(evenings, rules, lot_seed=2026) == result
    again = qualify(evenings, rules, lot_seed=2026, declined=[expected[0]])
    assert [q.player for q in again.qualified if q.how == LOTTERY] == [expected[1], expected[2]]
    # another seed: some other order of the same four (seed 1 and 2026 differ here)
    assert qualify(evenings, rules, lot_seed=1).lottery_order != result.lottery_order


def test_the_lottery_takes_no_more_than_there_are_candidates():
    result = qualify(EVENINGS, QualificationRules(per_evening=2, lottery_places=10, lottery_min_evenings=2))
    assert [q.how for q in result.qualified].count(LOTTERY) == 0  # 1, 2, 3 played twice and qualified


def test_evening_winners_once_each():
    assert evening_winners(EVENINGS + (EveningOrder("d", (1, 4)),)) == (1, 2, 3)


@pytest.mark.parametrize(
    ("rules", "field"),
    [
        (QualificationRules(mode="best"), "mode"),
        (QualificationRules(per_evening=-1), "per_evening"),
        (QualificationRules(lottery_places=-2), "lottery_places"),
        (QualificationRules(lottery_min_evenings=0), "lottery_min_evenings"),
    ],
)
def test_bad_rules_name_their_field(rules, field):
    with pytest.raises(RuleError) as err:
        qualify(EVENINGS, rules)
    assert err.value.field == field


def test_an_evening_twice_is_refused():
    with pytest.raises(RuleError) as err:
        qualify(EVENINGS + (EVENINGS[0],), QualificationRules())
    assert err.value.field == "evenings"


def test_a_decline_passes_over_the_lottery_winners():
    """The drawn keep their lottery places; the evening's place goes to its next who was not drawn."""
    evenings = (
        EveningOrder("1", (1, 5, 6, 7)),
        EveningOrder("2", (2, 5, 6, 8)),
        EveningOrder("3", (3, 5, 7, 9)),
        EveningOrder("4", (4, 6, 8, 10)),
    )
    rules = QualificationRules(per_evening=1, mode=TOP_NOT_QUALIFIED, lottery_places=2, lottery_min_evenings=2)
    drawn = [q.player for q in qualify(evenings, rules, lot_seed=2026).qualified if q.how == LOTTERY]
    result = qualify(evenings, rules, lot_seed=2026, declined=[1])
    assert [q.player for q in result.qualified if q.how == LOTTERY] == drawn
    moved = next(p for p in (5, 6, 7) if p not in drawn)
    assert next((q.player, q.evening) for q in result.qualified if q.how == EVENING) == (moved, "1")
