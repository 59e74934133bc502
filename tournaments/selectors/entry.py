"""Reads of a table's sheet: the tablet's entry page, its REST API and paper mode."""

import functools
from dataclasses import dataclass

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Count, Max, OuterRef, Subquery, Sum

from scoring.rules import Ruleset
from scoring.rules import table as table_rules

from ..models import Hand, Round, Seat, Table, Tournament
from .rows import columns, first_row, made
from .tables import confirmed_from_one_device, dealer_now, hand_partner, seat_changes

_JOINED = ((Table, "t"), (Round, "r"), (Tournament, "u"))


@functools.cache
def entry_key_sql(extra_columns: str = "", extra_from: str = "") -> str:
    """The key lookup with its round and tournament as one plain statement (``selectors.rows``); a caller
    may add columns after the three rows' (read with ``entry_key_width``) and joins to the table ``t``."""
    t, r, u = (model._meta.db_table for model, _alias in _JOINED)
    return (
        f'{columns(_JOINED)[0]}{extra_columns} FROM "{t}" t JOIN "{r}" r ON r.id = t.round_id '
        f'JOIN "{u}" u ON u.id = r.tournament_id{extra_from} WHERE t.entry_key = %s'
    )


@functools.cache
def entry_key_width() -> int:
    """How many columns of ``entry_key_sql``'s rows are the table's, the round's and the tournament's."""
    return sum(len(attnames) for _model, attnames, _readers, _pk in columns(_JOINED)[1])


def entry_key_table(row, db) -> Table:
    """The table of a row of ``entry_key_sql``, with its round and tournament, as ``select_related`` links them."""
    table, rnd, tournament = made(_JOINED, row, db)
    rnd.tournament = tournament
    table.round = rnd
    return table


def table_for_entry_key(
    entry_key: str, *, with_round: bool = True, for_update: bool = False, cursor=None
) -> Table | None:
    """The table a tablet's private key opens, or None; ``with_round``: its round and tournament too.

    A write passes it on to a service that locks the table's row and re-reads only what can change.
    Every game a tablet saves starts here, so the three rows come from one plain statement, made
    into model instances as the ORM would (its converters, ``from_db``): building the ``select_related``
    query anew for every request cost several times the work of running it.

    ``for_update`` (inside a transaction): the same statement also locks the table's row, and only it
    (``FOR UPDATE OF``), so the table's own columns are read as of after the lock: a new game's save
    finds and locks its table in one query, on the ``cursor`` it goes on with.
    """
    if not with_round:
        return Table.objects.filter(entry_key=entry_key).first()
    db = connections[DEFAULT_DB_ALIAS] if cursor is None else cursor.db
    sql = entry_key_sql()
    if for_update and db.features.has_select_for_update_of:
        sql += " FOR UPDATE OF t"
    row, db = first_row(sql, [entry_key], cursor)
    return None if row is None else entry_key_table(row, db)


@dataclass(frozen=True)
class SheetSeat:
    seat: int
    start_number: int
    name: str
    club: str
    total: int
    confirmed: bool


@dataclass(frozen=True)
class TableSheet:
    """What a table's tablet shows: who sits where, every game with its points, what comes next."""

    table: Table
    round_number: int
    round_status: str
    seats: list[SheetSeat]
    hands: list[Hand]
    totals: dict[str, int]
    games_entered: int
    games_required: int
    next_number: int | None
    next_dealer: int | None
    sitting_out: int | None
    confirmations: list[int]
    complete: bool
    one_device: bool = False  # every seat confirmed from the same device (``tables.confirmed_from_one_device``)
    changes: tuple[str, ...] = ()  # who played which games where a seat changed (``tables.seat_changes``)
    dealing: int | None = None  # at a table that plays on with four: who deals the next game


