"""A statement the database works on while the caller goes on (``schafkopfrennen/meanwhile.py``).

The full recompute sends its statements this way (the games summed, the paying games read, the snapshot
written) and works in Python beside them. Rows, counts and errors come back as from a plain cursor, on
every database; on PostgreSQL the statement is at work in the database before its result is asked for.
"""

import psycopg
import pytest
from django.db import DatabaseError, connection, transaction

from schafkopfrennen.meanwhile import statement_meanwhile
from tests.conftest import skip_or_fail
from tests.factories import TournamentFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_its_rows_come_back():
    with statement_meanwhile("SELECT 1 + %s UNION ALL SELECT 3", [1]) as done:
        assert done().fetchall() == [(2,), (3,)]


def test_what_it_changed_is_counted_and_written():
    tournament = TournamentFactory()
    with (
        transaction.atomic(),
        statement_meanwhile(
            f"UPDATE {Tournament._meta.db_table} SET name = %s WHERE id = %s", ["Frühjahrsrennen", tournament.pk]
        ) as done,
    ):
        assert done().rowcount == 1
    assert Tournament.objects.get().name == "Frühjahrsrennen"


def test_its_error_is_djangos_and_the_transaction_rolls_back():
    tournament = TournamentFactory()
    with pytest.raises(DatabaseError, match="no_such_table"), transaction.atomic():
        Tournament.objects.filter(pk=tournament.pk).update(name="halb geschrieben")
        with statement_meanwhile("SELECT * FROM no_such_table") as done:
            done()
    assert Tournament.objects.get().name == tournament.name  # nothing half-written
    with statement_meanwhile("SELECT 1") as done:  # and the connection goes on
        assert done().fetchall() == [(1,)]


def test_on_postgresql_the_database_works_on_it_before_its_result_is_asked_for():
    """The statement waits for a lock this test holds on a second connection: the database shows it at
    work on it (waiting) while the caller's block runs, and it finishes once the lock is let go. Were it
    sent only when its result is asked for, the block would find it idle (and a plain cursor would not
    get into the block at all: its statement gives up after the lock timeout)."""
    if connection.vendor != "postgresql":
        skip_or_fail("this test needs PostgreSQL: set DATABASE_URL=postgres://…")
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("server_side_binding", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_advisory_lock(4242)")
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            (pid,) = cursor.fetchone()
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '10s'")
            with statement_meanwhile("SELECT 42 FROM (SELECT pg_advisory_lock_shared(4242)) AS locked") as done:
                seen = None
                for _ in range(2000):  # until the database shows it (at most 10 s, as the lock timeout)
                    seen = other.execute(
                        "SELECT state, wait_event_type, query FROM pg_stat_activity WHERE pid = %s", [pid]
                    ).fetchone()
                    if seen[0] == "active":
                        break
                    other.execute("SELECT pg_sleep(0.005)")
                assert seen[:2] == ("active", "Lock") and "pg_advisory_lock_shared" in seen[2]
                other.execute("SELECT pg_advisory_unlock(4242)")
                assert done().fetchall() == [(42,)]
