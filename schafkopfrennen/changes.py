"""Committed changes as PostgreSQL announces them: a number per process that moves on with every one.

Every table of the project's apps (``APPS``) carries a statement trigger that notifies ``CHANNEL``
(``install_triggers``, after every ``migrate``); PostgreSQL delivers the notification to the listening
sessions once the change has committed, whatever wrote it (the ORM, plain SQL, a bulk update, another
host). ``listener()`` is this process's listener: a daemon thread on a connection of its own.

Its ``generation()`` changes whenever a notification arrives, and is None whenever nothing can be
promised: on a database other than PostgreSQL, before the listening connection is up, after it broke,
and when it has given no sign of life for ``STALE_AFTER`` seconds. Whatever a process reads from the
database after taking ``generation() == g`` is still what the database says while ``generation()`` is
still ``g`` (give or take a notification in flight, less than a millisecond on one host). That lets an
unchanged poll of a hall full of phones be answered without asking the database at all
(``polling.UnchangedPolls``): between rounds nothing changes for minutes.

The listener's connection is checked every ``CHECK_SECONDS`` while nothing is notified (a ``SELECT 1``);
a reconnection moves the number on too, since notifications sent meanwhile were lost.
"""

import logging
import os
import threading
import time

from django.db import connections
from django.db.models.signals import post_migrate

logger = logging.getLogger(__name__)

CHANNEL = "schafkopfrennen_changed"
APPS = ("tournaments", "scoring")  # every table of these: what the public pages show comes from them
CHECK_SECONDS = 2.0
STALE_AFTER = 5.0
_FUNCTION = "schafkopfrennen_notify_changed"
_TRIGGER = "schafkopfrennen_changed"


def _tables() -> list[str]:
    from django.apps import apps

    return sorted(
        {
            model._meta.db_table
            for label in APPS
            for model in apps.get_app_config(label).get_models(include_auto_created=True)
            if model._meta.managed and not model._meta.proxy
        }
    )


def install_triggers(using: str = "default", **_signal) -> None:
    """The notifying trigger on every table of ``APPS`` that lacks it (PostgreSQL; elsewhere nothing).

    Connected to ``post_migrate`` (``tournaments.apps``): a table that a migration adds gets it at once.
    """
    connection = connections[using]
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE OR REPLACE FUNCTION {_FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$ "
            f"BEGIN PERFORM pg_notify('{CHANNEL}', ''); RETURN NULL; END $$"
        )
        cursor.execute(
            "SELECT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "WHERE t.tgname = %s AND c.relnamespace = current_schema()::regnamespace",
            [_TRIGGER],
        )
        have = {name for (name,) in cursor.fetchall()}
        existing = set(connection.introspection.table_names(cursor))
        for table in _tables():
            if table in existing and table not in have:
                cursor.execute(
                    f'CREATE TRIGGER {_TRIGGER} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "{table}" '
                    f"FOR EACH STATEMENT EXECUTE FUNCTION {_FUNCTION}()"
                )


class Listener:
    """A daemon thread LISTENing on ``CHANNEL`` on its own connection (see the module's docstring)."""

    def __init__(self, params: dict) -> None:
        self._params = params
        self._generation = 0
        self._alive = 0.0  # time.monotonic() of the last sign of life of a listening connection; 0: none
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="schafkopfrennen-changes", daemon=True)

    def start(self) -> "Listener":
        self._thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        self._thread.join(timeout)

    def generation(self) -> int | None:
        """The current number, or None if nothing can be promised now."""
        if time.monotonic() - self._alive > STALE_AFTER:
            return None
        return self._generation

    def _run(self) -> None:
        import psycopg

        delay = 0.2
        while not self._stop.is_set():
            try:
                with psycopg.connect(**self._params, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._generation += 1  # whatever was read before this may have missed a notification
                    self._alive = time.monotonic()
                    delay = 0.2
                    while not self._stop.is_set():
                        for _ in conn.notifies(timeout=CHECK_SECONDS, stop_after=1):
                            self._generation += 1
                            self._alive = time.monotonic()
                        if time.monotonic() - self._alive >= CHECK_SECONDS:
                            conn.execute("SELECT 1")  # still there
                            self._alive = time.monotonic()
            except Exception:  # the database went away, or never came: read it until it is back
                logger.warning("not listening for changes (retrying in %.1f s)", delay, exc_info=True)
            self._alive = 0.0
            self._generation += 1
            self._stop.wait(delay)
            delay = min(delay * 2, 10.0)


_LISTENER: tuple[int, Listener | None] | None = None  # (pid, its listener): a forked worker starts its own
_LOCK = threading.Lock()


def listener(using: str = "default") -> Listener | None:
    """This process's listener, started on first use; None on a database other than PostgreSQL."""
    global _LISTENER
    found = _LISTENER
    if found is not None and found[0] == os.getpid():
        return found[1]
    with _LOCK:
        if _LISTENER is None or _LISTENER[0] != os.getpid():
            connection = connections[using]
            made = None
            if connection.vendor == "postgresql":
                params = connection.get_connection_params()
                params.pop("cursor_factory", None)
                params.pop("context", None)
                params.pop("prepare_threshold", None)
                # a connection lost without a word is noticed (TCP; a local socket needs none of it)
                params.update(
                    connect_timeout=5,
                    keepalives=1,
                    keepalives_idle=5,
                    keepalives_interval=2,
                    keepalives_count=2,
                    application_name="schafkopfrennen-changes",
                )
                made = Listener(params).start()
            _LISTENER = (os.getpid(), made)
        return _LISTENER[1]


def stop_listener() -> None:
    """Stop this process's listener (tests: its connection would keep the test database from being dropped)."""
    global _LISTENER
    with _LOCK:
        found, _LISTENER = _LISTENER, None
    if found is not None and found[0] == os.getpid() and found[1] is not None:
        found[1].stop()


def connect_install(sender) -> None:
    post_migrate.connect(install_triggers, sender=sender, dispatch_uid="schafkopfrennen.changes.install_triggers")
