"""Issue 34: the rules the tournament prints say what happens when a player leaves or a table stops early,
in the wording of the options chosen (German and English)."""

import pytest
from django.utils import translation

from tests.api.conftest import make_tournament
from tests.factories import ClubFactory
from tests.tournaments.test_closed_table import pdf_text
from tournaments.pdf.rules_sheet import render_rules_sheet
from tournaments.views.signup import rules_sheet_data

pytestmark = pytest.mark.django_db


def sheet(rules, language):
    tournament = make_tournament(ClubFactory(), players=0, rules=rules)
    with translation.override(language):
        data = rules_sheet_data(tournament)
        return data, " ".join(pdf_text(render_rules_sheet(data)).split())


def test_default_the_substitute_takes_over_and_a_closed_tables_games_count_as_played():
    data, text = sheet({}, "de")
    assert dict(data.rules)["ein Ersatzspieler"] == "übernimmt Platz und Punkte"
    assert "Wenn ein Spieler ausfällt oder ein Tisch früher aufhört" in text
    assert "er übernimmt Platz und Punkte" in text and "sie zählen wie gespielt" in text
    assert "bis jeder der vier in der Runde 32 Spiele gespielt hat" in text and "statt 40 Spielen" in text


def test_the_options_frozen_and_scaled_in_their_own_words():
    data, text = sheet({"substitute_points": "frozen", "closed_table_points": "scaled", "games_per_round": 24}, "de")
    assert dict(data.rules)["ein Ersatzspieler"].startswith("spielt nur für den Tisch")
    assert "Die Punkte des Ausgeschiedenen werden eingefroren" in text and "keinen eigenen Platz" in text
    assert "Punkte × 24 / gespielte Spiele" in text
    _data, english = sheet({"substitute_points": "frozen"}, "en")
    assert "The leaving player's points are frozen" in english and "no place of his own" in english
