"""Every non-trivial read of the tournaments app."""
import functools
import hashlib
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import Count, Max, Q, QuerySet

from scoring.rules import Ruleset
from scoring.rules import table as table_rules
from scoring.rules.collation import name_initial, name_sort_key
from scoring.rules.seats import kreuz_partner

from .models import Club, Hand, Player, Registration, Round, Seat, SeatSwap, Table, TableConfirmation, Tournament


def tournament_list_public() -> QuerySet[Tournament]:
    return (
        Tournament.objects.select_related("club")
        .annotate(player_count=Count("registrations", filter=Q(registrations__withdrawn_after_round__isnull=True)))
        .order_by("-date", "name")
    )


def games_required(tournament: Tournament, table_size: int) -> int:
    """32 games at a table of four; tables of five play games × 5 / 4 so everyone plays as many."""
    return table_rules.games_required(tournament.ruleset.games_per_round, table_size)


@dataclass(frozen=True)
class TableProgress:
    table_id: int
    number: int
    size: int
    games_entered: int
    games_required: int
    confirmations: int
    paper_totals: bool
    closed_reason: str = ""  # the organiser closed it without every confirmation
    reconfirm_game: int | None = None  # a game changed after confirmation

    @property
    def games_complete(self) -> bool:
        return self.paper_totals or self.games_entered >= self.games_required

    @property
    def complete(self) -> bool:
        return self.paper_totals or bool(self.closed_reason) or (self.games_complete and self.confirmations >= self.size)


def table_progress(rnd: Round) -> list[TableProgress]:
    """For every table of a round: games entered (thrown-in games do not count) and confirmations."""
    tournament = rnd.tournament
    games = Counter(
        dict(Hand.objects.filter(table__round=rnd).exclude(thrown_in=True)
             .values_list("table_id").annotate(n=Count("id")).values_list("table_id", "n"))
    )
    confirmations = Counter(
        dict(TableConfirmation.objects.filter(table__round=rnd).values_list("table_id")
             .annotate(n=Count("id")).values_list("table_id", "n"))
    )
    return [
        TableProgress(
            table_id=t.pk, number=t.number, size=t.size, games_entered=games[t.pk],
            games_required=games_required(tournament, t.size), confirmations=confirmations[t.pk],
            paper_totals=t.paper_totals is not None, closed_reason=t.closed_reason, reconfirm_game=t.reconfirm_game,
        )
        for t in rnd.tables.order_by("number")
    ]


@dataclass(frozen=True)
class SeatRow:
    start_number: int
    name: str
    sort_name: str
    club: str
    table: int
    seat: int
    initial: str = ""
    """The letter the row is listed under alphabetically (A for Ächter)."""


def seat_rows(rnd: Round) -> list[SeatRow]:
    """Everyone seated in a round, alphabetically by last name ("Wo sitze ich?")."""
    seats = Seat.objects.filter(round=rnd).select_related("table", "registration__player__club")
    keyed = []
    for s in seats:
        player = s.registration.player
        key = (name_sort_key(player.last_name, player.first_name), s.registration.start_number)
        keyed.append((key, SeatRow(
            start_number=s.registration.start_number, name=player.name, sort_name=player.sort_name,
            club=player.club.name if player.club else "", table=s.table.number, seat=s.number,
            initial=name_initial(player.last_name),
        )))
    return [row for _, row in sorted(keyed, key=lambda pair: pair[0])]


def seats_by_table(rnd: Round) -> list[tuple[Table, list[SeatRow]]]:
    tables = {t.number: t for t in rnd.tables.all()}
    grouped: dict[int, list[SeatRow]] = defaultdict(list)
    for row in seat_rows(rnd):
        grouped[row.table].append(row)
    return [(tables[n], sorted(grouped[n], key=lambda r: r.seat)) for n in sorted(tables)]


def round_current_public(tournament: Tournament) -> Round | None:
    """The newest round the public may see (published or closed)."""
    return tournament.rounds.exclude(status=Round.Status.DRAWN).order_by("-number").first()


