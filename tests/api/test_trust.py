"""What a hostile or clumsy client found in the API (issue 13, fixes 1 and 3), each replayed as it was reported."""

import json

import pytest
from django.test import override_settings

from tests.api.conftest import client_for, entry, rufspiel
from tests.factories import ClubFactory, PlayerFactory
from tournaments.api import organiser as organiser_api
from tournaments.api import table as table_api
from tournaments.models import Hand, HandRevision, Player, Registration
from tournaments.services import hands as hand_services

pytestmark = pytest.mark.django_db

BASE = "/api/tournaments/fruehjahr/"


# --- 1. another club's players ------------------------------------------------------------------


def test_registration_refuses_another_clubs_player(organiser, tournament):
    stranger = PlayerFactory(club=ClubFactory(name="SC Anderswo"), first_name="Fremd", last_name="Spieler")
    nobody = Player.objects.order_by("-pk").first().pk + 1000

    refused = client_for(organiser).post(BASE + "registrations/", {"player_id": stranger.pk}, format="json")
    missing = client_for(organiser).post(BASE + "registrations/", {"player_id": nobody}, format="json")

    assert refused.status_code == 400
    assert refused.json() == {"player_id": ["Diesen Spieler gibt es nicht."]}
    # word for word the answer to an id nobody has: no hint that the id exists
    assert missing.status_code == 400 and missing.json() == refused.json()
    assert not Registration.objects.filter(player=stranger).exists()


def test_registration_of_the_clubs_own_player_still_works(desk, tournament, club):
    member = PlayerFactory(club=club, first_name="Eigene", last_name="Spielerin")
    response = client_for(desk).post(BASE + "registrations/", {"player_id": member.pk}, format="json")
    assert response.status_code == 201 and response.json()["name"] == "Eigene Spielerin"


def test_a_guest_who_played_the_clubs_tournament_may_be_registered_again(organiser, tournament):
    """The desk page's rule: the club's database is its members and who played one of its tournaments."""
    guest = tournament.registrations.first().player
    guest.club = ClubFactory(name="SC Gast")
    guest.save()
    other = organiser_api.Tournament.objects.create(
        club=tournament.club, name="Zweites", slug="zweites", date=tournament.date
    )
    response = client_for(organiser).post(
        "/api/tournaments/zweites/registrations/", {"player_id": guest.pk}, format="json"
    )
    assert response.status_code == 201 and other.registrations.get().player == guest


# --- 3. a game corrected and deleted at the same moment -----------------------------------------


def _deleted_meanwhile(monkeypatch, module, name):
    """The other request wins the race: the game is gone between reading it and changing it."""
    real = getattr(module, name)

    def late(*, hand, **kwargs):
        Hand.objects.filter(pk=hand.pk).delete()
        return real(hand=hand, **kwargs)

    monkeypatch.setattr(module, name, late)


def _played(table, games=2):
    for number in range(1, games + 1):
        hand_services.hand_record(table=table, record=rufspiel(number), client_id=entry()["client_id"])


def test_correct_of_a_game_deleted_meanwhile_is_404(monkeypatch, organiser, table):
    _played(table)
    _deleted_meanwhile(monkeypatch, organiser_api, "hand_correct")
    response = client_for(organiser).patch(
        BASE + "rounds/1/tables/1/hands/2/", {"augen": 80, "reason": "vertippt"}, format="json"
    )
    assert response.status_code == 404
    assert list(response.json()) == ["number"]
    assert not HandRevision.objects.filter(action=HandRevision.Action.UPDATE).exists()


def test_delete_of_a_game_deleted_meanwhile_is_404(monkeypatch, organiser, table):
    _played(table)
    _deleted_meanwhile(monkeypatch, organiser_api, "hand_delete")
    response = client_for(organiser).delete(BASE + "rounds/1/tables/1/hands/2/?reason=doppelt")
    assert response.status_code == 404 and list(response.json()) == ["number"]
    assert not HandRevision.objects.filter(action=HandRevision.Action.DELETE).exists()


def test_the_table_api_answers_the_same_race_with_404(monkeypatch, table, tablet):
    _played(table)
    _deleted_meanwhile(monkeypatch, table_api, "hand_correct")
    response = tablet.patch(f"/api/tisch/{table.entry_key}/hands/2/", {"augen": 80}, format="json")
    assert response.status_code == 404 and list(response.json()) == ["number"]


# --- 3. deeply nested and over-sized bodies ------------------------------------------------------


def test_deeply_nested_json_is_400(organiser, tournament, table, tablet):
    body = "[" * 100_000 + "]" * 100_000
    for api, path in (
        (client_for(organiser), BASE + "registrations/"),
        (tablet, f"/api/tisch/{table.entry_key}/hands/"),
    ):
        response = api.post(path, body, content_type="application/json")
        assert response.status_code == 400
        assert response["Content-Type"] == "application/json"
        assert list(response.json()) == ["non_field_errors"]  # the documented shape of a 400: {field: [messages]}
    assert tournament.registrations.count() == 8 and not Hand.objects.exists()


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=10_000)
def test_oversized_body_is_json_413(organiser, tournament, table, tablet):
    body = json.dumps({"last_name": "x" * 20_000})
    for api, path in (
        (client_for(organiser), BASE + "registrations/"),
        (tablet, f"/api/tisch/{table.entry_key}/hands/"),
    ):
        response = api.post(path, body, content_type="application/json")
        assert response.status_code == 413
        assert response["Content-Type"] == "application/json"
        assert list(response.json()) == ["detail"]
    assert tournament.registrations.count() == 8


@pytest.mark.parametrize("action", ["correct", "delete"])
def test_the_tablet_page_answers_the_same_race_without_a_server_error(monkeypatch, client, table, action):
    _played(table)
    _deleted_meanwhile(monkeypatch, hand_services, "hand_correct" if action == "correct" else "hand_delete")
    if action == "correct":
        response = client.post(f"/tisch/{table.entry_key}/spiel/2/", {**rufspiel(2), "augen": 80})
    else:
        response = client.post(f"/tisch/{table.entry_key}/spiel/2/loeschen/")
    assert response.status_code == 404
    assert "wurde inzwischen gelöscht" in response.content.decode()
