"""A table's progress in its round: games entered and required, confirmations (every audience shows it)."""

import functools
from dataclasses import dataclass

from django.db import connection
from django.utils.translation import gettext as _

from scoring.rules import table as table_rules
from scoring.rules.seats import kreuz_partner

from ..models import Hand, Round, Seat, Table, TableConfirmation, Tournament


def tournament_games_required(tournament: Tournament, table_size: int) -> int:
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
    one_device: bool = False  # every seat confirmed from the same device (``confirmed_from_one_device``)
    seat_left: int | None = None  # a table of five that plays on with four: the empty seat (confirms nothing)

    @property
    def players(self) -> int:
        """Who confirms the sheet: every seat but an empty one."""
        return self.size - (self.seat_left is not None)

    @property
    def games_complete(self) -> bool:
        return self.paper_totals or self.games_entered >= self.games_required

    @property
    def complete(self) -> bool:
        return (
            self.paper_totals
            or bool(self.closed_reason)
            or (self.games_complete and self.confirmations >= self.players)
        )


def confirmed_from_one_device(size: int, confirmations: int, lowest: str | None, highest: str | None) -> bool:
    """Every seat confirmed, all from one device: the table and the organiser are told so (the players
    did not each tap their own name). ``lowest``/``highest``: the least and greatest device id among the
    confirmations (``TableConfirmation.device_id``; blank when unknown, which never counts as one device)."""
    return size > 1 and confirmations >= size and bool(lowest) and lowest == highest


@functools.cache
def _progress_sql() -> str:
    """Every table of a round with its games entered (thrown-in ones not counted) and confirmations (how
    many, the least and greatest device id among them):
    one statement of standard SQL over the models' tables, written once (every changed standings
    poll during play asks it)."""
    t, h, c = (m._meta.db_table for m in (Table, Hand, TableConfirmation))
    column = {f.name: f.column for f in Table._meta.concrete_fields}
    of_table, device = (TableConfirmation._meta.get_field(name).column for name in ("table", "device_id"))
    return (
        f"SELECT t.id, t.{column['number']}, t.{column['size']}, t.{column['paper_totals']} IS NOT NULL, "
        f"t.{column['closed_reason']}, t.{column['reconfirm_game']}, t.{column['seat_left']}, "
        f"t.{column['games_with_four']}, "
        f'(SELECT COUNT(*) FROM "{h}" h WHERE h.{Hand._meta.get_field("table").column} = t.id '
        f"AND NOT h.{Hand._meta.get_field('thrown_in').column}), "
        f'(SELECT COUNT(*) FROM "{c}" c WHERE c.{of_table} = t.id), '
        f'(SELECT MIN(c.{device}) FROM "{c}" c WHERE c.{of_table} = t.id), '
        f'(SELECT MAX(c.{device}) FROM "{c}" c WHERE c.{of_table} = t.id) '
        f'FROM "{t}" t WHERE t.{column["round"]} = %s ORDER BY t.{column["number"]}'
    )


def table_progress(rnd: Round) -> list[TableProgress]:
    """For every table of a round: games entered (thrown-in games do not count) and confirmations."""
    tournament = rnd.tournament
    required: dict[int, int] = {}
    with connection.cursor() as cursor:
        cursor.execute(_progress_sql(), [rnd.pk])
        rows = cursor.fetchall()
    progress = []
    for (
        pk,
        number,
        size,
        paper,
        closed_reason,
        reconfirm,
        seat_left,
        with_four,
        games,
        confirmations,
        lowest,
        highest,
    ) in rows:
        if size not in required:
            required[size] = tournament_games_required(tournament, size)
        players = size - (seat_left is not None)
        progress.append(
            TableProgress(
                table_id=pk,
                number=number,
                size=size,
                games_entered=games,
                games_required=required[size] if with_four is None else with_four,
                confirmations=confirmations,
                paper_totals=bool(paper),
                closed_reason=closed_reason or "",
                reconfirm_game=reconfirm,
                one_device=confirmed_from_one_device(players, confirmations, lowest, highest),
                seat_left=seat_left,
            )
        )
    return progress


def seat_changes(table: Table, seats: list[Seat] | None = None) -> tuple[str, ...]:
    """Who played which games where a seat changed during the round (a substitute sat down, a table of five
    plays on with four), as sentences for the table's page and its score sheet. ``seats``: the table's seats
    with ``registration__player`` and ``earlier__player`` (read here if not given)."""
    if seats is None:
        seats = list(table.seats.select_related("registration__player", "earlier__player").order_by("number"))
    texts = []
    for seat in seats:
        if seat.earlier_id and seat.since_game and seat.since_game > 1:
            texts.append(
                _("Seat %(seat)d: %(earlier)s played games 1 to %(last)d, %(name)s plays from game %(first)d.")
                % {
                    "seat": seat.number,
                    "earlier": seat.earlier.player.name,
                    "last": seat.since_game - 1,
                    "name": seat.registration.player.name,
                    "first": seat.since_game,
                }
            )
    left = table.left()
    if left:
        empty, first, games = left
        name = next((s.registration.player.name for s in seats if s.number == empty), "")
        texts.append(
            _(
                "From game %(first)d the table plays on with four, nobody sits out (seat %(seat)d, %(name)s, "
                "left); the round has %(games)d games."
            )
            % {"first": first, "seat": empty, "name": name, "games": games}
        )
    return tuple(texts)


def dealer_now(table: Table, number: int | None, hands: list[Hand]) -> int | None:
    """Who deals game ``number`` of a table that plays on with four (None at any other table: the stored
    dealer is who deals, or sits out at five)."""
    left = table.left()
    if not left or number is None or number < left[1]:
        return None
    last = next((h.dealer for h in hands if h.number == left[1] - 1), None)
    since = sum(1 for h in hands if left[1] <= h.number < number and h.thrown_in)
    return table_rules.dealer_with_four(
        number, empty_seat=left[0], first=left[1], last_dealer=last, thrown_in_since=since
    )


def hand_partner(hand: Hand, size: int) -> int | None:
    """The declarer's partner: as entered, or in a game über Kreuz the seat opposite (rules.md section 6)."""
    if hand.partner is None and hand.contract == Hand.Contract.KREUZ and hand.declarer:
        return kreuz_partner(hand.declarer, size, table_rules.sits_out(hand.dealer, size))
    return hand.partner
