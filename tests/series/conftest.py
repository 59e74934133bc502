"""A season of four played tournaments of one club, with overlapping fields and a guest from another club."""

import datetime

import pytest

from tournaments.models import Club, Player, Series, Tournament
from tournaments.services.registration import registration_create
from tournaments.services.series import series_create, series_tournament_add
from tournaments.services.simulation import tournament_play
from tournaments.services.tournament import tournament_create

FIELDS = [range(8), range(2, 10), [0, 4, 5, 6, 7, 8, 9, 10], [0, 1, 2, 3, 8, 9, 10, 11]]  # 12 players in 1-4 evenings
PLACEMENT = [25, 20, 16, 13, 11, 10, 9, 8]


@pytest.fixture
def club(db) -> Club:
    return Club.objects.create(name="Schafkopfclub Saisondorf", town="Saisondorf")


@pytest.fixture
def people(club) -> list[Player]:
    guests = Club.objects.create(name="Gäste-Verein Nachbarort")
    return [
        Player.objects.create(
            first_name=f"Spieler{i:02d}", last_name=f"Nachname{i:02d}", club=guests if i == 11 else club
        )
        for i in range(12)
    ]


@pytest.fixture
def season_tournaments(club, people) -> list[Tournament]:
    played = []
    for n, field in enumerate(FIELDS):
        tournament = tournament_create(
            club=club,
            name=f"Monatsrennen {n + 1}",
            slug=f"monat-{n + 1}",
            date=datetime.date(2026, 1 + n, 10),
            rules={"rounds": 2, "games_per_round": 8},
        )
        for i in field:
            registration_create(tournament=tournament, player=people[i], paid=True, checked_in=True)
        played.append(tournament_play(tournament=tournament, seed=1000 + n))
    return played


def make_series(club, tournaments, slug="jahreswertung", **settings) -> Series:
    series = series_create(club=club, name="Jahreswertung 2026", slug=slug, **settings)
    for tournament in tournaments:
        series_tournament_add(series=series, tournament=tournament)
    return series
