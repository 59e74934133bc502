"""API fixtures: a club with an organiser, a desk helper and a viewer; a tournament of 8 (or 9) players."""

import uuid

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tournaments.models import ClubMembership, Round, Table, Tournament
from tournaments.services.hands import dealer_for
from tournaments.services.registration import registration_create
from tournaments.services.rounds import round_draw, round_publish

Role = ClubMembership.Role


def member(club, role: str, name: str | None = None):
    user = get_user_model().objects.create_user(name or f"{role}-{club.pk}", password="pw")
    ClubMembership.objects.create(user=user, club=club, role=role)
    return user


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def make_tournament(club, players: int = 8, **kwargs) -> Tournament:
    tournament = TournamentFactory(club=club, **kwargs)
    for index in range(players):
        registration_create(
            tournament=tournament,
            player=PlayerFactory(club=club, first_name=f"Vor{index + 1}", last_name=f"Nach{index + 1}"),
            paid=True,
            checked_in=True,
        )
    return tournament


def publish_first_round(tournament: Tournament) -> Round:
    (rnd,) = round_draw(tournament=tournament, seed=7)
    return round_publish(round=rnd)


def rufspiel(number: int, size: int = 4, **extra) -> dict:
    """A valid Rufspiel for game ``number`` (the seat that sits out at a table of five does not play)."""
    dealer = dealer_for(number, 0, size)
    active = [s for s in range(1, size + 1) if not (size == 5 and s == dealer)]
    return {"contract": "rufspiel", "declarer": active[0], "partner": active[2], "called": "gras", "augen": 72, **extra}


def entry(number: int | None = None, size: int = 4, **extra) -> dict:
    body = {**rufspiel(number or 1, size), "client_id": str(uuid.uuid4()), **extra}
    if number is not None:
        body["number"] = number
    return body


@pytest.fixture
def club():
    return ClubFactory(name="SK Musterdorf")


@pytest.fixture
def organiser(club):
    return member(club, Role.ORGANISER)


@pytest.fixture
def desk(club):
    return member(club, Role.DESK)


@pytest.fixture
def viewer(club):
    return member(club, Role.VIEWER)


@pytest.fixture
def outsider():
    return member(ClubFactory(name="SC Anderswo"), Role.ORGANISER, "outsider")


@pytest.fixture
def tournament(club):
    return make_tournament(club, slug="fruehjahr")


@pytest.fixture
def published(tournament) -> Round:
    return publish_first_round(tournament)


@pytest.fixture
def table(published) -> Table:
    return published.tables.get(number=1)


@pytest.fixture
def other_table(published) -> Table:
    return published.tables.get(number=2)


@pytest.fixture
def tablet() -> APIClient:
    return APIClient()
