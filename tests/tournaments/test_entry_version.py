"""The unlocked save on PostgreSQL and the table's change counter that keeps it safe (issue 14).

A tablet's new game reads its table and the game facts in one statement without a transaction, then
stores the game and its revision in one statement that takes the table's row only while its
``entry_version`` is still the number read. These tests hold the two halves to that promise:

- every kind of change a save depends on raises the counter, whoever makes it (the triggers of
  migration 0018), and nothing can lower it;
- a change committed between the read and the write, or while the write waits for the table's lock,
  makes the save store nothing and read again, so it answers as if it had come after the change.
"""
import threading
import time
import uuid

import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

from tests.api.conftest import make_tournament, publish_first_round, rufspiel
from tests.conftest import skip_or_fail
from tests.factories import ClubFactory
from tournaments.models import Hand, HandRevision, Round, Table, TableConfirmation
from tournaments.services import hands as hands_module
from tournaments.services.errors import ServiceError, StateConflict
from tournaments.services.hands import hand_correct, hand_delete, hand_record, hand_record_at_key, table_paper_totals

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table():
    if connection.vendor != "postgresql":
        skip_or_fail("the unlocked save and its change counter exist on PostgreSQL only "
                     "(run with DATABASE_URL=postgres://...)")
    rnd = publish_first_round(make_tournament(ClubFactory(), slug="rennen-version"))
    return rnd.tables.select_related("round__tournament").get(number=1)


def version(table: Table) -> int:
    with connection.cursor() as cursor:
        cursor.execute('SELECT entry_version FROM tournaments_table WHERE id = %s', [table.pk])
        return cursor.fetchone()[0]


def save(table: Table, number: int | None, **extra):
    """A tablet's new game through the service the lean API calls."""
    record = rufspiel(number or Hand.objects.filter(table=table).count() + 1, **extra)
    return hand_record_at_key(entry_key=table.entry_key, record=record, client_id=uuid.uuid4(), number=number)


def in_other_connection(change) -> None:
    """Run ``change`` in its own thread and database connection, committed before this returns."""
    errors: list = []

    def run() -> None:
        try:
            with transaction.atomic():
                change()
        except BaseException as exc:  # reported here
            errors.append(exc)
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(timeout=30)
    assert not errors, errors


def test_every_change_a_save_depends_on_raises_the_counter_and_nothing_lowers_it(table):
    seen = [version(table)]

    def raised(what: str) -> None:
        now = version(table)
        assert now > seen[-1], f"{what} did not raise the table's change counter"
        seen.append(now)

    hand_record(table=table, record=rufspiel(1), client_id=uuid.uuid4())
    raised("a new game")
    hand = Hand.objects.get(table=table, number=1)
    hand_correct(hand=hand, record=rufspiel(1, augen=30))
    raised("a corrected game")
    Hand.objects.filter(pk=hand.pk).update(augen=31)  # any writer, not only the services
    raised("a game changed by a plain UPDATE")
    hand_delete(hand=Hand.objects.get(pk=hand.pk))
    raised("a deleted game")
    TableConfirmation.objects.create(table=table, seat=1)
    raised("a confirmation")
    TableConfirmation.objects.filter(table=table).delete()
    raised("a withdrawn confirmation")
    Table.objects.filter(pk=table.pk).update(completed_at=timezone.now())
    raised("the table's own columns")
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.CLOSED)
    raised("the round closed")
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.PUBLISHED)
    raised("the round reopened")
    stale = Table.objects.get(pk=table.pk)
    hand_record(table=table, record=rufspiel(1), client_id=uuid.uuid4())
    raised("another new game")
    stale.closed_reason = "x"
    stale.save()  # a model loaded before the game, saved with every field
    raised("a stale model's save()")
    Table.objects.filter(pk=table.pk).update(closed_reason="")  # a closed table takes no game: open it again
    # other tables of the round are not touched by this table's games
    other = table.round.tables.get(number=2)
    before = version(other)
    hand_record(table=table, record=rufspiel(2), client_id=uuid.uuid4())
    assert version(other) == before


def test_a_save_reads_once_and_writes_once_when_nothing_changes(table, monkeypatch):
    reads = []
    real = hands_module._unlocked_read
    monkeypatch.setattr(hands_module, "_unlocked_read", lambda *a: reads.append(1) or real(*a))
    for number in (1, 2, 3):
        hand, created = save(table, number)
        assert created and hand.number == number
    assert len(reads) == 3
    assert HandRevision.objects.filter(table=table, action="create").count() == 3


def _as_a_new_request() -> None:
    """The connection as a request finds it: kept from the last one, its health check not yet done (what
    Django's ``request_started`` handler leaves)."""
    connection.ensure_connection()
    connection.close_if_unusable_or_obsolete()
    assert connection.health_check_enabled and not connection.health_check_done


