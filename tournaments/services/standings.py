"""The standings snapshot: written from the tables' results (read by ``selectors.standings``) and the pure computation.

A table's result comes from the outcomes stored with its games (``Hand.outcome``, the engine's whole
HandScore) through the pure ``rules.standings.table_result``: no SQL of any vendor re-expands them and
no game is scored again. ``standings_recompute`` (the repair path) reads every game and ranks every
player. ``standings_update`` merges a change at a few tables in those tables' work: it reads the games
of the tables their players sat at (every table of each of them, a handful), folds them
(``rules.standings.fold_tables``), replaces those players' rows, moves them to their new places and
ranks again only the rows between where they left and where they arrived (``rank_window``). Every
other row, each other table's Tischbester and everyone else's money stay as stored; nothing in it
reads every table or every player. Both give the same snapshot (tests/scoring/test_standings_incremental.py
checks it over random sequences of changes).

Which tables changed is read from the revision log (every change of a game or of paper totals writes
a ``HandRevision``): the snapshot remembers the newest revision it reflects, overall and per table.
Writers of one tournament's snapshot take its row lock (``FOR NO KEY UPDATE`` on the tournament), so
two workers never merge over each other; the second finds nothing new and writes nothing.
"""

import bisect
import time
from collections.abc import Iterable
from itertools import repeat
from operator import itemgetter
from typing import Any

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from schafkopfrennen import forget
from scoring.models import StandingsSnapshot, pack_rows
from scoring.rules.standings import (
    Standing,
    StandingsResult,
    compute_standings,
    fold_tables,
    rank_window,
    standing_key,
    standing_values,
)

from ..models import HandRevision, Seat, Tournament
from ..selectors.standings import (
    IDENTITY,
    Accounts,
    PlayerInfo,
    player_accounts_of,
    player_identities,
    points_frozen,
    registration_rows,
    seating_layout,
    standing_rows,
    substitutions,
    table_results_summed,
    tie_note_row,
    unranked_substitutes,
)

# How ``parts`` keeps what a merge needs: the seating it was computed for, whose points substitutes
# hold, the rounds, each player's sort key (``standing_key``) and each table's newest revision. A
# snapshot written in another format is recomputed at its next change instead of merged.
PARTS_FORMAT = 3
# (A tournament whose ruleset freezes a leaving player's points is recomputed at every change once it has a
# substitute: his seat's games are split by who played them, and a merge does not follow that.)

# Changes commit in an order slightly different from their revision ids; a merge looks back this many
# revisions behind the newest it reflected, so a change that committed late is still found.
REVISION_LOOKBACK = 1000

# The documents this process wrote last, per tournament: ((pk, version), parts, overall, data). A merge
# takes them out instead of reading and decoding the snapshot again (a worker merges the same
# tournament all evening: at 4,000 players decoding was a third of a merge); they are put back only
# once the write has committed, and used only while the stored version is still theirs.
_DOCUMENTS: dict[int, tuple[tuple[int, int], dict, list, dict]] = {}  # tournament -> ((pk, version), ...)
_DOCUMENTS_KEPT = 2
forget.keeps(_DOCUMENTS.clear)  # the documents name the players: an erase empties it


