"""The `simulate_tournament` management command: a rehearsal run end to end, and its refusals."""

import pytest
from django.core.management import CommandError, call_command

from scoring.models import StandingsSnapshot
from tests.points import points_from_hands
from tournaments.models import Hand, Registration, Round, Seat, Tournament
from tournaments.selectors.standings import standings_view
from tournaments.selectors.tables import table_progress, tournament_games_required

pytestmark = pytest.mark.django_db


@pytest.fixture
def simulate(django_capture_on_commit_callbacks):
    """simulate(...) runs the command and then what it scheduled for after the commit (the recompute)."""

    def run(*args, **options):
        with django_capture_on_commit_callbacks(execute=True):
            call_command("simulate_tournament", *args, **options)

    return run


def test_a_small_rehearsal_plays_and_closes_every_round(simulate, capsys):
    # when: 13 invented players play 2 rounds of 8 games
    simulate("--players", "13", "--rounds", "2", "--games", "8", "--seed", "4")

    # then: the tournament is there under the default slug, with 13 checked-in players
    tournament = Tournament.objects.get(slug="probelauf-13-4")
    assert "probelauf-13-4" in capsys.readouterr().out
    assert tournament.ruleset.rounds == 2 and tournament.ruleset.games_per_round == 8
    registrations = Registration.objects.filter(tournament=tournament)
    assert registrations.count() == 13 and all(r.checked_in and r.paid for r in registrations)

    # every round is closed, seats all 13 once at one table of five and two of four
    rounds = list(Round.objects.filter(tournament=tournament).order_by("number"))
    assert [(r.number, r.status) for r in rounds] == [(1, Round.Status.CLOSED), (2, Round.Status.CLOSED)]
    for rnd in rounds:
        assert sorted(rnd.tables.values_list("size", flat=True)) == [4, 4, 5]
        seated = list(Seat.objects.filter(round=rnd).values_list("registration_id", flat=True))
        assert sorted(seated) == sorted(registrations.values_list("pk", flat=True))
        # every table complete: all its games entered (8 at four, 10 at five) and every seat confirmed
        progress = table_progress(rnd)
        assert all(table.complete and table.confirmations == table.size for table in progress)
        for table in rnd.tables.all():
            numbers = sorted(table.hands.values_list("number", flat=True))
            assert numbers == list(range(1, tournament_games_required(tournament, table.size) + 1))

    # the standings are the sum of the hands' points, ranked 1..13
    snapshot = StandingsSnapshot.objects.get(tournament=tournament)
    expected = points_from_hands(tournament)
    assert {row["registration"]: row["points"] for row in snapshot.overall} == expected
    assert len(expected) == 13 and sum(expected.values()) == 0
    assert [row["rank"] for row in snapshot.overall] == list(range(1, 14))
    assert standings_view(tournament).rounds == [1, 2]  # each round's list is ranked when read


@pytest.mark.parametrize(
    ("options", "option"),
    [
        ({"players": 3}, "players"),
        ({"players": 7}, "players"),  # 4 < 7 players, but they cannot be seated at tables of four and five
        ({"players": 12, "games": 10}, "games"),  # not a multiple of 4
        ({"players": 12, "games": 4}, "games"),  # below 8
        ({"players": 12, "rounds": 7}, "rounds"),
    ],
)
def test_bad_options_raise_a_command_error_naming_the_option(simulate, options, option):
    with pytest.raises(CommandError) as caught:
        simulate(**options)
    assert str(caught.value).startswith(f"{option}: ")


def test_too_few_players_for_the_tables_name_the_remedy(simulate):
    # German first (LANGUAGE_CODE "de"): "7 Spieler ...: 1 dazunehmen oder 2 zurückziehen."
    with pytest.raises(CommandError, match=r"^players: 7 Spieler .*: 1 dazunehmen oder 2 zurückziehen\.$"):
        simulate("--players", "7", "--slug", "zu-wenige")


def test_an_existing_slug_is_refused_and_left_alone(simulate):
    simulate("--players", "12", "--rounds", "1", "--games", "8", "--slug", "probe")
    before = Hand.objects.filter(table__round__tournament__slug="probe").count()

    with pytest.raises(CommandError, match=r"^slug: a tournament 'probe' exists already"):
        simulate("--players", "16", "--rounds", "1", "--games", "8", "--slug", "probe")

    assert Tournament.objects.filter(slug="probe").count() == 1
    assert Registration.objects.filter(tournament__slug="probe").count() == 12
    assert Hand.objects.filter(table__round__tournament__slug="probe").count() == before


def test_a_refused_option_writes_nothing(simulate):
    for options in ({"players": 3}, {"players": 12, "games": 10}, {"players": 12, "rounds": 7}):
        with pytest.raises(CommandError):
            simulate(**options)
    assert not Tournament.objects.exists()


def test_an_unseatable_field_writes_nothing(simulate):
    with pytest.raises(CommandError):
        simulate("--players", "7", "--slug", "sieben")
    assert not Tournament.objects.filter(slug="sieben").exists()
