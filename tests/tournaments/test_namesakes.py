"""Two Hans Meiers (issue 34): wherever two registrations of a tournament share a name, every list shows
their start numbers, and their clubs when those differ (``scoring.rules.collation.namesake_suffixes``)."""

import pytest
from django.test import Client

from scoring.rules.collation import namesake_suffixes
from tests.pdf.conftest import pdf_pages
from tournaments.models import Club, Player, Tournament
from tournaments.pdf.seat_list import render_seat_list
from tournaments.pdf.standings import render_standings
from tournaments.selectors.printing import seat_list_data, standings_data
from tournaments.services.rounds import round_draw
from tournaments.services.simulation import round_simulate, tournament_simulate_setup
from tournaments.services.standings import standings_recompute


def test_only_shared_names_get_the_start_number_and_the_club_only_when_the_clubs_differ():
    people = [
        (1, "Hans Meier", 3, "SK Öd"),
        (2, "hans  meier", 7, "Kartler Au"),
        (3, "Sepp Huber", 4, "SK Öd"),
        (4, "Anna Wirth", 5, "SK Öd"),
        (5, "Anna Wirth", 9, "SK Öd"),
    ]
    assert namesake_suffixes(people) == {1: " (3, SK Öd)", 2: " (7, Kartler Au)", 4: " (5)", 5: " (9)"}
    assert namesake_suffixes([(1, "Hans Meier", 3, "")]) == {}


@pytest.fixture
def meiers(db):
    """A played round of eight with two Hans Meiers from different clubs, the standings public."""
    tournament = tournament_simulate_setup(slug="namen", players=8, rounds=1, games=8, seed=1)
    first, second = tournament.registrations.order_by("start_number")[:2]
    Player.objects.filter(pk=first.player_id).update(
        first_name="Hans", last_name="Meier", club=Club.objects.create(name="SK Öd")
    )
    Player.objects.filter(pk=second.player_id).update(
        first_name="Hans", last_name="Meier", club=Club.objects.create(name="Kartler Au")
    )
    (rnd,) = round_draw(tournament=tournament, seed=1)
    round_simulate(rnd=rnd, seed=2, close=False)
    standings_recompute(tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(standings_public=True)
    tournament.refresh_from_db()
    tournament.rnd = rnd
    return tournament, [f"Hans Meier ({first.start_number}, SK Öd)", f"Hans Meier ({second.start_number}, Kartler Au)"]


@pytest.mark.django_db
def test_namesakes_on_every_public_list_with_their_start_numbers(meiers):
    tournament, names = meiers
    web = Client(HTTP_ACCEPT_LANGUAGE="de")
    phone = Client(HTTP_ACCEPT_LANGUAGE="de", HTTP_USER_AGENT="Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Mobile")
    pages = {
        "seat list": web.get(f"/t/{tournament.slug}/sitzplan/"),
        "seat list by table": web.get(f"/t/{tournament.slug}/sitzplan/tische/"),
        "standings": web.get(f"/t/{tournament.slug}/rangliste/"),
        "phone standings": phone.get(f"/t/{tournament.slug}/rangliste/"),
        "projector": web.get(f"/t/{tournament.slug}/rangliste/beamer/"),
    }
    for what, response in pages.items():
        assert response.status_code == 200, what
        html = response.content.decode()
        for name in names:
            assert name in html, (what, name)

    standings = "\n".join(line for page in pdf_pages(render_standings(standings_data(tournament))) for line in page)
    seats = "\n".join(line for page in pdf_pages(render_seat_list(seat_list_data(tournament.rnd))) for line in page)
    for name in names:
        assert name in standings
        assert name in seats or name.replace("Hans Meier", "Meier, Hans") in seats
    assert "Meier, Hans (" in seats  # the alphabetical part lists them last name first, told apart the same way
