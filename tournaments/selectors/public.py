"""Reads of the public pages: the tournament list and the seat list ("Wo sitze ich?")."""

import functools
import hashlib
from collections import defaultdict
from dataclasses import dataclass

from django.db import connection
from django.db.models import Count, Q, QuerySet

from scoring.rules.collation import name_initial, name_sort_key, namesake_suffixes

from ..models import Club, Registration, Round, Seat, Table, Tournament
from .rows import columns, one

_TOURNAMENT = ((Tournament, "t"), (Club, "c"))


@functools.cache
def _tournament_sql() -> str:
    t, c = Tournament._meta.db_table, Club._meta.db_table
    return (
        f'{columns(_TOURNAMENT)[0]} FROM "{t}" t JOIN "{c}" c ON c.id = t.club_id WHERE t.slug = %s AND c.status = %s'
    )


def public_tournaments() -> QuerySet[Tournament]:
    """The tournaments whose pages anyone may open: those of active clubs (a club waiting for approval or
    suspended shows nothing; its data stays)."""
    return Tournament.objects.filter(club__status=Club.Status.ACTIVE).select_related("club")


def tournament_for_slug(slug: str) -> Tournament | None:
    """The tournament with its club (``select_related("club")`` as one plain statement: every changed
    poll of the standings reads it); None also for a club that is not active (``public_tournaments``)."""
    found = one(_TOURNAMENT, _tournament_sql(), [slug, Club.Status.ACTIVE.value])
    if found is None:
        return None
    tournament, club = found
    tournament.club = club
    return tournament


def tournament_list_public() -> QuerySet[Tournament]:
    return (
        public_tournaments()
        .annotate(player_count=Count("registrations", filter=Q(registrations__withdrawn_after_round__isnull=True)))
        .order_by("-date", "name")
    )


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


def namesakes(tournament_id: int) -> dict[int, str]:
    """start number -> what tells him from a namesake in this tournament (``namesake_suffixes``: " (12)")."""
    return namesake_suffixes(
        (number, f"{first} {last}", number, club or "")
        for number, first, last, club in Registration.objects.filter(tournament_id=tournament_id)
        .order_by()
        .values_list("start_number", "player__first_name", "player__last_name", "player__club__name")
    )


def seat_rows(rnd: Round) -> list[SeatRow]:
    """Everyone seated in a round, alphabetically by last name ("Wo sitze ich?"); namesakes with their start
    numbers (``namesakes``)."""
    seats = Seat.objects.filter(round=rnd).select_related("table", "registration__player__club")
    suffixes = namesakes(rnd.tournament_id)
    keyed = []
    for s in seats:
        player = s.registration.player
        key = (name_sort_key(player.last_name, player.first_name), s.registration.start_number)
        suffix = suffixes.get(s.registration.start_number, "")
        keyed.append(
            (
                key,
                SeatRow(
                    start_number=s.registration.start_number,
                    name=player.name + suffix,
                    sort_name=player.sort_name + suffix,
                    club=s.registration.club_label,
                    table=s.table.number,
                    seat=s.number,
                    initial=name_initial(player.last_name),
                ),
            )
        )
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
            f"SELECT t.name, r.id, r.number, r.status, "
            f'(SELECT COUNT(*) FROM "{s}" s WHERE s.round_id = r.id), '
            f'(SELECT SUM(s.registration_id * (tb.number * 8 + s.number)) FROM "{s}" s '
            f'JOIN "{tb}" tb ON tb.id = s.table_id WHERE s.round_id = r.id) '
            f'FROM "{t}" t LEFT JOIN "{r}" r ON r.id = (SELECT r2.id FROM "{r}" r2 WHERE r2.tournament_id = t.id '
            f"AND r2.status <> 'drawn' ORDER BY r2.number DESC LIMIT 1) WHERE t.slug = %s",
            [slug],
        )
        row = cursor.fetchone()
    if row is None or row[1] is None:
        return None
    name, round_id, number, status, seats, checksum = row
    digest = hashlib.blake2b(name.encode(), digest_size=6).hexdigest()
    return f"{digest}-{round_id}.{number}.{status}-{seats}.{checksum}", None
