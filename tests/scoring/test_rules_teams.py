"""Team standings (scoring.rules.teams): by the sum of points or by table points (40/30/20/10), hand-computed."""

from fractions import Fraction

import pytest

from scoring.rules.teams import rank_teams, table_points

CASES = [
    ("four, all different", [{1: 30, 2: 10, 3: -15, 4: -25}], {1: 40, 2: 30, 3: 20, 4: 10}),
    ("two share the top", [{1: 20, 2: 20, 3: -10, 4: -30}], {1: 35, 2: 35, 3: 20, 4: 10}),
    (
        "a table of five: the fifth gets nothing",
        [{1: 40, 2: 10, 3: 0, 4: -20, 5: -30}],
        {1: 40, 2: 30, 3: 20, 4: 10, 5: 0},
    ),
    (
        "three share the last places of five",
        [{1: 40, 2: 20, 3: -20, 4: -20, 5: -20}],
        {1: 40, 2: 30, 3: 10, 4: 10, 5: 10},
    ),
    ("two rounds add up", [{1: 5, 2: 0, 3: -1, 4: -4}, {1: -9, 2: 3, 3: 3, 4: 3}], {1: 50, 2: 60, 3: 50, 4: 40}),
]


@pytest.mark.parametrize(("tables", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_table_points(tables, expected):
    assert table_points(tables) == {p: Fraction(v) for p, v in expected.items()}


def test_sum_of_points_ranks_teams_and_the_best_member_breaks_a_tie():
    points = {1: 50, 2: -10, 3: 30, 4: 10, 5: 20, 6: 0}
    teams = {"Stammtisch": [1, 2], "Jäger": [3, 4], "Schützen": [5, 6]}
    ranked = rank_teams(teams, points=points)
    assert [(t.team, t.rank, t.score) for t in ranked] == [("Stammtisch", 1, 40), ("Jäger", 2, 40), ("Schützen", 3, 20)]


def test_a_full_tie_shares_the_place():
    ranked = rank_teams({"A": [1, 2], "B": [3, 4]}, points={1: 10, 2: 0, 3: 0, 4: 10})
    assert [(t.team, t.rank) for t in ranked] == [("A", 1), ("B", 1)]


def test_table_points_rank_teams():
    tables = [{1: 30, 2: 10, 3: -15, 4: -25}, {5: 20, 6: 20, 7: -10, 8: -30}]
    teams = {"A": [1, 8], "B": [2, 5], "C": [3, 6, 4, 7]}
    points = {1: 30, 2: 10, 3: -15, 4: -25, 5: 20, 6: 20, 7: -10, 8: -30}
    ranked = rank_teams(teams, points=points, tables=tables, mode="table_points")
    # A 40 + 10 = 50; B 30 + 35 = 65; C 20 + 35 + 10 + 20 = 85
    assert [(t.team, t.score) for t in ranked] == [("C", 85), ("B", 65), ("A", 50)]
    with pytest.raises(ValueError, match="mode"):
        rank_teams(teams, points=points, mode="tischpunkte")
