"""The seat draw (tournaments/seating.py, rules.md section 2). No database, no Django settings."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import example, given, settings
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


def club_lower_bound(clubs: dict[int, str | None], tables: int) -> int:
    """The fewest same-club pairs any draw can reach: every club spread as evenly as possible.

    Dealing the players sorted by club round the tables one by one reaches it, so in round 1
    (nothing met yet) the draw that keeps clubs apart must reach it too.
    """
    sizes: dict[str, int] = {}
    for club in clubs.values():
        if club:
            sizes[club] = sizes.get(club, 0) + 1
    total = 0
    for size in sizes.values():
        per_table, rest = divmod(size, tables)
        total += rest * (per_table + 1) * per_table // 2 + (tables - rest) * per_table * (per_table - 1) // 2
    return total


CLUB_NAMES = [None, "A", "B", "C", "D", "E"]


@st.composite
def fields(draw, min_size: int, max_size: int):
    """A seatable field: players 1..n and, perhaps, their clubs (``None``: no club)."""
    n = draw(st.integers(min_value=min_size, max_value=max_size).filter(can_seat))
    players = list(range(1, n + 1))
    if not draw(st.booleans()):
        return players, None
    names = draw(st.lists(st.sampled_from(CLUB_NAMES), min_size=n, max_size=n))
    return players, dict(zip(players, names, strict=True))


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
    assert [n for n in range(200) if not can_seat(n)] == [0, 1, 2, 3, 6, 7, 11]


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
    players=st.lists(st.integers(min_value=1, max_value=10**6), min_size=4, max_size=400, unique=True).filter(
        lambda ids: can_seat(len(ids))
    ),
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


@settings(max_examples=80, deadline=None)
@given(
    players=st.lists(st.integers(min_value=1, max_value=10**6), min_size=4, max_size=150, unique=True).filter(
        lambda ids: can_seat(len(ids))
    ),
    seed=st.integers(min_value=0, max_value=2**63),
    earlier_rounds=st.integers(min_value=0, max_value=3),
    clubs_in_play=st.integers(min_value=0, max_value=5),
    keep_clubs_apart=st.booleans(),
    shuffle_seed=st.integers(min_value=0, max_value=2**32),
)
# The fixed case from before: 60 players, one earlier round, three clubs kept apart.
@example(players=list(range(1, 61)), seed=2, earlier_rounds=1, clubs_in_play=3, keep_clubs_apart=True, shuffle_seed=0)
def test_same_seed_and_inputs_give_the_same_draw(
    players, seed, earlier_rounds, clubs_in_play, keep_clubs_apart, shuffle_seed
):
    # given: a field, the pairs of some earlier rounds (each round's pairs listed again, so some
    # pairs weigh double) and clubs
    met: list[frozenset[int]] = []
    for number in range(1, earlier_rounds + 1):
        met += sorted(pairs_of(draw_tables(players, seed=seed - number).tables), key=sorted)
    names = "ABCDE"[:clubs_in_play]
    clubs = {pid: names[pid % len(names)] for pid in players} if names else None
    options = {"clubs": clubs, "keep_clubs_apart": keep_clubs_apart}

    # when: the draw runs twice with the same seed, once more with the inputs in another order
    first = draw_tables(players, seed=seed, met=met, **options)
    again = draw_tables(players, seed=seed, met=list(met), **options)
    rng = random.Random(shuffle_seed)
    reordered_players = rng.sample(players, len(players))
    reordered_met = [tuple(rng.sample(sorted(pair), 2)) for pair in rng.sample(met, len(met))]
    reordered = draw_tables(reordered_players, seed=seed, met=reordered_met, **options)

    # then: the same draw every time
    assert_valid_draw(first, players)
    assert first == again
    assert reordered == first, "the order of players and pairs must not change the draw"


REPRODUCE = """
import json
from tournaments.seating import draw_tables, pairs_of
players = list(range(1, 42))
clubs = {pid: "club " + "ABCD"[pid % 4] for pid in players}
met = pairs_of(draw_tables(players, seed=1).tables) | pairs_of(draw_tables(players, seed=2).tables)
print(json.dumps(draw_tables(players, seed=3, met=met, clubs=clubs, keep_clubs_apart=True).tables))
"""


def test_the_stored_seed_gives_the_same_draw_in_another_process():
    # A round is drawn again from its stored seed after a restart: string hashing (club names,
    # set order) differs between processes and must not change the draw.
    root = Path(__file__).resolve().parents[2]
    draws = set()
    for hash_seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(root)}
        run = subprocess.run(
            [sys.executable, "-c", REPRODUCE], capture_output=True, text=True, env=env, cwd=root, check=True
        )
        draws.add(run.stdout)
    assert len(draws) == 1
    players = list(range(1, 42))
    clubs = {pid: "club " + "ABCD"[pid % 4] for pid in players}
    met = pairs_of(draw_tables(players, seed=1).tables) | pairs_of(draw_tables(players, seed=2).tables)
    here = draw_tables(players, seed=3, met=met, clubs=clubs, keep_clubs_apart=True)
    assert json.loads(draws.pop()) == [list(table) for table in here.tables]


def test_the_order_of_the_inputs_does_not_matter():
    players = list(range(1, 61))
    met = sorted(tuple(sorted(pair)) for pair in pairs_of(draw_tables(players, seed=1).tables))
    shuffled_players = list(reversed(players))
    shuffled_met = [(b, a) for a, b in reversed(met)]
    assert draw_tables(players, seed=5, met=met) == draw_tables(shuffled_players, seed=5, met=shuffled_met)


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
    with pytest.raises(ValueError, match=r"^players: "):
        draw_tables([1, 2, 3, 4, 4, 5, 6, 7, 8], seed=1)


# --- avoiding repeated pairs -----------------------------------------------------------------


def test_pairs_helpers():
    tables = ((1, 2, 3, 4), (5, 6, 7, 8, 9))
    pairs = pairs_of(tables)
    assert len(pairs) == 6 + 10
    assert frozenset({1, 4}) in pairs and frozenset({4, 5}) not in pairs
    assert count_repeated_pairs(tables, [(2, 1), (1, 5), (9, 8), (8, 9)]) == 2
    assert count_club_pairs(tables, {1: "A", 2: "A", 3: None, 4: None, 5: "A"}) == 1


@settings(max_examples=300, deadline=None)
@given(
    field=fields(min_size=64, max_size=200),
    seed=st.integers(min_value=0, max_value=2**40),
    keep_clubs_apart=st.booleans(),
)
# The fixed cases from before: 100 players, no clubs, seeds 1 to 5.
@example(field=(list(range(1, 101)), None), seed=1, keep_clubs_apart=False)
@example(field=(list(range(1, 101)), None), seed=2, keep_clubs_apart=False)
@example(field=(list(range(1, 101)), None), seed=3, keep_clubs_apart=False)
@example(field=(list(range(1, 101)), None), seed=4, keep_clubs_apart=False)
@example(field=(list(range(1, 101)), None), seed=5, keep_clubs_apart=False)
# Everybody in one club: the most club pairs there can be, and still no one meets again.
@example(field=(list(range(1, 65)), dict.fromkeys(range(1, 65), "A")), seed=1, keep_clubs_apart=True)
def test_fields_of_64_to_200_players_never_meet_again_in_three_rounds(field, seed, keep_clubs_apart):
    # From 64 players on (16 tables and more) three rounds without a repeated pair always exist,
    # so the draw must find them, with or without keeping clubs apart (a secondary cost).
    players, clubs = field
    results = play_rounds(players, rounds=3, seed=seed, clubs=clubs, keep_clubs_apart=keep_clubs_apart)
    assert [result.repeated_pairs for result in results] == [0, 0, 0]
    if keep_clubs_apart and clubs:
        tables = len(table_sizes(len(players)))
        assert results[0].club_pairs == club_lower_bound(clubs, tables)


def test_a_thousand_players_never_meet_again_in_three_rounds():
    results = play_rounds(list(range(1, 1001)), rounds=3, seed=1)
    assert [result.repeated_pairs for result in results] == [0, 0, 0]


@settings(max_examples=60, deadline=None)
@given(
    field=fields(min_size=8, max_size=21),
    seed=st.integers(min_value=0, max_value=2**40),
    baseline_seed=st.integers(min_value=0, max_value=2**40),
    keep_clubs_apart=st.booleans(),
)
# The fixed cases from before: rounds drawn with seeds 1, 2, 3; the baseline seeded with n.
@example(field=(list(range(1, 9)), None), seed=1, baseline_seed=8, keep_clubs_apart=False)
@example(field=(list(range(1, 10)), None), seed=1, baseline_seed=9, keep_clubs_apart=False)
@example(field=(list(range(1, 13)), None), seed=1, baseline_seed=12, keep_clubs_apart=False)
@example(field=(list(range(1, 14)), None), seed=1, baseline_seed=13, keep_clubs_apart=False)
@example(field=(list(range(1, 17)), None), seed=1, baseline_seed=16, keep_clubs_apart=False)
@example(field=(list(range(1, 22)), None), seed=1, baseline_seed=21, keep_clubs_apart=False)
def test_small_fields_do_at_least_as_well_as_the_best_of_a_thousand_random_draws(
    field, seed, baseline_seed, keep_clubs_apart
):
    # Too small for three rounds without repeats: each round must still be no worse than the best
    # of 1,000 random draws against the same earlier pairs, counting (repeated pairs, then club
    # pairs when clubs are kept apart), the order in which the draw weighs them.
    players, clubs = field
    club_map = clubs or {}
    baseline_rng = random.Random(baseline_seed)
    met: set[frozenset[int]] = set()

    def cost(tables) -> tuple[int, int]:
        clubs_together = count_club_pairs(tables, club_map) if keep_clubs_apart else 0
        return count_repeated_pairs(tables, met), clubs_together

    for number in (1, 2, 3):
        result = draw_tables(players, seed=seed + number - 1, met=met, clubs=clubs, keep_clubs_apart=keep_clubs_apart)
        assert_valid_draw(result, players)
        best_random = min(cost(random_draw(players, baseline_rng)) for _ in range(1000))
        assert cost(result.tables) <= best_random, f"round {number}"
        if number == 1 and keep_clubs_apart:
            assert result.club_pairs == club_lower_bound(club_map, len(table_sizes(len(players))))
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
    result = draw_tables(range(1, 9), seed=1, met=[(1, 5), (1, 6), (1, 7)], clubs=clubs, keep_clubs_apart=True)
    assert (result.repeated_pairs, result.club_pairs) == (0, 3)


def test_clubs_are_reported_but_ignored_without_the_option():
    clubs = dict.fromkeys(range(1, 9), "X")
    result = draw_tables(range(1, 9), seed=1, clubs=clubs)
    assert result.club_pairs == 12
