"""Reads of the registration desk, the rounds page and paper mode's table list."""

from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from scoring.rules.collation import german_fold

from .. import seating
from ..models import Club, Hand, Player, Registration, Round, Seat, SeatSwap, Table, Tournament
from ..params import parse_int
from .public import SeatRow, seats_by_table
from .tables import TableProgress, table_progress


def registrations_for_desk(tournament: Tournament) -> QuerySet[Registration]:
    return (
        Registration.objects.filter(tournament=tournament)
        .select_related("player__club", "substitute_for__player")
        .order_by("start_number")
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


def club_players(club_id: int) -> QuerySet[Player]:
    """A club's player database: its members and whoever played one of its tournaments.

    The one home of that rule: the desk's search, the sign-up's "same person?", merges and an archive's
    import look players up only here, so another club's players are never read, matched or written.
    """
    known = Q(club_id=club_id) | Q(registrations__tournament__club_id=club_id)
    return Player.objects.filter(pk__in=Player.objects.filter(known).values("pk"))


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
    registered = Registration.objects.filter(tournament=tournament).values("player_id")
    return list(
        club_players(tournament.club_id)
        .filter(_name_filter(words))
        .exclude(pk__in=registered)
        .select_related("club")
        .order_by("last_name", "first_name", "id")[:limit]
    )


def registration_namesakes(*, tournament: Tournament, first_name: str, last_name: str) -> list[Registration]:
    """The tournament's registrations of that name (as ``german_fold`` compares): the desk asks "the same or
    another?" before it registers a second one."""
    wanted = german_fold(" ".join(f"{first_name} {last_name}".split()))
    found = (
        tournament.registrations.filter(player__last_name__iexact=last_name.strip())
        .select_related("player__club")
        .order_by("start_number")
    )
    return [r for r in found if german_fold(" ".join(r.player.name.split())) == wanted]


def club_names() -> list[str]:
    """Every club's name, to pick from when a new player is added (desk helpers cannot add clubs)."""
    return list(Club.objects.order_by("name").values_list("name", flat=True))


def player_for_desk(*, tournament: Tournament, pk: int) -> Player | None:
    """A player the desk of this tournament may register: one of the club's database (see players_search)."""
    return club_players(tournament.club_id).filter(pk=pk).first()


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
            for s in Seat.objects.filter(round=newest, registration__in=[r.pk for r in registrations]).select_related(
                "table"
            )
        }
    substitutes = {
        r.substitute_for_id: r
        for r in Registration.objects.filter(substitute_for__in=[r.pk for r in registrations]).select_related("player")
    }
    rows = []
    for reg in registrations:
        seat = seats.get(reg.pk)
        waiting = (
            newest is not None
            and newest.status != Round.Status.CLOSED
            and seat is None
            and reg.checked_in
            and not reg.withdrawn
        )
        rows.append(
            DeskRow(
                registration=reg,
                round_number=newest.number if seat else None,
                table=seat.table.number if seat else None,
                seat=seat.number if seat else None,
                waiting=waiting,
                substitute=substitutes.get(reg.pk),
            )
        )
    return rows


def desk_rows(*, tournament: Tournament, query: str = "") -> list[DeskRow]:
    """The tournament's registrations by start number; a query filters by name words or start number."""
    registrations = registrations_for_desk(tournament)
    words = query.split()
    if words:
        parsed = {w: parse_int(w) for w in words if w.isdigit()}  # "²" is a digit but no number: a name
        numbers = [n for n in parsed.values() if n is not None]
        names = [w for w in words if parsed.get(w) is None]
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
class RoundOverview:
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
    can_reopen: bool = False
    """Closed, and no later round published yet (services/rounds.py round_reopen)."""

    @property
    def status(self) -> str:
        return self.round.status if self.round else ""

    @property
    def tables_complete(self) -> int:
        return sum(1 for t in self.tables if t.progress.complete)


def rounds_overview(tournament: Tournament) -> list[RoundOverview]:
    """Every round of the ruleset, drawn or not, with what the organiser can do with it next."""
    rules = tournament.ruleset
    rounds = {r.number: r for r in tournament.rounds.all()}
    field = list(
        Registration.objects.filter(tournament=tournament, checked_in=True, withdrawn_after_round__isnull=True)
        .select_related("player")
        .order_by("start_number")
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
            can_draw = next_to_draw and ((in_advance and not rounds) or (not in_advance and all_closed_before))
            panels.append(RoundOverview(number, None, [], [], [], can_draw, False, False, False, False))
            all_closed_before = False
            continue
        if rnd.status == Round.Status.DRAWN:
            seated = set(rnd.seats.values_list("registration_id", flat=True))
            unseated = [reg for reg in field if reg.pk not in seated]
            withdrawn_seated = list(
                Registration.objects.filter(seats__round=rnd, withdrawn_after_round__lt=number)
                .select_related("player")
                .order_by("start_number")
            )
        panels.append(
            RoundOverview(
                number=number,
                round=rnd,
                tables=tables_overview(rnd),
                unseated=unseated,
                withdrawn_seated=withdrawn_seated,
                can_draw=False,
                can_redraw=rnd.status == Round.Status.DRAWN,
                can_publish=rnd.status == Round.Status.DRAWN and all_closed_before,
                can_close=rnd.status == Round.Status.PUBLISHED,
                # a swap only before play: once a table has games or totals, the form is gone
                can_reopen=rnd.status == Round.Status.CLOSED
                and all(later.status == Round.Status.DRAWN for n, later in rounds.items() if n > number),
                can_swap=rnd.status != Round.Status.CLOSED
                and not (
                    Hand.objects.filter(table__round=rnd).exists()
                    or rnd.tables.filter(paper_totals__isnull=False).exists()
                ),
            )
        )
        all_closed_before = all_closed_before and rnd.status == Round.Status.CLOSED
    return panels


def seat_swaps_for(tournament: Tournament) -> QuerySet[SeatSwap]:
    """The seat-swap log of a tournament, newest first."""
    return SeatSwap.objects.filter(round__tournament=tournament).select_related("round", "by").order_by("-at", "-id")
