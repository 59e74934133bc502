"""The seat draw (tournaments/seating.py, rules.md section 2). No database, no Django settings."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.seating import (
    DrawResult,
    SeatingImpossible,
    can_seat,
    count_club_pairs,
    count_repeated_pairs,
    draw_tables,
    pairs_of,
    table_sizes,
)

# --- helpers -----------------------------------------------------------------------------------


def assert_valid_draw(result: DrawResult, players: list[int]) -> None:
    seated = [pid for table in result.tables for pid in table]
    assert sorted(seated) == sorted(players), "every player sits exactly once"
    assert [len(table) for table in result.tables] == table_sizes(len(players))


def play_rounds(players: list[int], rounds: int, seed: int, **options) -> list[DrawResult]:
    """Draw ``rounds`` rounds, feeding each round the pairs of all earlier rounds."""
    met: set[frozenset[int]] = set()
    results = []
    for number in range(1, rounds + 1):
        result = draw_tables(players, seed=seed * 100 + number, met=met, **options)
        assert_valid_draw(result, players)
        results.append(result)
        met |= pairs_of(result.tables)
    return results


def random_draw(players: list[int], rng: random.Random) -> list[list[int]]:
    shuffled = list(players)
    rng.shuffle(shuffled)
    tables, start = [], 0
    for size in table_sizes(len(players)):
        tables.append(shuffled[start : start + size])
        start += size
    return tables


def all_partitions(players: list[int], sizes: list[int]):
    """Every way to split ``players`` into tables of ``sizes`` (table order matters)."""
    if not sizes:
        yield []
        return
    first, rest = sizes[0], sizes[1:]
    for table in combinations(players, first):
        left = [pid for pid in players if pid not in table]
        for tail in all_partitions(left, rest):
            yield [list(table), *tail]


feasible_sizes = st.integers(min_value=4, max_value=400).filter(can_seat)


# --- table layout --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "sizes"),
    [
        (4, [4]),
        (5, [5]),
        (8, [4, 4]),
        (9, [5, 4]),
        (10, [5, 5]),
        (12, [4, 4, 4]),
        (15, [5, 5, 5]),
        (16, [4, 4, 4, 4]),
        (21, [5, 4, 4, 4, 4]),
        (1000, [4] * 250),
        (1003, [5] * 3 + [4] * 247),
    ],
)
def test_table_sizes_puts_the_tables_of_five_first(players, sizes):
    assert table_sizes(players) == sizes


@given(n=feasible_sizes)
def test_table_sizes_follow_the_rules(n):
    sizes = table_sizes(n)
    assert sum(sizes) == n
    assert sizes.count(5) == n % 4
    assert set(sizes) <= {4, 5}
    assert sizes == sorted(sizes, reverse=True)


def test_every_field_from_twelve_players_on_can_be_seated():
    assert [n for n in range(0, 200) if not can_seat(n)] == [0, 1, 2, 3, 6, 7, 11]


@pytest.mark.parametrize("players", [0, 1, 2, 3, 6, 7, 11])
def test_impossible_fields_raise_with_field_and_code(players):
    with pytest.raises(SeatingImpossible) as caught:
        table_sizes(players)
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.field == "players"
    assert error.code == "seating_impossible"
    assert error.params["players"] == players
    assert str(error) == f"players: {error.message}"
    assert not error.message.startswith("players:")
    assert can_seat(players + error.params["add"])
    if error.params["withdraw"] is not None:
        assert can_seat(players - error.params["withdraw"])


@pytest.mark.parametrize(
    ("players", "add", "withdraw"),
    [
        # 5 players fit one table of five, so 7 players withdraw 2, not 3.
        (7, 1, 2),
        (6, 2, 1),
        (11, 1, 1),
        (3, 1, None),
        (1, 3, None),
        (0, 4, None),
    ],
)
def test_impossible_fields_tell_how_many_to_add_or_withdraw(players, add, withdraw):
    with pytest.raises(SeatingImpossible) as caught:
        table_sizes(players)
    error = caught.value
    assert error.params == {"players": players, "add": add, "withdraw": withdraw}
    noun = "player" if add == 1 else "players"
    assert f"add {add} {noun} (making {players + add})" in error.message
    if withdraw is None:
        assert "withdraw" not in error.message
    else:
        assert f"withdraw {withdraw} (leaving {players - withdraw})" in error.message


def test_seven_players_message_in_full():
    with pytest.raises(SeatingImpossible) as caught:
        draw_tables(range(1, 8), seed=1)
    assert str(caught.value) == (
        "players: 7 players cannot be seated at tables of four and five: "
        "add 1 player (making 8) or withdraw 2 (leaving 5)."
    )


# --- a valid, reproducible draw --------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    players=st.lists(st.integers(min_value=1, max_value=10**6), min_size=4, max_size=400, unique=True)
    .filter(lambda ids: can_seat(len(ids))),
    seed=st.integers(min_value=0, max_value=2**63),
)
def test_every_player_sits_exactly_once(players, seed):
    result = draw_tables(players, seed=seed)
    assert_valid_draw(result, players)
    assert result.repeated_pairs == 0
    assert result.club_pairs == 0


@settings(max_examples=30, deadline=None)
@given(n=st.integers(min_value=4, max_value=120).filter(can_seat), seed=st.integers(0, 10**9))
def test_a_later_round_is_a_valid_draw_too(n, seed):
    players = list(range(1, n + 1))
    rng = random.Random(seed)
    clubs = {pid: rng.choice(["A", "B", "C", None]) for pid in players}
    met = pairs_of(random_draw(players, rng)) | pairs_of(random_draw(players, rng))
    result = draw_tables(players, seed=seed, met=met, clubs=clubs, keep_clubs_apart=True)
    assert_valid_draw(result, players)
    assert result.repeated_pairs == count_repeated_pairs(result.tables, met)
    assert result.club_pairs == count_club_pairs(result.tables, clubs)


def test_twenty_one_players_sit_at_one_table_of_five_and_four_of_four():
    result = draw_tables(range(1, 22), seed=7)
    assert [len(table) for table in result.tables] == [5, 4, 4, 4, 4]


def test_same_seed_and_inputs_give_the_same_draw():
    players = list(range(1, 61))
    met = pairs_of(draw_tables(players, seed=1).tables)
    clubs = {pid: "ABC"[pid % 3] for pid in players}
    first = draw_tables(players, seed=2, met=met, clubs=clubs, keep_clubs_apart=True)
    again = draw_tables(players, seed=2, met=met, clubs=clubs, keep_clubs_apart=True)
    assert first == again


def test_the_order_of_the_inputs_does_not_matter():
    players = list(range(1, 61))
    met = sorted(tuple(sorted(pair)) for pair in pairs_of(draw_tables(players, seed=1).tables))
    shuffled_players = list(reversed(players))
    shuffled_met = [(b, a) for a, b in reversed(met)]
    assert draw_tables(players, seed=5, met=met) == draw_tables(
        shuffled_players, seed=5, met=shuffled_met
    )


def test_different_seeds_usually_give_different_draws():
    draws = {draw_tables(range(1, 41), seed=seed).tables for seed in range(20)}
    assert len(draws) >= 19


def test_seats_are_drawn_too():
    # With the seat order shuffled, ids are not simply ascending around every table.
    result = draw_tables(range(1, 101), seed=3)
    assert any(list(table) != sorted(table) for table in result.tables)
    first_seats = {table[0] for table in result.tables}
    assert first_seats != {min(table) for table in result.tables}


def test_met_accepts_tuples_and_frozensets_and_ignores_absent_players():
    players = list(range(1, 17))
    earlier = draw_tables(players, seed=1).tables
    as_sets = pairs_of(earlier) | {frozenset({1, 99}), frozenset({98, 99})}
    as_tuples = [tuple(sorted(pair)) for pair in sorted(as_sets, key=sorted)]
    by_sets = draw_tables(players, seed=2, met=as_sets)
    by_tuples = draw_tables(players, seed=2, met=iter(as_tuples))
    assert by_sets == by_tuples
    assert by_sets.repeated_pairs == 0


def test_a_player_listed_twice_is_refused():
    with pytest.raises(ValueError, match="^players: "):
        draw_tables([1, 2, 3, 4, 4, 5, 6, 7, 8], seed=1)


# --- avoiding repeated pairs -----------------------------------------------------------------


def test_pairs_helpers():
    tables = ((1, 2, 3, 4), (5, 6, 7, 8, 9))
    pairs = pairs_of(tables)
    assert len(pairs) == 6 + 10
    assert frozenset({1, 4}) in pairs and frozenset({4, 5}) not in pairs
    assert count_repeated_pairs(tables, [(2, 1), (1, 5), (9, 8), (8, 9)]) == 2
    assert count_club_pairs(tables, {1: "A", 2: "A", 3: None, 4: None, 5: "A"}) == 1


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_a_hundred_players_never_meet_again_in_three_rounds(seed):
    results = play_rounds(list(range(1, 101)), rounds=3, seed=seed)
    assert [result.repeated_pairs for result in results] == [0, 0, 0]


def test_a_thousand_players_never_meet_again_in_three_rounds():
    results = play_rounds(list(range(1, 1001)), rounds=3, seed=1)
    assert [result.repeated_pairs for result in results] == [0, 0, 0]


@pytest.mark.parametrize("n", [8, 9, 12, 13, 16, 21])
def test_small_fields_do_at_least_as_well_as_the_best_of_a_thousand_random_draws(n):
    players = list(range(1, n + 1))
    baseline_rng = random.Random(n)
    met: set[frozenset[int]] = set()
    for number in (1, 2, 3):
        result = draw_tables(players, seed=number, met=met)
        assert_valid_draw(result, players)
        best_random = min(
            count_repeated_pairs(random_draw(players, baseline_rng), met) for _ in range(1000)
        )
        assert result.repeated_pairs <= best_random, f"round {number}"
        met |= pairs_of(result.tables)


@pytest.mark.parametrize(("n", "seed"), [(8, 1), (8, 2), (9, 1), (9, 2), (10, 3)])
def test_small_fields_reach_the_true_optimum(n, seed):
    # Brute force over every split of the field: the draw must find the lexicographic optimum
    # (fewest repeated pairs, then fewest meetings beyond the first). Pairs listed twice met
    # twice before.
    players = list(range(1, n + 1))
    rng = random.Random(seed)
    met = [pair for _ in range(3) for pair in sorted(pairs_of(random_draw(players, rng)), key=sorted)]

    def cost(tables):
        together = pairs_of(tables)
        repeated = {pair for pair in together if pair in set(met)}
        extra = sum(met.count(pair) - 1 for pair in repeated)
        return len(repeated), extra

    optimum = min(cost(tables) for tables in all_partitions(players, table_sizes(n)))
    result = draw_tables(players, seed=seed, met=met)
    assert cost(result.tables) == optimum
    assert result.repeated_pairs == optimum[0]


# --- keeping clubs apart ---------------------------------------------------------------------


FOUR_CLUBS = {pid: f"club {(pid - 1) // 10}" for pid in range(1, 41)}


@pytest.mark.parametrize("seed", range(5))
def test_four_clubs_of_ten_are_kept_apart(seed):
    players = list(FOUR_CLUBS)
    results = play_rounds(players, rounds=3, seed=seed, clubs=FOUR_CLUBS, keep_clubs_apart=True)
    assert [(r.repeated_pairs, r.club_pairs) for r in results] == [(0, 0)] * 3


def test_without_the_option_clubs_usually_meet():
    players = list(FOUR_CLUBS)
    draws = [draw_tables(players, seed=seed, clubs=FOUR_CLUBS) for seed in range(10)]
    assert sum(1 for draw in draws if draw.club_pairs > 0) >= 9


def test_repeated_pairs_weigh_more_than_club_pairs():
    # Player 1 met 5, 6 and 7. Without a repeat his table is three of 2, 3, 4, 8, which puts
    # three club pairs together; with one repeat two club pairs would do. The draw avoids the
    # repeat.
    clubs = {1: "X", 2: "X", 3: "X", 4: "X"}
    result = draw_tables(
        range(1, 9), seed=1, met=[(1, 5), (1, 6), (1, 7)], clubs=clubs, keep_clubs_apart=True
    )
    assert (result.repeated_pairs, result.club_pairs) == (0, 3)


def test_clubs_are_reported_but_ignored_without_the_option():
    clubs = {pid: "X" for pid in range(1, 9)}
    result = draw_tables(range(1, 9), seed=1, clubs=clubs)
    assert result.club_pairs == 12
