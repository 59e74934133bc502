"""Reads for an evening in several venues: each venue's progress for the central console, a venue's
players and tables for its desk, and which start numbers play where (the standings per venue)."""

import datetime
from dataclasses import dataclass

from django.db.models import Count, Max

from ..models import HandRevision, Registration, Round, Table, Tournament, Venue
from .tables import TableProgress, table_progress


def venues_of(tournament: Tournament) -> list[Venue]:
    return list(tournament.venues.order_by("first_table"))


def venue_tables(venue: Venue, rnd: Round):
    """The tables of a round standing in this venue (its table numbers)."""
    return Table.objects.filter(round=rnd, number__gte=venue.first_table, number__lte=venue.last_table)


def venue_of_table(table: Table) -> Venue | None:
    return Venue.objects.filter(
        tournament_id=table.round.tournament_id, first_table__lte=table.number, last_table__gte=table.number
    ).first()


def current_round(tournament: Tournament) -> Round | None:
    """The round being played (the newest published one, else the newest drawn)."""
    rounds = tournament.rounds.order_by("-number")
    return rounds.exclude(status=Round.Status.DRAWN).first() or rounds.first()


@dataclass(frozen=True)
class VenueProgress:
    venue: Venue
    players: int  # checked in there, not withdrawn
    tables: list[TableProgress]  # this round's tables there
    last_game: datetime.datetime | None  # the last game entered there this round

    @property
    def done(self) -> int:
        return sum(1 for p in self.tables if p.complete)

    @property
    def missing(self) -> list[int]:
        """The numbers of the tables whose lists are still missing (not complete and confirmed)."""
        return [p.number for p in self.tables if not p.complete]


def venue_progress(tournament: Tournament, rnd: Round | None = None) -> list[VenueProgress]:
    """Per venue: its players, this round's tables done and those whose lists are missing, the last game's time."""
    venues = venues_of(tournament)
    if not venues:
        return []
    rnd = rnd or current_round(tournament)
    progress = table_progress(rnd) if rnd else []
    last = {}
    if rnd:
        last = dict(
            HandRevision.objects.filter(table__round=rnd)
            .values_list("table__number")
            .annotate(m=Max("at"))
            .values_list("table__number", "m")
        )
    counts = dict(
        Registration.objects.filter(
            tournament=tournament, checked_in=True, withdrawn_after_round__isnull=True, venue__isnull=False
        )
        .values_list("venue_id")
        .annotate(n=Count("pk"))
        .values_list("venue_id", "n")
    )
    result = []
    for v in venues:
        mine = [p for p in progress if v.first_table <= p.number <= v.last_table]
        times = [last[p.number] for p in mine if p.number in last]
        result.append(VenueProgress(v, counts.get(v.pk, 0), mine, max(times) if times else None))
    return result


def venue_players(venue: Venue) -> list[Registration]:
    """The players of this venue (checked in there or seated there by the draw), by start number."""
    return list(
        venue.registrations.filter(withdrawn_after_round__isnull=True)
        .select_related("player__club")
        .order_by("start_number")
    )


def venue_start_numbers(venue: Venue) -> set[int]:
    """The start numbers playing in this venue: its list of the joint standings."""
    return set(venue.registrations.values_list("start_number", flat=True))


def venue_seats(venue: Venue, rnd: Round) -> list[tuple[Table, list]]:
    """This round's tables in the venue, each with its seats (start number, name): the venue's seat list."""
    tables = list(venue_tables(venue, rnd).order_by("number").prefetch_related("seats__registration__player"))
    return [(t, sorted(t.seats.all(), key=lambda s: s.number)) for t in tables]
