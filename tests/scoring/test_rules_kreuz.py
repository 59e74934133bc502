"""Games "über Kreuz" (rules.md section 6): fixed crosswise pairs when all pass.

Table-driven examples plus hypothesis properties: every Kreuz sums to 0, the pair is always
opposite among the active seats, and a 60:60 under ``kreuz_tie = replay`` is thrown in (the
game number does not advance, the same dealer deals again).
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.rules import RuleError, ruleset_from_dict, score_hand, score_to_dict
from scoring.rules.seats import active_seats, kreuz_pair, kreuz_partner, vorhand
from scoring.rules.table import deal_schedule

KREUZ = ruleset_from_dict({"all_pass": "kreuz"})
REPLAY = ruleset_from_dict({"all_pass": "kreuz", "kreuz_tie": "replay"})


@pytest.mark.parametrize(
    "table_size, dealer, pairs",
    [
        (4, None, {1: 3, 2: 4, 3: 1, 4: 2}),
        (4, 2, {1: 3, 2: 4, 3: 1, 4: 2}),
        (5, 1, {2: 4, 3: 5, 4: 2, 5: 3}),
        (5, 3, {1: 4, 2: 5, 4: 1, 5: 2}),
        (5, 5, {1: 3, 2: 4, 3: 1, 4: 2}),
    ],
)
def test_the_partner_sits_opposite_among_the_active_seats(table_size, dealer, pairs):
    assert {seat: kreuz_partner(seat, table_size, dealer) for seat in pairs} == pairs


def test_vorhand_and_the_pair_written_low_seat_first():
    assert vorhand(4, 4) == 1 and vorhand(1, 4) == 2 and vorhand(5, 5) == 1 and vorhand(3, 5) == 4
    assert kreuz_pair(3, 4, None) == (1, 3)
    assert kreuz_pair(vorhand(1, 5), 5, 1) == (2, 4)


def test_scored_like_a_rufspiel_of_the_pair_without_reuegeld():
    rules = ruleset_from_dict({"all_pass": "kreuz", "reuegeld_cents": {"rufspiel": 20}})
    score = score_hand({"contract": "kreuz", "declarer": 4, "augen": 30, "laufende": 5}, rules)

    assert score.points == {1: 6, 2: -6, 3: 6, 4: -6}  # 1 + Schneider 1 + 4 Laufende (capped), lost
    assert (score.value, score.declarer_won, score.schneider, score.laufende) == (6, False, True, 4)
    assert score.partner == 2 and score.reuegeld == {} and not score.lost_solo


def test_laufende_count_from_the_rufspiel_minimum():
    rules = ruleset_from_dict({"all_pass": "kreuz", "laufende_min": {"rufspiel": 4}})
    assert score_hand({"contract": "kreuz", "declarer": 1, "augen": 70, "laufende": 3}, rules).value == 1
    assert score_hand({"contract": "kreuz", "declarer": 1, "augen": 70, "laufende": 4}, rules).value == 5


def test_60_to_60_is_lost_by_default_and_thrown_in_under_replay():
    hand = {"contract": "kreuz", "declarer": 1, "augen": 60}
    assert score_hand(hand, KREUZ).points == {1: -1, 2: 1, 3: -1, 4: 1}

    replayed = score_hand({**hand, "dealer": 4}, REPLAY, 5)
    assert replayed.thrown_in and replayed.weitergeld == {} and replayed.contract == "kreuz"
    assert score_to_dict(replayed) == {
        "points": {"1": 0, "2": 0, "3": 0, "4": 0, "5": 0},
        "value": 0,
        "thrown_in": True,
        "weitergeld": {},
    }
    assert not score_hand({**hand, "augen": 61}, REPLAY).thrown_in
    assert not score_hand({**hand, "augen": 59}, REPLAY).thrown_in


def test_a_named_partner_must_be_the_seat_opposite():
    assert score_hand({"contract": "kreuz", "declarer": 2, "partner": 4, "augen": 70}, KREUZ).partner == 4
    with pytest.raises(RuleError) as raised:
        score_hand({"contract": "kreuz", "declarer": 2, "partner": 3, "augen": 70}, KREUZ)
    assert raised.value.field == "partner"
    assert raised.value.params == {"seat": 3, "declarer": 2, "expected": 4}


@st.composite
def kreuz_games(draw):
    table_size = draw(st.sampled_from([4, 5]))
    dealer = draw(st.integers(1, table_size))
    active = active_seats(table_size, dealer)
    hand = {
        "contract": "kreuz",
        "declarer": draw(st.sampled_from(active)),
        "augen": draw(st.integers(0, 120)),
        "laufende": draw(st.integers(0, 14)),
        "dealer": dealer,
    }
    if hand["augen"] in (0, 120) and draw(st.booleans()):
        hand["schwarz"] = True
    rules = ruleset_from_dict(
        {
            "all_pass": "kreuz",
            "kreuz_tie": draw(st.sampled_from(["lost", "replay"])),
            "scoring": draw(st.sampled_from(["plus_minus", "plus_minus", "plus_only"])),
            "rufspiel_base": draw(st.integers(1, 3)),
            "laufende_max": draw(st.one_of(st.none(), st.integers(1, 14))),
        }
    )
    return hand, rules, table_size


@given(kreuz_games())
def test_every_kreuz_sums_to_zero_and_the_pair_is_opposite(game):
    hand, rules, table_size = game
    score = score_hand(hand, rules, table_size)
    active = active_seats(table_size, hand["dealer"])
    pair = {hand["declarer"], score.partner}

    assert score.partner in active and score.partner != hand["declarer"]
    assert abs(active.index(score.partner) - active.index(hand["declarer"])) == 2  # first+third or second+fourth
    if table_size == 5:
        assert score.points[hand["dealer"]] == 0
    if rules.scoring == "plus_minus":
        assert sum(score.points.values()) == 0
        if not score.thrown_in:
            gain = score.value if score.declarer_won else -score.value
            assert {score.points[s] for s in pair} == {gain}
            assert {score.points[s] for s in set(active) - pair} == {-gain}
    assert score.reuegeld == {} and score.weitergeld == {}


@given(st.sampled_from([4, 5]), st.lists(st.integers(0, 120), max_size=30))
def test_a_replayed_60_to_60_never_advances_the_game_number(table_size, augen_list):
    """Enter Kreuz games one after another: a 60:60 is the same game again, dealt by the same dealer."""
    thrown_in: list[bool] = []
    for augen in augen_list:
        dealer, played = deal_schedule(thrown_in, table_size)
        score = score_hand(
            {"contract": "kreuz", "declarer": vorhand(dealer, table_size), "augen": augen, "dealer": dealer},
            REPLAY,
            table_size,
        )
        thrown_in.append(score.thrown_in)
        next_dealer, next_played = deal_schedule(thrown_in, table_size)
        if augen == 60:
            assert (next_dealer, next_played) == (dealer, played)
        else:
            assert next_played == played + 1 and next_dealer == dealer % table_size + 1
    assert deal_schedule(thrown_in, table_size)[1] == sum(1 for augen in augen_list if augen != 60)
