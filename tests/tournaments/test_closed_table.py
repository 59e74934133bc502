"""A table the organiser closes early is closed: no game, correction, deletion or confirmation until he reopens it.

Issue 34 (part A): table 7 closed at 24 of 32 games with a reason. Its phone said "Alle Spiele eingetragen ...
Danke!", still offered the next game, took game 25 and so silently reopened the table, and the round could not
be closed any more. Here a table closed at 5 of 8 games stands in for it.
"""
import uuid

import pytest
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from tests.conftest import skip_or_fail
from tests.tournaments.test_services_hands import fill, make_table, organiser, rufspiel
from tournaments.models import AuditEntry, Hand, HandRevision, Round, TableConfirmation
from tournaments.selectors.entry import table_entry_version
from tournaments.services.conflicts import hand_conflict_resolve
from tournaments.services.errors import StateConflict
from tournaments.services.hands import hand_correct, hand_delete, hand_record, hand_record_at_key, table_confirm
from tournaments.services.rounds import round_close
from tournaments.services.tables import table_close, table_confirm_for, table_reopen
from tests.tournaments.test_table_actions import organiser_client

pytestmark = pytest.mark.django_db

REASON = "Spieler krank nach Spiel 5"
DE = {"HTTP_ACCEPT_LANGUAGE": "de"}
JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def closed():
    table = make_table(rules={"games_per_round": 8})
    fill(table, 5)
    table_close(table=table, by=None, reason=REASON)
    table.refresh_from_db()
    return table


def unchanged(table) -> tuple:
    table.refresh_from_db()
    return (table.closed_reason, list(table.hands.order_by("number").values_list("number", "augen")),
            HandRevision.objects.filter(table=table).count(), TableConfirmation.objects.filter(table=table).count())


WRITES = {
    "a new game": lambda t: hand_record(table=t, record=rufspiel(6), client_id=uuid.uuid4()),
    "a new game by its key": lambda t: hand_record_at_key(entry_key=t.entry_key, record=rufspiel(6),
                                                          client_id=uuid.uuid4()),
    "a correction": lambda t: hand_correct(hand=t.hands.get(number=2), record={**rufspiel(2), "augen": 99}),
    "a deletion": lambda t: hand_delete(hand=t.hands.get(number=5)),
    "a confirmation": lambda t: table_confirm(table=t, seat=1),
    "a confirmation for a player": lambda t: table_confirm_for(table=t, seat=1, by=None, reason="x"),
    "a conflict's other version": lambda t: hand_conflict_resolve(
        hand=t.hands.get(number=5), record={**rufspiel(5), "augen": 100}, keep="rival", client_id=uuid.uuid4()),
}


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
def test_every_write_to_a_closed_table_is_a_409_with_the_reason_and_changes_nothing(closed, write):
    before = unchanged(closed)
    with pytest.raises(StateConflict) as err:
        write(closed)
    assert (err.value.field, err.value.code) == ("table", "table_closed")
    assert REASON in err.value.message
    assert unchanged(closed) == before and before[0] == REASON


def test_the_unlocked_save_on_postgresql_refuses_a_closed_table_too(closed):
    """hand_record_at_key's lean path (PostgreSQL: no transaction, guarded by the change counter) must not
    store game 6 either; on SQLite the same call takes the locked path, refused above."""
    if connection.vendor != "postgresql":
        skip_or_fail("the unlocked save exists on PostgreSQL only (DATABASE_URL=postgres://...)")
    with pytest.raises(StateConflict) as err:
        hand_record_at_key(entry_key=closed.entry_key, record=rufspiel(6), client_id=uuid.uuid4())
    assert err.value.code == "table_closed"
    assert not Hand.objects.filter(table=closed, number=6).exists()


def test_the_round_closes_at_once_although_the_phone_tried_game_6(closed):
    with pytest.raises(StateConflict):
        hand_record(table=closed, record=rufspiel(6), client_id=uuid.uuid4())
    assert round_close(round=closed.round).status == Round.Status.CLOSED


