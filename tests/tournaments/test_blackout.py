"""The blackout (issue 39): publishing the last round hides the standings from every public surface (page,
projector, CSV, JSON, the player's page and its API) through the one rule they all ask
(``Tournament.standings_public``), until the organiser reveals them with one tap at the prize-giving."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tournaments.models import ClubMembership, Tournament
from tournaments.services.registration import registration_create
from tournaments.services.rounds import round_draw, round_publish
from tournaments.services.simulation import round_simulate
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening():
    club = ClubFactory(name="SK Dunkel")
    rules = {**TournamentFactory.build().rules, "rounds": 2, "games_per_round": 8}
    tournament = TournamentFactory(
        club=club, slug="dunkel", rules=rules, standings_public=True, blackout_last_round=True
    )
    for _ in range(8):
        registration_create(tournament=tournament, player=PlayerFactory(club=club), paid=True, checked_in=True)
    (first,) = round_draw(tournament=tournament, seed=1)
    round_simulate(rnd=first, seed=2)
    standings_recompute(tournament_id=tournament.pk)
    organiser = get_user_model().objects.create_user("dunkel-orga")
    ClubMembership.objects.create(user=organiser, club=club, role=ClubMembership.Role.ORGANISER)
    return tournament, organiser


def surfaces(tournament: Tournament) -> dict[str, bool]:
    """Whether each public surface shows the standings to someone without a role."""
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    key = tournament.registrations.get(start_number=1).key
    shown = {}
    for name in ("standings", "standings_projector"):
        response = client.get(reverse(f"tournaments:{name}", args=[tournament.slug]))
        shown[name] = "standings/hidden.html" not in [t.name for t in response.templates]
    for fmt in ("csv", "json"):
        shown[fmt] = (
            client.get(
                reverse("tournaments:standings_download", kwargs={"slug": tournament.slug, "fmt": fmt})
            ).status_code
            == 200
        )
    shown["top 10 image"] = (
        client.get(reverse("tournaments:standings_top_ten", args=[tournament.slug])).status_code == 200
    )
    page = client.get(reverse("tournaments:player", args=[key])).content.decode()
    shown["player page"] = 'data-testid="player-rank"' in page
    shown["player API"] = client.get(reverse("api:player", args=[key])).json()["rank"] is not None
    return shown


def test_the_last_round_hides_the_standings_everywhere_and_one_tap_reveals_them(evening):
    tournament, organiser = evening
    assert set(surfaces(tournament).values()) == {True}

    (last,) = round_draw(tournament=tournament, seed=3)
    round_publish(round=last)
    tournament.refresh_from_db()
    assert not tournament.standings_public
    hidden = surfaces(tournament)
    assert not any(hidden.values()), hidden

    club_side = Client()
    club_side.force_login(organiser)
    assert "standings/hidden.html" not in [
        t.name for t in club_side.get(reverse("tournaments:standings", args=[tournament.slug])).templates
    ]  # the club still sees them
    club_side.post(reverse("tournaments:standings_publish", args=[tournament.slug]), {"public": "1"})  # the tap
    assert set(surfaces(tournament).values()) == {True}


def test_without_the_blackout_the_last_round_changes_nothing(evening):
    tournament, _organiser = evening
    Tournament.objects.filter(pk=tournament.pk).update(blackout_last_round=False)
    (last,) = round_draw(tournament=tournament, seed=3)
    round_publish(round=last)
    tournament.refresh_from_db()
    assert tournament.standings_public
    assert set(surfaces(tournament).values()) == {True}


def test_the_share_image_of_the_top_ten(evening):
    import io

    from PIL import Image

    tournament, _organiser = evening
    response = Client().get(reverse("tournaments:standings_top_ten", args=[tournament.slug]))
    assert response["Content-Type"] == "image/png"
    assert Image.open(io.BytesIO(response.content)).size == (1200, 630)