def snapshot_documents(
    result: StandingsResult, info: dict[int, PlayerInfo]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The snapshot's overall list (with what each round's list is ranked from) and the rest of it."""
    identity = player_identities(info)
    overall = standing_rows(result.overall, identity, with_round_solos=True)
    data = {
        "tischbeste": [_tischbester_json(t, identity) for t in result.tischbeste],
        # Per player (start number, as text: a JSON key): Reuegeld and Weitergeld paid in, the Tischbester payouts received.
        "money": dict(zip(map(str, map(_START_NUMBER, map(info.__getitem__, result.money))), result.money.values())),
        "collected_cents": result.collected_cents,
        "paid_out_cents": result.paid_out_cents,
        "pot_cents": result.pot_cents,
    }
    return overall, data


_START_NUMBER = itemgetter(1)  # of a PlayerInfo


def _locked_tournament(tournament_id: int):
    """The tournament's row, locked for the snapshot's writers (FK inserts elsewhere are not blocked)."""
    return Tournament.objects.select_for_update(no_key=True).only("pk", "rules", "lot_seed").get(pk=tournament_id)


def _tischbester_json(t, identity: dict[int, tuple]) -> dict[str, Any]:
    rnd, table, players, points, collected_cents, payout_cents = t  # unpacked: 3,000 tables at 4,000 players
    return {
        "round": rnd,
        "table": table,
        "points": points,
        "collected_cents": collected_cents,
        "payout_cents": payout_cents,
        "players": [{"start_number": identity[p][0], "name": identity[p][1]} for p in players],
    }


def _write(
    tournament,
    *,
    snapshot: StandingsSnapshot | None,
    revision: int,
    substitutes: int,
    parts: dict[str, Any],
    overall: list,
    data: dict,
    started: float,
) -> StandingsSnapshot:
    packed, index = pack_rows(overall)  # the list as stored, with where each row starts (pages read a few)
    values = {
        "marker": f"{revision}:{substitutes}",
        "revision": revision,
        "version": (snapshot.version if snapshot else 0) + 1,
        "parts": parts,
        "computed_at": timezone.now(),
        "overall": packed,
        "overall_index": index,
        "data": data,
        "duration_ms": round((time.perf_counter() - started) * 1000),
    }
    if snapshot is not None and _snapshot_update(tournament.pk, values):
        pk = snapshot.pk
    else:
        pk = StandingsSnapshot.objects.create(tournament_id=tournament.pk, **values).pk
    values["overall"] = overall
    transaction.on_commit(lambda: _keep(tournament.pk, (pk, values["version"]), values))
    # By the tournament's id, not its instance: the instance would cache the snapshot back (a one-to-one),
    # and that cycle kept every replaced document alive until the cyclic garbage collector's next full
    # pass (tens of milliseconds at 4,000 players, in whichever request or task came next).
    return StandingsSnapshot(pk=pk, tournament_id=tournament.pk, **values)


def _keep(tournament_id: int, identity: tuple[int, int], values: dict[str, Any]) -> None:
    _DOCUMENTS.pop(tournament_id, None)
    _DOCUMENTS[tournament_id] = identity, values["parts"], values["overall"], values["data"]
    while len(_DOCUMENTS) > _DOCUMENTS_KEPT:
        _DOCUMENTS.pop(next(iter(_DOCUMENTS)))


def _snapshot_to_merge(tournament_id: int) -> StandingsSnapshot | None:
    """The snapshot with its documents: those this process wrote last if they are still the stored ones."""
    kept = _DOCUMENTS.pop(tournament_id, None)
    if kept is None:
        return StandingsSnapshot.objects.filter(tournament_id=tournament_id).first()
    snapshot = StandingsSnapshot.objects.filter(tournament_id=tournament_id).defer("parts", "overall", "data").first()
    if snapshot is None or (snapshot.pk, snapshot.version) != kept[0]:
        return StandingsSnapshot.objects.filter(tournament_id=tournament_id).first()
    snapshot.parts, snapshot.overall, snapshot.data = kept[1:]
    return snapshot


def _snapshot_update(tournament_id: int, values: dict[str, Any]) -> bool:
    """Overwrite the snapshot without reading the old one back; False if there is none yet."""
    return bool(StandingsSnapshot.objects.filter(tournament_id=tournament_id).update(**values))


@transaction.atomic
def standings_recompute(*, tournament_id: int) -> StandingsSnapshot:
    """Recompute everything from the games and replace the snapshot; running it twice gives the same."""
    started = time.perf_counter()
    tournament = _locked_tournament(tournament_id)
    snapshot = StandingsSnapshot.objects.filter(tournament_id=tournament_id).only("pk", "version").first()
    layout = seating_layout(tournament_id)
    regs = registration_rows(tournament_id)
    frozen = points_frozen(tournament.ruleset)
    kept = [_DOCUMENTS.pop(tournament_id, None)]  # the documents kept before, replaced by these
    players: list[tuple[Accounts, dict[int, PlayerInfo]]] = []

    def accounts() -> Accounts:  # while the database sums the games
        kept.clear()  # (freeing them is work too: tens of thousands of objects at 4,000 players)
        players.append(player_accounts_of(regs, frozen=frozen))
        return players[0][0]

    revs: dict[int, int] = {}  # each table's newest revision, read in the same statement as its games
    results = table_results_summed(tournament_id, account=accounts, revisions=revs)
    ((account, info),) = players
    result = compute_standings(
        list(results.values()),
        tournament.ruleset,  # in round and table order
        lot_seed=tournament.lot_seed,
        with_rounds=False,
        with_ledger=False,
        unranked=unranked_substitutes(info, tournament.ruleset),
    )
    parts = {
        "format": PARTS_FORMAT,
        "layout": layout,
        "accounts": {str(k): v for k, v in account.items()},
        "rounds": sorted({t.round for t in results.values()}),
        # (4,000 keys and 3,000 tables: keyed by text without a Python loop)
        "keys": dict(zip(map(str, map(itemgetter(-1), result.keys)), result.keys)),
        "order": list(result.keys),
        "tables": dict(zip(map(str, results), map(revs.get, results, repeat(0)))),
    }
    overall, data = snapshot_documents(result, info)
    return _write(
        tournament,
        snapshot=snapshot,
        revision=max(revs.values(), default=0),
        substitutes=sum(1 for p in info.values() if p.substitute_for),
        parts=parts,
        overall=overall,
        data=data,
        started=started,
    )


def _players_and_tables(stale: list[int], account, tournament_id: int) -> tuple[set[int], list[int]] | None:
    """The players (accounts) of the changed tables and every table they sat at (one read: the seats of
    whoever sits at them, and of every substitute and substituted); None if one of them sat at two
    tables in a round (his Reuegeld allowance would span them)."""
    at_changed = Seat.objects.filter(table_id__in=stale).values("registration_id")
    seats = list(
        Seat.objects.filter(
            Q(registration_id__in=at_changed) | Q(registration_id__in=[*account, *account.values()]),
            round__tournament_id=tournament_id,
        )
        .values_list("table_id", "round__number", "registration_id")
        .order_by()
    )
    changed = set(stale)
    players = {account[reg] for table_id, _round, reg in seats if table_id in changed}
    tables: set[int] = set()
    seen: dict[tuple[int, int], int] = {}
    for table_id, round_number, reg in seats:
        if account[reg] in players:
            if seen.setdefault((account[reg], round_number), table_id) != table_id:
                return None
            tables.add(table_id)
    return players, sorted(tables)


def _merged(snapshot: StandingsSnapshot, tournament, account, stale: list[int]) -> bool:
    """Fold the tables the changed tables' players sat at and put their figures into the snapshot's
    documents (changed in place). False if the snapshot cannot be merged (then it is recomputed)."""
    parts, overall, data = snapshot.parts, snapshot.overall, snapshot.data
    tiebreaks = tuple(tournament.ruleset.tiebreaks)
    found = _players_and_tables(stale, account, tournament.pk)
    if found is None:
        return False
    players, tables = found
    results = table_results_summed(tournament.pk, account=account, table_ids=tables)
    folded = fold_tables(
        sorted(results.values(), key=lambda t: (t.round, t.table)), tournament.ruleset, with_ledger=False
    )
    keys, sorted_keys, rounds = parts["keys"], parts["order"], parts["rounds"]
    lot = 1 + tiebreaks.index("lot") if "lot" in tiebreaks else None
    moved: list[int] = []
    identity: dict[int, tuple] = {}
    ordered = sorted(players)
    values = dict(zip(ordered, standing_values(folded, ordered, rounds)))
    for player in ordered:
        old = keys.get(str(player))
        if old is None:
            return False
        index = bisect.bisect_left(sorted_keys, old)
        if index >= len(overall) or overall[index]["registration"] != player:
            return False
        row = overall.pop(index)
        sorted_keys.pop(index)
        identity[player] = tuple(row[k] for k in IDENTITY)
        points, won, lost, per_round, solos = values[player]
        key = standing_key(
            points, won, lost, per_round[-1] if per_round else 0, old[lot] if lot else 0, player, tiebreaks
        )
        (row,) = standing_rows(
            [Standing(0, player, points, won, lost, per_round, None, solos)], identity, with_round_solos=True
        )
        keys[str(player)] = key
        new = bisect.bisect_left(sorted_keys, key)
        overall.insert(new, row)
        sorted_keys.insert(new, key)
        moved += [index, new]
    start = max(0, min(moved) - 1)  # the row above the first moved has a new one below it
    ranked, _end = rank_window(
        sorted_keys, start, max(moved) + len(players) + 1, overall[start - 1]["rank"] if start else 0, tiebreaks
    )
    for offset, (rank, note) in enumerate(ranked, start):
        row = overall[offset]
        row["rank"] = rank
        row["note"] = None
        if note is not None:  # the note names the player below him
            below = overall[offset + 1]
            row["note"] = tie_note_row(note.tiebreak, below["start_number"], below["name"])
    _money_merged(data, folded, players, identity)
    return _tischbeste_merged(data, folded, {(results[pk].round, results[pk].table) for pk in stale}, identity)


def _money_merged(data: dict[str, Any], folded, players: set[int], identity: dict[int, tuple]) -> None:
    """These players' money sums from the folded tables (every table they sat at), replacing theirs."""
    for player in players:
        number = str(identity[player][0])
        data["money"].pop(number, None)
        if player in folded.money:
            data["money"][number] = folded.money[player]


