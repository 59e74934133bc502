"""The two data migrations of the lean standings (issue 14), on a simulated tournament: tournaments 0017
fills the solo and money columns from each game's stored outcome; scoring 0004 carries a snapshot of the
old shape (JSON documents, each round's list stored, the whole ledger) over into the packed one (each
overall row's ``round_solos`` from the round lists it drops, the money sums from the ledger)."""
import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.models import StandingsSnapshot
from scoring.storage import solo_columns, stored_score
from tournaments.models import Hand
from tournaments.selectors import standings as standings_selectors
from tournaments.selectors.standings import standings_compute, standings_view
from tournaments.services.simulation import tournament_simulate


def _migrate(targets=None) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(targets or executor.loader.graph.leaf_nodes())


def _old_snapshot(tournament, snapshot, rounds) -> dict:
    """The snapshot's document as the code before 0004 wrote it."""
    result, info = standings_compute(tournament)
    ledger = [{"start_number": info[e.player].start_number, "name": info[e.player].name, "round": e.round,
               "table": e.table, "hand": e.hand, "kind": e.kind, "cents": e.cents} for e in result.ledger]
    return {**{k: v for k, v in snapshot.data.items() if k != "money"}, "ledger": ledger,
            "overall": [{k: v for k, v in row.items() if k != "round_solos"} for row in snapshot.overall],
            "rounds": {str(r): rows for r, rows in rounds.items()}}


@pytest.mark.django_db(transaction=True)
def test_solo_columns_and_the_packed_snapshot_are_carried_over():
    tournament = tournament_simulate(slug="mig", players=13, rounds=2, games=8, seed=3)
    games = Hand.objects.filter(table__round__tournament=tournament)
    expected = {h.pk: solo_columns(stored_score(h)) for h in games}
    assert any(c["solo_won"] for c in expected.values()) and any(c["pays"] for c in expected.values())
    snapshot = StandingsSnapshot.objects.get(tournament=tournament)
    rounds = {r: list(standings_view(tournament, round=r).rows) for r in (1, 2)}
    assert all(rounds.values()) and snapshot.data["money"]
    old = _old_snapshot(tournament, snapshot, rounds)
    try:
        _migrate([("tournaments", "0016_hand_points_columns"), ("scoring", "0003_snapshot_parts")])
        with connection.cursor() as cursor:
            cursor.execute("UPDATE scoring_standingssnapshot SET data = %s, marker = %s, revision = %s",
                           [json.dumps(old), snapshot.marker, snapshot.revision])
        _migrate()
    finally:
        _migrate()  # whatever happened, the next tests find the schema they expect
    filled = {pk: {"solo_won": won, "solo_lost": lost, "pays": pays}
              for pk, won, lost, pays in games.values_list("pk", "solo_won", "solo_lost", "pays")}
    assert filled == expected  # as the one writer of these columns fills them
    migrated = StandingsSnapshot.objects.get(tournament=tournament)
    assert migrated.overall == snapshot.overall  # round_solos from the dropped round lists
    assert migrated.data == snapshot.data  # money sums from the dropped ledger
    assert migrated.parts == snapshot.parts and migrated.revision == snapshot.revision
    standings_selectors._LISTS.clear()  # read from the migrated snapshot, not the kept lists
    for r in (1, 2):
        assert standings_view(tournament, round=r).rows == rounds[r]
