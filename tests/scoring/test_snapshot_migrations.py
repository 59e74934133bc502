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
from tests.conftest import IN_CI
from tournaments.models import Hand
from tournaments.selectors import standings as standings_selectors
from tournaments.selectors.standings import standings_compute, standings_view
from tournaments.services.simulation import tournament_simulate
from tournaments.services.standings import standings_recompute


def _migrate(targets=None) -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(targets or executor.loader.graph.leaf_nodes())


def _old_snapshot(tournament, snapshot, rounds) -> dict:
    """The snapshot's document as the code before 0004 wrote it."""
    result, info = standings_compute(tournament)
    ledger = [
        {
            "start_number": info[e.player].start_number,
            "name": info[e.player].name,
            "round": e.round,
            "table": e.table,
            "hand": e.hand,
            "kind": e.kind,
            "cents": e.cents,
        }
        for e in result.ledger
    ]
    return {
        **{k: v for k, v in snapshot.data.items() if k != "money"},
        "ledger": ledger,
        "overall": [{k: v for k, v in row.items() if k != "round_solos"} for row in snapshot.overall],
        "rounds": {str(r): rows for r, rows in rounds.items()},
    }


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
            cursor.execute(
                "UPDATE scoring_standingssnapshot SET data = %s, marker = %s, revision = %s",
                [json.dumps(old), snapshot.marker, snapshot.revision],
            )
        _migrate()
    finally:
        _migrate()  # whatever happened, the next tests find the schema they expect
    filled = {
        pk: {"solo_won": won, "solo_lost": lost, "pays": pays}
        for pk, won, lost, pays in games.values_list("pk", "solo_won", "solo_lost", "pays")
    }
    assert filled == expected  # as the one writer of these columns fills them
    migrated = StandingsSnapshot.objects.get(tournament=tournament)
    assert migrated.overall == snapshot.overall  # round_solos from the dropped round lists
    assert migrated.data == snapshot.data  # money sums from the dropped ledger
    assert migrated.parts == snapshot.parts and migrated.revision == snapshot.revision
    standings_selectors._LISTS.clear()  # read from the migrated snapshot, not the kept lists
    for r in (1, 2):
        assert standings_view(tournament, round=r).rows == rounds[r]


def _compression() -> dict[str, str]:
    """The snapshot's documents' columns and their compression ("l": lz4, "p": pglz, "": the server's default)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attname, attcompression FROM pg_attribute "
            "WHERE attrelid = 'scoring_standingssnapshot'::regclass AND attname = ANY(%s)",
            [["overall", "data", "parts", "overall_index"]],
        )
        return dict(cursor.fetchall())


@pytest.mark.django_db(transaction=True)
def test_the_snapshot_documents_are_compressed_with_lz4_and_read_back():
    """scoring 0006 sets lz4 on the four documents (its way back gives ``overall_index`` the default), and
    a snapshot written then reads back as it was written."""
    if connection.vendor != "postgresql":
        assert not IN_CI, "CI runs the suite on PostgreSQL"
        pytest.skip("TOAST compression is PostgreSQL's (CI runs this there)")
    with connection.cursor() as cursor:
        cursor.execute("SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'")
        if not cursor.fetchone()[0]:
            pytest.skip("this server was built without lz4 (the migration leaves pglz there)")
    # given the schema migrated (the test database is)
    assert _compression() == dict.fromkeys(["overall", "data", "parts", "overall_index"], "l")
    try:
        _migrate([("scoring", "0005_snapshot_overall_index")])
        assert _compression() == {"overall": "l", "data": "l", "parts": "l", "overall_index": ""}
    finally:
        _migrate()
    assert _compression() == dict.fromkeys(["overall", "data", "parts", "overall_index"], "l")
    # when a snapshot is written
    tournament = tournament_simulate(slug="lz4", players=40, rounds=2, games=8, seed=5)
    written = standings_recompute(tournament_id=tournament.pk)
    # then it is stored with lz4 and reads back as written
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_column_compression(overall), pg_column_compression(data) "
            "FROM scoring_standingssnapshot WHERE id = %s",
            [written.pk],
        )
        assert cursor.fetchone() == ("lz4", "lz4")
    stored = StandingsSnapshot.objects.get(pk=written.pk)
    as_written = json.loads(json.dumps(written.overall))  # its rows keep the standings' tuples
    assert stored.overall == as_written and len(as_written) == 40
    assert (stored.data, stored.parts, stored.overall_index) == (written.data, written.parts, written.overall_index)
    standings_selectors._LISTS.clear()
    assert list(standings_view(tournament).rows) == as_written
