"""German number formatting everywhere (issue 15): 10,0 not 10.0, one minus sign "−" (U+2212) in lists,
pages and PDFs, from one home (schafkopfrennen/formats.py); in English the English separators."""

import html
import re
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from schafkopfrennen.formats import MINUS, euro, number, signed
from tests.pdf.conftest import pdf_pages
from tournaments.pdf.cash_list import render_cash_list
from tournaments.pdf.certificates import render_certificates
from tournaments.pdf.prize_list import render_prize_list
from tournaments.pdf.score_sheet import render_score_sheets
from tournaments.pdf.standings import render_standings
from tournaments.selectors.printing import (
    cash_list_data,
    certificates_data,
    prize_list_data,
    score_sheets_data,
    standings_data,
)

HYPHEN_NUMBER = re.compile(r"(?<![\w/.:\-–])-\d")  # "-3": a hyphen where a minus sign belongs
POINT_DECIMAL = re.compile(r"(?<![\d.])\d+\.\d{1,2}(?![\d.])")  # "10.0", "2.50": not "21.11.2026", not "2.000"


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("de", ["10,0", "\u22123", "0,0", "1.250", "+3", "\u22123", "0", "\u22122,50 €", "1.250,00 €", "0,00 €", ""]),
        ("en", ["10.0", "\u22123", "0.0", "1,250", "+3", "\u22123", "0", "\u22122.50 €", "1,250.00 €", "0.00 €", ""]),
    ],
)
def test_one_home_formats_numbers_and_money_in_the_active_language(language, expected):
    with translation.override(language):
        assert [
            number(10.0, 1),
            number(-3),
            number(Decimal("-0.04"), 1),
            number(1250, grouping=True),
            signed(3),
            signed(-3),
            signed(0),
            euro(-250),
            euro(125000),
            euro(0),
            number(None),
        ] == expected


def test_the_template_filters_are_the_same_function():
    from django.template import Context, Template

    template = Template("{% load standings %}{{ b|signed }} {{ c|euro }} {{ b|minus }}")
    with translation.override("de"):
        assert template.render(Context({"b": -3, "c": -250})) == "−3 −2,50 € −3"


def test_the_checks_catch_a_hyphen_and_a_decimal_point():
    assert _suspicious("Punkte -3\n10.0\n2.50 €\n21.11.2026 · 2.000,00 € · −3 · 10,0 · Runde 1–2") == [
        "Punkte -3",
        "10.0",
        "2.50 €",
    ]


def _suspicious(text: str) -> list[str]:
    return [line for line in text.splitlines() if HYPHEN_NUMBER.search(line) or POINT_DECIMAL.search(line)]


@pytest.mark.django_db
def test_every_end_document_and_score_sheet_prints_german_numbers(finished_tournament):
    rnd = finished_tournament.rounds.get(number=1)
    with translation.override("de"):
        documents = {
            "standings": render_standings(standings_data(finished_tournament)),
            "cash": render_cash_list(cash_list_data(finished_tournament)),
            "prizes": render_prize_list(prize_list_data(finished_tournament)),
            "certificates": render_certificates(certificates_data(finished_tournament)),
            "sheets": render_score_sheets(score_sheets_data(rnd, filled=True)),
        }
    for name, content in documents.items():
        text = "\n".join(line for page in pdf_pages(content) for line in page)
        assert _suspicious(text) == [], name
        if name in ("standings", "sheets", "cash"):
            assert MINUS in text, name  # someone lost: his points (or his payout) carry the minus sign
    cash = "\n".join(line for page in pdf_pages(documents["cash"]) for line in page)
    assert re.search(r"\b210,00 €", cash)  # 21 entry fees of 10 €, with a decimal comma


@pytest.mark.django_db
def test_the_pages_show_german_numbers(client, finished_tournament):
    tournament = finished_tournament
    tournament.standings_public = True
    tournament.save(update_fields=["standings_public"])
    client.force_login(get_user_model().objects.create_superuser("zahlen", "z@example.org", "pw"))
    registration = tournament.registrations.order_by("start_number").first()
    table = tournament.rounds.get(number=2).tables.order_by("number").first()
    pages = [
        f"/t/{tournament.slug}/rangliste/",
        f"/t/{tournament.slug}/rangliste/beamer/",
        f"/t/{tournament.slug}/statistik/",
        f"/o/{tournament.slug}/kasse/",
        f"/o/{tournament.slug}/preise/",
        f"/s/{registration.key}/",
        f"/tisch/{table.entry_key}/",
        f"/o/{tournament.slug}/tisch/{table.pk}/papier/",
    ]
    minus_signs = 0
    for url in pages:
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
        assert response.status_code == 200, url
        body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", response.content.decode(), flags=re.S)
        text = html.unescape(re.sub(r"<[^>]+>", "\n", body))
        assert _suspicious(text) == [], url
        minus_signs += text.count(MINUS)
    assert minus_signs > 20
    cash = client.get(f"/o/{tournament.slug}/kasse/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "210,00 €" in html.unescape(cash)
