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
    Invitation,
    Player,
    Registration,
    Series,
    SeriesTournament,
    SignUp,
    SignUpOptions,
    Tournament,
    Venue,
    Wildcard,
)
from tournaments.services.clubs import confirm_token
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
    response = client.post(
        reverse("tournaments:signup", args=[a.slug]),
        {
            "first_name": "Wastl",
            "last_name": "Gast",
            "club_name": "sc anderswo",
            "email": "",
            "phone": "",
            "consent": "on",
            "website": "",
        },
    )
    assert response.status_code == 302
    assert rows_of(b.club) == before
    reg = Registration.objects.get(tournament=a, player__last_name="Gast")
    assert reg.club_name == "SC Anderswo" and reg.player.club is None
    assert database_of(a.club).filter(pk=reg.player_id).exists()
    _shown_on_desk_standings_and_cash_list(a, reg, "SC Anderswo")


def test_a_desk_helpers_quick_add_naming_another_club_writes_nothing_into_it(a, b):
    before = rows_of(b.club)
    desk = logged_in(member(a.club, Role.DESK, "desk-a"))
    response = desk.post(
        reverse("tournaments:desk_quick_add", args=[a.slug]),
        {"first_name": "Wastl", "last_name": "Gast", "club_name": "SC ANDERSWO"},
    )
    assert response.status_code == 302
    assert rows_of(b.club) == before
    reg = Registration.objects.get(tournament=a, player__last_name="Gast")
    assert reg.club_name == "SC Anderswo" and reg.player.club is None
    _shown_on_desk_standings_and_cash_list(a, reg, "SC Anderswo")


def test_naming_the_tournaments_own_club_makes_a_member(a, b):
    desk = logged_in(member(a.club, Role.DESK, "desk-a"))
    desk.post(
        reverse("tournaments:desk_quick_add", args=[a.slug]),
        {"first_name": "Vroni", "last_name": "Heim", "club_name": "schafkopffreunde musterdorf"},
    )
    reg = Registration.objects.get(tournament=a, player__last_name="Heim")
    assert reg.player.club == a.club and reg.club_name == "" and reg.club_label == a.club.name


def _shown_on_desk_standings_and_cash_list(tournament: Tournament, reg: Registration, club: str) -> None:
    organiser = logged_in(member(tournament.club, Role.ORGANISER, "orga-a"))
    desk = organiser.get(reverse("tournaments:desk", args=[tournament.slug])).content.decode()
    assert f'data-testid="reg-club-{reg.start_number}">{club}<' in desk
    Registration.objects.filter(pk=reg.pk).update(checked_in=True)
    for _ in range(3):
        registration_create(tournament=tournament, player=PlayerFactory(club=tournament.club), checked_in=True)
    Tournament.objects.filter(pk=tournament.pk).update(
        rules={**tournament.rules, "rounds": 1, "games_per_round": 8}, standings_public=True
    )
    tournament.refresh_from_db()
    tournament_play(tournament=tournament, seed=3)
    standings_recompute(tournament_id=tournament.pk)
    rows = organiser.get(reverse("tournaments:standings_download", kwargs={"slug": tournament.slug, "fmt": "json"}))
    assert club in rows.content.decode()
    cash = organiser.get(reverse("tournaments:cash", args=[tournament.slug])).content.decode()
    assert f'<span class="club">{club}</span>' in cash
    from tournaments.selectors.entry import table_sheet
    from tournaments.selectors.public import seat_rows

    rnd = tournament.rounds.get(number=1)
    assert [r.club for r in seat_rows(rnd) if r.start_number == reg.start_number] == [club]  # the seat list
    seat = rnd.seats.select_related("table").get(registration=reg)
    sheet = table_sheet(seat.table)
    assert [s.club for s in sheet.seats if s.start_number == reg.start_number] == [club]  # the table's sheet


# --- 3. an archive upload ------------------------------------------------------------------------------


