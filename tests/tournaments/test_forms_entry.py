"""The game form's one declaration of which record keys each contract button has (forms_entry.BUTTONS).

GameForm.record() builds the record from it and the page hands it to entry.js (the form's data-buttons),
whose sync() shows just the parts it names: no second list of fields in the script.
"""

import html
import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from scoring.rules import HAND_FIELDS
from tests.tournaments.test_services_hands import make_table
from tournaments.forms_entry import BUTTONS, BUTTONS_JSON, CONTRACTS, PARTS, GameForm

FORM_TEMPLATE = Path(settings.BASE_DIR) / "templates" / "entry" / "_form.html"
ENTRY_JS = Path(settings.BASE_DIR) / "static" / "js" / "entry.js"


def record(**fields):
    form = GameForm(fields, table_size=4)
    assert form.is_valid(), form.errors
    return form.record()


def test_every_part_fills_keys_of_the_hand_record_and_every_button_is_declared():
    assert {key for keys in PARTS.values() for key in keys} <= set(HAND_FIELDS)
    assert {key for b in BUTTONS.values() for key, _value in b.fixed} <= set(HAND_FIELDS)
    assert {part for b in BUTTONS.values() for part in (*b.parts, *(b.tout or ()))} <= set(PARTS)
    assert set(BUTTONS) == {value for value, _label in CONTRACTS}


def test_the_page_parts_are_the_declared_parts_and_the_script_keeps_no_list_of_its_own():
    in_template = set(re.findall(r'data-part="([a-z_]+)"', FORM_TEMPLATE.read_text(encoding="utf-8")))
    assert in_template == set(PARTS)
    script = ENTRY_JS.read_text(encoding="utf-8")
    assert "dataset.buttons" in script
    assert '"rufspiel", "muss"' not in script and "kontra:" not in script


@pytest.mark.django_db
def test_the_page_hands_the_declaration_to_the_script(client):
    table = make_table()
    page = client.get(reverse("tournaments:entry_table", args=[table.entry_key])).content.decode()
    found = re.search(r'data-buttons="([^"]*)"', page)
    assert found and json.loads(html.unescape(found.group(1))) == json.loads(BUTTONS_JSON)


def test_a_record_has_only_the_keys_of_its_button():
    common = {
        "declarer": "1",
        "partner": "3",
        "called": "eichel",
        "trump": "herz",
        "augen": "72",
        "laufende": "3",
        "kontra": "1",
        "won": "1",
        "schwarz": "on",
        "renonce": "on",
        "called_card": "zehn",
        "pair": "2",
    }
    assert type(record(contract="muss", **common)["contract"]) is str  # the engine takes plain text only
    assert record(contract="rufspiel", **common) == {
        "contract": "rufspiel",
        "declarer": 1,
        "partner": 3,
        "called": "eichel",
        "augen": 72,
        "schwarz": True,
        "laufende": 3,
        "kontra": 1,
    }
    # a Muss has no Kontra: a Kontra tapped before switching to Muss stays out, like every hidden part
    assert record(contract="muss", **common) == {
        "contract": "rufspiel",
        "declarer": 1,
        "partner": 3,
        "called": "eichel",
        "muss": True,
        "called_card": "zehn",
        "renonce": True,
        "augen": 72,
        "schwarz": True,
        "laufende": 3,
    }
    assert record(contract="solo", announce="tout", **common) == {
        "contract": "solo",
        "declarer": 1,
        "trump": "herz",
        "tout": True,
        "won": True,
        "laufende": 3,
        "kontra": 1,
    }
    assert record(contract="wenz", announce="", **common) == {
        "contract": "wenz",
        "declarer": 1,
        "augen": 72,
        "schwarz": True,
        "laufende": 3,
        "kontra": 1,
    }
    assert record(contract="kreuz", **common) == {
        "contract": "kreuz",
        "declarer": 2,
        "augen": 72,
        "schwarz": True,
        "laufende": 3,
    }
    assert record(contract="sie", **common) == {"contract": "solo", "declarer": 1, "sie": True}
    assert record(contract="weiter", **common) == {"contract": "weiter"}
    assert record(contract="rufspiel", declarer="1", partner="3", augen="0", laufende="0", kontra="0") == {
        "contract": "rufspiel",
        "declarer": 1,
        "partner": 3,
        "augen": 0,
        "laufende": 0,
    }
