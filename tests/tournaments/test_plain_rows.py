"""Rows read by one plain statement (selectors.rows) are the ORM's instances: every field the same as
``select_related`` reads it, the related rows linked, nothing read again when they are used."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, TournamentFactory
from tournaments.models import Registration, Tournament
from tournaments.selectors.links import registration_for_key
from tournaments.selectors.public import tournament_for_slug

pytestmark = pytest.mark.django_db


def _fields(obj) -> dict:
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


@pytest.mark.parametrize("with_club", [True, False])
def test_a_registration_by_key_is_the_orms(with_club):
    player = PlayerFactory(club=ClubFactory(name="SK Ödenwald") if with_club else None, first_name="Zenzi")
    registration = RegistrationFactory(player=player, tournament=TournamentFactory(club=ClubFactory()))
    expected = Registration.objects.select_related("player__club", "tournament__club").get(key=registration.key)
    with CaptureQueriesContext(connection) as queries:
        found = registration_for_key(registration.key)
        pairs = [
            (found, expected),
            (found.player, expected.player),
            (found.tournament, expected.tournament),
            (found.tournament.club, expected.tournament.club),
        ]
        club = found.player.club
    assert len(queries) == 1  # the related rows came with it
    for got, want in pairs:
        assert type(got) is type(want) and _fields(got) == _fields(want) and not got._state.adding
    assert (club is None) is (not with_club) and (club is None or _fields(club) == _fields(expected.player.club))
    assert registration_for_key("nobody-has-this-key") is None and registration_for_key("x" * 65) is None


def test_a_tournament_by_slug_is_the_orms():
    tournament = TournamentFactory(rules={"tarif": {"sauspiel": 10}}, club=ClubFactory(name="Schafkopffreunde"))
    expected = Tournament.objects.select_related("club").get(slug=tournament.slug)
    with CaptureQueriesContext(connection) as queries:
        found = tournament_for_slug(tournament.slug)
        club = found.club
    assert len(queries) == 1
    assert _fields(found) == _fields(expected) and _fields(club) == _fields(expected.club)
    assert found.rules == expected.rules and found.date == expected.date
    assert tournament_for_slug("nobody-has-this-slug") is None
