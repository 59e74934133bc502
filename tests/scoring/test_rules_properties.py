"""Properties of the scoring over generated valid games (hypothesis)."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import (
    RuleError,
    hand_from_dict,
    hand_to_dict,
    ruleset_from_dict,
    score_hand,
    validate_hand,
)

MAX_LAUFENDE = {"rufspiel": 14, "solo": 14, "wenz": 4, "kreuz": 14}


@st.composite
def rule_options(draw):
    """A ruleset document: the options that change what is valid or how it scores."""
    return {
        "kontra_allowed": draw(st.booleans()),
        "all_pass": draw(st.sampled_from(["muss", "redeal", "kreuz"])),
        "kreuz_tie": draw(st.sampled_from(["lost", "replay"])),
        "muss_win": draw(st.sampled_from([60, 61])),
        "laufende_max": draw(st.one_of(st.none(), st.integers(1, 14))),
        "laufende_min": {
            "rufspiel": draw(st.integers(1, 5)),
            "solo": draw(st.integers(1, 5)),
            "wenz": draw(st.integers(1, 4)),
        },
        "solo_base": draw(st.integers(1, 10)),
        "rufspiel_base": draw(st.integers(1, 3)),
    }


@st.composite
def games(draw, scoring="plus_minus"):
    """(hand record, rules document, table size) of one valid game."""
    options = {**draw(rule_options()), "scoring": scoring}
    table_size = draw(st.sampled_from([4, 5]))
    seats = list(range(1, table_size + 1))
    hand = {}
    if table_size == 5 or draw(st.booleans()):
        hand["dealer"] = draw(st.sampled_from(seats))
    active = [s for s in seats if table_size == 4 or s != hand.get("dealer")]

    contracts = ["rufspiel", "wenz", "solo"]
    if options["all_pass"] == "redeal":
        contracts.append("weiter")
    elif options["all_pass"] == "kreuz":
        contracts += ["kreuz", "kreuz"]
    contract = draw(st.sampled_from(contracts))
    hand["contract"] = contract
    if contract == "weiter":
        return hand, options, table_size

    hand["declarer"] = declarer = draw(st.sampled_from(active))
    kind = "normal"
    if contract == "rufspiel":
        hand["partner"] = draw(st.sampled_from([s for s in active if s != declarer]))
        hand["called"] = draw(st.sampled_from(["eichel", "gras", "schellen"]))
        if options["all_pass"] == "muss" and draw(st.booleans()):
            hand["muss"] = True
            hand["called_card"] = draw(st.sampled_from(["sau", "zehn", "koenig"]))
            hand["renonce"] = draw(st.booleans())
    elif contract == "kreuz":
        if draw(st.booleans()):  # the table may name the partner; it is always the seat opposite
            hand["partner"] = active[(active.index(declarer) + 2) % 4]
    else:
        if contract == "solo":
            hand["trump"] = draw(st.sampled_from(["eichel", "gras", "herz", "schellen"]))
        kind = draw(
            st.sampled_from(["normal", "normal", "tout", "sie"] if contract == "solo" else ["normal", "normal", "tout"])
        )
    if kind == "sie":
        hand["sie"] = True
    elif kind == "tout":
        hand["tout"] = True
        hand["won"] = draw(st.booleans())
    else:
        hand["augen"] = augen = draw(st.integers(0, 120))
        if augen in (0, 120) and draw(st.booleans()):
            hand["schwarz"] = True
    if kind != "sie":
        hand["laufende"] = draw(st.integers(0, MAX_LAUFENDE[contract]))
    if options["kontra_allowed"] and not hand.get("muss") and kind != "sie" and contract != "kreuz":
        hand["kontra"] = draw(st.integers(0, 2))
    return hand, options, table_size


@given(games())
def test_generated_games_are_valid_and_round_trip(game):
    hand, options, table_size = game

    validate_hand(hand_from_dict(hand), ruleset_from_dict(options), table_size)
    assert hand_to_dict(hand_from_dict(hand)) == hand


@given(games())
def test_every_game_sums_to_zero(game):
    hand, options, table_size = game
    score = score_hand(hand, ruleset_from_dict(options), table_size)

    assert sorted(score.points) == list(range(1, table_size + 1))
    assert sum(score.points.values()) == 0


@given(st.one_of(games(), games("plus_only")))
def test_the_sitting_out_dealer_always_has_zero(game):
    hand, options, table_size = game
    score = score_hand(hand, ruleset_from_dict(options), table_size)

    if table_size == 5:
        assert score.points[hand["dealer"]] == 0


@given(games())
def test_points_follow_the_value(game):
    hand, options, table_size = game
    score = score_hand(hand, ruleset_from_dict(options), table_size)
    if score.thrown_in:
        assert set(score.points.values()) == {0}
        return

    gain = score.value if score.declarer_won else -score.value
    partner = hand.get("partner", score.partner)  # über Kreuz the seat opposite
    assert score.value >= 1
    assert score.points[hand["declarer"]] == (gain if partner else 3 * gain)
    if partner:
        assert score.points[partner] == gain
    sitting_out = hand.get("dealer") if table_size == 5 else None
    defenders = set(score.points) - {hand["declarer"], partner, sitting_out}
    assert {score.points[seat] for seat in defenders} == {-gain}


@given(games())
def test_more_laufende_never_lower_the_value(game):
    hand, options, table_size = game
    if hand["contract"] == "weiter" or hand.get("sie"):
        return
    more = {**hand, "laufende": hand["laufende"] + 1}
    if more["laufende"] > MAX_LAUFENDE[hand["contract"]]:
        return
    rules = ruleset_from_dict(options)

    before = score_hand(hand, rules, table_size)
    after = score_hand(more, rules, table_size)

    assert after.value >= before.value
    assert after.declarer_won == before.declarer_won


@given(games())
def test_win_and_schneider_lines(game):
    hand, options, table_size = game
    if "augen" not in hand:
        return
    augen = hand["augen"]
    score = score_hand(hand, ruleset_from_dict(options), table_size)

    if hand.get("muss") and options["muss_win"] == 60:
        # the Muss party wins with 60, is schneiderfrei with 30 and wins Schneider with 90
        assert score.declarer_won == (augen >= 60)
        lines = augen >= 90 or augen <= 29
    else:
        # wins with 61, Schneider with 91; schneiderfrei with 31, defenders with 30
        assert score.declarer_won == (augen >= 61)
        lines = augen >= 91 or augen <= 30
    assert score.schneider == (lines or bool(hand.get("schwarz")))
    assert score.schwarz == bool(hand.get("schwarz"))


@given(games("plus_only"))
def test_plus_only_is_plus_minus_without_negatives(game):
    hand, options, table_size = game
    plus_only = score_hand(hand, ruleset_from_dict(options), table_size)
    plus_minus = score_hand(hand, ruleset_from_dict({**options, "scoring": "plus_minus"}), table_size)

    assert all(points >= 0 for points in plus_only.points.values())
    assert plus_only.points == {seat: max(0, p) for seat, p in plus_minus.points.items()}
    assert plus_only.value == plus_minus.value


@settings(max_examples=50)
@given(games())
def test_scoring_a_hand_object_does_not_change_it(game):
    hand, options, table_size = game
    record = hand_from_dict(hand)

    score_hand(record, ruleset_from_dict(options), table_size)

    assert record == hand_from_dict(hand)
    with pytest.raises(RuleError) as refused:  # a Geier is not in the ruleset
        validate_hand(replace(record, contract="geier"), ruleset_from_dict(options), table_size)
    assert refused.value.field == "contract"
