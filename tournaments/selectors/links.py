"""Reads behind the private links: a table card's all-evening link and a player's own page.

A table link follows its table *number* through the rounds: it opens that number's table in the
newest round the public may see (published or closed), and says what is going on when there is
none. A player's key opens his own page: where he sits now, who sits with him, his games and points
per round, his place when the standings are public.
"""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.utils.translation import get_language

from schafkopfrennen import forget
from scoring.models import PackedRows, StandingsSnapshot

from ..links import table_link_parse
from ..models import Club, HandRevision, Player, Prize, Registration, Round, Seat, Table, TableConfirmation, Tournament
from .entry import EntrySheet, table_entry_sheet
from .public import round_current_public
from .rows import columns, one
from .standings import AwardRow, lot_decided, prize_list, standings_view


@dataclass(frozen=True)
class TableLink:
    """Where a table card's link leads right now."""

    PLAY = "play"  # this number's table in the published round
    CLOSED = "closed"  # the newest round is closed, the next one not yet published
    FINISHED = "finished"  # the last round is closed
    MISSING = "missing"  # the published round has no table with this number
    WAITING = "waiting"  # no round is published yet
    REVOKED = "revoked"  # a card of an earlier generation: the organiser printed new table cards

    key: str
    tournament: Tournament
    number: int
    state: str
    round: Round | None = None
    table: Table | None = None

    @property
    def signature(self) -> str:
        """Changes exactly when the page should show something else (the page polls it)."""
        return f"{self.state}:{self.round.number if self.round else 0}"

    @property
    def next_round(self) -> int:
        return (self.round.number if self.round else 0) + 1


def table_link_resolve(key: str) -> TableLink | None:
    """What the all-evening link ``key`` opens now; None for a key that is not genuine."""
    parsed = table_link_parse(key)
    if parsed is None:
        return None
    tournament_id, number, generation = parsed
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    if generation != tournament.table_cards_generation:
        return TableLink(key=key, tournament=tournament, number=number, state=TableLink.REVOKED)
    rnd = round_current_public(tournament)
    if rnd is None:
        return TableLink(key=key, tournament=tournament, number=number, state=TableLink.WAITING)
    rnd.tournament = tournament
    table = rnd.tables.filter(number=number).select_related("round__tournament").first()
    if tournament.status == Tournament.Status.FINISHED:  # over: the card opens no entry page any more
        state, table = TableLink.FINISHED, None
    elif rnd.status == Round.Status.PUBLISHED:
        state = TableLink.PLAY if table is not None else TableLink.MISSING
    elif rnd.number >= tournament.ruleset.rounds:
        state = TableLink.FINISHED
    else:
        state = TableLink.CLOSED
    return TableLink(key=key, tournament=tournament, number=number, state=state, round=rnd, table=table)


def table_for_link(key: str, round_number: int) -> Table | None:
    """The table of the link's number in round ``round_number`` once that round is public, else None.

    The entry page behind a table link sends its games to the round it was opened in: a game kept on
    the device during an outage never lands in the next round's table.
    """
    parsed = table_link_parse(key)
    if parsed is None:
        return None
    tournament_id, number, generation = parsed
    # a revoked card's key opens nothing (404), and nothing is written through a card once the tournament is over
    return (
        Table.objects.select_related("round__tournament")
        .filter(
            round__tournament_id=tournament_id,
            round__number=round_number,
            number=number,
            round__tournament__table_cards_generation=generation,
        )
        .exclude(round__status=Round.Status.DRAWN)
        .exclude(round__tournament__status=Tournament.Status.FINISHED)
        .first()
    )


def table_for_player(key: str, round_number: int) -> Table | None:
    """The table where the player of ``key`` sat in round ``round_number`` once it is public, else None."""
    registration = registration_for_key(key)
    if registration is None:
        return None
    return (
        Table.objects.select_related("round__tournament")
        .filter(seats__registration=registration, round__number=round_number)
        .exclude(round__status=Round.Status.DRAWN)
        .first()
    )