@pytest.fixture
def b_played(b):
    """Club B's tournament played to the end, with its players' phone numbers."""
    for i in range(8):
        registration_create(
            tournament=b,
            player=PlayerFactory(club=b.club, first_name=f"B{i}", last_name="Fremd", contact=f"0170 {i}"),
            paid=True,
            checked_in=True,
        )
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


def test_the_import_command_with_a_club_matches_players_only_in_it(a, b_played, tmp_path):
    doc = archive_build(b_played)
    before = rows_of(b_played.club)
    path = tmp_path / "archiv.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    call_command("import_tournament", str(path), "--slug", "kopie", "--club", a.club.name, stdout=io.StringIO())
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


# --- the rule, walked: every model, every URL, club B's ids in club A's hands ----------------------------

# How each model's rows belong to a club (the lookup from the model to its club). A new model of the project
# apps without a line here fails test_every_model_says_whose_rows_it_holds: say whose rows it holds, and the
# walk below dumps them before and after every request.
CLUB_OF = {
    "tournaments.Club": "pk",
    "tournaments.ClubMembership": "club",
    "tournaments.Player": None,  # the club's database: its members and who played its tournaments (database_of)
    "tournaments.Tournament": "club",
    "tournaments.Registration": "tournament__club",
    "tournaments.Prize": "tournament__club",
    "tournaments.PrizePlan": "tournament__club",
    "tournaments.PrizeCategory": "tournament__club",
    "tournaments.Round": "tournament__club",
    "tournaments.Table": "round__tournament__club",
    "tournaments.Seat": "round__tournament__club",
    "tournaments.Hand": "table__round__tournament__club",
    "tournaments.TableConfirmation": "table__round__tournament__club",
    "tournaments.SeatSwap": "round__tournament__club",
    "tournaments.HandRevision": "table__round__tournament__club",
    "tournaments.AuditEntry": "club",
    "tournaments.PrintPack": "round__tournament__club",
    "tournaments.Series": "club",
    "tournaments.SeriesTournament": "series__club",
    "tournaments.SignUpOptions": "tournament__club",
    "tournaments.SignUp": "tournament__club",
    "scoring.StandingsSnapshot": "tournament__club",
    "tournaments.Venue": "tournament__club",
    "tournaments.Wildcard": "series__club",
    "tournaments.Invitation": "series__club",
}
PROJECT_APPS = ("tournaments", "scoring")
# What of club B may never appear in an answer to club A's people (its players' names, contacts, a sign-up's
# e-mail) on a page that is not public.
B_MARKERS = ("Fremdling", "0170 555", "wartend@anderswo.example")


def project_models():
    from django.apps import apps

    return {m._meta.label: m for app in PROJECT_APPS for m in apps.get_app_config(app).get_models()}


def test_every_model_says_whose_rows_it_holds():
    assert set(project_models()) == set(CLUB_OF), "add the new model to CLUB_OF (whose club's rows it holds)"


def dump(club: Club) -> dict:
    """Every row of club B, model by model, as plain values."""
    result = {}
    for label, model in sorted(project_models().items()):
        lookup = CLUB_OF[label]
        rows = database_of(club) if lookup is None else model.objects.filter(**{lookup: club.pk})
        result[label] = list(rows.order_by("pk").values())
    return result