def seat_list_state(slug: str) -> tuple[str, None] | None:
    """What the public seat list shows follows from this token (None: no tournament or no public round).

    The newest public round (its number and status) and who sits where in it (a checksum over the
    seats: a redraw, a swap or a substitute changes it); one small read instead of rendering a
    thousand names. Like the player page's token it does not follow a player's name being edited.
    """
    t, r, tb, s = (m._meta.db_table for m in (Tournament, Round, Table, Seat))
    with connection.cursor() as cursor:
        cursor.execute(
            f'SELECT t.name, r.id, r.number, r.status, '
            f'(SELECT COUNT(*) FROM "{s}" s WHERE s.round_id = r.id), '
            f'(SELECT SUM(s.registration_id * (tb.number * 8 + s.number)) FROM "{s}" s '
            f'JOIN "{tb}" tb ON tb.id = s.table_id WHERE s.round_id = r.id) '
            f'FROM "{t}" t LEFT JOIN "{r}" r ON r.id = (SELECT r2.id FROM "{r}" r2 WHERE r2.tournament_id = t.id '
            f"AND r2.status <> 'drawn' ORDER BY r2.number DESC LIMIT 1) WHERE t.slug = %s", [slug])
        row = cursor.fetchone()
    if row is None or row[1] is None:
        return None
    name, round_id, number, status, seats, checksum = row
    digest = hashlib.blake2b(name.encode(), digest_size=6).hexdigest()
    return f"{digest}-{round_id}.{number}.{status}-{seats}.{checksum}", None


def registrations_for_desk(tournament: Tournament) -> QuerySet[Registration]:
    return (
        Registration.objects.filter(tournament=tournament)
        .select_related("player__club", "substitute_for__player")
        .order_by("start_number")
    )


# --- Reads of the REST API (tournaments/api): a table's sheet, a round's tables with their seats ---


_JOINED = ((Table, "t"), (Round, "r"), (Tournament, "u"))


@functools.cache
def _entry_key_sql(vendor: str) -> tuple[str, list[tuple[type, list[str], list[tuple[Any, list]]]]]:
    """The key lookup with its round and tournament as one plain statement, and how to read its row
    (made once per process and database vendor)."""
    layout, columns = [], []
    for model, alias in _JOINED:
        fields = model._meta.concrete_fields
        columns += [f'{alias}."{f.column}"' for f in fields]
        readers = []
        for field in fields:
            col = field.get_col(model._meta.db_table)
            readers.append((col, [*connection.ops.get_db_converters(col), *field.get_db_converters(connection)]))
        layout.append((model, [f.attname for f in fields], readers))
    t, r, u = (model._meta.db_table for model, _alias in _JOINED)
    sql = (f'SELECT {", ".join(columns)} FROM "{t}" t JOIN "{r}" r ON r.id = t.round_id '
           f'JOIN "{u}" u ON u.id = r.tournament_id WHERE t.entry_key = %s')
    return sql, layout


def table_for_entry_key(entry_key: str, *, with_round: bool = True) -> Table | None:
    """The table a tablet's private key opens, or None; ``with_round``: its round and tournament too.

    A write passes it on to a service that locks the table's row and re-reads only what can change.
    Every game a tablet saves starts here, so the three rows come from one plain statement, made
    into model instances as the ORM would (its converters, ``from_db``): building the ``select_related``
    query anew for every request cost five times the CPU of running it.
    """
    if not with_round:
        return Table.objects.filter(entry_key=entry_key).first()
    sql, layout = _entry_key_sql(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [entry_key])
        row = cursor.fetchone()
    if row is None:
        return None
    made, start = [], 0
    for model, names, readers in layout:
        values = []
        for value, (col, converters) in zip(row[start:start + len(names)], readers, strict=True):
            for convert in converters:
                value = convert(value, col, connection)
            values.append(value)
        made.append(model.from_db(connection.alias, names, values))
        start += len(names)
    table, rnd, tournament = made
    rnd.tournament = tournament
    table.round = rnd
    return table


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