# --- the player's page ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerGame:
    number: int
    contract: str  # the contract's label, or "thrown in"
    declarer: str  # who played (name), empty for a thrown-in game
    points: int | None  # None: he sat out (table of five) or nobody played
    running: int
    plays: bool  # he was the declarer or the partner
    sits_out: bool


@dataclass(frozen=True)
class PlayerRound:
    number: int
    status: str
    table: Table
    seat: int
    mates: list[dict]  # the others at the table: seat, name, start number
    games: list[PlayerGame]
    total: int
    games_required: int
    paper: bool  # the sheet was taken over as round totals only
    confirmed: bool
    can_confirm: bool  # every game entered, the round published, his confirmation missing
    kept_as: tuple = ()  # (table, version, language, seat): the same round reads the same (its rendering is kept by it)

    @property
    def open(self) -> bool:
        return self.status == Round.Status.PUBLISHED


@dataclass(frozen=True)
class PlayerPage:
    registration: Registration
    tournament: Tournament
    rounds: list[PlayerRound]  # the public rounds he played, newest first
    current: PlayerRound | None  # his seat in the newest public round (None: not seated there / none yet)
    current_round: Round | None
    rank: dict | None  # his standings row, when the standings are public
    standings_public: bool
    total: int = 0
    prize: AwardRow | None = None  # what he receives, once the tournament is finished and its standings public

    @property
    def signature(self) -> str:
        """What his open page polls (``player_signature``): it reloads when the newest public round changes."""
        rnd = self.current_round
        return round_signature(rnd.number, rnd.status) if rnd else round_signature(None, None)


def round_signature(number: int | None, status: str | None) -> str:
    return f"{number}:{status}" if number is not None else "0"


_REGISTRATION = ((Registration, "g"), (Player, "p"), (Club, "pc"), (Tournament, "t"), (Club, "tc"))


@functools.cache
def _registration_sql() -> str:
    g, p, c, t = (m._meta.db_table for m in (Registration, Player, Club, Tournament))
    return (
        f'{columns(_REGISTRATION)[0]} FROM "{g}" g JOIN "{p}" p ON p.id = g.player_id '
        f'LEFT JOIN "{c}" pc ON pc.id = p.club_id JOIN "{t}" t ON t.id = g.tournament_id '
        f'JOIN "{c}" tc ON tc.id = t.club_id WHERE g.key = %s'
    )


def registration_for_key(key: str) -> Registration | None:
    """His registration with his player, the tournament and their clubs (``select_related("player__club",
    "tournament__club")`` as one plain statement: every poll of a changed player page reads it)."""
    if not key or len(key) > 64:
        return None
    found = one(_REGISTRATION, _registration_sql(), [key])
    if found is None:
        return None
    registration, player, player_club, tournament, club = found
    player.club, tournament.club = player_club, club
    registration.player, registration.tournament = player, tournament
    return registration


def _player_round(number: int, table: Table, entry: EntrySheet, kept_as: tuple) -> PlayerRound:
    sheet = entry.sheet
    names = entry.names
    games = []
    for row in entry.rows:
        cell = row.cells[number - 1]
        hand = row.hand
        games.append(
            PlayerGame(
                number=row.number,
                contract=hand.get_contract_display(),
                declarer="" if row.thrown_in else names.get(hand.declarer or 0, ""),
                points=cell.points,
                running=cell.running,
                plays=cell.plays,
                sits_out=cell.sits_out,
            )
        )
    mine = next(s for s in sheet.seats if s.seat == number)
    return PlayerRound(
        number=sheet.round_number,
        status=sheet.round_status,
        table=table,
        seat=number,
        mates=[
            {"seat": s.seat, "name": s.name, "start_number": s.start_number, "club": s.club}
            for s in sheet.seats
            if s.seat != number
        ],
        games=games,
        total=mine.total,
        games_required=sheet.games_required,
        paper=table.paper_totals is not None,
        confirmed=mine.confirmed,
        can_confirm=entry.games_complete and not entry.read_only and not mine.confirmed,
        kept_as=(*kept_as, number),
    )


