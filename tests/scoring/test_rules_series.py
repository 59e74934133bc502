"""The pure series ranking: values per tournament, best N, minimum participations, tie-breaks, lot."""

import pytest

from scoring.rules import RuleError
from scoring.rules.series import Placing, SeriesRules, TournamentPlacings, compute_series, validate_series_rules


def evening(key, *rows):
    return TournamentPlacings(key, tuple(Placing(player, rank, points) for player, rank, points in rows))


SEASON = [
    evening("a", (1, 1, 30), (2, 2, 10), (3, 3, -10), (4, 4, -30)),
    evening("b", (2, 1, 40), (3, 2, 0), (1, 3, -5), (5, 4, -35)),
    evening("c", (3, 1, 20), (1, 2, 10), (2, 2, 10), (4, 4, -40)),
]


def table(result):
    return [(s.rank, s.player, s.points) for s in result.ranked]


def test_sum_adds_every_result():
    result = compute_series(SEASON, SeriesRules(), lot_seed=1)
    assert {s.player: s.points for s in result.ranked} == {1: 35, 2: 60, 3: 10, 4: -70, 5: -35}
    assert table(result)[:2] == [(1, 2, 60), (2, 1, 35)]
    assert result.tournaments == ("a", "b", "c")
    assert result.progression[0] == {1: 30, 2: 10, 3: -10, 4: -30}
    assert result.progression[-1][2] == 60


def test_best_two_strikes_the_worst():
    result = compute_series(SEASON, SeriesRules(scoring="best_n", best=2), lot_seed=1)
    rows = {s.player: s for s in result.ranked}
    assert rows[1].points == 40 and rows[1].counted == {"a", "c"}
    assert rows[3].points == 20 and rows[3].counted == {"b", "c"}
    assert rows[5].points == -35 and rows[5].counted == {"b"}


def test_placement_table_and_players_beaten():
    table_rules = SeriesRules(scoring="placement", placement_points=(25, 20, 16))
    rows = {s.player: s for s in compute_series(SEASON, table_rules, lot_seed=1).ranked}
    assert rows[1].results == {"a": 25, "b": 16, "c": 20}
    assert rows[2].results == {"a": 20, "b": 25, "c": 20}  # a shared 2nd place: both get 20
    assert rows[4].points == 0  # beyond the table
    beaten = SeriesRules(scoring="placement", per_player_beaten=True)
    rows = {s.player: s for s in compute_series(SEASON, beaten, lot_seed=1).ranked}
    assert rows[1].results == {"a": 3, "b": 1, "c": 1}
    assert rows[2].results == {"a": 2, "b": 3, "c": 1}


def test_minimum_participations():
    result = compute_series(SEASON, SeriesRules(min_participations=3), lot_seed=1)
    assert {s.player for s in result.ranked} == {1, 2, 3}
    assert [(s.player, s.rank) for s in result.unranked] == [(5, None), (4, None)]


@pytest.mark.parametrize(
    "tiebreaks, order, reason",
    [
        (("participations",), [1, 2], "participations"),  # 1 played twice, 2 once
        (("wins",), [2, 1], "wins"),  # 2 won an evening
        (("best_result",), [2, 1], "best_result"),  # 2's 50 beats 1's 30
        (("participations", "wins"), [1, 2], "participations"),
    ],
)
def test_tiebreaks_in_the_configured_order(tiebreaks, order, reason):
    evenings = [evening("a", (1, 2, 30), (3, 1, 40)), evening("b", (1, 2, 20), (2, 1, 50), (3, 3, -5))]
    result = compute_series(evenings, SeriesRules(tiebreaks=tiebreaks), lot_seed=1)
    tied = [s for s in result.ranked if s.points == 50]
    assert [s.player for s in tied] == order
    assert tied[0].tiebreak == reason and tied[0].rank == 1 and tied[1].rank == 2


def test_a_full_tie_is_shared_without_lot_and_decided_with_it():
    evenings = [evening("a", (1, 1, 10), (2, 1, 10))]
    shared = compute_series(evenings, SeriesRules(tiebreaks=("wins",)), lot_seed=1)
    assert [s.rank for s in shared.ranked] == [1, 1] and shared.ranked[0].tiebreak == "shared"
    orders = {
        tuple(s.player for s in compute_series(evenings, SeriesRules(), lot_seed=seed).ranked) for seed in range(20)
    }
    assert orders == {(1, 2), (2, 1)}  # the seed decides, both ways happen
    assert compute_series(evenings, SeriesRules(), lot_seed=7).ranked[0].tiebreak == "lot"


@pytest.mark.parametrize(
    "rules, field",
    [
        (SeriesRules(scoring="best_n"), "best"),
        (SeriesRules(scoring="sum", best=2), "best"),
        (SeriesRules(scoring="best_n", best=0), "best"),
        (SeriesRules(scoring="placement"), "placement_points"),
        (SeriesRules(scoring="placement", placement_points=(3,), per_player_beaten=True), "placement_points"),
        (SeriesRules(scoring="placement", placement_points=(3, -1)), "placement_points"),
        (SeriesRules(placement_points=(3, 2)), "placement_points"),
        (SeriesRules(scoring="elo"), "scoring"),
        (SeriesRules(min_participations=-1), "min_participations"),
        (SeriesRules(tiebreaks=("lot", "lot")), "tiebreaks"),
    ],
)
def test_bad_rules_name_the_field(rules, field):
    with pytest.raises(RuleError) as err:
        validate_series_rules(rules)
    assert err.value.field == field


def test_the_default_tie_breaks_follow_the_issue_order():
    """More participations, more tournament wins, the better best result, then the lot."""
    assert SeriesRules().tiebreaks == ("participations", "wins", "best_result", "lot")
    # two players on 50: 1 played twice (30 + 20), 2 once (a win with 50): participations decide first
    evenings = [evening("a", (1, 2, 30), (3, 1, 40)), evening("b", (1, 2, 20), (2, 1, 50), (3, 3, -5))]
    tied = [s for s in compute_series(evenings, SeriesRules(), lot_seed=1).ranked if s.points == 50]
    assert [(s.player, s.tiebreak) for s in tied] == [(1, "participations"), (2, None)]
