"""Reads behind the private links: a table card's all-evening link and a player's own page.

A table link follows its table *number* through the rounds: it opens that number's table in the
newest round the public may see (published or closed), and says what is going on when there is
none. A player's key opens his own page: where he sits now, who sits with him, his games and points
per round, his place when the standings are public.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Count, Max, Sum
from django.utils.translation import get_language

from ..links import table_link_parse
from ..models import HandRevision, Registration, Round, Seat, Table, Tournament
from .entry import EntrySheet, table_entry_sheet, table_entry_versions
from .public import round_current_public
from .standings import standings_state, standings_view


@dataclass(frozen=True)
class TableLink:
    """Where a table card's link leads right now."""

    PLAY = "play"  # this number's table in the published round
    CLOSED = "closed"  # the newest round is closed, the next one not yet published
    FINISHED = "finished"  # the last round is closed
    MISSING = "missing"  # the published round has no table with this number
    WAITING = "waiting"  # no round is published yet

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
    tournament_id, number = parsed
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return None
    rnd = round_current_public(tournament)
    if rnd is None:
        return TableLink(key=key, tournament=tournament, number=number, state=TableLink.WAITING)
    rnd.tournament = tournament
    table = rnd.tables.filter(number=number).select_related("round__tournament").first()
    if rnd.status == Round.Status.PUBLISHED:
        state = TableLink.PLAY if table is not None else TableLink.MISSING
    elif tournament.status == Tournament.Status.FINISHED or rnd.number >= tournament.ruleset.rounds:
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
    tournament_id, number = parsed
    return (Table.objects.select_related("round__tournament")
            .filter(round__tournament_id=tournament_id, round__number=round_number, number=number)
            .exclude(round__status=Round.Status.DRAWN).first())


def table_for_player(key: str, round_number: int) -> Table | None:
    """The table where the player of ``key`` sat in round ``round_number`` once it is public, else None."""
    registration = registration_for_key(key)
    if registration is None:
        return None
    return (Table.objects.select_related("round__tournament")
            .filter(seats__registration=registration, round__number=round_number)
            .exclude(round__status=Round.Status.DRAWN).first())


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

    @property
    def signature(self) -> str:
        rnd = self.current_round
        return f"{rnd.number}:{rnd.status}" if rnd else "0"


def registration_for_key(key: str) -> Registration | None:
    if not key or len(key) > 64:
        return None
    return (Registration.objects.select_related("player__club", "tournament__club")
            .filter(key=key).first())


def _player_round(number: int, table: Table, entry: EntrySheet) -> PlayerRound:
    sheet = entry.sheet
    names = entry.names
    games = []
    for row in entry.rows:
        cell = row.cells[number - 1]
        hand = row.hand
        games.append(PlayerGame(
            number=row.number,
            contract=hand.get_contract_display(),
            declarer="" if row.thrown_in else names.get(hand.declarer or 0, ""),
            points=cell.points, running=cell.running, plays=cell.plays, sits_out=cell.sits_out,
        ))
    mine = next(s for s in sheet.seats if s.seat == number)
    return PlayerRound(
        number=sheet.round_number, status=sheet.round_status, table=table, seat=number,
        mates=[{"seat": s.seat, "name": s.name, "start_number": s.start_number, "club": s.club}
               for s in sheet.seats if s.seat != number],
        games=games, total=mine.total, games_required=sheet.games_required,
        paper=table.paper_totals is not None, confirmed=mine.confirmed,
        can_confirm=entry.games_complete and not entry.read_only and not mine.confirmed,
    )


_ROUNDS: dict[tuple[int, str, str], dict[int, PlayerRound]] = {}  # (table, version, language) -> seat -> round
_ROUNDS_LOCK = threading.Lock()
_ROUNDS_KEPT = 2048  # 22 KB a table of 16 games measured (about 40 KB at 32): at most some 80 MB per process


def _table_player_rounds(table: Table, version: str) -> dict[int, PlayerRound]:
    """Every seat's part of a table's round for the player pages, kept per process for the table's
    version (``table_entry_versions``) and the language.

    The four or five players of a table, polling their pages all evening, share it, and an earlier
    round's table is read once: only a changed table is read again. Callers must not change it.
    """
    key = (table.pk, version, get_language() or "")
    found = _ROUNDS.get(key)
    if found is None:
        entry = table_entry_sheet(table)
        found = {s.seat: _player_round(s.seat, table, entry) for s in entry.sheet.seats}
        with _ROUNDS_LOCK:  # a threaded server (runserver) shares the dict between requests
            _ROUNDS[key] = found
            while len(_ROUNDS) > _ROUNDS_KEPT:
                _ROUNDS.pop(next(iter(_ROUNDS)))
    return found


def player_page(registration: Registration) -> PlayerPage:
    """A player's own page: his seat now, his table mates, his games per public round, his place."""

    tournament = registration.tournament
    current_round = round_current_public(tournament)
    seats = list(
        Seat.objects.filter(registration=registration).exclude(round__status=Round.Status.DRAWN)
        .select_related("table__round__tournament").order_by("-round__number")
    )
    rounds = []
    versions = table_entry_versions([seat.table_id for seat in seats])
    for seat in seats:
        seat.table.round.tournament = tournament
        rounds.append(_table_player_rounds(seat.table, versions[seat.table_id])[seat.number])
    current = rounds[0] if rounds and current_round and rounds[0].number == current_round.number else None
    rank = None
    if tournament.standings_public:
        view = standings_view(tournament)
        rank = next((row for row in view.rows if row.get("start_number") == registration.start_number), None)
    return PlayerPage(
        registration=registration, tournament=tournament, rounds=rounds, current=current,
        current_round=current_round, rank=rank, standings_public=tournament.standings_public,
        total=sum(r.total for r in rounds),
    )


def player_page_state(key: str) -> tuple[str, Any] | None:
    """What a player's own page shows follows from this token (None: no such key), for its ETag.

    The standings' token (snapshot version, newer games, progress), the newest revision of a game at
    any of his tables and who sits at them: two small reads instead of rendering his sheets (plain
    SQL, like the standings' token: every phone polls it).
    """
    if not key or len(key) > 64:
        return None
    reg, seat, h = (m._meta.db_table for m in (Registration, Seat, HandRevision))
    mine = f'SELECT s.table_id FROM "{seat}" s WHERE s.registration_id = g.id'
    with connection.cursor() as cursor:
        cursor.execute(
            f'SELECT g.id, g.tournament_id, (SELECT MAX(h.id) FROM "{h}" h WHERE h.table_id IN ({mine})), '
            f'(SELECT SUM(o.registration_id) FROM "{seat}" o WHERE o.table_id IN ({mine})), '
            f'(SELECT COUNT(*) FROM "{seat}" o WHERE o.table_id IN ({mine})) '
            f'FROM "{reg}" g WHERE g.key = %s', [key])
        found = cursor.fetchone()
    if found is None:
        return None
    _pk, tournament_id, revision, who, seated = found
    standings = standings_state(tournament_id=tournament_id)
    return f"{standings[0] if standings else ''}-{revision or 0}-{who}.{seated}", standings and standings[1]