def _table_facts(tables: str) -> list[str]:
    """What a table's part of the player pages follows, as SQL over the table ids ``tables`` (a subquery or
    a column): the newest revision of its games (every change to a game writes one, paper totals too),
    its confirmations, and who sits where (seat ids: a swap writes new seats; their players: a substitute
    takes a seat over). With the round's status, this is the part of the player page's tag for his tables
    and the key under which each table's rounds are kept (``_table_player_rounds``)."""
    h, c, s = (m._meta.db_table for m in (HandRevision, TableConfirmation, Seat))
    return [
        f'(SELECT MAX(f.id) FROM "{h}" f WHERE f.table_id IN ({tables}))',
        f'(SELECT COUNT(*) FROM "{c}" f WHERE f.table_id IN ({tables}))',
        f'(SELECT SUM(f.id) FROM "{s}" f WHERE f.table_id IN ({tables}))',
        f'(SELECT SUM(f.registration_id) FROM "{s}" f WHERE f.table_id IN ({tables}))',
    ]


_ROUNDS: dict[tuple, dict[int, PlayerRound]] = {}  # (table, version, language) -> seat -> round
_ROUNDS_LOCK = threading.Lock()
forget.keeps(_ROUNDS.clear)  # its rounds name the table mates: an erase empties it
_ROUNDS_KEPT = 2048  # a table's rounds are tens of KB: this bounds the memory of each process


def _table_player_rounds(table_id: int, version: tuple, tournament: Tournament) -> dict[int, PlayerRound]:
    """Every seat's part of a table's round for the player pages, kept per process for the table's
    version (its round's status and ``_table_facts``) and the language.

    The four or five players of a table, polling their pages all evening, share it, and an earlier
    round's table is read once: only a changed table is read again. Callers must not change it.
    """
    key = (table_id, version, get_language() or "")
    found = _ROUNDS.get(key)
    if found is None:
        table = Table.objects.select_related("round").get(pk=table_id)
        table.round.tournament = tournament
        entry = table_entry_sheet(table)
        found = {s.seat: _player_round(s.seat, table, entry, key) for s in entry.sheet.seats}
        with _ROUNDS_LOCK:  # a threaded server (runserver) shares the dict between requests
            _ROUNDS[key] = found
            while len(_ROUNDS) > _ROUNDS_KEPT:
                _ROUNDS.pop(next(iter(_ROUNDS)))
    return found


# His row of the standings as the page shows it: read from the snapshot's overall list once per
# process and snapshot (``_standings_by_number``), so that a poll looks his row up instead of rendering.
# The template shows these fields of ``PlayerPage.rank`` and nothing else: what is not here is not in
# the page's tag either (a field the page should show is added here, and the tag follows it).
RANK_SHOWN = ("start_number", "rank", "points")

_STANDINGS: dict[tuple, PackedRows] = {}  # snapshot key -> the overall list (read by start number)
_STANDINGS_KEPT = 8
_STANDINGS_LOCK = threading.Lock()
forget.keeps(_STANDINGS.clear)


def _standings_by_number(tournament: Tournament | int, snapshot: tuple) -> PackedRows:
    """The overall standings, to look a player's row up by start number (``by_number``: only his row
    is decoded), for the snapshot ``snapshot`` = (tournament id, snapshot id, version, computed at) as
    ``_snapshot_key`` reads it.

    Read through ``standings_view`` (its list is kept per process too) once per snapshot and
    process; kept only when the view read that very snapshot (a newer one is used, not kept under the
    older key). Callers must not change the rows.
    """
    found = _STANDINGS.get(snapshot)
    if found is not None:
        return found
    if not isinstance(tournament, Tournament):
        tournament = Tournament.objects.get(pk=tournament)
    view = standings_view(tournament)
    found = view.rows if isinstance(view.rows, PackedRows) else PackedRows.of(list(view.rows))
    if view.exists and view.version == snapshot[2]:
        with _STANDINGS_LOCK:  # a threaded server (runserver) shares the dict between requests
            _STANDINGS[snapshot] = found
            while len(_STANDINGS) > _STANDINGS_KEPT:
                _STANDINGS.pop(next(iter(_STANDINGS)))
    return found


