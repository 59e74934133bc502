"""The hand record: shape and type checks, and its dict form for the archive."""

import pytest

from scoring.rules import HAND_FIELDS, HandRecord, RuleError, hand_from_dict, hand_to_dict


def test_fields_in_section_4_order():
    assert HAND_FIELDS == (
        "contract",
        "declarer",
        "partner",
        "called",
        "muss",
        "called_card",
        "renonce",
        "trump",
        "tout",
        "sie",
        "augen",
        "schwarz",
        "won",
        "laufende",
        "kontra",
        "dealer",
    )


def test_unset_fields_are_none():
    hand = hand_from_dict({"contract": "wenz", "declarer": 2, "augen": 75})

    assert hand == HandRecord(contract="wenz", declarer=2, augen=75)
    assert hand.laufende is None and hand.tout is None and hand.partner is None


@pytest.mark.parametrize(
    "record",
    [
        {
            "contract": "rufspiel",
            "declarer": 2,
            "partner": 4,
            "called": "eichel",
            "augen": 72,
            "laufende": 0,
            "dealer": 1,
        },
        {
            "contract": "rufspiel",
            "muss": True,
            "called_card": "zehn",
            "renonce": False,
            "declarer": 1,
            "partner": 3,
            "called": "gras",
            "augen": 30,
        },
        {"contract": "solo", "trump": "herz", "declarer": 4, "sie": True},
        {"contract": "solo", "trump": "gras", "declarer": 3, "tout": True, "won": False, "laufende": 5, "kontra": 2},
        {"contract": "wenz", "declarer": 1, "augen": 0, "schwarz": True, "tout": False},
        {"contract": "weiter", "dealer": 5},
    ],
)
def test_round_trip(record):
    assert hand_to_dict(hand_from_dict(record)) == record


def test_to_dict_leaves_out_what_was_not_entered_and_keeps_section_4_order():
    record = {"augen": 72, "called": "gras", "partner": 3, "declarer": 1, "contract": "rufspiel"}

    assert list(hand_to_dict(hand_from_dict(record))) == [
        "contract",
        "declarer",
        "partner",
        "called",
        "augen",
    ]


def test_null_is_the_same_as_left_out():
    record = {"contract": "wenz", "declarer": 2, "augen": 75, "partner": None, "tout": None}

    assert hand_from_dict(record) == HandRecord(contract="wenz", declarer=2, augen=75)
    assert hand_to_dict(hand_from_dict(record)) == {"contract": "wenz", "declarer": 2, "augen": 75}


@pytest.mark.parametrize(
    "record, field, code",
    [
        ({"contract": "wenz", "declarer": 1, "augen": 70, "points": 3}, "points", "unknown_key"),
        ({"contract": "wenz", "declarer": 1, "augen": 70, "Augen": 70}, "Augen", "unknown_key"),
        ({"contract": "wenz", "declarer": 1, "bock": None}, "bock", "unknown_key"),
        ({"declarer": 1, "augen": 70}, "contract", "missing"),
        ({"contract": None, "declarer": 1}, "contract", "missing"),
        ({"contract": 1, "declarer": 1}, "contract", "wrong_type"),
        ({"contract": "wenz", "declarer": "1", "augen": 70}, "declarer", "wrong_type"),
        ({"contract": "wenz", "declarer": True, "augen": 70}, "declarer", "wrong_type"),
        ({"contract": "wenz", "declarer": 1, "augen": 70.0}, "augen", "wrong_type"),
        ({"contract": "wenz", "declarer": 1, "augen": False}, "augen", "wrong_type"),
        ({"contract": "wenz", "declarer": 1, "augen": 70, "tout": 1}, "tout", "wrong_type"),
        ({"contract": "wenz", "declarer": 1, "augen": 70, "schwarz": "no"}, "schwarz", "wrong_type"),
        ({"contract": "wenz", "declarer": 1, "augen": 70, "laufende": True}, "laufende", "wrong_type"),
        ({"contract": "solo", "declarer": 1, "augen": 70, "trump": 2}, "trump", "wrong_type"),
        ({"contract": "rufspiel", "declarer": 1, "partner": 2, "muss": 1, "augen": 70}, "muss", "wrong_type"),
        ({"contract": "rufspiel", "declarer": 1, "partner": [2], "augen": 70}, "partner", "wrong_type"),
    ],
)
def test_shape_errors(record, field, code):
    with pytest.raises(RuleError) as raised:
        hand_from_dict(record)

    assert (raised.value.field, raised.value.code) == (field, code)


@pytest.mark.parametrize("record", [[("contract", "wenz")], "wenz", None, 3])
def test_a_record_must_be_an_object(record):
    with pytest.raises(RuleError) as raised:
        hand_from_dict(record)

    assert (raised.value.field, raised.value.code) == ("hand", "wrong_type")


def test_hand_is_frozen():
    hand = HandRecord(contract="wenz", declarer=1, augen=70)

    with pytest.raises(AttributeError):
        hand.augen = 80  # type: ignore[misc]
