"""Issue 33: standings that missed their update (a send that failed, a chain that stopped) are caught
up by a worker's own look (``schedule.standings_catch_up``), with no change, page view or restart."""

import datetime
import random
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.models import StandingsSnapshot
from tournaments.models import HandRevision
from tournaments.selectors.standings import games_marker, standings_is_current, tournaments_lagging
from tournaments.services.hands import hand_record
from tournaments.services.rounds import round_draw, round_publish
from tournaments.services.schedule import CATCH_UP_AFTER_SECONDS, standings_catch_up
from tournaments.services.simulation import tournament_simulate_setup
from tournaments.simulation import random_hand

pytestmark = pytest.mark.django_db


def _game(table, rng) -> None:
    number = table.hands.count() + 1
    hand_record(
        table=table,
        record=random_hand(rng, table_size=table.size, dealer=((number - 1) % table.size) + 1),
        client_id=uuid.uuid4(),
        device="test",
    )


@pytest.fixture
def evening(django_capture_on_commit_callbacks):
    """A round being played, every game so far counted."""
    tournament = tournament_simulate_setup(slug=f"c-{uuid.uuid4().hex[:6]}", players=8, rounds=1, games=8, seed=3)
    (rnd,) = round_draw(tournament=tournament, seed=5)
    round_publish(round=rnd)
    rng = random.Random(1)
    with django_capture_on_commit_callbacks(execute=True):
        for table in rnd.tables.all():
            _game(table, rng)
    tournament.refresh_from_db()
    assert standings_is_current(tournament)
    return tournament, list(rnd.tables.order_by("number")), rng


def test_a_change_no_merge_counted_is_caught_up_once_it_is_older_than_a_chain_would_take(evening):
    tournament, tables, rng = evening
    _game(tables[0], rng)  # its update never runs (the commit's callbacks are not run here: a failed send)
    tournament.refresh_from_db()
    assert not standings_is_current(tournament)

    # a young change is still a chain's to merge: the look is one query, and nothing is recomputed
    with CaptureQueriesContext(connection) as queries:
        assert standings_catch_up(missed_for=CATCH_UP_AFTER_SECONDS) == 0
    assert len(queries) == 1

    # older than that: recomputed, and the snapshot counts every game
    HandRevision.objects.filter(table__round__tournament=tournament).update(
        at=timezone.now() - datetime.timedelta(seconds=CATCH_UP_AFTER_SECONDS + 1)
    )
    assert tournaments_lagging(timezone.now() - datetime.timedelta(seconds=CATCH_UP_AFTER_SECONDS)) == [tournament.pk]
    assert standings_catch_up(missed_for=CATCH_UP_AFTER_SECONDS) == 1
    tournament.refresh_from_db()
    assert standings_is_current(tournament)
    assert StandingsSnapshot.objects.get(tournament=tournament).marker == games_marker(tournament)
    assert standings_catch_up(missed_for=CATCH_UP_AFTER_SECONDS) == 0  # nothing left to do


def test_a_worker_that_connects_catches_up_every_lagging_tournament_at_once(evening):
    tournament, tables, rng = evening
    _game(tables[1], rng)
    assert standings_catch_up() == 1  # however young the change: the broker was away
    tournament.refresh_from_db()
    assert standings_is_current(tournament)
    assert standings_catch_up() == 0