def _club_b(organiser):
    """Club B with everything a club has: two tournaments (one played to the end with prizes and standings, one
    running with games, a swap, a print pack, an online sign-up), a private series, its log."""
    from tournaments.models import PrintPack, SeatSwap
    from tournaments.services.hands import table_sheet_record
    from tournaments.services.prizes import prize_categories_set, prize_plan_set, prizes_set
    from tournaments.services.rounds import round_draw, round_publish
    from tournaments.services.series import series_tournament_add

    club = ClubFactory(name="SC Anderswo")
    ClubMembership.objects.create(user=organiser, club=club, role=Role.ORGANISER)
    players = [
        PlayerFactory(club=club, first_name=f"B{i}", last_name=f"Fremdling{i}", contact=f"0170 555{i}")
        for i in range(9)
    ]
    rules = {**TournamentFactory.build().rules, "rounds": 1, "games_per_round": 8}
    done = TournamentFactory(club=club, slug="anderswo-fruehjahr", name="Anderswo Frühjahr", rules=rules)
    running = TournamentFactory(club=club, slug="anderswo-herbst", name="Anderswo Herbst", rules=rules)
    for tournament in (done, running):
        for player in players[:8]:
            registration_create(tournament=tournament, player=player, paid=True, checked_in=True, by=organiser)
    tournament_play(tournament=done, seed=11)
    prizes_set(tournament=done, prizes=[{"place": 1, "amount_cents": 2000, "goods": ""}], by=organiser)
    prize_plan_set(tournament=done, values={"curve": "nth", "every_n": 4, "goods_label": "B-Wurst"}, by=organiser)
    prize_categories_set(
        tournament=done, categories=[{"name": "B-U30", "max_age": 29, "prizes": [{"goods": "B-Korb"}]}], by=organiser
    )
    (rnd,) = round_draw(tournament=running, seed=12, by=organiser)
    round_publish(round=rnd, by=organiser)
    table = rnd.tables.get(number=1)
    import random

    from tournaments.simulation import random_hand

    rng = random.Random(1)
    table_sheet_record(
        table=table,
        records=[random_hand(rng, table_size=table.size, dealer=1 + n % table.size) for n in range(2)],
        device="b",
    )
    first, second = rnd.seats.order_by("pk")[:2]
    SeatSwap.objects.create(round=rnd, first=first.registration, second=second.registration, description="B swap")
    PrintPack.objects.create(round=rnd, fingerprint="b")
    Venue.objects.create(
        tournament=running, name="Fremdlings Wirtshaus", first_table=1, last_table=9, contact="0170 5559"
    )
    for tournament in (done, running):
        standings_recompute(tournament_id=tournament.pk)
    series = series_create(club=club, name="Meisterschaft B", slug="anderswo-meisterschaft", public=False, by=organiser)
    series_tournament_add(series=series, tournament=done, by=organiser)
    Wildcard.objects.create(series=series, player=players[0], reason="B")
    Invitation.objects.create(series=series, player=players[1], how="evening")
    SignUpOptions.objects.create(tournament=running, open=True, capacity=8)
    signup = SignUp.objects.create(
        tournament=running,
        first_name="Wendel",
        last_name="Fremdling-Wartend",
        email="wartend@anderswo.example",
        consent_text="ok",
        consent_at=timezone.now(),
        status=SignUp.Status.WAITING,
    )
    return club, done, running, table, series, signup, players[8]


def _answer(client, method: str, path: str, *, api: bool, data=None):
    if method == "GET":
        return client.get(path)
    if api:
        return client.generic(method, path, json.dumps(data or {}).encode(), content_type="application/json")
    if data is not None:
        return client.post(path, data)
    return client.generic(method, path, b"", content_type="application/x-www-form-urlencoded")


