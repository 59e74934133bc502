"""The standings snapshot: written from the tables' results (read by ``selectors.standings``) and the pure computation.

A table's result comes from the outcomes stored with its games (``Hand.outcome``, the engine's whole
HandScore) through the pure ``rules.standings.table_result``: no SQL of any vendor re-expands them and
no game is scored again. The snapshot keeps every table's result next to the standings, so a change at
one table costs that table's work: ``standings_update`` reads only the changed tables' games and
merges them in; ``standings_recompute`` (the repair path) reads every game. Both give the same
snapshot (tests/scoring/test_standings_incremental.py checks it over random sequences of changes).

Which tables changed is read from the revision log (every change of a game or of paper totals writes
a ``HandRevision``): the snapshot remembers the newest revision it reflects, overall and per table.
Writers of one tournament's snapshot take its row lock (``FOR NO KEY UPDATE`` on the tournament), so
two workers never merge over each other; the second finds nothing new and writes nothing.
"""
import contextlib
import gc
import time
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from scoring.models import StandingsSnapshot
from scoring.rules.outcome import table_result_from_json, table_result_to_json
from scoring.rules.standings import StandingsResult, compute_standings, player_money

from ..models import HandRevision, Tournament
from ..selectors.standings import (PlayerInfo, newest_revisions, player_accounts, player_identities, seating_layout,
                                  standing_rows, table_results_by_id, table_results_summed)

# How ``parts`` keeps the tables' results (table id -> [newest revision, *table_result_to_json]); a
# snapshot written in another format is recomputed at its next change instead of merged.
PARTS_FORMAT = 2

# Changes commit in an order slightly different from their revision ids; a merge looks back this many
# revisions behind the newest it reflected, so a change that committed late is still found.
REVISION_LOOKBACK = 1000


