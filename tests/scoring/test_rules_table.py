"""The table's sequence (scoring/rules/table.py): dealer, who sits out, next game, games required and played.

rules.md section 2: seat 1 deals game 1, the deal passes clockwise, at a table of five the dealer
sits out; 32 games at four, 40 at five. Section 6: a thrown-in game is dealt again by the same
dealer and does not count.
"""

import pytest

from scoring.rules.table import (
    SheetSlot,
    deal_schedule,
    dealer_for,
    dealer_of,
    first_free_number,
    games_required,
    sheet_slots,
    sits_out,
    table_sequence,
)


@pytest.mark.parametrize(
    ("games_per_round", "size", "required"),
    [
        (32, 4, 32),
        (32, 5, 40),
        (8, 4, 8),
        (8, 5, 10),
        (64, 5, 80),
        (12, 5, 15),
    ],
)
def test_games_required(games_per_round, size, required):
    assert games_required(games_per_round, size) == required


@pytest.mark.parametrize(
    ("number", "thrown_in_before", "size", "dealer"),
    [
        (1, 0, 4, 1),
        (4, 0, 4, 4),
        (5, 0, 4, 1),
        (9, 0, 4, 1),
        (1, 0, 5, 1),
        (5, 0, 5, 5),
        (6, 0, 5, 1),
        (2, 1, 4, 1),  # game 1 thrown in: seat 1 deals again
        (3, 1, 4, 2),
        (7, 2, 5, 5),
    ],
)
def test_dealer_for(number, thrown_in_before, size, dealer):
    assert dealer_for(number, thrown_in_before, size) == dealer


@pytest.mark.parametrize(("dealer", "size", "out"), [(1, 4, None), (3, 4, None), (3, 5, 3), (5, 5, 5), (None, 5, None)])
def test_only_the_dealer_at_a_table_of_five_sits_out(dealer, size, out):
    assert sits_out(dealer, size) == out


@pytest.mark.parametrize(("taken", "free"), [((), 1), ((1, 2, 3), 4), ((1, 3), 2), ((2, 3), 1)])
def test_first_free_number_fills_a_gap_first(taken, free):
    assert first_free_number(taken) == free


@pytest.mark.parametrize(
    ("entries", "size", "games", "expected"),
    [
        # (number, thrown_in) ... → (played, thrown_in, last, next number, next dealer, sitting out)
        ((), 4, 32, (0, 0, 0, 1, 1, None)),
        ((), 5, 32, (0, 0, 0, 1, 1, 1)),
        (((1, False), (2, False)), 4, 32, (2, 0, 2, 3, 3, None)),
        (((1, False), (2, True)), 4, 32, (1, 1, 2, 3, 2, None)),  # a Strich: seat 2 deals again
        (((1, True), (2, True), (3, False)), 5, 32, (1, 2, 3, 4, 2, 2)),
        (((1, False), (3, False)), 4, 32, (2, 0, 3, 2, 2, None)),  # a deleted game's gap comes first
        (tuple((n, False) for n in range(1, 9)), 4, 8, (8, 0, 8, None, None, None)),  # every game played
        (tuple((n, n == 4) for n in range(1, 11)), 5, 8, (9, 1, 10, 11, 5, 5)),
        (tuple((n, False) for n in range(1, 11)), 5, 8, (10, 0, 10, None, None, None)),
    ],
)
def test_table_sequence(entries, size, games, expected):
    seq = table_sequence(entries, table_size=size, games_per_round=games)
    got = (seq.games_played, seq.thrown_in, seq.last_number, seq.next_number, seq.next_dealer, seq.sitting_out)
    assert got == expected
    assert seq.games_required == games_required(games, size)
    assert seq.games_complete == (expected[3] is None)
    assert seq.entries == len(entries)


def test_the_dealer_of_a_game_counts_only_the_striche_before_it():
    entries = [(1, False), (2, True), (3, False), (4, True)]
    assert [dealer_of(entries, n, 4) for n in (1, 2, 3, 4, 5)] == [1, 2, 2, 3, 3]


def test_deal_schedule_agrees_with_the_table_sequence():
    flags = [False, True, False, False, True, True, False]
    dealer, played = deal_schedule(flags, 5)
    seq = table_sequence(list(enumerate(flags, start=1)), table_size=5, games_per_round=32)
    assert (dealer, played) == (seq.next_dealer, seq.games_played)


@pytest.mark.parametrize(
    ("entries", "size", "games", "expected"),
    [
        ((), 4, 4, ((1, 1, None), (2, 2, None), (3, 3, None), (4, 4, None))),
        (((1, False), (2, True)), 4, 3, ((1, 1, False), (2, 2, True), (3, 2, None), (4, 3, None))),
        (((1, False), (3, False)), 4, 2, ((1, 1, False), (2, 2, None), (3, 3, False))),  # a gap, past the round's end
        (((1, True),), 5, 2, ((1, 1, True), (2, 1, None), (3, 2, None))),
    ],
)
def test_sheet_slots(entries, size, games, expected):
    assert sheet_slots(entries, table_size=size, games_required=games) == tuple(
        SheetSlot(number=n, dealer=d, thrown_in=t) for n, d, t in expected
    )
