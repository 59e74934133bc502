"""Two tablets racing for the same game, on the live database: real threads released by a barrier.

The table row is locked for every write, so the two requests are served one after the other:
the same submission twice is stored once, and of two different games under the same number exactly
one is stored while the other gets a 409.
"""

import threading
import time
import uuid

import pytest
from django.db import OperationalError, connection, connections, transaction
from rest_framework.test import APIClient

from tests.api.conftest import make_tournament, publish_first_round, rufspiel
from tests.conftest import skip_or_fail
from tests.factories import ClubFactory
from tournaments.models import Hand, HandRevision, Round, Table, Tournament
from tournaments.services.hands import hand_record

pytestmark = pytest.mark.django_db(transaction=True)

RACES = 8  # every race is a fresh game number; a few of them make an unlucky interleaving unlikely to hide


@pytest.fixture
def table():
    options = connection.settings_dict.get("OPTIONS", {})
    if connection.vendor == "sqlite" and options.get("transaction_mode") != "IMMEDIATE":
        skip_or_fail(
            "SQLite without OPTIONS transaction_mode=IMMEDIATE answers two writers at once with "
            "'database is locked'; run these on PostgreSQL (DATABASE_URL=postgres://...)"
        )
    rnd = publish_first_round(make_tournament(ClubFactory(), slug="rennen-parallel"))
    return rnd.tables.get(number=1)


@pytest.fixture
def pg_table(table):
    if connection.vendor != "postgresql":
        skip_or_fail("row locks need PostgreSQL (SQLite locks the whole database for every write)")
    return table


def race(url: str, bodies: list[dict]) -> list:
    """POST each body from its own thread (own client, own database connection) at the same moment."""
    barrier = threading.Barrier(len(bodies))
    responses: list = [None] * len(bodies)
    errors: list = []

    def tablet(index: int) -> None:
        try:
            client = APIClient()
            barrier.wait(timeout=10)
            responses[index] = client.post(url, bodies[index], format="json")
        except BaseException as exc:  # reported in the main thread
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=tablet, args=(i,)) for i in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert not errors, errors
    assert all(r is not None for r in responses), "a request did not finish"
    return responses


def test_the_same_submission_sent_twice_at_once_is_stored_once(table):
    url = f"/api/tisch/{table.entry_key}/hands/"
    for number in range(1, RACES + 1):
        body = {**rufspiel(number), "number": number, "client_id": str(uuid.uuid4())}
        first, second = race(url, [body, body])
        assert sorted([first.status_code, second.status_code]) == [200, 201], (first.json(), second.json())
        assert first.json()["id"] == second.json()["id"]
        assert first.json() == second.json()
        assert Hand.objects.filter(table=table, number=number).count() == 1
    assert Hand.objects.filter(table=table).count() == RACES
    assert HandRevision.objects.filter(table=table, action="create").count() == RACES


def test_two_different_games_for_the_same_number_store_exactly_one_the_other_gets_409(table):
    url = f"/api/tisch/{table.entry_key}/hands/"
    for number in range(1, RACES + 1):
        bodies = [
            {**rufspiel(number, augen=72), "number": number, "client_id": str(uuid.uuid4())},
            {**rufspiel(number, augen=30), "number": number, "client_id": str(uuid.uuid4())},
        ]
        responses = race(url, bodies)
        codes = sorted(r.status_code for r in responses)
        assert codes == [201, 409], [r.json() for r in responses]
        winner = next(i for i, r in enumerate(responses) if r.status_code == 201)
        loser = responses[1 - winner]
        assert list(loser.json()) == ["number"]
        stored = Hand.objects.get(table=table, number=number)
        assert str(stored.client_id) == bodies[winner]["client_id"]
        assert stored.augen == bodies[winner]["augen"]
    assert Hand.objects.filter(table=table).count() == RACES


def test_many_tablets_at_many_tables_at_once_lose_nothing(table):
    """Every table of the round enters its next game at the same moment, each sent twice."""
    tables = list(table.round.tables.order_by("number"))
    bodies, urls = [], []
    for t in tables:
        body = {**rufspiel(1), "client_id": str(uuid.uuid4())}
        bodies += [body, body]
        urls += [f"/api/tisch/{t.entry_key}/hands/"] * 2
    barrier = threading.Barrier(len(bodies))
    codes: list = [None] * len(bodies)

    def tablet(index: int) -> None:
        try:
            client = APIClient()
            barrier.wait(timeout=10)
            codes[index] = client.post(urls[index], bodies[index], format="json").status_code
        finally:
            connections.close_all()

    threads = [threading.Thread(target=tablet, args=(i,)) for i in range(len(bodies))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(codes) == sorted([200, 201] * len(tables))
    assert sorted(Hand.objects.values_list("table__number", "number")) == [(t.number, 1) for t in tables]


def hold_lock_while(lock, action, *, seconds: float = 5.0):
    """Run ``lock`` in a transaction of another thread, and ``action`` here while that lock is held."""
    held, release = threading.Event(), threading.Event()
    errors: list = []

    def holder() -> None:
        try:
            with transaction.atomic():
                lock()
                held.set()
                release.wait(timeout=seconds + 10)
        except BaseException as exc:
            errors.append(exc)
            held.set()
        finally:
            connections.close_all()

    thread = threading.Thread(target=holder)
    thread.start()
    assert held.wait(timeout=10)
    try:
        started = time.monotonic()
        result = action()
        waited = time.monotonic() - started
    finally:
        release.set()
        thread.join(timeout=30)
    assert not errors, errors
    return result, waited


def test_a_game_at_one_table_does_not_wait_for_another_table_or_the_standings(pg_table, monkeypatch):
    """Only the table's own row is locked for update: not its round, not the tournament (a standings
    recompute locks the tournament row for its whole transaction)."""
    table = pg_table
    # Without a broker the recompute runs in the request after the commit and would wait for the
    # held tournament row itself; with workers (production) it does not. Only the entry is measured.
    monkeypatch.setattr("tournaments.services.hands.tournament_changed", lambda *args: None)

    other = table.round.tables.get(number=2)
    url = f"/api/tisch/{table.entry_key}/hands/"
    for lock in (
        lambda: Table.objects.select_for_update().get(pk=other.pk),
        lambda: Tournament.objects.select_for_update().get(pk=table.round.tournament_id),
        lambda: hand_record(table=other, record=rufspiel(1), client_id=uuid.uuid4()),  # a game in flight there
    ):
        number = Hand.objects.filter(table=table).count() + 1
        body = {**rufspiel(number), "number": number, "client_id": str(uuid.uuid4())}
        response, waited = hold_lock_while(lock, lambda b=body: APIClient().post(url, b, format="json"))
        assert response.status_code == 201 and waited < 3, (response.status_code, waited)


def test_closing_the_round_waits_for_a_game_being_entered(pg_table):
    """A game in flight holds its table's row: closing the round (which locks the round's tables before
    it checks them) must wait, and a game entered after the close reads the round's status after its lock."""
    table = pg_table

    def close_now() -> None:
        with transaction.atomic():
            Round.objects.select_for_update(nowait=True).get(pk=table.round_id)  # no game locks the round itself
            list(Table.objects.select_for_update(nowait=True).filter(round_id=table.round_id))

    def game_in_flight() -> None:
        hand_record(table=table, record=rufspiel(1), client_id=uuid.uuid4())

    def close_refused() -> None:
        with pytest.raises(OperationalError):
            close_now()

    hold_lock_while(game_in_flight, close_refused)