def test_club_bs_rows_are_never_read_listed_matched_or_written(settings, tmp_path):
    """Club A's organiser and desk helper, on every URL and API endpoint of the site (tests/test_permissions.py's
    table), with club B's slugs, ids and keys in the path (and club A's slug with B's other ids), and on the
    forms that take ids in their body with B's ids there: a page that is not public answers 403 or 404 and
    shows nothing of B; and after every request, public or not, every row of club B in every model is as it
    was (each request runs in a savepoint that is rolled back after the comparison)."""
    from django.db import transaction

    from tests.test_permissions import KEY, PERMISSIONS, PUBLIC, site_urls
    from tournaments.links import table_link_key
    from tournaments.services.demo import demo_create

    settings.MEDIA_ROOT = tmp_path / "media"
    a_tournament, _username, _password = demo_create()
    standings_recompute(tournament_id=a_tournament.pk)
    a_club = a_tournament.club
    users = {"organiser": member(a_club, Role.ORGANISER, "orga-a"), "desk": member(a_club, Role.DESK, "desk-a")}
    b_organiser = get_user_model().objects.create_user("orga-b")
    b_club, b_done, b_running, b_table, b_series, b_signup, b_spare = _club_b(b_organiser)
    a_table = a_tournament.rounds.get(number=1).tables.get(number=1)
    a_venue = Venue.objects.create(tournament=a_tournament, name="Gasthof A", first_table=1, last_table=99)
    a_player = a_tournament.registrations.get(start_number=1)

    before = dump(b_club)
    empty = sorted(label for label, rows in before.items() if not rows)
    assert not empty, f"club B has no rows of {empty}: the walk would prove nothing for them"

    b_reg = b_running.registrations.get(start_number=1)
    b_values = {
        "slug": b_running.slug,
        "club_id": b_club.pk,
        "player_id": b_reg.player_id,
        "series": b_series.slug,
        "table_id": b_table.pk,
        "pk": b_signup.pk,
        "number": 1,
        "start_number": 1,
        "game": 1,
        "table": 1,
        "round": 1,
        "venue_id": b_running.venues.get().pk,
    }
    # The keys are credentials: whoever holds club B's key holds B's table. Club A's people hold A's keys.
    a_keys = {"key": a_table.entry_key, "entry_key": a_table.entry_key, "player_key": a_player.key}
    b_ids = ("slug", "club_id", "player_id", "series", "table_id", "pk", "venue_id")

    regex_params = {"tournaments:standings_download": ("slug", "fmt"), "tournaments:series_download": ("series", "fmt")}

    def variants(name: str, params: tuple[str, ...]) -> list[dict]:
        params = regex_params.get(name, params)
        values = dict(b_values)
        if name.startswith("tournaments:table_link"):
            keys = {"key": table_link_key(a_tournament.pk, a_table.number)}
        elif name.startswith(("tournaments:player", "api:player")) and "key" in params:
            keys = {"key": a_player.key}
        elif name.startswith("tournaments:signup_") and "key" in params:
            keys = {
                "key": SignUp.objects.filter(tournament=a_tournament).values_list("key", flat=True).first()
                or a_player.key
            }
        else:
            keys = a_keys
        values.update(keys)
        values["doc"] = "spielliste-leer" if name == "tournaments:print_table_document" else "sitzplan"
        values["token"] = confirm_token(a_club)  # a club's mail link is its credential: A's people hold A's
        values["fmt"] = "pdf" if name == "tournaments:series_download" else "csv"
        found = [{p: values[p] for p in params}]
        if "slug" in params and any(p in params for p in b_ids if p != "slug"):  # A's slug, B's other ids
            found.append({**found[0], "slug": a_tournament.slug})
        return found

    problems: list[str] = []
    asked: list[str] = []
    level = ""

    def check(role: str, method: str, path: str, *, api: bool, must_refuse: bool, data=None) -> None:
        client = Client(HTTP_ACCEPT_LANGUAGE="en")
        client.force_login(users[role])
        with transaction.atomic():
            response = _answer(client, method, path, api=api, data=data)
            after = dump(b_club)
            transaction.set_rollback(True)
        asked.append(path)
        what = f"{method} {path} as club A's {role}{' ' + str(data) if data else ''}"
        if after != before:
            changed = [label for label in before if before[label] != after[label]]
            problems.append(f"{what}: club B's rows changed in {changed}")
        if must_refuse and response.status_code not in (403, 404):
            problems.append(f"{what}: expected 403 or 404, got {response.status_code}")
        body = b"".join(response.streaming_content) if response.streaming else response.content
        text = body.decode("utf-8", "replace")
        if must_refuse or level != PUBLIC:
            shown = [m for m in B_MARKERS if m in text]
            if shown:
                problems.append(f"{what}: the answer shows club B's {shown}")

    urls = site_urls()
    for name, methods in sorted(PERMISSIONS.items()):
        url = urls[name]
        for kwargs in variants(name, url.params):
            path = reverse(name, kwargs=kwargs)
            for method, level in methods.items():
                public = level in (PUBLIC, KEY)
                has_b_id = any(p in kwargs and kwargs[p] == b_values[p] for p in b_ids)
                for role in ("organiser", "desk"):
                    if role == "desk" and method != "GET" and level not in (PUBLIC, KEY) and not has_b_id:
                        continue  # the desk's own posts without B's ids: the organiser's walk covers them
                    check(role, method, path, api=name.startswith("api:"), must_refuse=has_b_id and not public)

    # B's ids in the body of club A's own forms and API calls.
    level = "body"
    a_slug = a_tournament.slug
    series_a = Series.objects.get(club=a_club, slug="jahreswertung-2026")  # the demo's season
    quali_a = Series.objects.get(club=a_club, kind=Series.Kind.QUALIFIER)  # the demo's qualification (issue 38)
    archive = SimpleUploadedFile("archiv.json", json.dumps(archive_build(b_done)).encode())
    body_cases = [
        ("tournaments:desk_register", {"slug": a_slug}, {"player": b_spare.pk, "paid": "on"}),
        ("tournaments:desk_register", {"slug": a_slug}, {"player": b_reg.player_id}),
        (
            "tournaments:desk_quick_add",
            {"slug": a_slug},
            {"first_name": "Wastl", "last_name": "Gast", "club_name": b_club.name},
        ),
        ("tournaments:checkin_code", {"slug": a_slug}, {"code": b_reg.key}),
        # a start number of club B's tournament checked in at club A's venue: A's own number 1, never B's row
        ("tournaments:venue_checkin", {"slug": a_slug, "venue_id": a_venue.pk}, {"start_number": 1}),
        (
            "tournaments:venue_totals",
            {"slug": a_slug, "venue_id": a_venue.pk, "table_id": b_table.pk},
            {"seat_1": 1, "seat_2": -1, "seat_3": 0, "seat_4": 0},
        ),
        ("tournaments:series_manage", {"series": series_a.slug}, {"action": "add", "tournament": b_done.pk}),
        (
            "tournaments:qualification_manage",
            {"series": quali_a.slug},
            {
                "action": "settings",
                "per_evening": 2,
                "mode": "top",
                "lottery_places": 0,
                "lottery_min_evenings": 1,
                "final": b_running.pk,
            },
        ),
        (
            "tournaments:qualification_manage",
            {"series": quali_a.slug},
            {"action": "wildcard", "player": b_spare.pk, "reason": "fremd"},
        ),
        (
            "tournaments:qualification_manage",
            {"series": quali_a.slug},
            {"action": "decline", "invitation": Invitation.objects.get(series__club=b_club).pk},
        ),
        ("tournaments:series_manage", {"series": series_a.slug}, {"action": "add", "tournament": b_running.pk}),
        ("tournaments:series_manage", {"series": series_a.slug}, {"action": "remove", "tournament": b_done.pk}),
        (
            "tournaments:series_manage_list",
            {},
            {
                "club": b_club.pk,
                "name": "Fremd",
                "slug": "fremd",
                "kind": "cup",
                "scoring": "sum",
                "min_participations": 1,
                "tiebreaks": "lot",
            },
        ),
        ("tournaments:archive_upload", {}, {"club": b_club.pk, "file": archive, "slug": "kopie"}),
        ("tournaments:tournament_new", {}, {"club": b_club.pk, "name": "Fremd", "slug": "fremd", "date": "2030-01-01"}),
        ("tournaments:club_merge", {"club_id": a_club.pk}, {"keep": a_player.player_id, "remove": b_spare.pk}),
        (
            "tournaments:player_edit",
            {"player_id": a_player.player_id},
            {"first_name": "A", "last_name": "Umzug", "club": b_club.pk, "contact": ""},
        ),
        (
            "tournaments:signup",
            {"slug": a_slug},
            {"first_name": "B8", "last_name": "Fremdling8", "club_name": b_club.name, "consent": "on", "website": ""},
        ),
    ]
    api_cases = [
        ("api:registrations", {"slug": a_slug}, {"player_id": b_spare.pk}),
        ("api:registrations", {"slug": a_slug}, {"last_name": "Gast", "club": b_club.name}),
    ]
    for name, kwargs, data in body_cases:
        if name == "tournaments:archive_upload":
            archive.seek(0)
        check("organiser", "POST", reverse(name, kwargs=kwargs), api=False, must_refuse=False, data=data)
    for name, kwargs, data in api_cases:
        check("organiser", "POST", reverse(name, kwargs=kwargs), api=True, must_refuse=False, data=data)
    assert not problems, "\n".join(problems)
    assert len(set(asked)) > len(PERMISSIONS)  # every URL at least once, some with two sets of ids


