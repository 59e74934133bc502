"""One description of a game (scoring/rules/describe.py, worded by scoring/describe.py) for the tablet's
sheet and the printed score sheet."""

import pytest
from django.utils import translation

from scoring.describe import game_name, game_short, game_text
from scoring.rules.describe import HandDescription, describe_hand

CASES = [  # record, the pure description, the sheet's label, the sentence, the printed column (German)
    (
        {"contract": "rufspiel", "called": "gras"},
        HandDescription(game="rufspiel", suit="gras"),
        "Rufspiel",
        "Rufspiel mit der Gras-Sau",
        "Ruf Gras",
    ),
    ({"contract": "rufspiel"}, HandDescription(game="rufspiel"), "Rufspiel", "Rufspiel", "Ruf"),
    (
        {"contract": "rufspiel", "muss": True, "called": "eichel", "renonce": True},
        HandDescription(game="muss", suit="eichel", renonce=True),
        "Muss",
        "Muss mit der Eichel-Sau, Renonce",
        "Muss Eichel Ren.",
    ),
    (
        {"contract": "wenz", "tout": True},
        HandDescription(game="wenz", tout=True),
        "Wenz Tout",
        "Wenz Tout",
        "Wenz-Tout",
    ),
    (
        {"contract": "wenz", "schwarz": True},
        HandDescription(game="wenz", schwarz=True),
        "Wenz",
        "Wenz, Schwarz",
        "Wenz schw.",
    ),
    (
        {"contract": "solo", "trump": "herz"},
        HandDescription(game="solo", suit="herz"),
        "Herz-Solo",
        "Herz-Solo",
        "Solo Herz",
    ),
    (
        {"contract": "solo", "trump": "schellen", "tout": True, "kontra": 1},
        HandDescription(game="solo", suit="schellen", tout=True, kontra=1),
        "Schellen-Solo Tout",
        "Schellen-Solo Tout, Kontra",
        "Tout Schellen ×2",
    ),
    ({"contract": "solo", "sie": True}, HandDescription(game="sie"), "Sie", "Sie", "Sie"),
    (
        {"contract": "solo", "sie": True, "trump": "herz"},
        HandDescription(game="sie", suit="herz"),
        "Sie",
        "Sie",
        "Sie Herz",
    ),
    (
        {"contract": "kreuz", "declarer": 3, "partner": 1, "kontra": 2},
        HandDescription(game="kreuz", pair=(1, 3), kontra=2),
        "Kreuz",
        "1+3 über Kreuz, Kontra und Re",
        "1+3 über Kreuz ×4",
    ),
    (
        {"contract": "kreuz", "declarer": 2, "augen": 60, "thrown_in": True},
        HandDescription(game="kreuz_replay", augen=60),
        None,
        "Strich (Kreuz 60:60)",
        "Strich (Kreuz 60:60)",
    ),
    (
        {"contract": "weiter", "thrown_in": True},
        HandDescription(game="weiter"),
        None,
        "Strich (alle weiter)",
        "Strich (alle weiter)",
    ),
]


@pytest.mark.parametrize(("record", "description", "name", "text", "short"), CASES, ids=[case[4] for case in CASES])
def test_a_game_is_described_once_for_page_and_print(record, description, name, text, short):
    d = describe_hand(**record)
    assert d == description
    assert d.thrown_in == record.get("thrown_in", False)
    with translation.override("de"):
        if name is not None:
            assert game_name(d) == name
        assert game_text(d) == text
        assert game_short(d) == short


def test_english_words_the_same_description():
    d = describe_hand(contract="rufspiel", called="gras")
    with translation.override("en"):
        assert game_text(d) == "Rufspiel with the Gras Sau"
        assert game_short(d) == "Ruf Gras"
