"""Unchanged polls answered without the database while PostgreSQL announces no committed change.

Every table of the project's apps notifies its committed changes (``schafkopfrennen/changes.py``); the
WSGI entry (``UnchangedPolls(..., listen=True)``, as ``schafkopfrennen/wsgi.py`` makes it) keeps each
path's state and reads it again only after a notification. Real commits, a real listening connection:
PostgreSQL only (under CI=true the suite runs on it).
"""

import time

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from schafkopfrennen import changes, polling
from schafkopfrennen.polling import UnchangedPolls
from tests.conftest import skip_or_fail
from tests.test_polling import Django, _game, field, get  # noqa: F401 (field: the fixture)
from tests.tournaments.test_links import player_url
from tournaments.models import Seat, Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def postgresql():
    if connection.vendor != "postgresql":
        skip_or_fail("these tests need PostgreSQL's notifications: set DATABASE_URL=postgres://…")
    yield
    changes.stop_listener()  # its connection would keep the test database from being dropped


def listening() -> changes.Listener:
    found = changes.listener()
    deadline = time.monotonic() + 10
    while found.generation() is None:
        assert time.monotonic() < deadline, "the listener did not connect within 10 s"
        time.sleep(0.01)
    return found


def moved_on(listener: changes.Listener, generation: int, seconds: float = 10.0) -> bool:
    """Whether the generation moves on from ``generation`` within ``seconds``."""
    deadline = time.monotonic() + seconds
    while listener.generation() == generation:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def test_every_table_of_the_apps_notifies_its_changes(field):
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE t.tgname = %s",
            [changes._TRIGGER],
        )
        triggered = {name for (name,) in cursor.fetchall()}
    assert set(changes._tables()) <= triggered
    assert {"tournaments_hand", "tournaments_seat", "scoring_standingssnapshot", "tournaments_tournament"} <= triggered


def test_a_committed_change_moves_the_generation_on_a_rolled_back_one_does_not(field):
    listener = listening()
    before = listener.generation()
    with transaction.atomic():
        Tournament.objects.filter(pk=field.pk).update(name="Saal")
        transaction.set_rollback(True)
    assert not moved_on(listener, before, seconds=0.5)
    with connection.cursor() as cursor:  # plain SQL, past the ORM: the trigger sees it all the same
        cursor.execute("UPDATE tournaments_tournament SET name = 'Saal 2' WHERE id = %s", [field.pk])
    assert moved_on(listener, before)


@pytest.mark.parametrize("page", ["standings", "player", "seatlist"])
def test_an_unchanged_poll_asks_the_database_once_until_a_change_commits(field, page):
    registration = field.registrations.order_by("start_number").first()
    url = {
        "standings": "/t/saal/rangliste/?ich=3",
        "player": player_url(registration),
        "seatlist": "/t/saal/sitzplan/",
    }[page]
    django_app = Django()
    entry = UnchangedPolls(django_app, listen=True)
    listener = listening()
    tag = get(entry, url)[1]["ETag"]
    with CaptureQueriesContext(connection) as first:
        assert get(entry, url, HTTP_IF_NONE_MATCH=tag)[0] == 304
    with CaptureQueriesContext(connection) as later:
        for _ in range(5):
            assert get(entry, url, HTTP_IF_NONE_MATCH=tag)[0] == 304
    assert len(first) == 1 and len(later) == 0 and django_app.calls == 1
    generation = listener.generation()
    seat = Seat.objects.filter(registration=registration).select_related("table").order_by("-round__number").first()
    if page == "seatlist":  # the players on seats 1 and 2 change places
        seats = Seat.objects.filter(table=seat.table)
        seats.filter(number=1).update(number=5)
        seats.filter(number=2).update(number=1)
        seats.filter(number=5).update(number=2)
    else:
        _game(seat.table)
    assert moved_on(listener, generation)
    with CaptureQueriesContext(connection) as after:
        status = get(entry, url, HTTP_IF_NONE_MATCH=tag)[0]
    assert status == 200 and len(after) >= 1  # read again, and the page changed


def test_without_a_live_listener_every_poll_reads_the_database(field, monkeypatch):
    entry = UnchangedPolls(Django(), listen=True)
    listening()
    url = "/t/saal/sitzplan/"
    tag = get(entry, url)[1]["ETag"]
    assert get(entry, url, HTTP_IF_NONE_MATCH=tag)[0] == 304
    monkeypatch.setattr(changes, "STALE_AFTER", -1.0)  # no sign of life lately: nothing is promised
    with CaptureQueriesContext(connection) as queries:
        assert get(entry, url, HTTP_IF_NONE_MATCH=tag)[0] == 304
    assert len(queries) == 1
    monkeypatch.setattr(changes, "STALE_AFTER", 5.0)
    assert get(entry, url, HTTP_IF_NONE_MATCH=tag)[0] == 304
    state, args, kwargs = polling._polled(url, settings.ROOT_URLCONF)
    kept = entry.state(url, entry.generation(), state, args, kwargs)
    assert entry.state(url, entry.generation(), state, args, kwargs) is kept  # kept while nothing commits
    with transaction.atomic():  # a transaction's own changes are announced by nobody yet
        assert entry.generation() is None  # (no request starts inside one: the entry would close it)


def test_a_lost_listening_connection_is_noticed_and_replaced(field):
    listener = listening()
    before = listener.generation()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE application_name = 'schafkopfrennen-changes' AND datname = current_database()"
        )
    assert moved_on(listener, before)  # lost: nothing promised, then a new connection and a new number
    after = listening().generation()
    assert after is not None and after != before
    with connection.cursor() as cursor:
        cursor.execute("UPDATE tournaments_tournament SET name = 'Saal 3' WHERE id = %s", [field.pk])
    assert moved_on(listener, after)  # the new connection listens


def test_a_poll_of_standings_behind_learns_that_they_turned_stale_though_nothing_committed(field, monkeypatch):
    """Issue 33: standings behind for longer than a minute say so; a phone polling them must learn it
    although no change commits meanwhile (Redis away after the round's last game)."""
    import datetime

    from django.utils import timezone

    from scoring.models import StandingsSnapshot
    from tournaments.services.standings import standings_recompute

    standings_recompute(tournament_id=field.pk)
    StandingsSnapshot.objects.filter(tournament=field).update(revision=0)  # its games not counted
    entry = UnchangedPolls(Django(), listen=True)
    listening()
    url = "/t/saal/rangliste/"
    tag = get(entry, url, HTTP_ACCEPT_LANGUAGE="de")[1]["ETag"]
    assert get(entry, url, HTTP_IF_NONE_MATCH=tag, HTTP_ACCEPT_LANGUAGE="de")[0] == 304
    with CaptureQueriesContext(connection) as kept:
        assert get(entry, url, HTTP_IF_NONE_MATCH=tag, HTTP_ACCEPT_LANGUAGE="de")[0] == 304
    assert len(kept) == 0  # kept while nothing commits and the games wait for less than a minute
    now = timezone.now
    monkeypatch.setattr(timezone, "now", lambda: now() + datetime.timedelta(minutes=2))  # later; no commit
    status, headers, body = get(entry, url, HTTP_IF_NONE_MATCH=tag, HTTP_ACCEPT_LANGUAGE="de")
    assert status == 200 and headers["ETag"] != tag
    assert "die letzten Spiele sind noch nicht gezählt" in body.decode()