def table_sheet(table: Table) -> TableSheet:
    """A table's sheet: seats, games (thrown-in games do not count), totals, the next game's dealer."""
    rnd = table.round
    hands = list(table.hands.order_by("number"))
    confirmed = list(table.confirmations.order_by("seat").values_list("seat", flat=True))
    seats_here = list(table.seats.select_related("registration__player__club").order_by("number"))
    size = table.size
    if table.paper_totals is not None:
        totals = {str(s): int(table.paper_totals.get(str(s), 0)) for s in range(1, size + 1)}
    else:
        totals = {str(s): 0 for s in range(1, size + 1)}
        for hand in hands:
            for seat, points in hand.points.items():
                totals[seat] = totals.get(seat, 0) + points
    sequence = table_rules.table_sequence([(hand.number, hand.thrown_in) for hand in hands], table_size=size,
                                          games_per_round=rnd.tournament.ruleset.games_per_round)
    paper = table.paper_totals is not None  # a table that played on paper has no next game
    return TableSheet(
        table=table, round_number=rnd.number, round_status=rnd.status,
        seats=[
            SheetSeat(
                seat=s.number, start_number=s.registration.start_number, name=s.registration.player.name,
                club=s.registration.player.club.name if s.registration.player.club else "",
                total=totals.get(str(s.number), 0), confirmed=s.number in confirmed,
            )
            for s in seats_here
        ],
        hands=hands, totals=totals, games_entered=sequence.games_played, games_required=sequence.games_required,
        next_number=None if paper else sequence.next_number, next_dealer=None if paper else sequence.next_dealer,
        sitting_out=None if paper else sequence.sitting_out,
        confirmations=confirmed,
        complete=table.paper_totals is not None or table.completed_at is not None,
    )


@dataclass(frozen=True)
class TableOverview:
    table: Table
    seats: list[SeatRow]
    progress: TableProgress


def tables_overview(rnd: Round) -> list[TableOverview]:
    """Every table of a round with its seats (start number, name) and its progress."""
    progress = {p.table_id: p for p in table_progress(rnd)}
    return [TableOverview(table=t, seats=rows, progress=progress[t.pk]) for t, rows in seats_by_table(rnd)]


# --- The registration desk, the rounds page and the public seat list (tournaments/views/desk.py ...) ---


def _name_filter(words: list[str], prefix: str = "") -> Q:
    condition = Q()
    for word in words:
        condition &= Q(**{f"{prefix}first_name__icontains": word}) | Q(**{f"{prefix}last_name__icontains": word})
    return condition


def players_search(*, tournament: Tournament, query: str, limit: int = 12) -> list[Player]:
    """The club's players (members, or who played one of its tournaments) not yet registered here.

    Every word of the query must be part of the first or the last name.
    """
    words = query.split()
    if not words:
        return []
    known = Q(club_id=tournament.club_id) | Q(registrations__tournament__club_id=tournament.club_id)
    registered = Registration.objects.filter(tournament=tournament).values("player_id")
    ids = (
        Player.objects.filter(known).filter(_name_filter(words)).exclude(pk__in=registered)
        .values_list("pk", flat=True).distinct()
    )
    return list(Player.objects.filter(pk__in=ids).select_related("club").order_by("last_name", "first_name", "id")[:limit])


def club_names() -> list[str]:
    """Every club's name, to pick from when a new player is added (desk helpers cannot add clubs)."""
    return list(Club.objects.order_by("name").values_list("name", flat=True))


def player_for_desk(*, tournament: Tournament, pk: int) -> Player | None:
    """A player the desk of this tournament may register: one of the club's database (see players_search)."""
    known = Q(club_id=tournament.club_id) | Q(registrations__tournament__club_id=tournament.club_id)
    return Player.objects.filter(known, pk=pk).distinct().first()


@dataclass(frozen=True)
class DeskRow:
    """A registration as the desk sees it, with the player's seat in the newest round."""

    registration: Registration
    round_number: int | None
    table: int | None
    seat: int | None
    waiting: bool
    """Checked in and playing, but without a seat in the newest round: joins from the next draw."""
    substitute: Registration | None

    @property
    def number(self) -> int:
        return self.registration.start_number


def _desk_rows(tournament: Tournament, registrations: list[Registration]) -> list[DeskRow]:
    newest = tournament.rounds.order_by("-number").first()
    seats: dict[int, Seat] = {}
    if newest is not None:
        seats = {
            s.registration_id: s
            for s in Seat.objects.filter(round=newest, registration__in=[r.pk for r in registrations])
            .select_related("table")
        }
    substitutes = {
        r.substitute_for_id: r
        for r in Registration.objects.filter(substitute_for__in=[r.pk for r in registrations]).select_related("player")
    }
    rows = []
    for reg in registrations:
        seat = seats.get(reg.pk)
        waiting = (
            newest is not None and newest.status != Round.Status.CLOSED and seat is None
            and reg.checked_in and not reg.withdrawn
        )
        rows.append(DeskRow(
            registration=reg, round_number=newest.number if seat else None,
            table=seat.table.number if seat else None, seat=seat.number if seat else None,
            waiting=waiting, substitute=substitutes.get(reg.pk),
        ))
    return rows


