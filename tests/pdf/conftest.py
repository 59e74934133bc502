"""A played round of 21 players (four tables of four, one of five), its PDFs and their text."""

import io

import pypdf
import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from tournaments.models import ClubMembership, Round
from tournaments.services.rounds import round_draw
from tournaments.services.simulation import round_simulate, tournament_simulate_setup

URL_BASE = "https://rennen.example.org"
MINUS = "\u2212"


def pdf_pages(content: bytes) -> list[list[str]]:
    """Every page's text as lines (each string drawn is a line of its own)."""
    reader = pypdf.PdfReader(io.BytesIO(content))
    return [[line.strip() for line in page.extract_text().splitlines() if line.strip()] for page in reader.pages]


def page_drawing(page) -> bytes:
    """A page's drawing operators, with those of the forms it places (the sheet's frame, QR codes)."""
    data = page.get_contents().get_data()
    xobjects = page.get("/Resources", {}).get("/XObject", {})
    for name in xobjects:
        data += b"\n" + xobjects[name].get_object().get_data()
    return data


def number(text: str) -> int:
    """A printed number: +3, −3 (a real minus sign) or 0."""
    return int(text.replace(MINUS, "-").replace("+", ""))


@pytest.fixture(autouse=True)
def _english():
    """The documents' words in English, so tests may look for them ("Total", "Check:")."""
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def played_round(db) -> Round:
    """Round 1 of a rehearsal tournament of 21 players, every game entered, not yet closed."""
    tournament = tournament_simulate_setup(slug="druck-21", players=21, rounds=2, games=32, seed=21)
    tournament.venue = "Gasthof zur Post, Großkarolinenfeld"
    tournament.save(update_fields=["venue"])
    (rnd,) = round_draw(tournament=tournament, seed=4)
    round_simulate(rnd=rnd, seed=9, close=False)
    return Round.objects.select_related("tournament").get(pk=rnd.pk)


@pytest.fixture
def drawn_round(db) -> Round:
    """Round 1 of a tournament of 21 players, drawn, nothing played."""
    tournament = tournament_simulate_setup(slug="druck-leer", players=21, rounds=2, games=32, seed=22)
    (rnd,) = round_draw(tournament=tournament, seed=5)
    return Round.objects.select_related("tournament").get(pk=rnd.pk)


@pytest.fixture
def organiser(played_round):
    user = get_user_model().objects.create_user("drucker", password="pw")
    ClubMembership.objects.create(user=user, club=played_round.tournament.club, role=ClubMembership.Role.ORGANISER)
    return user


@pytest.fixture
def finished_tournament(db):
    """A rehearsal tournament of 21 players over two rounds, every round closed, standings computed.

    Seed 4 gives ties decided by won solos and by lot, and a table whose two best share the payout.
    """
    from tournaments.services.simulation import tournament_simulate
    from tournaments.services.standings import standings_recompute

    tournament = tournament_simulate(slug="ende-21", players=21, rounds=2, games=8, seed=4)
    tournament.venue = "Gasthof zur Post, Großkarolinenfeld"
    tournament.save(update_fields=["venue"])
    standings_recompute(tournament_id=tournament.pk)
    return tournament
