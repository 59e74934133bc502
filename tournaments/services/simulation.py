"""Rehearsal mode: a whole tournament with invented players and plausible games."""

import random
from typing import Any

from django.db import transaction
from django.utils import timezone

from scoring.rules import score_hand
from scoring.rules.table import deal_schedule, games_required

from ..models import Club, Player, Round, Tournament, Venue
from ..simulation import random_hand, random_name
from .hands import table_confirm, table_sheet_record
from .registration import registration_create
from .rounds import round_close, round_draw, round_publish
from .schedule import standings_deferred
from .tournament import tournament_create, tournament_finish
from .venues import venue_create

SIMULATION_CLUB = "Probelauf"


def venues_simulate_setup(*, tournament: Tournament, players: int, venues: int) -> list[Venue]:
    """``venues`` inns for a rehearsal, their tables numbered one after the other, each with room for its share
    of the field and one table more (the draw fills them by their room)."""
    per_venue = -(-(players // 4) // venues) + 1
    return [
        venue_create(
            tournament=tournament,
            name=f"Gasthaus {n}",
            address=f"Dorfplatz {n}",
            first_table=1 + (n - 1) * per_venue,
            last_table=n * per_venue,
        )
        for n in range(1, venues + 1)
    ]


@transaction.atomic
def tournament_simulate_setup(
    *, slug: str, players: int, rounds: int, games: int, seed: int, rules: dict[str, Any] | None = None, venues: int = 0
) -> Tournament:
    """The rehearsal's tournament and players; ``rules`` (a ruleset document) under rounds and games;
    ``venues``: an evening in that many inns."""
    rng = random.Random(seed)
    club, _ = Club.objects.get_or_create(name=SIMULATION_CLUB, defaults={"town": "Musterdorf"})
    tournament = tournament_create(
        club=club,
        name=f"Probelauf {players} Spieler",
        slug=slug,
        date=timezone.localdate(),
        rules={**(rules or {}), "rounds": rounds, "games_per_round": games},
    )
    people = Player.objects.bulk_create(
        Player(first_name=first, last_name=last, club=club)
        for first, last in (random_name(rng) for _ in range(players))
    )
    for person in people:
        registration_create(tournament=tournament, player=person, paid=True, checked_in=True)
    if venues:
        venues_simulate_setup(tournament=tournament, players=players, venues=venues)
    return tournament


def round_simulate(*, rnd: Round, seed: int, play: bool = True, close: bool = True) -> None:
    """Publish a drawn round, play every table with random games, confirm and close it."""
    rng = random.Random(seed)
    rules = rnd.tournament.ruleset
    round_publish(round=rnd)
    if not play:
        return
    for table in rnd.tables.order_by("number"):
        required = games_required(rules.games_per_round, table.size)
        records: list[dict[str, Any]] = []
        thrown_in: list[bool] = []  # a thrown-in game is dealt again by the same dealer and does not count
        while len(thrown_in) - sum(thrown_in) < required:
            dealer, _played = deal_schedule(thrown_in, table.size)
            record = random_hand(
                rng,
                table_size=table.size,
                dealer=dealer,
                muss_allowed=rules.all_pass == "muss",
                tout_allowed=rules.tout_allowed,
                sie_allowed=rules.sie_allowed,
                all_pass=rules.all_pass,
            )
            records.append(record)
            thrown_in.append(score_hand({**record, "dealer": dealer}, rules, table.size).thrown_in)
        table_sheet_record(table=table, records=records, device="simulation")
        for seat in range(1, table.size + 1):
            table_confirm(table=table, seat=seat, device="simulation")
    if close:
        round_close(round=rnd)


@transaction.atomic
def tournament_simulate(
    *, slug: str, players: int, rounds: int, games: int, seed: int, rules: dict[str, Any] | None = None, venues: int = 0
) -> Tournament:
    """A whole rehearsal tournament, or nothing: a field that cannot be seated leaves no half-made tournament.

    ``rules``: a ruleset document for the rehearsal (all_pass = kreuz plays Kreuz, redeal throws in).
    """
    tournament = tournament_simulate_setup(
        slug=slug, players=players, rounds=rounds, games=games, seed=seed, rules=rules, venues=venues
    )
    rng = random.Random(seed)
    with standings_deferred():  # one recompute at the end, not one per table
        for _ in range(rounds):
            (rnd,) = round_draw(tournament=tournament, seed=rng.randrange(2**31))
            round_simulate(rnd=rnd, seed=rng.randrange(2**31))
    _finish_when_played(tournament)
    tournament.refresh_from_db()
    return tournament


@transaction.atomic
def tournament_play(*, tournament: Tournament, seed: int) -> Tournament:
    """Play a tournament with its registered players to the end: every round drawn, played, closed."""
    rng = random.Random(seed)
    with standings_deferred():
        for _ in range(tournament.ruleset.rounds - tournament.rounds.count()):
            (rnd,) = round_draw(tournament=tournament, seed=rng.randrange(2**31))
            round_simulate(rnd=rnd, seed=rng.randrange(2**31))
    _finish_when_played(tournament)
    tournament.refresh_from_db()
    return tournament


def _finish_when_played(tournament: Tournament) -> None:
    """A rehearsal played to its last round ends as the organiser ends an evening."""
    if tournament.rounds.filter(status=Round.Status.CLOSED).count() >= tournament.ruleset.rounds:
        tournament_finish(tournament=tournament)