def desk_rows(*, tournament: Tournament, query: str = "") -> list[DeskRow]:
    """The tournament's registrations by start number; a query filters by name words or start number."""
    registrations = registrations_for_desk(tournament)
    words = query.split()
    if words:
        numbers = [int(w) for w in words if w.isdigit()]
        names = [w for w in words if not w.isdigit()]
        condition = _name_filter(names, prefix="player__") if names else Q()
        if numbers:
            condition &= Q(start_number__in=numbers)
        registrations = registrations.filter(condition)
    return _desk_rows(tournament, list(registrations))


def desk_row(registration: Registration) -> DeskRow:
    reg = registrations_for_desk(registration.tournament).get(pk=registration.pk)
    return _desk_rows(registration.tournament, [reg])[0]


@dataclass(frozen=True)
class DeskSummary:
    """Counts for the desk and whether the players checked in can be seated."""

    registered: int
    """Registered and not withdrawn."""
    paid: int
    checked_in: int
    """Checked in and not withdrawn: the field of the next draw."""
    withdrawn: int
    table_sizes: list[int]
    """The next draw's tables (fives first); empty when the field cannot be seated."""
    add: int | None
    withdraw: int | None

    @property
    def feasible(self) -> bool:
        return bool(self.table_sizes)

    @property
    def tables_of_five(self) -> int:
        return self.table_sizes.count(5)

    @property
    def tables_of_four(self) -> int:
        return self.table_sizes.count(4)


def desk_summary(tournament: Tournament) -> DeskSummary:
    from . import seating

    counts = Registration.objects.filter(tournament=tournament).aggregate(
        registered=Count("id", filter=Q(withdrawn_after_round__isnull=True)),
        paid=Count("id", filter=Q(withdrawn_after_round__isnull=True, paid=True)),
        checked_in=Count("id", filter=Q(withdrawn_after_round__isnull=True, checked_in=True)),
        withdrawn=Count("id", filter=Q(withdrawn_after_round__isnull=False)),
    )
    sizes: list[int] = []
    add = withdraw = None
    try:
        sizes = seating.table_sizes(counts["checked_in"])
    except seating.SeatingImpossible as err:
        add, withdraw = err.params["add"], err.params["withdraw"]
    return DeskSummary(table_sizes=sizes, add=add, withdraw=withdraw, **counts)


@dataclass(frozen=True)
class RoundPanel:
    """One round on the organiser's rounds page: its state, tables and the actions it allows now."""

    number: int
    round: Round | None
    tables: list["TableOverview"]
    unseated: list[Registration]
    """Drawn round: players checked in since the draw (a redraw includes them)."""
    withdrawn_seated: list[Registration]
    """Drawn round: withdrawn players who still have a seat (redraw or name a substitute)."""
    can_draw: bool
    can_redraw: bool
    can_publish: bool
    can_close: bool
    can_swap: bool

    @property
    def status(self) -> str:
        return self.round.status if self.round else ""

    @property
    def tables_complete(self) -> int:
        return sum(1 for t in self.tables if t.progress.complete)


def rounds_overview(tournament: Tournament) -> list[RoundPanel]:
    """Every round of the ruleset, drawn or not, with what the organiser can do with it next."""
    rules = tournament.ruleset
    rounds = {r.number: r for r in tournament.rounds.all()}
    field = list(
        Registration.objects.filter(tournament=tournament, checked_in=True, withdrawn_after_round__isnull=True)
        .select_related("player").order_by("start_number")
    )
    in_advance = rules.draw_mode == "all_in_advance"
    panels = []
    all_closed_before = True
    for number in range(1, max(rules.rounds, max(rounds, default=0)) + 1):
        rnd = rounds.get(number)
        unseated: list[Registration] = []
        withdrawn_seated: list[Registration] = []
        if rnd is None:
            next_to_draw = number == len(rounds) + 1
            can_draw = next_to_draw and (in_advance and not rounds or not in_advance and all_closed_before)
            panels.append(RoundPanel(number, None, [], [], [], can_draw, False, False, False, False))
            all_closed_before = False
            continue
        if rnd.status == Round.Status.DRAWN:
            seated = set(rnd.seats.values_list("registration_id", flat=True))
            unseated = [reg for reg in field if reg.pk not in seated]
            withdrawn_seated = list(
                Registration.objects.filter(seats__round=rnd, withdrawn_after_round__lt=number)
                .select_related("player").order_by("start_number")
            )
        panels.append(RoundPanel(
            number=number, round=rnd, tables=tables_overview(rnd), unseated=unseated,
            withdrawn_seated=withdrawn_seated, can_draw=False,
            can_redraw=rnd.status == Round.Status.DRAWN,
            can_publish=rnd.status == Round.Status.DRAWN and all_closed_before,
            can_close=rnd.status == Round.Status.PUBLISHED,
            # a swap only before play: once a table has games or totals, the form is gone
            can_swap=rnd.status != Round.Status.CLOSED and not (
                Hand.objects.filter(table__round=rnd).exists()
                or rnd.tables.filter(paper_totals__isnull=False).exists()),
        ))
        all_closed_before = all_closed_before and rnd.status == Round.Status.CLOSED
    return panels