def table_sheet(table: Table) -> TableSheet:
    """A table's sheet: seats, games (thrown-in games do not count), totals, the next game's dealer."""
    rnd = table.round
    hands = list(table.hands.order_by("number"))
    confirmed_by = list(table.confirmations.order_by("seat").values_list("seat", "device_id"))
    confirmed = [seat for seat, _device in confirmed_by]
    devices = [device for _seat, device in confirmed_by]
    seats_here = list(table.seats.select_related("registration__player__club", "earlier__player").order_by("number"))
    size = table.size
    if table.paper_totals is not None:
        totals = {str(s): int(table.paper_totals.get(str(s), 0)) for s in range(1, size + 1)}
    else:
        totals = {str(s): 0 for s in range(1, size + 1)}
        for hand in hands:
            for seat, points in hand.points.items():
                totals[seat] = totals.get(seat, 0) + points
    sequence = table_rules.table_sequence(
        [(hand.number, hand.thrown_in) for hand in hands],
        table_size=size,
        games_per_round=rnd.tournament.ruleset.games_per_round,
        left=table.left(),
    )
    paper = table.paper_totals is not None  # a table that played on paper has no next game
    return TableSheet(
        table=table,
        round_number=rnd.number,
        round_status=rnd.status,
        seats=[
            SheetSeat(
                seat=s.number,
                start_number=s.registration.start_number,
                name=s.registration.player.name,
                club=s.registration.club_label,
                total=totals.get(str(s.number), 0),
                confirmed=s.number in confirmed,
            )
            for s in seats_here
        ],
        hands=hands,
        totals=totals,
        games_entered=sequence.games_played,
        games_required=sequence.games_required,
        next_number=None if paper else sequence.next_number,
        next_dealer=None if paper else sequence.next_dealer,
        sitting_out=None if paper else sequence.sitting_out,
        confirmations=confirmed,
        one_device=confirmed_from_one_device(
            size, len(confirmed), min(devices, default=None), max(devices, default=None)
        ),
        complete=table.paper_totals is not None or table.completed_at is not None,
        changes=seat_changes(table, seats_here),
        dealing=None if paper else dealer_now(table, sequence.next_number, hands),
    )


@dataclass(frozen=True)
class SheetCell:
    seat: int
    points: int | None  # None: thrown in, or the dealer who sat out at a table of five
    running: int
    deals: bool
    sits_out: bool
    plays: bool  # declarer or partner


@dataclass(frozen=True)
class EntryRow:
    """One game of a table's sheet as the tablet and the paper sheet show it (rules.md section 9)."""

    hand: Hand
    number: int
    dealer: int
    thrown_in: bool
    declarer_won: bool | None  # None for a thrown-in game
    won_solo: bool  # a won Wenz, Farbsolo, Tout or Sie: circled on the paper sheet
    cells: list[SheetCell]
    partner: int | None = None  # as entered, or über Kreuz the seat opposite the declarer


@dataclass(frozen=True)
class EntrySheet:
    """Everything the table's page shows: the sheet, each game's row with running totals, what comes next."""

    sheet: TableSheet
    tournament: Tournament
    rules: Ruleset
    rows: list[EntryRow]  # by game number
    names: dict[int, str]  # seat -> name
    thrown_in: int
    open_for_entry: bool  # a published round whose games are not all entered (and no paper totals)
    games_complete: bool  # every game entered: the players confirm
    read_only: bool  # the round is closed (or not published yet), or the organiser closed the table
    closed_reason: str = ""  # the organiser closed the table in a round under way: why (no more games)

    @property
    def table(self) -> Table:
        return self.sheet.table

    @property
    def sits_out_name(self) -> str:
        return self.names.get(self.sheet.sitting_out or 0, "")

    @property
    def dealer_name(self) -> str:
        return self.names.get(self.sheet.next_dealer or 0, "")

    @property
    def totals_sum(self) -> int:
        return sum(self.sheet.totals.values())