def test_a_saves_first_read_stands_in_for_the_connections_health_check(table, monkeypatch):
    """CONN_HEALTH_CHECKS sends a ``SELECT 1`` before a request's first statement; the save's read, a plain
    SELECT outside a transaction, does its work instead: a round trip fewer per game."""
    save(table, 1)
    checks = []
    real = connection.is_usable
    monkeypatch.setattr(connection, "is_usable", lambda: checks.append(1) or real())
    _as_a_new_request()
    hand, created = save(table, 2)
    assert created and hand.number == 2
    assert checks == [] and connection.health_check_done


def test_a_connection_that_died_since_the_last_request_is_replaced_and_the_game_stored_once(table):
    save(table, 1)
    _as_a_new_request()
    dead = connection.connection.info.backend_pid
    in_other_connection(lambda: connection.cursor().execute("SELECT pg_terminate_backend(%s)", [dead]))
    hand, created = save(table, 2)
    assert created and hand.number == 2
    assert connection.connection.info.backend_pid != dead
    assert Hand.objects.filter(table=table).count() == 2


def between_read_and_write(monkeypatch, change, times: int = 1) -> list:
    """Run ``change`` (committed, in another connection) after the save's read and before its write, the
    first ``times`` times the save scores its game; returns the list of the save's reads."""
    reads, done = [], []
    real_read, real_score = hands_module._unlocked_read, hands_module._score
    saving = threading.get_ident()  # the change itself may score a game: only the save's scoring counts

    def score(*args):
        if len(done) < times and threading.get_ident() == saving:
            done.append(1)
            in_other_connection(change)
        return real_score(*args)

    monkeypatch.setattr(hands_module, "_unlocked_read", lambda *a: reads.append(1) or real_read(*a))
    monkeypatch.setattr(hands_module, "_score", score)
    return reads


def test_the_other_device_storing_the_same_number_first_makes_this_save_a_409(table, monkeypatch):
    save(table, 1)
    reads = between_read_and_write(
        monkeypatch, lambda: hand_record(table=table, record=rufspiel(2, augen=30), client_id=uuid.uuid4()))
    with pytest.raises(StateConflict) as caught:
        save(table, 2, augen=72)
    assert caught.value.field == "number" and len(reads) == 2
    assert list(Hand.objects.filter(table=table).order_by("number").values_list("number", "augen")) == [
        (1, 72), (2, 30)]


def test_a_save_without_a_number_after_another_devices_game_becomes_the_next_game(table, monkeypatch):
    save(table, 1)
    reads = between_read_and_write(
        monkeypatch, lambda: hand_record(table=table, record=rufspiel(2, augen=30), client_id=uuid.uuid4()))
    hand, created = hand_record_at_key(entry_key=table.entry_key, record=rufspiel(3), client_id=uuid.uuid4())
    assert created and hand.number == 3 and len(reads) == 2
    assert Hand.objects.filter(table=table).count() == 3


def test_the_last_game_deleted_meanwhile_leaves_no_gap(table, monkeypatch):
    save(table, 1)
    save(table, 2)
    between_read_and_write(monkeypatch, lambda: hand_delete(hand=Hand.objects.get(table=table, number=2)))
    with pytest.raises(ServiceError) as caught:
        save(table, 3)
    assert caught.value.field == "number"  # "enter game 2 first"
    assert list(Hand.objects.filter(table=table).values_list("number", flat=True)) == [1]


def test_paper_totals_entered_meanwhile_refuse_the_game(table, monkeypatch):
    between_read_and_write(monkeypatch, lambda: table_paper_totals(
        table=Table.objects.get(pk=table.pk), totals={"1": 10, "2": -10, "3": 5, "4": -5}))
    with pytest.raises(StateConflict) as caught:
        save(table, 1)
    assert caught.value.field == "table"
    assert not Hand.objects.filter(table=table).exists()


def test_the_round_closed_meanwhile_refuses_the_game(table, monkeypatch):
    between_read_and_write(
        monkeypatch, lambda: Round.objects.filter(pk=table.round_id).update(status=Round.Status.CLOSED))
    with pytest.raises(StateConflict) as caught:
        save(table, 1)
    assert caught.value.code == "round_closed"
    assert not Hand.objects.filter(table=table).exists()


def test_a_save_that_keeps_losing_takes_the_locked_path_and_is_stored_once(table, monkeypatch):
    save(table, 1)
    corrections = iter([30, 40, 50, 60])
    reads = between_read_and_write(monkeypatch, lambda: hand_correct(
        hand=Hand.objects.get(table=table, number=1), record=rufspiel(1, augen=next(corrections))), times=3)
    hand, created = save(table, 2)
    assert created and hand.number == 2
    assert len(reads) == hands_module._TRIES  # then the locked path, which does not read unlocked
    assert Hand.objects.get(table=table, number=1).augen == 50
    assert HandRevision.objects.filter(table=table, number=2).count() == 1


