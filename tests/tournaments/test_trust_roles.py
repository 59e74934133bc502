"""Roles as the issue found them broken (issue 13, fix 7): a viewer saw contact data; a desk helper made a club
by typing any string into a club field. Viewers see names only; desk helpers pick existing clubs."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tournaments.models import Club, ClubMembership, Player, Registration
from tournaments.services.registration import registration_create, registration_withdraw

pytestmark = pytest.mark.django_db
Role = ClubMembership.Role
PHONE = "0171 2345678"


@pytest.fixture
def tournament():
    return TournamentFactory(club=ClubFactory(name="Schafkopffreunde"), slug="herbst")


def logged_in(tournament, role) -> Client:
    user = get_user_model().objects.create_user(f"{role}-user")
    ClubMembership.objects.create(user=user, club=tournament.club, role=role)
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize(("role", "sees"), [(Role.VIEWER, False), (Role.DESK, True), (Role.ORGANISER, True)])
def test_contact_data_only_for_desk_helpers_and_up(tournament, role, sees):
    PlayerFactory(club=tournament.club, first_name="Vroni", last_name="Huber", contact=PHONE)
    client = logged_in(tournament, role)
    for response in (
        client.get(reverse("tournaments:club", args=[tournament.club.pk])),
        client.get(reverse("tournaments:club", args=[tournament.club.pk]), {"q": "Huber"}, HTTP_HX_REQUEST="true"),
    ):
        body = response.content.decode()
        assert response.status_code == 200 and "Huber, Vroni" in body
        assert (PHONE in body) is sees


@pytest.mark.parametrize(("role", "allowed"), [(Role.DESK, False), (Role.ORGANISER, True)])
def test_only_organisers_name_a_club_not_in_the_list_at_the_desk(tournament, role, allowed):
    """An organiser may name a club not in the list: a text on the registration, never a club record
    (issue 33: no write into another club); a desk helper picks from the list."""
    client = logged_in(tournament, role)
    response = client.post(
        reverse("tournaments:desk_quick_add", args=["herbst"]),
        {"first_name": "Wastl", "last_name": "Gruber", "club_name": "Tippfehler-Club"},
    )
    assert not Club.objects.filter(name="Tippfehler-Club").exists()
    assert Registration.objects.filter(player__last_name="Gruber", club_name="Tippfehler-Club").exists() is allowed
    if not allowed:
        assert response.status_code == 400
        assert "Tippfehler-Club" in response.context["quick_add"].errors["club_name"][0]
        assert not Player.objects.filter(last_name="Gruber").exists()  # nothing half-written


def test_a_desk_helper_picks_an_existing_club_in_any_case(tournament):
    ClubFactory(name="SC Hintertupfing")
    client = logged_in(tournament, Role.DESK)
    page = client.get(reverse("tournaments:desk", args=["herbst"]))
    assert '<option value="SC Hintertupfing">' in page.content.decode()  # offered to pick
    response = client.post(
        reverse("tournaments:desk_quick_add", args=["herbst"]),
        {"first_name": "Wastl", "last_name": "Gruber", "club_name": "sc hintertupfing"},
    )
    assert response.status_code == 302
    reg = Registration.objects.get(player__last_name="Gruber")  # the list's spelling, as a text (issue 33)
    assert reg.club_name == "SC Hintertupfing" and reg.player.club is None
    assert Club.objects.filter(name__iexact="sc hintertupfing").count() == 1


def test_a_desk_helper_cannot_create_a_club_for_a_substitute(tournament):
    reg = registration_create(tournament=tournament, player=PlayerFactory(club=tournament.club))
    registration_withdraw(registration=reg)
    client = logged_in(tournament, Role.DESK)
    response = client.post(
        reverse("tournaments:desk_substitute", args=["herbst", reg.start_number]),
        {"first_name": "Ersatz", "last_name": "Mann", "club_name": "Erfundener Verein"},
    )
    assert response.status_code == 400 and not Club.objects.filter(name="Erfundener Verein").exists()
    assert not Player.objects.filter(last_name="Mann").exists()


@pytest.mark.parametrize(("role", "status"), [(Role.DESK, 400), (Role.ORGANISER, 201)])
def test_the_api_lets_only_organisers_name_a_club_not_in_the_list(tournament, role, status):
    user = get_user_model().objects.create_user(f"api-{role}")
    ClubMembership.objects.create(user=user, club=tournament.club, role=role)
    api = APIClient()
    api.force_authenticate(user)
    response = api.post(
        "/api/tournaments/herbst/registrations/", {"last_name": "Neu", "club": "Ganz Neu"}, format="json"
    )
    assert response.status_code == status
    if status == 400:
        assert list(response.json()) == ["club"]
    assert not Club.objects.filter(name="Ganz Neu").exists()  # a text on the registration (issue 33)
    if status == 201:
        assert response.json()["club"] == "Ganz Neu"