def test_every_api_write_of_the_tablet_is_a_409_naming_the_reason(closed):
    tablet, base = APIClient(), f"/api/tisch/{closed.entry_key}/"
    before = unchanged(closed)
    for response in (
        tablet.post(base + "hands/", {**rufspiel(6), "client_id": str(uuid.uuid4())}, format="json", **DE),
        tablet.put(base + "hands/1/", {**rufspiel(1), "augen": 30}, format="json", **DE),
        tablet.patch(base + "hands/1/", {"augen": 30}, format="json", **DE),
        tablet.delete(base + "hands/5/", **DE),
        tablet.post(base + "confirm/", {"seat": 1}, format="json", **DE),
    ):
        assert response.status_code == 409, response.content
        assert response.json() == {"table": [f"Tisch geschlossen von der Turnierleitung: {REASON}"]}
    assert unchanged(closed) == before


def test_the_phone_says_the_table_is_closed_and_why_and_offers_no_next_game(closed):
    client = Client()
    html = client.get(f"/tisch/{closed.entry_key}/", **DE).content.decode()
    assert f"Tisch geschlossen von der Turnierleitung: {REASON}" in html
    assert "Danke!" not in html and 'data-testid="complete-banner"' not in html
    assert 'data-testid="game-form"' not in html and "Spiel 6 speichern" not in html
    assert "5 von 8 Spielen" in html
    assert 'data-testid="confirm-1"' not in html  # nobody can confirm a closed table


def test_every_page_write_of_the_tablet_is_a_409_naming_the_reason(closed):
    client, base = Client(), f"/tisch/{closed.entry_key}/"
    before = unchanged(closed)
    game = {"contract": "rufspiel", "called": "gras", "declarer": "1", "partner": "3", "augen": "72",
            "laufende": "0", "client_id": str(uuid.uuid4())}
    for response in (
        client.post(base + "spiel/", {**game, "number": "6"}, **JSON, **DE),
        client.post(base + "spiel/2/", game, **JSON, **DE),
        client.post(base + "spiel/5/loeschen/", {}, **JSON, **DE),
    ):
        assert response.status_code == 409, response.content
        assert f"Tisch geschlossen von der Turnierleitung: {REASON}" in str(response.json()["errors"])
        assert response.json()["code"] == "table_closed"
    confirm = client.post(base + "bestaetigen/", {"seat": "1"}, **DE)
    assert confirm.status_code == 409
    assert f"Tisch geschlossen von der Turnierleitung: {REASON}" in confirm.content.decode()
    assert unchanged(closed) == before


def test_closing_changes_the_pages_version_so_a_waiting_phone_reloads():
    table = make_table(rules={"games_per_round": 8})
    fill(table, 5)
    before = table_entry_version(table)
    table_close(table=table, by=organiser(), reason=REASON)
    assert table_entry_version(table) != before


def test_only_the_organiser_reopens_it_with_a_reason_logged_and_then_it_takes_games_again(closed):
    client, user = organiser_client(closed)
    slug = closed.round.tournament.slug
    page = client.get(f"/o/{slug}/tisch/{closed.pk}/papier/").content.decode()
    assert 'data-testid="table-reopen-form"' in page
    assert client.post(f"/o/{slug}/tisch/{closed.pk}/oeffnen/", {"reopen-reason": " "}).status_code == 400
    assert unchanged(closed)[0] == REASON
    assert Client().post(f"/o/{slug}/tisch/{closed.pk}/oeffnen/", {"reopen-reason": "war ein Versehen"}).status_code == 302
    assert unchanged(closed)[0] == REASON  # not logged in: the login page, nothing changed
    response = client.post(f"/o/{slug}/tisch/{closed.pk}/oeffnen/", {"reopen-reason": "war ein Versehen"})
    assert response.status_code == 302
    closed.refresh_from_db()
    assert closed.closed_reason == "" and closed.completed_at is None
    entry = AuditEntry.objects.get(action="table_reopen")
    assert (entry.by, entry.reason, entry.before) == (user, "war ein Versehen", {"closed_reason": REASON})
    hand, created = hand_record(table=closed, record=rufspiel(6), client_id=uuid.uuid4())
    assert created and hand.number == 6


def test_an_open_table_cannot_be_reopened(closed):
    table_reopen(table=closed, by=organiser(), reason="zurück")
    with pytest.raises(StateConflict) as err:
        table_reopen(table=closed, by=None, reason="nochmal")
    assert err.value.code == "table_open"
