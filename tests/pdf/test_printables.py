"""The registry of printable documents: the print views and both print commands serve what it lists."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from tests.pdf.conftest import URL_BASE, pdf_pages
from tournaments.management.commands import print_standings
from tournaments.printables import PRINTABLES, ROUND, ROUND_DOCUMENTS, TABLE_DOCUMENTS, TOURNAMENT, TOURNAMENT_DOCUMENTS
from tournaments.views import printing


def test_every_document_is_listed_once_with_its_scope():
    assert set(TOURNAMENT_DOCUMENTS) == {"standings", "prizes", "cash", "certificates"}
    assert set(ROUND_DOCUMENTS) == {"spielliste-leer", "spielliste", "sitzplan", "tischkarten"}
    assert set(TABLE_DOCUMENTS) == {"spielliste-leer", "spielliste"}
    assert {p.scope for p in PRINTABLES.values()} == {ROUND, TOURNAMENT}
    assert len({p.slug for p in PRINTABLES.values()}) == len(PRINTABLES)
    # the views and the command read the same lists
    assert tuple(ROUND_DOCUMENTS) == printing.DOCUMENTS
    assert tuple(TOURNAMENT_DOCUMENTS) == print_standings.DOCUMENTS


def test_file_names():
    assert PRINTABLES["cash"].filename("herbst") == "kassenliste-herbst.pdf"
    assert PRINTABLES["standings"].filename("herbst", round=2) == "rangliste-herbst-runde-2.pdf"
    assert PRINTABLES["pack"].filename("herbst", round=1) == "druckpaket-herbst-runde-1.pdf"
    assert ROUND_DOCUMENTS["spielliste"].filename("herbst", round=1, table=3) == "spielliste-herbst-runde-1-tisch-3.pdf"


@pytest.mark.django_db
def test_the_views_serve_what_the_registry_renders(client, finished_tournament):
    client.force_login(get_user_model().objects.create_superuser("drucker", "d@example.org", "pw"))
    tournament = finished_tournament
    rnd = tournament.rounds.get(number=1)
    url_base = "http://testserver/"
    for slug, document in ROUND_DOCUMENTS.items():
        response = client.get(
            reverse("tournaments:print_document", args=[tournament.slug, 1, slug]), HTTP_ACCEPT_LANGUAGE="en"
        )
        assert response.status_code == 200, slug
        assert response["Content-Disposition"] == f'inline; filename="{document.filename(tournament.slug, round=1)}"'
        with translation.override("en"):
            assert pdf_pages(response.content) == pdf_pages(document.render(rnd, url_base=url_base)), slug
    for key, name in (
        ("prizes", "print_prizes"),
        ("cash", "print_cash"),
        ("certificates", "print_certificates"),
        ("standings", "print_standings"),
    ):
        response = client.get(reverse(f"tournaments:{name}", args=[tournament.slug]))
        assert response.status_code == 200 and response.content.startswith(b"%PDF"), key
        assert PRINTABLES[key].filename(tournament.slug) in response["Content-Disposition"]


@pytest.mark.django_db
def test_the_pack_of_the_registry_is_the_commands(played_round, tmp_path):
    output = tmp_path / "pack.pdf"
    call_command("print_round", played_round.tournament.slug, "1", "-o", str(output), "--base-url", URL_BASE)
    assert output.read_bytes() == PRINTABLES["pack"].render(played_round, url_base=URL_BASE)