def _snapshot_key(tournament_id: int) -> tuple | None:
    """(tournament id, snapshot id, version, computed at) of the tournament's standings snapshot, None without one."""
    table = StandingsSnapshot._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f'SELECT s.id, s.version, s.computed_at FROM "{table}" s WHERE s.tournament_id = %s', [tournament_id]
        )
        row = cursor.fetchone()
    return (tournament_id, *row) if row else None


_LOTS: dict[tuple, frozenset[int]] = {}  # snapshot key -> start numbers whose place a lot decided


def _decided_by_lot(tournament: Tournament | int, snapshot: tuple) -> frozenset[int]:
    """``lot_decided`` over the overall list, once per process and snapshot (as ``_standings_by_number``)."""
    found = _LOTS.get(snapshot)
    if found is None:
        found = frozenset(lot_decided(_standings_by_number(tournament, snapshot)))
        with _STANDINGS_LOCK:
            _LOTS[snapshot] = found
            while len(_LOTS) > _STANDINGS_KEPT:
                _LOTS.pop(next(iter(_LOTS)))
    return found


def _shown(tournament: Tournament | int, snapshot: tuple, row: dict[str, Any], finished: bool) -> dict[str, Any]:
    """His row as the page shows it: RANK_SHOWN and, once the tournament is finished, whether a lot decided his
    place (``by_lot``: the whole list is read for it, once per snapshot; not while every game changes it)."""
    return {
        **{k: row.get(k) for k in RANK_SHOWN},
        "by_lot": finished and row["start_number"] in _decided_by_lot(tournament, snapshot),
    }


def player_standing(tournament: Tournament, start_number: int) -> dict[str, Any] | None:
    """His row of the overall standings (``_shown``), None when the snapshot has none (or there is no snapshot)."""
    snapshot = _snapshot_key(tournament.pk)
    row = None if snapshot is None else _standings_by_number(tournament, snapshot).by_number(start_number)
    return None if row is None else _shown(tournament, snapshot, row, tournament.status == Tournament.Status.FINISHED)


@functools.cache
def _seats_sql() -> str:
    """His seats in the public rounds, newest first, each with its round and its table's facts."""
    s, r = Seat._meta.db_table, Round._meta.db_table
    return (
        f"SELECT s.number, s.table_id, r.status, {', '.join(_table_facts('s.table_id'))} "
        f'FROM "{s}" s JOIN "{r}" r ON r.id = s.round_id '
        f"WHERE s.registration_id = %s AND r.status <> 'drawn' ORDER BY r.number DESC"
    )


def _round_current_public(tournament: Tournament) -> Round | None:
    """``round_current_public`` in plain SQL (every changed player page asks)."""
    r = Round._meta.db_table
    found = list(
        Round.objects.raw(
            f'SELECT * FROM "{r}" WHERE tournament_id = %s AND status <> %s ORDER BY number DESC LIMIT 1',
            [tournament.pk, Round.Status.DRAWN],
        )
    )
    return found[0] if found else None


def player_page(registration: Registration) -> PlayerPage:
    """A player's own page: his seat now, his table mates, his games per public round, his place.

    Two small reads besides the standings' (his seats with their tables' facts, the newest public
    round): his tables' rounds are kept per table version, his row of the standings per snapshot.
    """
    tournament = registration.tournament
    current_round = _round_current_public(tournament)
    with connection.cursor() as cursor:
        cursor.execute(_seats_sql(), [registration.pk])
        seats = cursor.fetchall()
    rounds = [_table_player_rounds(table_id, tuple(facts), tournament)[number] for number, table_id, *facts in seats]
    current = rounds[0] if rounds and current_round and rounds[0].number == current_round.number else None
    rank = player_standing(tournament, registration.start_number) if tournament.standings_public else None
    prize = None
    if rank is not None and tournament.status == Tournament.Status.FINISHED:
        prize = next((a for a in prize_list(tournament).awards if a.registration == registration.pk), None)
    return PlayerPage(
        registration=registration,
        tournament=tournament,
        rounds=rounds,
        current=current,
        current_round=current_round,
        rank=rank,
        standings_public=tournament.standings_public,
        total=sum(r.total for r in rounds),
        prize=prize,
    )


