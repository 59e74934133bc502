"""An evening in several venues (issue 38): the draw keeps players in their venue and its table numbers, a
venue's desk helper sees and changes only his venue, the console shows each venue's progress, the standings
are one list and one per venue."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tournaments.models import ClubMembership, Registration, Round, Seat, Venue
from tournaments.services.errors import ServiceError, StateConflict
from tournaments.services.registration import registration_create
from tournaments.services.rounds import round_draw, round_publish
from tournaments.services.simulation import round_simulate, tournament_play
from tournaments.services.standings import standings_recompute
from tournaments.services.venues import venue_checkin, venue_create, venue_helper_add

pytestmark = pytest.mark.django_db


def _evening(players=40, rounds=3, venues=((1, 4), (5, 7), (8, 10)), clubs=5, checked_in=True):
    club = ClubFactory(name="SK Pfaffenhausen")
    other_clubs = [ClubFactory(name=f"Verein {i}") for i in range(clubs)]
    rules = {**TournamentFactory.build().rules, "rounds": rounds, "games_per_round": 8, "keep_clubs_apart": True}
    tournament = TournamentFactory(club=club, slug="herz-ist-trumpf", name="Herz ist Trumpf", rules=rules)
    made = [
        venue_create(
            tournament=tournament,
            name=f"Gasthof {chr(65 + i)}",
            first_table=a,
            last_table=b,
            address=f"Dorfstraße {i + 1}",
            contact=f"Wirt {i}",
        )
        for i, (a, b) in enumerate(venues)
    ]
    for i in range(players):
        registration_create(
            tournament=tournament, player=PlayerFactory(club=other_clubs[i % clubs]), paid=True, checked_in=checked_in
        )
    return tournament, made


def _seated_venue(rnd: Round) -> dict[int, int]:
    """Registration id -> the venue whose table numbers his table has."""
    venues = list(rnd.tournament.venues.all())
    return {
        reg: next(v.pk for v in venues if v.first_table <= number <= v.last_table)
        for reg, number in Seat.objects.filter(round=rnd).values_list("registration_id", "table__number")
    }


def test_three_rounds_in_three_venues_everyone_stays_in_his_venue():
    tournament, venues = _evening()
    first = None
    pairs = set()
    for number in (1, 2, 3):
        (rnd,) = round_draw(tournament=tournament, seed=number)
        numbers = sorted(rnd.tables.values_list("number", flat=True))
        # 40 players over rooms of 4, 3 and 3 tables: 16, 12, 12 -> tables 1-4, 5-7, 8-10
        assert numbers == list(range(1, 11))
        where = _seated_venue(rnd)
        assert where == dict(Registration.objects.filter(tournament=tournament).values_list("pk", "venue_id"))
        if first is None:
            first = where
        assert where == first, "a player stays in his venue"
        for table in rnd.tables.all():
            ids = sorted(table.seats.values_list("registration_id", flat=True))
            pairs_here = {(a, b) for i, a in enumerate(ids) for b in ids[i + 1 :]}
            if number == 2:
                # venues of four tables can avoid every repeat in round 2; three tables of four never can
                venue = next(v for v in venues if v.first_table <= table.number <= v.last_table)
                if venue.tables == 4:
                    assert not pairs_here & pairs
            pairs |= pairs_here
        round_simulate(rnd=rnd, seed=number)


def test_players_checked_in_at_a_venue_are_drawn_there():
    tournament, (a, b, c) = _evening(players=24, checked_in=False, venues=((1, 3), (4, 6), (7, 9)))
    regs = list(tournament.registrations.order_by("start_number"))
    for reg in regs[:13]:
        venue_checkin(venue=a, start_number=reg.start_number)
    for reg in regs[13:]:
        venue_checkin(venue=c, start_number=reg.start_number)
    (rnd,) = round_draw(tournament=tournament, seed=4)
    where = _seated_venue(rnd)
    # 13 and 11 checked in: 11 never fits, so one player moves (13 + 11 -> 13/0/11 impossible; 12/0/12 or 13/...)
    moved = [r.pk for r in regs[:13] if where[r.pk] != a.pk] + [r.pk for r in regs[13:] if where[r.pk] != c.pk]
    assert len(moved) == 1
    assert b.pk not in where.values() or list(where.values()).count(b.pk) in (4, 5)


def test_the_organiser_can_mix_the_venues():
    tournament, venues = _evening(players=40, rounds=2)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    first = _seated_venue(rnd)
    round_simulate(rnd=rnd, seed=1)
    (rnd2,) = round_draw(tournament=tournament, seed=2, mix_venues=True)
    second = _seated_venue(rnd2)
    assert sum(1 for reg in first if first[reg] != second[reg]) > 10


def test_more_players_than_the_venues_hold_is_refused_with_the_field():
    tournament, _ = _evening(players=40, venues=((1, 3), (4, 6)))  # 6 tables hold at most 4 x 6 + 3 = 27
    with pytest.raises(StateConflict) as err:
        round_draw(tournament=tournament, seed=1)
    assert err.value.field == "venues"
    assert not tournament.rounds.exists()


@pytest.mark.parametrize(
    ("first", "last", "field"), [(3, 5, "first_table"), (2, 1, "last_table"), (0, 2, "first_table")]
)
def test_venue_tables_must_not_overlap_or_run_backwards(first, last, field):
    tournament, _ = _evening(players=8, venues=((1, 4),))
    with pytest.raises(ServiceError) as err:
        venue_create(tournament=tournament, name="Neuwirt", first_table=first, last_table=last)
    assert err.value.field == field
    assert tournament.venues.count() == 1


# --- the venue's desk helper: his venue and no other ----------------------------------------------------


def _client(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


@pytest.fixture
def evening():
    tournament, venues = _evening(players=40, rounds=2)
    (rnd,) = round_draw(tournament=tournament, seed=5)
    round_publish(round=rnd)
    helper = get_user_model().objects.create_user("wirt-a")
    venue_helper_add(venue=venues[0], username="wirt-a")
    return tournament, venues, rnd, helper


def test_the_venue_helper_sees_and_changes_only_his_venue(evening):
    tournament, (a, b, _c), rnd, helper = evening
    client = _client(helper)
    slug = tournament.slug
    own = client.get(reverse("tournaments:venue_desk", args=[slug, a.pk]))
    assert own.status_code == 200
    assert "Gasthof A" in own.content.decode()
    # his tables are listed, the others' are not
    assert 'data-testid="venue-table-1"' in own.content.decode()
    assert 'data-testid="venue-table-5"' not in own.content.decode()
    # another venue, the club's desk, check-in, console, rounds, paper mode: not for him
    for path in (
        reverse("tournaments:venue_desk", args=[slug, b.pk]),
        reverse("tournaments:venue_projector", args=[slug, b.pk]),
        reverse("tournaments:venue_seatlist", args=[slug, b.pk, 1]),
        reverse("tournaments:desk", args=[slug]),
        reverse("tournaments:checkin", args=[slug]),
        reverse("tournaments:control", args=[slug]),
        reverse("tournaments:rounds", args=[slug]),
        reverse("tournaments:venues", args=[slug]),
    ):
        assert client.get(path).status_code == 404, path
    other_table = rnd.tables.get(number=b.first_table)
    own_table = rnd.tables.get(number=a.first_table)
    totals = {f"seat_{s}": v for s, v in zip(range(1, own_table.size + 1), [30, -10, -10, -10, 0])}
    # another venue's table through his venue's URL: 404, nothing written
    assert (
        client.post(reverse("tournaments:venue_totals", args=[slug, a.pk, other_table.pk]), totals).status_code == 404
    )
    other_table.refresh_from_db()
    assert other_table.paper_totals is None
    # his own table: saved
    response = client.post(reverse("tournaments:venue_totals", args=[slug, a.pk, own_table.pk]), totals)
    assert response.status_code == 302
    own_table.refresh_from_db()
    assert own_table.paper_totals == {str(s): v for s, v in zip(range(1, own_table.size + 1), [30, -10, -10, -10, 0])}
    # his seat list shows his tables only
    seatlist = client.get(reverse("tournaments:venue_seatlist", args=[slug, a.pk, 1])).content.decode()
    assert 'data-testid="seat-table-1"' in seatlist and 'data-testid="seat-table-5"' not in seatlist
    # his print pack: his tables' pages
    pack = client.get(reverse("tournaments:venue_print_pack", args=[slug, a.pk, 1]))
    assert pack.status_code == 200 and pack["Content-Type"] == "application/pdf"
    # the organiser home lists his venue desk
    home = client.get(reverse("tournaments:organiser_home")).content.decode()
    assert f'data-testid="venue-desk-{a.pk}"' in home


def test_a_venue_helper_checks_in_at_his_venue_only(evening):
    tournament, (a, b, _c), _rnd, helper = evening
    late = registration_create(tournament=tournament, player=PlayerFactory(), paid=True, checked_in=False)
    client = _client(helper)
    response = client.post(
        reverse("tournaments:venue_checkin", args=[tournament.slug, a.pk]), {"start_number": late.start_number}
    )
    assert response.status_code == 302
    late.refresh_from_db()
    assert late.checked_in and late.venue_id == a.pk
    # checked in at his venue: another venue's desk refuses him with the reason
    organiser = get_user_model().objects.create_user("chef")
    ClubMembership.objects.create(user=organiser, club=tournament.club, role=ClubMembership.Role.ORGANISER)
    refused = _client(organiser).post(
        reverse("tournaments:venue_checkin", args=[tournament.slug, b.pk]), {"start_number": late.start_number}
    )
    assert refused.status_code == 409
    assert "Gasthof A" in refused.content.decode()
    bad = client.post(reverse("tournaments:venue_checkin", args=[tournament.slug, a.pk]), {"start_number": "x"})
    assert bad.status_code == 400
    missing = client.post(reverse("tournaments:venue_checkin", args=[tournament.slug, a.pk]), {"start_number": 999})
    assert missing.status_code == 400 and "999" in missing.content.decode()


def test_the_console_shows_each_venue_and_the_standings_are_one_list_and_one_per_venue():
    tournament, venues = _evening(players=40, rounds=2)
    (rnd,) = round_draw(tournament=tournament, seed=5)
    round_simulate(rnd=rnd, seed=9, close=False)
    standings_recompute(tournament_id=tournament.pk)
    organiser = get_user_model().objects.create_user("chef")
    ClubMembership.objects.create(user=organiser, club=tournament.club, role=ClubMembership.Role.ORGANISER)
    client = _client(organiser)
    page = client.get(reverse("tournaments:control", args=[tournament.slug])).content.decode()
    for venue in venues:
        assert f'data-testid="venue-row-{venue.pk}"' in page
    tournament.standings_public = True
    tournament.save()
    everyone = client.get(reverse("tournaments:standings", args=[tournament.slug])).content.decode()
    a = venues[0]
    only_a = Client().get(reverse("tournaments:standings", args=[tournament.slug]) + f"?ort={a.pk}").content.decode()
    in_a = set(a.registrations.values_list("start_number", flat=True))
    assert len(in_a) == 16
    shown = {int(n) for n in re.findall(r'data-start-number="(\d+)"', only_a)}
    assert shown == in_a
    # the joint list: all 40, and the venue's rows keep their places in it
    assert len(re.findall(r'data-start-number="(\d+)"', everyone)) == 40
    assert 'data-testid="venue-tabs"' in everyone
    names_a = a.registrations.values_list("player__last_name", flat=True)
    projector = _client(organiser).get(reverse("tournaments:venue_projector", args=[tournament.slug, a.pk]))
    assert projector.status_code == 200
    assert {int(n) for n in re.findall(r'data-start-number="(\d+)"', projector.content.decode())} == in_a
    assert all(name in projector.content.decode() for name in names_a)


def test_a_whole_evening_in_venues_plays_to_the_end():
    tournament, _ = _evening(players=40, rounds=2)
    tournament_play(tournament=tournament, seed=3)
    assert tournament.rounds.filter(status=Round.Status.CLOSED).count() == 2
    assert Venue.objects.filter(tournament=tournament).count() == 3


def test_simulate_tournament_plays_an_evening_in_venues(django_capture_on_commit_callbacks, capsys):
    from django.core.management import CommandError, call_command

    with django_capture_on_commit_callbacks(execute=True):
        call_command(
            "simulate_tournament", "--players", "50", "--rounds", "2", "--games", "8", "--seed", "2", "--venues", "3"
        )
    assert "in 3 venues" in capsys.readouterr().out
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(slug="probelauf-50-2")
    venues = list(tournament.venues.order_by("first_table"))
    assert len(venues) == 3
    rounds = list(tournament.rounds.order_by("number"))
    assert [r.status for r in rounds] == [Round.Status.CLOSED] * 2
    first, second = (_seated_venue(r) for r in rounds)
    assert first == second and len(first) == 50
    assert sorted(list(first.values()).count(v.pk) for v in venues) != [0, 0, 50]
    with pytest.raises(CommandError, match="venues"):
        call_command("simulate_tournament", "--players", "8", "--venues", "3", "--slug", "zu-viele")


def test_the_archive_keeps_the_venues_and_each_players_venue():
    import json

    from tournaments.archive import archive_build
    from tournaments.archive.load import ArchiveError, archive_import

    tournament, venues = _evening(players=40, rounds=2)
    tournament_play(tournament=tournament, seed=3)
    doc = json.loads(json.dumps(archive_build(tournament)))
    assert [v["name"] for v in doc["venues"]] == ["Gasthof A", "Gasthof B", "Gasthof C"]
    assert doc["venues"][1] == {
        "name": "Gasthof B",
        "address": "Dorfstraße 2",
        "contact": "Wirt 1",
        "first_table": 5,
        "last_table": 7,
    }
    copy = archive_import(doc=doc, slug="kopie")
    assert list(copy.venues.order_by("first_table").values_list("name", "first_table", "last_table")) == [
        ("Gasthof A", 1, 4),
        ("Gasthof B", 5, 7),
        ("Gasthof C", 8, 10),
    ]
    assert dict(copy.registrations.values_list("start_number", "venue__name")) == dict(
        tournament.registrations.values_list("start_number", "venue__name")
    )
    # an archive of one place has no venues key; bad venues are refused by their path
    bad = json.loads(json.dumps(doc))
    bad["venues"][1]["first_table"] = 4
    with pytest.raises(ArchiveError) as err:
        archive_import(doc=bad, slug="kaputt")
    assert err.value.path == "venues[1].first_table"
    bad = json.loads(json.dumps(doc))
    bad["players"][0]["venue"] = "Nirgendwo"
    with pytest.raises(ArchiveError) as err:
        archive_import(doc=bad, slug="kaputt2")
    assert err.value.path == "players[0].venue"