def _tischbeste_merged(data: dict[str, Any], folded, changed: set[tuple[int, int]], identity: dict[int, tuple]) -> bool:
    """The changed tables' (round, table number) Tischbester replaced, the pot's sums by the difference."""
    entries = data["tischbeste"]
    for t in folded.tischbeste:
        if (t.round, t.table) not in changed:
            continue
        index = bisect.bisect_left(entries, (t.round, t.table), key=lambda e: (e["round"], e["table"]))
        if index >= len(entries) or (entries[index]["round"], entries[index]["table"]) != (t.round, t.table):
            return False
        old = entries[index]
        entries[index] = _tischbester_json(t, identity)
        data["collected_cents"] += t.collected_cents - old["collected_cents"]
        data["paid_out_cents"] += t.payout_cents * len(t.players) - old["payout_cents"] * len(old["players"])
    data["pot_cents"] = data["collected_cents"] - data["paid_out_cents"]
    return True


@transaction.atomic
def standings_update(*, tournament_id: int, table_ids: Iterable[int] = ()) -> StandingsSnapshot | None:
    """Merge the changed tables into the snapshot in the work of their players' tables.

    ``table_ids`` are tables known to have changed; others are found in the revision log. Returns
    None when the snapshot already reflects every change (another worker merged them). Falls back to
    ``standings_recompute`` when there is no snapshot yet, or tables, seats or substitutes changed.
    """
    started = time.perf_counter()
    tournament = _locked_tournament(tournament_id)
    snapshot = _snapshot_to_merge(tournament_id)
    if (
        snapshot is None
        or not snapshot.parts
        or snapshot.parts.get("format") != PARTS_FORMAT
        or snapshot.parts.get("layout") != seating_layout(tournament_id)
    ):
        return standings_recompute(tournament_id=tournament_id)
    parts = snapshot.parts
    stored = parts["tables"]
    known = Q(table_id__in=list(table_ids)) if table_ids else Q(pk__in=[])
    latest = dict(
        HandRevision.objects.filter(
            Q(pk__gt=snapshot.revision - REVISION_LOOKBACK, table__round__tournament_id=tournament_id) | known,
        )
        .order_by()
        .values("table_id")
        .annotate(m=Max("id"))
        .values_list("table_id", "m")
    )
    if any(str(pk) not in stored for pk in latest):
        return standings_recompute(tournament_id=tournament_id)
    stale = sorted(pk for pk, rev in latest.items() if rev > stored[str(pk)])
    if not stale:
        _keep(tournament_id, (snapshot.pk, snapshot.version), vars(snapshot))  # unchanged: kept as they were
        return None
    frozen = points_frozen(tournament.ruleset)
    substitutes, account = substitutions(tournament_id, frozen=frozen)
    if frozen and substitutes:
        return standings_recompute(tournament_id=tournament_id)
    if {str(k): v for k, v in account.items()} != parts["accounts"] or not _merged(
        snapshot, tournament, account, stale
    ):
        return standings_recompute(tournament_id=tournament_id)
    for pk in stale:
        stored[str(pk)] = latest[pk]
    return _write(
        tournament,
        snapshot=snapshot,
        revision=max(snapshot.revision, *latest.values()),
        substitutes=substitutes,
        parts=parts,
        overall=snapshot.overall,
        data=snapshot.data,
        started=started,
    )
