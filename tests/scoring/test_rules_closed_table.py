"""A table the organiser closes early (rules.md section 2), pure: its points as played, or scaled.

Hand-computed: points × games required / games played, rounded half away from zero.
"""

import pytest

from scoring.rules import RuleError, ruleset_from_dict
from scoring.rules.standings import TableResult, closed_early, scaled_points

CASES = [
    # 24 of 32 games: 7·32/24 = 9.33 -> 9, −5·32/24 = −6.67 -> −7, 3·32/24 = 4
    pytest.param({1: 7, 2: -5, 3: 3, 4: -5}, 24, 32, {1: 9, 2: -7, 3: 4, 4: -7}, id="24 of 32"),
    # a table of five after 16 of 40: ×2.5, halves away from zero: 2.5 -> 3, −2.5 -> −3, 7.5 -> 8, −12.5 -> −13
    pytest.param({1: 1, 2: -1, 3: 3, 4: -5, 5: 2}, 16, 40, {1: 3, 2: -3, 3: 8, 4: -13, 5: 5}, id="halves"),
    pytest.param({1: 4, 2: -4}, 32, 32, {1: 4, 2: -4}, id="every game played: as they are"),
    pytest.param({1: 0, 2: 0}, 0, 32, {1: 0, 2: 0}, id="no game: nothing to scale"),
]


@pytest.mark.parametrize("points, played, required, expected", CASES)
def test_scaled_points(points, played, required, expected):
    assert scaled_points(points, played, required) == expected


RESULT = TableResult(
    round=1,
    table=7,
    seats={1: 11, 2: 12, 3: 13, 4: 14},
    points={1: 7, 2: -5, 3: 3, 4: -5},
    won_solos={3: 1},
    lost_solos={2: 1},
)


@pytest.mark.parametrize(
    "option, points",
    [
        ("as_played", {1: 7, 2: -5, 3: 3, 4: -5}),  # DEFAULT: they count as played
        ("scaled", {1: 9, 2: -7, 3: 4, 4: -7}),
    ],
)
def test_a_table_closed_after_24_of_32_games_by_the_rulesets_option(option, points):
    rules = ruleset_from_dict({"closed_table_points": option})
    result = closed_early(RESULT, 24, 32, rules)
    assert result.points == points
    assert (result.won_solos, result.lost_solos, result.seats) == (RESULT.won_solos, RESULT.lost_solos, RESULT.seats)


def test_the_option_is_a_ruleset_key_with_its_default_and_a_clear_error():
    assert ruleset_from_dict({}).closed_table_points == "as_played"
    with pytest.raises(RuleError) as err:
        ruleset_from_dict({"closed_table_points": "doubled"})
    assert err.value.field == "closed_table_points"
