"""Several clubs on one server (issue 33): a club's people read, match and write only their own club's rows.

First the four leaks the issue found, each replayed; then the rule itself, walked over every model and every
URL (``test_club_bs_rows_are_never_read_listed_matched_or_written``).
"""
import datetime
import io
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db.models import Q
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tournaments.archive import archive_build
from tournaments.models import (
    Club,
    ClubMembership,
    Player,
    Registration,
    Series,
    SeriesTournament,
    SignUp,
    SignUpOptions,
    Tournament,
)
from tournaments.services.errors import NotFound
from tournaments.services.registration import registration_create
from tournaments.services.series import series_create
from tournaments.services.signups import signup_create, signup_match_resolve
from tournaments.services.simulation import tournament_play
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db
Role = ClubMembership.Role
B_PHONE = "0171 9999999"


def member(club, role, username):
    user = get_user_model().objects.create_user(username)
    ClubMembership.objects.create(user=user, club=club, role=role)
    return user


def logged_in(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def database_of(club: Club):
    """A club's player database as docs/security.md says it: its members and whoever played for it."""
    return Player.objects.filter(Q(club=club) | Q(registrations__tournament__club=club)).distinct()


def rows_of(club: Club) -> dict:
    """Club B's players, registrations, series and series entries as plain values: what must stay as it was."""
    return {
        "players": list(database_of(club).order_by("pk").values()),
        "club_players": list(Player.objects.filter(club=club).order_by("pk").values()),
        "registrations": list(Registration.objects.filter(tournament__club=club).order_by("pk").values()),
        "series": list(Series.objects.filter(club=club).order_by("pk").values()),
        "entries": list(SeriesTournament.objects.filter(series__club=club).order_by("pk").values()),
    }


@pytest.fixture
def a():
    club = ClubFactory(name="Schafkopffreunde Musterdorf")
    tournament = TournamentFactory(club=club, slug="herbst", name="Herbstrennen", date=datetime.date(2030, 11, 21))
    SignUpOptions.objects.create(tournament=tournament, open=True, capacity=40)
    return tournament


@pytest.fixture
def b():
    club = ClubFactory(name="SC Anderswo")
    tournament = TournamentFactory(club=club, slug="anderswo", name="Anderswo-Rennen")
    PlayerFactory(club=club, first_name="Sepp", last_name="Huber", contact=B_PHONE)
    return tournament


# --- 2. the sign-up's "same person?" -----------------------------------------------------------------------


def test_the_same_person_suggestion_never_names_another_clubs_player(a, b):
    """Club B has a Sepp Huber with a phone number; Sepp Huber signs up for club A's tournament: no
    suggestion, so the desk of A neither sees B's phone nor can tie B's player to its tournament."""
    before = rows_of(b.club)
    entry = signup_create(tournament=a, first_name="Sepp", last_name="Huber", consent=True)
    entry.refresh_from_db()
    assert entry.match is None and entry.match_state == ""
    desk = logged_in(member(a.club, Role.DESK, "desk-a"))
    page = desk.get(reverse("tournaments:signups", args=[a.slug])).content.decode()
    assert B_PHONE not in page and f'data-testid="match-{entry.pk}"' not in page
    assert rows_of(b.club) == before


def test_a_suggestion_of_another_clubs_player_made_before_is_neither_shown_nor_merged(a, b):
    """A suggestion the old matching stored is not shown, and confirming it is a 404 that merges nothing."""
    other = Player.objects.get(club=b.club, last_name="Huber")
    registration_create(tournament=b, player=other)
    entry = signup_create(tournament=a, first_name="Sepp", last_name="Huber", consent=True)
    SignUp.objects.filter(pk=entry.pk).update(match=other, match_state=SignUp.Match.PENDING)
    before = rows_of(b.club)
    desk = logged_in(member(a.club, Role.DESK, "desk-a"))
    page = desk.get(reverse("tournaments:signups", args=[a.slug])).content.decode()
    assert B_PHONE not in page and f'data-testid="match-{entry.pk}"' not in page
    desk.post(reverse("tournaments:signup_match", args=[a.slug, entry.pk]), {"same": "1"})
    with pytest.raises(NotFound):
        signup_match_resolve(signup=SignUp.objects.get(pk=entry.pk), same=True)
    assert rows_of(b.club) == before
    assert Player.objects.filter(pk=other.pk).exists()
    assert SignUp.objects.get(pk=entry.pk).registration.player_id != other.pk


# --- 4. players made in another club's database -------------------------------------------------------


def test_the_public_sign_up_naming_another_club_writes_nothing_into_it(a, b, client):
    """Typing club B's name into club A's sign-up form: a text on the registration (shown on the desk, the
    standings and the cash list), no player in club B's database."""
    before = rows_of(b.club)
    response = client.post(reverse("tournaments:signup", args=[a.slug]), {
        "first_name": "Wastl", "last_name": "Gast", "club_name": "sc anderswo", "email": "", "phone": "",
        "consent": "on", "website": ""})
    assert response.status_code == 302
    assert rows_of(b.club) == before
    reg = Registration.objects.get(tournament=a, player__last_name="Gast")
    assert reg.club_name == "SC Anderswo" and reg.player.club is None
    assert database_of(a.club).filter(pk=reg.player_id).exists()
    _shown_on_desk_standings_and_cash_list(a, reg, "SC Anderswo")


def test_a_desk_helpers_quick_add_naming_another_club_writes_nothing_into_it(a, b):
    before = rows_of(b.club)
    desk = logged_in(member(a.club, Role.DESK, "desk-a"))
    response = desk.post(reverse("tournaments:desk_quick_add", args=[a.slug]),
                         {"first_name": "Wastl", "last_name": "Gast", "club_name": "SC ANDERSWO"})
    assert response.status_code == 302
    assert rows_of(b.club) == before
    reg = Registration.objects.get(tournament=a, player__last_name="Gast")
    assert reg.club_name == "SC Anderswo" and reg.player.club is None
    _shown_on_desk_standings_and_cash_list(a, reg, "SC Anderswo")


def test_naming_the_tournaments_own_club_makes_a_member(a, b):
    desk = logged_in(member(a.club, Role.DESK, "desk-a"))
    desk.post(reverse("tournaments:desk_quick_add", args=[a.slug]),
              {"first_name": "Vroni", "last_name": "Heim", "club_name": "schafkopffreunde musterdorf"})
    reg = Registration.objects.get(tournament=a, player__last_name="Heim")
    assert reg.player.club == a.club and reg.club_name == "" and reg.club_label == a.club.name


def _shown_on_desk_standings_and_cash_list(tournament: Tournament, reg: Registration, club: str) -> None:
    organiser = logged_in(member(tournament.club, Role.ORGANISER, "orga-a"))
    desk = organiser.get(reverse("tournaments:desk", args=[tournament.slug])).content.decode()
    assert f'data-testid="reg-club-{reg.start_number}">{club}<' in desk
    Registration.objects.filter(pk=reg.pk).update(checked_in=True)
    for i in range(3):
        registration_create(tournament=tournament, player=PlayerFactory(club=tournament.club), checked_in=True)
    Tournament.objects.filter(pk=tournament.pk).update(rules={**tournament.rules, "rounds": 1, "games_per_round": 8},
                                                       standings_public=True)
    tournament.refresh_from_db()
    tournament_play(tournament=tournament, seed=3)
    standings_recompute(tournament_id=tournament.pk)
    rows = organiser.get(reverse("tournaments:standings_download", kwargs={"slug": tournament.slug, "fmt": "json"}))
    assert club in rows.content.decode()
    cash = organiser.get(reverse("tournaments:cash", args=[tournament.slug])).content.decode()
    assert f'<span class="club">{club}</span>' in cash


# --- 3. an archive upload ------------------------------------------------------------------------------


@pytest.fixture
def b_played(b):
    """Club B's tournament played to the end, with its players' phone numbers."""
    for i in range(8):
        registration_create(tournament=b, player=PlayerFactory(club=b.club, first_name=f"B{i}", last_name="Fremd",
                                                               contact=f"0170 {i}"), paid=True, checked_in=True)
    Tournament.objects.filter(pk=b.pk).update(rules={**b.rules, "rounds": 1, "games_per_round": 8})
    b.refresh_from_db()
    tournament_play(tournament=b, seed=5)
    standings_recompute(tournament_id=b.pk)
    return b


def _upload(client, club: Club, doc: dict, slug: str):
    upload = SimpleUploadedFile("archiv.json", json.dumps(doc).encode())
    return client.post(reverse("tournaments:archive_upload"), {"club": club.pk, "file": upload, "slug": slug})


def test_an_archive_upload_makes_and_matches_players_only_in_the_importing_club(a, b_played):
    """Club B's archive uploaded by club A's organiser under a new slug: B's tournament is not taken as the
    "original" (its very players), B's players are not matched by name and club, nothing of B is written."""
    doc = archive_build(b_played)
    before = rows_of(b_played.club)
    organiser = logged_in(member(a.club, Role.ORGANISER, "orga-a"))
    response = _upload(organiser, a.club, doc, "kopie")
    assert response.status_code == 302, response.content.decode()[:2000]
    copy = Tournament.objects.get(slug="kopie")
    assert copy.club == a.club and copy.registrations.count() == 8
    b_ids = set(Player.objects.filter(club=b_played.club).values_list("pk", flat=True))
    for reg in copy.registrations.select_related("player"):
        assert reg.player_id not in b_ids and reg.player.club is None and reg.player.contact == ""
        assert reg.club_name == "SC Anderswo"
    assert rows_of(b_played.club) == before
    assert not Club.objects.filter(name="SC Anderswo").exclude(pk=b_played.club_id).exists()


def test_the_import_command_with_a_club_matches_players_only_in_it(a, b_played):
    doc = archive_build(b_played)
    before = rows_of(b_played.club)
    path = io.StringIO(json.dumps(doc))
    import sys

    stdin, sys.stdin = sys.stdin, path
    try:
        call_command("import_tournament", "-", "--slug", "kopie", "--club", a.club.name, stdout=io.StringIO())
    finally:
        sys.stdin = stdin
    copy = Tournament.objects.get(slug="kopie")
    assert copy.club == a.club
    b_ids = set(Player.objects.filter(club=b_played.club).values_list("pk", flat=True))
    assert not copy.registrations.filter(player__in=b_ids).exists()
    assert rows_of(b_played.club) == before


def test_the_import_command_refuses_a_club_that_does_not_exist(b_played):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="club"):
        call_command("import_tournament", "-", "--club", "Gibt es nicht", stdout=io.StringIO())
    assert Tournament.objects.count() == 1


# --- 5. another club's private series -------------------------------------------------------------------


def test_another_clubs_private_series_is_404_and_takes_no_tournament(a, b):
    series = series_create(club=b.club, name="Vereinsmeisterschaft B", slug="meisterschaft-b", public=False)
    before = rows_of(b.club)
    organiser = logged_in(member(a.club, Role.ORGANISER, "orga-a"))
    path = reverse("tournaments:series_manage", kwargs={"series": series.slug})
    assert organiser.get(path).status_code == 404
    assert organiser.post(path, {"action": "add", "tournament": a.pk}).status_code == 404
    assert organiser.post(path, {"action": "settings", "name": "Übernommen"}).status_code == 404
    assert rows_of(b.club) == before
    assert not SeriesTournament.objects.filter(series=series).exists()