@functools.cache
def _signature_sql() -> str:
    g, r = Registration._meta.db_table, Round._meta.db_table
    return (
        f'SELECT r.number, r.status FROM "{g}" g LEFT JOIN "{r}" r ON r.id = (SELECT x.id FROM "{r}" x '
        f"WHERE x.tournament_id = g.tournament_id AND x.status <> 'drawn' ORDER BY x.number DESC LIMIT 1) "
        f"WHERE g.key = %s"
    )


def player_signature(key: str) -> str | None:
    """``PlayerPage.signature`` of his page in one small read (his open page asks every few seconds);
    None for a key that is not genuine."""
    if not key or len(key) > 64:
        return None
    with connection.cursor() as cursor:
        cursor.execute(_signature_sql(), [key])
        found = cursor.fetchone()
    return None if found is None else round_signature(*found)


@functools.cache
def _state_sql() -> str:
    """One statement for the player page's poll token; standard SQL over the models' tables, written once."""
    g, p, t, r, s, snap, z = (
        m._meta.db_table for m in (Registration, Player, Tournament, Round, Seat, StandingsSnapshot, Prize)
    )
    mine = f'SELECT x.table_id FROM "{s}" x WHERE x.registration_id = g.id'
    return (
        f"SELECT g.tournament_id, g.start_number, p.first_name, p.last_name, t.name, t.slug, t.standings_public, "
        f"sn.id, sn.version, sn.computed_at, r.number, r.status, "
        f"(SELECT COUNT(*) FROM \"{r}\" x WHERE x.tournament_id = t.id AND x.status = 'closed'), "
        f"{', '.join(_table_facts(mine))}, "
        # his prize, shown once the tournament is finished: the prizes as saved (new rows each time), his tick
        f'(SELECT MAX(z.id) FROM "{z}" z WHERE z.tournament_id = t.id), t.status, g.prize_handed_over '
        f'FROM "{g}" g JOIN "{p}" p ON p.id = g.player_id JOIN "{t}" t ON t.id = g.tournament_id '
        f'LEFT JOIN "{snap}" sn ON sn.tournament_id = t.id '
        f'LEFT JOIN "{r}" r ON r.id = (SELECT x.id FROM "{r}" x WHERE x.tournament_id = t.id '
        f"AND x.status <> 'drawn' ORDER BY x.number DESC LIMIT 1) "
        f"WHERE g.key = %s"
    )


def player_page_state(key: str) -> tuple[str, Any] | None:
    """What a player's own page shows follows from this token (None: no such key), for its ETag.

    One small read (plain SQL: every phone in the hall polls it): his name and start number, the
    tournament's name and whether its standings are public, the newest public round and its state
    (and how many rounds are closed), and at his tables the newest game revision (every change to a
    game, paper totals included, writes one), the confirmations and who sits where (seat ids: a swap
    writes new seats; registrations: a substitute takes a seat over). With the standings public, his
    own row as the page shows it (RANK_SHOWN), looked up in the snapshot's list kept per process:
    a game at another table that leaves his place and points as they were leaves the tag too.
    No time of the last change (the snapshot's time says nothing about his tables): the tag decides.
    """
    if not key or len(key) > 64:
        return None
    with connection.cursor() as cursor:
        cursor.execute(_state_sql(), [key])
        found = cursor.fetchone()
    if found is None:
        return None
    tournament_id, start_number, first, last, name, slug, public, snapshot_id = found[:8]
    version, computed_at, *rest = found[8:]
    standing = None
    if public and snapshot_id is not None:
        snapshot = (tournament_id, snapshot_id, version, computed_at)
        row = _standings_by_number(tournament_id, snapshot).by_number(start_number)
        finished = rest[-2] == Tournament.Status.FINISHED  # t.status, the statement's last but one column
        standing = row and tuple(_shown(tournament_id, snapshot, row, finished).values())
    facts = (start_number, first, last, name, slug, bool(public), standing, *rest)
    return "|".join(map(str, facts)), None
