"""A table of five that loses a player plays on with four (rules.md section 2), pure and hand-computed."""

import pytest

from scoring.rules.table import dealer_with_four, games_with_four, table_sequence

CYCLE = [1, 2, 3, 4, 5]


@pytest.mark.parametrize(
    "sat_out, left, expected",
    [
        # 20 games: each sat out 4 and played 16; the four play 16 more: 36 games
        pytest.param(CYCLE * 4, 3, 36, id="after 20 games"),
        # 17 games: seats 1, 2 sat out 4 (played 13), seats 3, 4, 5 sat out 3 (played 14); seat 3 leaves:
        # 4 and 5 have 14, so 18 more (they play 32, seats 1 and 2 play 31): 35 games
        pytest.param(CYCLE * 3 + [1, 2], 3, 35, id="after 17 games"),
        # seat 1 leaves instead: 2 has 13, 3, 4, 5 have 14: the same 18 more
        pytest.param(CYCLE * 3 + [1, 2], 1, 35, id="after 17 games, seat 1"),
        pytest.param([], 2, 32, id="before the first game: a table of four"),
        pytest.param(CYCLE * 8, 5, 40, id="after the last game: nothing more"),
    ],
)
def test_the_rounds_games_with_four(sat_out, left, expected):
    assert games_with_four(32, sat_out, left) == expected


def test_the_deal_passes_on_over_the_four_from_the_seat_after_the_last_dealer():
    # seat 3 left after game 17 (dealt by seat 2): 4 deals game 18, then 5, 1, 2, 4 ...
    deals = [dealer_with_four(n, empty_seat=3, first=18, last_dealer=2, thrown_in_since=0) for n in range(18, 24)]
    assert deals == [4, 5, 1, 2, 4, 5]
    # a Strich (game 19 thrown in) is dealt again by the same dealer: game 20 is seat 5's again
    assert dealer_with_four(20, empty_seat=3, first=18, last_dealer=2, thrown_in_since=1) == 5
    # the empty seat was the last dealer: the next one after it
    assert dealer_with_four(18, empty_seat=2, first=18, last_dealer=2, thrown_in_since=0) == 3
    assert dealer_with_four(1, empty_seat=1, first=1, last_dealer=None, thrown_in_since=0) == 2


def test_the_sequence_of_a_table_with_four_has_the_empty_seat_sit_out_and_its_own_games():
    entries = [(n, False) for n in range(1, 18)]
    seq = table_sequence(entries, table_size=5, games_per_round=32, left=(3, 18, 35))
    assert (seq.games_required, seq.next_number, seq.next_dealer, seq.sitting_out) == (35, 18, 3, 3)
    done = table_sequence([(n, False) for n in range(1, 36)], table_size=5, games_per_round=32, left=(3, 18, 35))
    assert done.games_complete and done.next_number is None