def table_entry_sheet(table: Table) -> EntrySheet:
    """A table's sheet with each game's points and running totals, for the tablet and paper mode."""
    sheet = table_sheet(table)
    tournament = sheet.table.round.tournament
    size = table.size
    running = dict.fromkeys(range(1, size + 1), 0)
    rows = []
    for hand in sheet.hands:
        thrown_in = hand.thrown_in
        partner = hand_partner(hand, size)
        cells = []
        out = table_rules.sits_out(hand.dealer, size)
        for seat in range(1, size + 1):
            sits_out = seat == out
            points = None if thrown_in or sits_out else int(hand.points.get(str(seat), 0))
            running[seat] += points or 0
            cells.append(
                SheetCell(
                    seat=seat,
                    points=points,
                    running=running[seat],
                    deals=seat == hand.dealer,
                    sits_out=sits_out,
                    plays=seat in (hand.declarer, partner),
                )
            )
        won = None if thrown_in else hand.outcome.get("declarer_won")
        rows.append(
            EntryRow(
                hand=hand,
                number=hand.number,
                dealer=hand.dealer,
                thrown_in=thrown_in,
                declarer_won=won,
                won_solo=bool(won) and hand.contract in (Hand.Contract.WENZ, Hand.Contract.SOLO),
                cells=cells,
                partner=partner,
            )
        )
    published = sheet.round_status == Round.Status.PUBLISHED
    paper = table.paper_totals is not None
    games_complete = not paper and sheet.games_entered >= sheet.games_required
    closed_reason = table.closed_reason if published else ""
    return EntrySheet(
        sheet=sheet,
        tournament=tournament,
        rules=tournament.ruleset,
        rows=rows,
        names={s.seat: s.name for s in sheet.seats},
        thrown_in=sum(1 for row in rows if row.thrown_in),
        open_for_entry=published and not paper and not games_complete and not closed_reason,
        games_complete=games_complete,
        read_only=not published or bool(closed_reason),
        closed_reason=closed_reason,
    )


def table_of_tournament(tournament: Tournament, table_id: int) -> Table | None:
    """A table of the tournament (any round), or None: another tournament's table is not found."""
    return Table.objects.select_related("round__tournament").filter(pk=table_id, round__tournament=tournament).first()


def rounds_with_tables(tournament: Tournament) -> list[Round]:
    """The rounds whose tables play or have played (published or closed), first round first."""
    return list(tournament.rounds.exclude(status=Round.Status.DRAWN).order_by("number"))


def table_entry_version(table: Table) -> str:
    """A short tag that changes whenever the table's page would (a game, a confirmation, the round's
    state, who sits where, whether the organiser closed the table or took paper totals).

    Every change to a game writes a revision, so the newest revision's id stands for the games; a seat
    swap writes new seats and a substitute takes a seat over, so the seats' ids and their players'
    stand for the names on the sheet. One query.
    """
    return _version(Table.objects.filter(pk=table.pk))


def table_page_state(key: str) -> tuple[str, None] | None:
    """The tablet page's poll state (``schafkopfrennen.polling.polled_page``): its version, read in one
    query by the private key; None (the view answers: 404) for a wrong key or a round not published."""
    version = _version(Table.objects.filter(entry_key=key).exclude(round__status=Round.Status.DRAWN))
    return None if version is None else (version, None)


def _version(tables) -> str | None:
    seated = Seat.objects.filter(table_id=OuterRef("pk")).order_by().values("table_id")
    facts = (
        tables.order_by()
        .annotate(
            revision=Max("hand_revisions__id"),
            confirmed=Count("confirmations", distinct=True),
            seat_ids=Subquery(seated.annotate(s=Sum("id")).values("s")),
            who=Subquery(seated.annotate(s=Sum("registration_id")).values("s")),
        )
        .values("revision", "confirmed", "seat_ids", "who", "closed_reason", "round__status", "paper_totals")
        .first()
    )
    if facts is None:
        return None
    paper = "p" if facts["paper_totals"] is not None else ""
    closed = "c" if facts["closed_reason"] else ""  # closed or reopened by the organiser
    return (
        f"{facts['round__status']}{closed}-{facts['revision'] or 0}-{facts['confirmed']}{paper}-"
        f"{facts['seat_ids']}-{facts['who']}"
    )