def seat_swaps_for(tournament: Tournament) -> QuerySet[SeatSwap]:
    """The seat-swap log of a tournament, newest first."""
    return SeatSwap.objects.filter(round__tournament=tournament).select_related("round", "by").order_by("-at", "-id")


# --- Reads of the tablet entry page and paper mode (tournaments/views/entry.py, paper.py) ---


@dataclass(frozen=True)
class SheetCell:
    seat: int
    points: int | None  # None: thrown in, or the dealer who sat out at a table of five
    running: int
    deals: bool
    sits_out: bool
    plays: bool  # declarer or partner


@dataclass(frozen=True)
class SheetRow:
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
    rows: list[SheetRow]  # by game number
    names: dict[int, str]  # seat -> name
    thrown_in: int
    open_for_entry: bool  # a published round whose games are not all entered (and no paper totals)
    games_complete: bool  # every game entered: the players confirm
    read_only: bool  # the round is closed (or not published yet)

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


def hand_partner(hand: Hand, size: int) -> int | None:
    """The declarer's partner: as entered, or in a game über Kreuz the seat opposite (rules.md section 6)."""
    if hand.partner is None and hand.contract == Hand.Contract.KREUZ and hand.declarer:
        return kreuz_partner(hand.declarer, size, table_rules.sits_out(hand.dealer, size))
    return hand.partner


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
            cells.append(SheetCell(seat=seat, points=points, running=running[seat], deals=seat == hand.dealer,
                                   sits_out=sits_out, plays=seat in (hand.declarer, partner)))
        won = None if thrown_in else hand.outcome.get("declarer_won")
        rows.append(SheetRow(
            hand=hand, number=hand.number, dealer=hand.dealer, thrown_in=thrown_in, declarer_won=won,
            won_solo=bool(won) and hand.contract in (Hand.Contract.WENZ, Hand.Contract.SOLO), cells=cells,
            partner=partner,
        ))
    published = sheet.round_status == Round.Status.PUBLISHED
    paper = table.paper_totals is not None
    games_complete = not paper and sheet.games_entered >= sheet.games_required
    return EntrySheet(
        sheet=sheet, tournament=tournament, rules=tournament.ruleset, rows=rows,
        names={s.seat: s.name for s in sheet.seats},
        thrown_in=sum(1 for row in rows if row.thrown_in),
        open_for_entry=published and not paper and not games_complete,
        games_complete=games_complete,
        read_only=not published,
    )


def table_of_tournament(tournament: Tournament, table_id: int) -> Table | None:
    """A table of the tournament (any round), or None: another tournament's table is not found."""
    return Table.objects.select_related("round__tournament").filter(pk=table_id, round__tournament=tournament).first()


def rounds_with_tables(tournament: Tournament) -> list[Round]:
    """The rounds whose tables play or have played (published or closed), first round first."""
    return list(tournament.rounds.exclude(status=Round.Status.DRAWN).order_by("number"))


def table_entry_version(table: Table) -> str:
    """A short tag that changes whenever the table's page would (a game, a confirmation, the round's state).

    Every change to a game writes a revision, so the newest revision's id stands for the games.
    """
    facts = Table.objects.filter(pk=table.pk).aggregate(
        revision=Max("hand_revisions__id"), confirmed=Count("confirmations", distinct=True),
    )
    rnd = Round.objects.filter(pk=table.round_id).values_list("status", flat=True).first()
    paper = "p" if table.paper_totals is not None else ""
    return f"{rnd}-{facts['revision'] or 0}-{facts['confirmed']}{paper}"