def test_a_merge_for_a_club_takes_only_players_of_its_database(a, b):
    """The service itself refuses another club's player (the club page's form offers only the club's own)."""
    from tournaments.services.players import players_merge

    mine = PlayerFactory(club=a.club, first_name="Sepp", last_name="Huber")
    other = Player.objects.get(club=b.club, last_name="Huber")
    before = rows_of(b.club)
    for keep, remove, field in ((mine, other, "remove"), (other, mine, "keep")):
        with pytest.raises(NotFound) as refused:
            players_merge(keep=keep, remove=remove, club=a.club)
        assert refused.value.field == field
    assert rows_of(b.club) == before and Player.objects.filter(pk=mine.pk).exists()


# --- a club's home (issue 39): the operator's page, the bank statement, the calendar ---------------------


def test_a_clubs_organiser_never_reaches_the_operators_page_nor_sets_another_clubs_status(a, b):
    organiser = member(a.club, Role.ORGANISER, "a-org-status")
    client = logged_in(organiser)
    assert client.get(reverse("tournaments:operator_clubs")).status_code == 403
    assert (
        client.post(reverse("tournaments:operator_club_status", args=[b.club_id]), {"status": "suspended"}).status_code
        == 403
    )
    assert Club.objects.get(pk=b.club_id).status == Club.Status.ACTIVE