def snapshot_documents(result: StandingsResult, info: dict[int, PlayerInfo]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The snapshot's overall list (with what each round's list is ranked from) and the rest of it."""
    overall = standing_rows(result.overall, player_identities(info), with_round_solos=True)
    data = {
        "tischbeste": [
            {"round": t.round, "table": t.table, "points": t.points, "collected_cents": t.collected_cents,
             "payout_cents": t.payout_cents,
             "players": [{"start_number": info[p].start_number, "name": info[p].name} for p in t.players]}
            for t in result.tischbeste
        ],
        # Per player (start number): Reuegeld and Weitergeld paid in, the Tischbester payouts received.
        "money": player_money(result.ledger, {pk: p.start_number for pk, p in info.items()}),
        "collected_cents": result.collected_cents,
        "paid_out_cents": result.paid_out_cents,
        "pot_cents": result.pot_cents,
    }
    return overall, data


def _locked_tournament(tournament_id: int):
    """The tournament's row, locked for the snapshot's writers (FK inserts elsewhere are not blocked)."""
    return Tournament.objects.select_for_update(no_key=True).only("pk", "rules", "lot_seed").get(pk=tournament_id)


def _write(tournament, *, snapshot: StandingsSnapshot | None, revision: int, parts: dict[str, Any],
           result: StandingsResult, info: dict[int, PlayerInfo], started: float) -> StandingsSnapshot:
    overall, data = snapshot_documents(result, info)
    values = {
        "marker": f"{revision}:{sum(1 for p in info.values() if p.substitute_for)}",
        "revision": revision, "version": (snapshot.version if snapshot else 0) + 1, "parts": parts,
        "computed_at": timezone.now(), "overall": overall, "data": data,
        "duration_ms": round((time.perf_counter() - started) * 1000),
    }
    if snapshot is None or not _snapshot_update(tournament.pk, values):
        StandingsSnapshot.objects.create(tournament=tournament, **values)
    return StandingsSnapshot(tournament=tournament, **values)


def _snapshot_update(tournament_id: int, values: dict[str, Any]) -> bool:
    """Overwrite the snapshot without reading the old one back; False if there is none yet.

    The ORM's plain ``UPDATE`` on every database; on PostgreSQL the documents (orjson bytes, several
    megabytes at 4,000 players) go as binary parameters, since the settings bind on the server (with
    Django's client-side binding they were quoted into hex text, which the server parsed back).
    """
    return bool(StandingsSnapshot.objects.filter(tournament_id=tournament_id).update(**values))


@contextlib.contextmanager
def _without_gc():
    """Python's cyclic garbage collector off for one merge or recompute.

    Both build hundreds of thousands of small dicts and tuples (every table's result, every row of
    the lists) that hold no reference cycles; meanwhile the collector ran again and again over the
    whole, growing heap: a third of a merge's CPU at 1,000 players. Reference counting still frees
    everything; the collector is switched back on afterwards.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@_without_gc()
@transaction.atomic
def standings_recompute(*, tournament_id: int) -> StandingsSnapshot:
    """Recompute everything from the games and replace the snapshot; running it twice gives the same."""
    started = time.perf_counter()
    tournament = _locked_tournament(tournament_id)
    snapshot = StandingsSnapshot.objects.filter(tournament_id=tournament_id).only("pk", "version").first()
    layout = seating_layout(tournament_id)
    # Revisions before games: a change committing in between is then counted again later, never missed.
    revs = newest_revisions(tournament_id)
    account, info = player_accounts(tournament_id)
    results = table_results_summed(tournament_id, account=account)
    parts = {"layout": layout, "accounts": {str(k): v for k, v in account.items()},
             "format": PARTS_FORMAT,
             "tables": {str(pk): [revs.get(pk, 0), *table_result_to_json(r)] for pk, r in results.items()}}
    result = compute_standings(sorted(results.values(), key=lambda t: (t.round, t.table)), tournament.ruleset,
                               lot_seed=tournament.lot_seed, with_rounds=False)
    return _write(tournament, snapshot=snapshot, revision=max(revs.values(), default=0), parts=parts,
                  result=result, info=info, started=started)


@_without_gc()
@transaction.atomic
def standings_update(*, tournament_id: int, table_ids: Iterable[int] = ()) -> StandingsSnapshot | None:
    """Merge the changed tables into the snapshot: their games are read, no other table's.

    ``table_ids`` are tables known to have changed; others are found in the revision log. Returns
    None when the snapshot already reflects every change (another worker merged them). Falls back to
    ``standings_recompute`` when there is no snapshot yet, or tables, seats or substitutes changed.
    """
    started = time.perf_counter()
    tournament = _locked_tournament(tournament_id)
    snapshot = StandingsSnapshot.objects.filter(tournament_id=tournament_id).defer("overall", "data").first()
    if (snapshot is None or not snapshot.parts or snapshot.parts.get("format") != PARTS_FORMAT
            or snapshot.parts.get("layout") != seating_layout(tournament_id)):
        return standings_recompute(tournament_id=tournament_id)
    parts = snapshot.parts
    stored = parts["tables"]
    known = Q(table_id__in=list(table_ids)) if table_ids else Q(pk__in=[])
    latest = dict(HandRevision.objects.filter(
        Q(pk__gt=snapshot.revision - REVISION_LOOKBACK, table__round__tournament_id=tournament_id) | known,
    ).order_by().values("table_id").annotate(m=Max("id")).values_list("table_id", "m"))
    if any(str(pk) not in stored for pk in latest):
        return standings_recompute(tournament_id=tournament_id)
    stale = sorted(pk for pk, rev in latest.items() if rev > stored[str(pk)][0])
    if not stale:
        return None
    account, info = player_accounts(tournament_id)
    if {str(k): v for k, v in account.items()} != parts["accounts"]:
        return standings_recompute(tournament_id=tournament_id)
    for pk, result in table_results_by_id(tournament_id, account=account, table_ids=stale).items():
        stored[str(pk)] = [latest[pk], *table_result_to_json(result)]
    results = sorted((table_result_from_json(t[1:]) for t in stored.values()), key=lambda t: (t.round, t.table))
    result = compute_standings(results, tournament.ruleset, lot_seed=tournament.lot_seed, with_rounds=False)
    return _write(tournament, snapshot=snapshot, revision=max(snapshot.revision, *latest.values()), parts=parts,
                  result=result, info=info, started=started)