def waiting_for_a_lock(timeout: float = 10.0) -> bool:
    """Whether another backend of this database waits for a row lock (the save's write, here)."""
    deadline = time.monotonic() + timeout
    with connections["default"].cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() "
                           "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()")
            if cursor.fetchone()[0]:
                return True
            time.sleep(0.02)
    return False


def hold_until_the_save_waits(monkeypatch, change) -> dict:
    """After the save's read, another connection locks the table and makes ``change``; it commits only once
    the save's write waits for that lock, so PostgreSQL must check the counter again after the wait."""
    state: dict = {"errors": [], "waited": False}
    locked, real_score = threading.Event(), hands_module._score

    def holder() -> None:
        try:
            with transaction.atomic():
                change()  # takes the table's lock and keeps it to the commit
                locked.set()
                state["waited"] = waiting_for_a_lock()
        except BaseException as exc:
            state["errors"].append(exc)
            locked.set()
        finally:
            connections.close_all()

    saving = threading.get_ident()

    def score(*args):
        if "thread" not in state and threading.get_ident() == saving:
            state["thread"] = threading.Thread(target=holder)
            state["thread"].start()
            assert locked.wait(timeout=10)
        return real_score(*args)

    monkeypatch.setattr(hands_module, "_score", score)
    return state


def test_a_game_committed_while_the_write_waits_for_the_lock_is_seen(table, monkeypatch):
    save(table, 1)
    state = hold_until_the_save_waits(
        monkeypatch, lambda: hand_record(table=Table.objects.get(pk=table.pk), record=rufspiel(2, augen=30),
                                         client_id=uuid.uuid4()))
    with pytest.raises(StateConflict) as caught:
        save(table, 2, augen=72)
    state["thread"].join(timeout=30)
    assert not state["errors"] and state["waited"], state
    assert caught.value.code == "number_taken"
    assert Hand.objects.get(table=table, number=2).augen == 30


def test_a_game_deleted_while_the_write_waits_for_the_lock_leaves_no_gap(table, monkeypatch):
    """Here no unique constraint would catch a stale write: only the counter checked after the wait does."""
    save(table, 1)
    save(table, 2)
    state = hold_until_the_save_waits(monkeypatch, lambda: hand_delete(hand=Hand.objects.get(table=table, number=2)))
    with pytest.raises(ServiceError) as caught:
        save(table, 3)
    state["thread"].join(timeout=30)
    assert not state["errors"] and state["waited"], state
    assert caught.value.field == "number"  # "enter game 2 first"
    assert list(Hand.objects.filter(table=table).values_list("number", flat=True)) == [1]


def test_a_lock_that_changes_nothing_only_delays_the_save(table, monkeypatch):
    save(table, 1)
    state = hold_until_the_save_waits(
        monkeypatch, lambda: list(Table.objects.select_for_update().filter(pk=table.pk)))
    hand, created = save(table, 2)
    state["thread"].join(timeout=30)
    assert not state["errors"] and state["waited"], state
    assert created and hand.number == 2
    assert list(Hand.objects.filter(table=table).order_by("number").values_list("number", flat=True)) == [1, 2]


def test_a_save_after_the_players_confirmed_clears_their_confirmations_under_the_lock(table):
    """Only the locked path clears confirmations: the unlocked save hands such a table over to it."""
    Table.objects.filter(pk=table.pk).update(completed_at=timezone.now())
    TableConfirmation.objects.create(table=table, seat=1)
    hand, created = save(table, 1)
    assert created
    assert not TableConfirmation.objects.filter(table=table).exists()
    assert Table.objects.get(pk=table.pk).completed_at is None


def _has_counter() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM information_schema.columns WHERE table_name = 'tournaments_table' "
                       "AND column_name = 'entry_version'")
        return bool(cursor.fetchone()[0])


def test_the_counter_migration_goes_down_and_up_again(table):
    from django.db.migrations.executor import MigrationExecutor

    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()  # every app's: any that depends on 0018 comes back
    try:
        MigrationExecutor(connection).migrate([("tournaments", "0017_hand_solo_columns")])
        assert not _has_counter()
        hand_record(table=table, record=rufspiel(1), client_id=uuid.uuid4())  # the triggers are gone too
    finally:
        MigrationExecutor(connection).migrate(latest)
    assert _has_counter() and version(table) == 0
    hand_record(table=table, record=rufspiel(2), client_id=uuid.uuid4())
    assert version(table) == 1