def test_a_bank_statement_marks_only_the_own_tournaments_registrations(a, b):
    from tournaments.services.registration import registration_create as register

    for tournament in (a, b):
        for _n in range(2):
            register(tournament=tournament, player=PlayerFactory(club=tournament.club))
    before = rows_of(b.club)
    organiser = member(a.club, Role.ORGANISER, "a-org-bank")
    csv = "Verwendungszweck;Betrag\n" + "".join(f"{t.slug} Nr {n};50,00\n" for t in (a, b) for n in (1, 2))
    client = logged_in(organiser)
    # B's statement page is not A's to open, and A's upload names B's tournament: nothing of B is marked
    assert client.get(reverse("tournaments:bank_statement", args=[b.slug])).status_code == 404
    client.post(
        reverse("tournaments:bank_statement", args=[a.slug]), {"file": SimpleUploadedFile("k.csv", csv.encode())}
    )
    assert set(Registration.objects.filter(tournament=a, paid=True).values_list("start_number", flat=True)) == {1, 2}
    assert rows_of(b.club) == before


def test_the_calendar_shows_another_clubs_listed_tournament_but_none_of_its_people(a, b):
    Tournament.objects.filter(pk=b.pk).update(listed=True, date=datetime.date(2030, 11, 22))
    page = Client().get(reverse("tournaments:calendar")).content.decode()
    assert b.name in page
    assert not any(marker in page for marker in B_MARKERS)
