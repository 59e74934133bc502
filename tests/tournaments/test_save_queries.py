"""A saved game costs a fixed, small number of queries, whatever the tournament's size.

The save itself (``hand_record``, the one save of every entry point): the table's lock, after it the
round's status and the table's games summed up, then the game and its revision, and whether anybody had
confirmed (whose confirmations the new game clears). Through the tablet API the key lookup comes first. After the commit the embedded default
merges the one table into the standings, also in a fixed number of queries: never a whole-tournament
recompute.
"""

import random
import uuid

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring.models import StandingsSnapshot
from tournaments.selectors.entry import table_for_entry_key
from tournaments.services import standings as standings_module
from tournaments.services.hands import dealer_for, hand_record
from tournaments.services.rounds import round_draw
from tournaments.services.simulation import round_simulate, tournament_simulate_setup
from tournaments.simulation import random_hand

pytestmark = pytest.mark.django_db


def _statements(queries) -> list[str]:
    """The queries that do work: savepoints are the test's transaction nesting, not the save's."""
    return [q["sql"] for q in queries if not q["sql"].upper().startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]


def _field(players: int, played_rounds: int, slug: str, committed):
    """A tournament with ``played_rounds`` complete rounds and a fresh, published round to enter games in."""
    with committed():
        tournament = tournament_simulate_setup(slug=slug, players=players, rounds=played_rounds + 1, games=8, seed=1)
        for n in range(played_rounds):
            (rnd,) = round_draw(tournament=tournament, seed=n)
            round_simulate(rnd=rnd, seed=n)
        (rnd,) = round_draw(tournament=tournament, seed=99)
        round_simulate(rnd=rnd, seed=99, play=False)
    return tournament, rnd


def _next_record(table, rng) -> dict:
    number = table.hands.count() + 1
    return random_hand(rng, table_size=table.size, dealer=dealer_for(number, 0, table.size), tout_allowed=False)


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    return lambda: django_capture_on_commit_callbacks(execute=True)


def test_a_save_costs_the_same_few_queries_in_a_small_and_a_large_tournament(committed):
    rng = random.Random(3)
    counts = []
    for players, rounds in ((8, 0), (48, 2)):
        tournament, rnd = _field(players, rounds, f"q-{players}", committed)
        table = rnd.tables.select_related("round__tournament").first()
        hand_record(table=table, record=_next_record(table, rng), client_id=uuid.uuid4())  # not the first game
        table = table_for_entry_key(table.entry_key)  # as the views load it: with round and tournament
        record = _next_record(table, rng)
        with CaptureQueriesContext(connection) as ctx:
            hand, created = hand_record(table=table, record=record, client_id=uuid.uuid4())
        assert created
        sql = _statements(ctx.captured_queries)
        counts.append(len(sql))
        assert [s.split()[0].upper() for s in sql] == ["SELECT"] * 3 + ["INSERT", "INSERT", "SELECT"], sql
        assert "FOR UPDATE" in sql[0].upper() or connection.vendor == "sqlite"
    assert counts[0] == counts[1] == 6


def test_the_tablet_api_save_and_its_standings_merge_do_not_grow_with_the_tournament(committed):
    rng = random.Random(4)
    recomputes = []
    real = standings_module.standings_recompute
    results = []
    for players, rounds in ((8, 0), (48, 2)):
        tournament, rnd = _field(players, rounds, f"api-{players}", committed)
        table = rnd.tables.first()
        client = Client()
        body = {**_next_record(table, rng), "client_id": str(uuid.uuid4())}
        with committed():  # the first game of the round: its merge sets up the round's tables
            assert (
                client.post(f"/api/tisch/{table.entry_key}/hands/", body, content_type="application/json").status_code
                == 201
            )
        standings_module.standings_recompute = lambda **kw: recomputes.append(kw) or real(**kw)
        try:
            body = {**_next_record(table, rng), "client_id": str(uuid.uuid4())}
            with CaptureQueriesContext(connection) as save:
                response = client.post(f"/api/tisch/{table.entry_key}/hands/", body, content_type="application/json")
            assert response.status_code == 201
            with CaptureQueriesContext(connection) as merge, committed():
                # what the embedded default runs after the commit
                standings_module.standings_update(tournament_id=tournament.pk, table_ids=[table.pk])
        finally:
            standings_module.standings_recompute = real
        results.append((len(_statements(save.captured_queries)), len(_statements(merge.captured_queries))))
        snapshot = StandingsSnapshot.objects.get(tournament=tournament)
        assert snapshot.parts["tables"][str(table.pk)] == snapshot.revision  # the table's newest revision
    assert not recomputes, "a save recomputed the whole tournament"
    assert results[0] == results[1], results
    save_queries, merge_queries = results[0]
    assert save_queries == 7  # the key lookup, then hand_record's six (as the test above counts them)
    assert (
        merge_queries <= 11
    )  # lock, snapshot, layout, revisions, substitutes, the players and their tables, their tables and games summed, the write
