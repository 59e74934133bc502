"""Every way a game comes in stores it through one function: ``services.hands.hand_record``.

One suite, run against each entry point: the table's page (``tisch/<key>/spiel/``, what entry.js posts),
a table card's all-evening link, a player's own link, the organiser's paper mode and the table API
(``/api/tisch/<key>/hands/``). Each case checks that the entry point called ``hand_record`` exactly
once and stored the very rows the others store; a refusal is the same refusal (status, field, code).
"""

import inspect
import sys
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.storage import stored_record
from tests.tournaments.test_services_hands import fill, make_table
from tournaments.links import table_link_key
from tournaments.models import ClubMembership, Hand, HandRevision, Table
from tournaments.services import hands
from tournaments.services.tables import table_close

pytestmark = pytest.mark.django_db

RECORD = {"contract": "rufspiel", "called": "eichel", "declarer": 1, "partner": 3, "augen": 72, "laufende": 0}


def _form(record: dict, number, client_id) -> dict:
    """The game form as entry.js sends it (every value text, the Kontra buttons at 0)."""
    fields = {"kontra": "0", **{k: str(v) for k, v in record.items()}}
    return {"number": "" if number is None else str(number), "client_id": str(client_id), "device": "t", **fields}


def _page(client, table: Table, url: str, record: dict, number, client_id):
    response = client.post(
        url, _form(record, number, client_id), HTTP_ACCEPT="application/json", HTTP_ACCEPT_LANGUAGE="en"
    )
    return response.status_code, response.json()


def tablet(client, table, record, number, client_id):
    return _page(client, table, reverse("tournaments:entry_record", args=[table.entry_key]), record, number, client_id)


def table_card(client, table, record, number, client_id):
    key = table_link_key(table.round.tournament_id, table.number)
    url = reverse("tournaments:table_link_record", args=[key, table.round.number])
    return _page(client, table, url, record, number, client_id)


def player_link(client, table, record, number, client_id):
    key = table.seats.get(number=2).registration.key
    url = reverse("tournaments:player_table_record", args=[key, table.round.number])
    return _page(client, table, url, record, number, client_id)


def paper(client, table, record, number, client_id):
    user = get_user_model().objects.create_user(f"orga-{uuid.uuid4().hex[:6]}", password="x")
    ClubMembership.objects.create(user=user, club=table.round.tournament.club, role=ClubMembership.Role.ORGANISER)
    client.force_login(user)
    url = reverse("tournaments:paper_record", args=[table.round.tournament.slug, table.pk])
    return _page(client, table, url, record, number, client_id)


def api(client, table, record, number, client_id):
    body = {**record, "client_id": str(client_id), **({} if number is None else {"number": number})}
    response = APIClient().post(f"/api/tisch/{table.entry_key}/hands/", body, format="json", HTTP_ACCEPT_LANGUAGE="en")
    return response.status_code, response.json()


ENTRY_POINTS = [tablet, table_card, player_link, paper, api]


@pytest.fixture(params=ENTRY_POINTS, ids=lambda f: f.__name__)
def send(request, client):
    """One entry point, and the calls it made of ``hand_record``: every call of that very function's code,
    however the caller reached it (a profile hook, not a patched name a ``from`` import could miss)."""
    calls = []
    code = inspect.unwrap(hands.hand_record).__code__

    def hook(frame, event, _arg):
        if event == "call" and frame.f_code is code:
            calls.append(dict(frame.f_locals))

    def sender(table, record=RECORD, number=None, client_id=None):
        previous = sys.getprofile()
        sys.setprofile(hook)
        try:
            return request.param(client, table, record, number, client_id or uuid.uuid4())
        finally:
            sys.setprofile(previous)

    sender.calls = calls
    return sender


def _errors(body: dict) -> dict:
    """The refusal's messages by field: the pages answer ``{"errors": {...}, "code": ...}``, the API its
    documented ``{field: [messages]}``."""
    return body.get("errors", body)


def _said(body: dict) -> str:
    return " ".join(m for ms in _errors(body).values() for m in ms)


def _stored(table: Table) -> list:
    return [
        (h.number, h.dealer, stored_record(h, table.size), h.points, h.client_id is not None)
        for h in Hand.objects.filter(table=table).order_by("number")
    ]


def test_a_new_game_is_stored_by_hand_record_once_and_alike_from_every_entry_point(send):
    reference = make_table()
    hands.hand_record(table=reference, record=RECORD, client_id=uuid.uuid4())
    table = make_table()
    status, _body = send(table)
    assert status in (200, 201)
    assert len(send.calls) == 1 and send.calls[0]["table"].pk == table.pk
    assert _stored(table) == _stored(reference)
    assert HandRevision.objects.filter(table=table, action=HandRevision.Action.CREATE).count() == 1


def test_a_retry_with_the_same_client_id_is_stored_once(send):
    table = make_table()
    client_id = uuid.uuid4()
    first, _ = send(table, client_id=client_id)
    again, _ = send(table, client_id=client_id)
    assert first in (200, 201) and again == 200
    assert table.hands.count() == 1 and len(send.calls) == 2


def test_a_number_another_device_took_is_a_409_number_taken(send):
    table = make_table()
    fill(table, 1)
    status, body = send(table, record={**RECORD, "augen": 20}, number=1)
    assert status == 409 and "Game 1 has already been entered" in _said(body)
    assert table.hands.count() == 1 and len(send.calls) == 1


def test_a_rule_the_engine_checks_is_a_400_naming_the_field(send):
    table = make_table()
    status, body = send(table, record={**RECORD, "augen": 130})
    assert status == 400 and "augen" in _errors(body)
    assert not table.hands.exists()


def test_a_closed_table_refuses_the_game_with_the_organisers_reason(send):
    table = make_table()
    table_close(table=table, by=None, reason="Stromausfall")
    status, body = send(table)
    assert status == 409 and "Stromausfall" in _said(body)
    assert not table.hands.exists()
