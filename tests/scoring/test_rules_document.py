"""score_document: the score_hands command without its I/O (score-cli.md)."""

import pytest

from scoring.rules import RuleError, score_document

RUF = {"contract": "rufspiel", "declarer": 1, "partner": 3, "called": "gras", "augen": 72}


def test_the_example_of_the_spec():
    doc = {
        "rules": {"laufende_max": None},
        "table_size": 4,
        "hands": [RUF, {"contract": "wenz", "declarer": 2, "augen": 75, "laufende": 5}],
    }

    output, status = score_document(doc)

    assert output == {
        "hands": [
            {
                "points": {"1": 1, "2": -1, "3": 1, "4": -1},
                "value": 1,
                "declarer_won": True,
                "schneider": False,
                "schwarz": False,
                "laufende": 0,
                "reuegeld": {},
            },
            {"error": "laufende: a Wenz has 4 trumps, 5 Laufende are impossible"},
        ],
        "totals": {"1": 1, "2": -1, "3": 1, "4": -1},
    }
    assert status == 1


def test_all_valid_gives_status_0_and_totals_sum_to_zero():
    doc = {
        "hands": [
            RUF,
            {"contract": "solo", "trump": "herz", "declarer": 4, "augen": 58, "laufende": 3},
            {"contract": "wenz", "declarer": 1, "augen": 75, "laufende": 2},
        ]
    }

    output, status = score_document(doc)

    assert status == 0
    assert output["totals"] == {"1": 1 + 8 + 21, "2": -1 + 8 - 7, "3": 1 + 8 - 7, "4": -1 - 24 - 7}
    assert sum(output["totals"].values()) == 0


def test_table_of_five_and_thrown_in_games():
    doc = {
        "rules": {"all_pass": "redeal"},
        "table_size": 5,
        "hands": [
            {"contract": "weiter", "dealer": 1},
            {**RUF, "declarer": 2, "partner": 4, "dealer": 1},
        ],
    }

    output, status = score_document(doc)

    assert status == 0
    assert output["hands"][0] == {
        "points": {"1": 0, "2": 0, "3": 0, "4": 0, "5": 0},
        "value": 0,
        "thrown_in": True,
        "weitergeld": {"2": 10, "3": 10, "4": 10, "5": 10},  # not the dealer who sat out
    }
    assert output["totals"] == {"1": 0, "2": 1, "3": -1, "4": 1, "5": -1}


def test_no_hands_gives_zero_totals():
    assert score_document({"hands": []}) == ({"hands": [], "totals": {"1": 0, "2": 0, "3": 0, "4": 0}}, 0)


def test_a_hand_that_is_not_an_object_is_an_error_entry():
    output, status = score_document({"hands": [RUF, "weiter", 3]})

    assert status == 1
    assert output["hands"][1] == {"error": "hand: must be an object, not text"}
    assert output["hands"][2]["error"].startswith("hand: ")


@pytest.mark.parametrize(
    "doc, field, code",
    [
        ([RUF], "document", "wrong_type"),
        ({"hands": [RUF], "table": 4}, "document", "unknown_key"),
        ({"rules": {"rounds": 9}, "hands": []}, "rules.rounds", "out_of_range"),
        ({"rules": {"laufende_min": {"wenz": "2"}}, "hands": []}, "rules.laufende_min.wenz", "wrong_type"),
        ({"rules": {"bock": True}, "hands": []}, "rules.bock", "unknown_key"),
        ({"rules": "default", "hands": []}, "rules", "wrong_type"),
        ({"table_size": 6, "hands": []}, "table_size", "invalid_choice"),
        ({"table_size": "4", "hands": []}, "table_size", "invalid_choice"),
        ({"table_size": True, "hands": []}, "table_size", "invalid_choice"),
        ({"rules": {}}, "hands", "missing"),
        ({"hands": {"1": RUF}}, "hands", "wrong_type"),
    ],
)
def test_invalid_documents_raise(doc, field, code):
    with pytest.raises(RuleError) as raised:
        score_document(doc)

    assert (raised.value.field, raised.value.code) == (field, code)


def test_null_rules_are_the_default():
    output, status = score_document({"rules": None, "hands": [RUF]})

    assert status == 0 and output["totals"]["1"] == 1


def test_input_is_not_mutated():
    hand = dict(RUF)
    doc = {"rules": {"laufende_min": {"wenz": 3}}, "hands": [hand]}

    score_document(doc)

    assert hand == RUF
    assert doc == {"rules": {"laufende_min": {"wenz": 3}}, "hands": [RUF]}
