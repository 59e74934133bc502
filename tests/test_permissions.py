"""Who gets in where: every URL of the site and every API endpoint, walked as each kind of user.

The roles, against club A's tournament (the demo "herbstrennen", round 1 published and half played,
standings computed and public):

    anonymous   not logged in
    viewer      VIEWER of club A: sees the club's tournaments, changes nothing
    desk        DESK of club A: registration, check-in, payments (and what the desk needs to read)
    other       ORGANISER of club B (with a tournament of its own): must never get into club A's
    organiser   ORGANISER of club A: everything of the club's tournaments
    superuser   no club, sees and does everything

Every URL pattern of the root resolver needs a row in PERMISSIONS (the level per HTTP method), so a new
URL cannot slip through unclassified. Each request runs in a savepoint that is rolled back, so a POST
that really changes something (withdraw, delete a game) leaves the fixture as it was for the next one.
A method a URL does not list is tried too: it must let no one in whom the listed methods keep out.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tournaments.links import table_link_key
from tournaments.models import ClubMembership, Hand, Player, SignUp, SignUpOptions, Table, Tournament, Venue
from tournaments.services.account import api_token_create, api_token_revoke
from tournaments.services.registration import registration_create
from tournaments.services.rounds import round_draw, round_publish
from tournaments.services.standings import standings_recompute

Role = ClubMembership.Role

# --- The permission table ---------------------------------------------------------------------------

PUBLIC = "public"  # everyone, no login
KEY = "key"  # everyone who has the table's private entry key (a wrong key is a 404 for everyone)
LOGIN = "login"  # any logged-in user (the page shows only what the user's clubs allow)
ORG_ANY = "organiser of some club"  # organisers (of any club: they act for their own clubs only)
VIEWER = "viewer"  # any role in the tournament's club
DESK = "desk"  # desk helpers and organisers of the tournament's club
ORGANISER = "organiser"  # organisers of the tournament's club only
OPERATOR = "operator"  # the instance's operator (staff, superusers): the page of clubs

LEVELS = (PUBLIC, KEY, LOGIN, ORG_ANY, VIEWER, DESK, ORGANISER, OPERATOR)
ROLES = ("anonymous", "viewer", "desk", "other", "organiser", "superuser")

# What each role must get at each level: "in", "login" (sent to log in / 401 / 403 for the API) or
# "forbidden" (403 or 404: another club's tournament is never "in").
EXPECTED = {
    PUBLIC: dict.fromkeys(ROLES, "in"),
    KEY: dict.fromkeys(ROLES, "in"),
    LOGIN: {"anonymous": "login", "viewer": "in", "desk": "in", "other": "in", "organiser": "in", "superuser": "in"},
    ORG_ANY: {
        "anonymous": "login",
        "viewer": "forbidden",
        "desk": "forbidden",
        "other": "in",
        "organiser": "in",
        "superuser": "in",
    },
    VIEWER: {
        "anonymous": "login",
        "viewer": "in",
        "desk": "in",
        "other": "forbidden",
        "organiser": "in",
        "superuser": "in",
    },
    DESK: {
        "anonymous": "login",
        "viewer": "forbidden",
        "desk": "in",
        "other": "forbidden",
        "organiser": "in",
        "superuser": "in",
    },
    ORGANISER: {
        "anonymous": "login",
        "viewer": "forbidden",
        "desk": "forbidden",
        "other": "forbidden",
        "organiser": "in",
        "superuser": "in",
    },
    OPERATOR: {
        "anonymous": "login",
        "viewer": "forbidden",
        "desk": "forbidden",
        "other": "forbidden",
        "organiser": "forbidden",
        "superuser": "in",
    },
}

PERMISSIONS: dict[str, dict[str, str]] = {
    # API schema and docs: public (drf-spectacular's default AllowAny).
    "schema": {"GET": PUBLIC},
    "api_docs": {"GET": PUBLIC},
    # Public pages.
    "tournaments:home": {"GET": PUBLIC},
    # The calendar, its iCal feeds, a tournament's share image; a club's own registration and its mail's link.
    "tournaments:calendar": {"GET": PUBLIC},
    "tournaments:calendar_ics": {"GET": PUBLIC},
    "tournaments:club_calendar_ics": {"GET": PUBLIC},
    "tournaments:share_image": {"GET": PUBLIC},
    "tournaments:club_register": {"GET": PUBLIC, "POST": PUBLIC},
    "tournaments:club_confirm": {"GET": PUBLIC},  # a wrong token: 400 with the reason
    # The instance operator's page of clubs (approve, suspend).
    "tournaments:operator_clubs": {"GET": OPERATOR},
    "tournaments:operator_club_status": {"POST": OPERATOR},
    # Paying by transfer: a sign-up's GiroCode (its personal key), the desk's bank statement, the organiser's
    # release of unpaid places.
    "tournaments:signup_girocode": {"GET": KEY},
    "tournaments:bank_statement": {"GET": DESK, "POST": DESK},
    "tournaments:unpaid_release": {"POST": ORGANISER},
    "tournaments:accessibility": {"GET": PUBLIC},
    "tournaments:public_tournament": {"GET": PUBLIC},
    "tournaments:seatlist": {"GET": PUBLIC},
    "tournaments:seatlist_tables": {"GET": PUBLIC},
    "tournaments:standings": {"GET": PUBLIC},  # published standings; hidden ones: test_hidden_standings
    "tournaments:standings_projector": {"GET": PUBLIC},
    "tournaments:standings_download": {"GET": PUBLIC},
    "tournaments:standings_top_ten": {"GET": PUBLIC},  # the share image of the top 10; hidden ones: the club
    # Series (the demo's season is public), a tournament's statistics, a player's history by his own key.
    "tournaments:series": {"GET": PUBLIC},
    "tournaments:series_download": {"GET": PUBLIC},
    "tournaments:series_player": {"GET": PUBLIC},
    "tournaments:tournament_statistics": {"GET": PUBLIC},
    "tournaments:tournament_statistics_pdf": {"GET": PUBLIC},  # published standings; hidden: the club only
    "tournaments:player_history": {"GET": KEY},
    # Setting a series up: organisers (of any club: they add their own club's tournaments to a cup).
    "tournaments:series_manage_list": {"GET": ORG_ANY, "POST": ORG_ANY},
    "tournaments:series_manage": {"GET": ORG_ANY, "POST": ORG_ANY},
    "tournaments:series_certificates": {"GET": DESK},
    # A qualifier series: its list is public with the series; its settings, wildcards and invitations the club's.
    "tournaments:qualification": {"GET": PUBLIC},
    "tournaments:qualification_pdf": {"GET": PUBLIC},
    "tournaments:qualification_manage": {"GET": ORGANISER, "POST": ORGANISER},
    # The tablet pages: the private table key instead of a login.
    "tournaments:entry_table": {"GET": KEY},
    "tournaments:entry_record": {"POST": KEY},
    "tournaments:entry_game": {"GET": KEY, "POST": KEY},
    "tournaments:entry_delete": {"POST": KEY},
    "tournaments:entry_preview": {"POST": KEY},
    "tournaments:entry_confirm": {"POST": KEY},
    "tournaments:entry_conflict": {"POST": KEY},
    "tournaments:entry_manifest": {"GET": KEY},
    "tournaments:entry_service_worker": {"GET": PUBLIC},  # the same script for every table, no data
    # A table card's all-evening link and a player's own page: their keys instead of a login.
    "tournaments:table_link": {"GET": KEY},
    "tournaments:table_link_status": {"GET": KEY},
    "tournaments:table_link_round": {"GET": KEY},
    "tournaments:table_link_record": {"POST": KEY},
    "tournaments:table_link_game": {"GET": KEY, "POST": KEY},
    "tournaments:table_link_delete": {"POST": KEY},
    "tournaments:table_link_preview": {"POST": KEY},
    "tournaments:table_link_confirm": {"POST": KEY},
    "tournaments:table_link_conflict": {"POST": KEY},
    "tournaments:table_link_manifest": {"GET": KEY},
    "tournaments:player_table_conflict": {"POST": KEY},
    "tournaments:player": {"GET": KEY},
    "tournaments:player_status": {"GET": KEY},
    "tournaments:player_table": {"GET": KEY},
    "tournaments:player_table_round": {"GET": KEY},
    "tournaments:player_table_record": {"POST": KEY},
    "tournaments:player_table_game": {"GET": KEY, "POST": KEY},
    "tournaments:player_table_delete": {"POST": KEY},
    "tournaments:player_table_preview": {"POST": KEY},
    "tournaments:player_table_confirm": {"POST": KEY},
    "tournaments:player_confirm": {"POST": KEY},
    # Online sign-up (issue 19): the public form and the rules; the player's confirmation under his key.
    "tournaments:signup": {"GET": PUBLIC, "POST": PUBLIC},
    "tournaments:rules_pdf": {"GET": PUBLIC},
    "tournaments:signup_page": {"GET": KEY},
    "tournaments:signup_qr": {"GET": KEY},
    "tournaments:signup_withdraw": {"POST": KEY},
    "tournaments:signup_consent": {"POST": KEY},
    # The club's side: options and invitations for organisers; the sign-ups, returning players and the
    # check-in at the door for desk helpers too; closing check-in for organisers.
    "tournaments:signup_options": {"GET": ORGANISER, "POST": ORGANISER},
    "tournaments:invitations": {"GET": ORGANISER},
    "tournaments:signups": {"GET": DESK},
    "tournaments:signup_match": {"POST": DESK},
    "tournaments:checkin": {"GET": DESK},
    # An evening in several venues: the organiser sets them up; a venue's desk is the club's desk (and the
    # venue's own helpers, tests/tournaments/test_venues.py).
    "tournaments:venues": {"GET": ORGANISER, "POST": ORGANISER},
    "tournaments:venue_helper": {"POST": ORGANISER},
    "tournaments:venue_desk": {"GET": DESK},
    "tournaments:venue_checkin": {"POST": DESK},
    "tournaments:venue_totals": {"GET": DESK, "POST": DESK},
    "tournaments:venue_seatlist": {"GET": DESK},
    "tournaments:venue_print_pack": {"GET": DESK},
    "tournaments:venue_projector": {"GET": DESK},
    "tournaments:checkin_counts": {"GET": DESK},
    "tournaments:checkin_code": {"POST": DESK},
    "tournaments:checkin_number": {"POST": DESK},
    "tournaments:checkin_paid": {"POST": DESK},
    "tournaments:checkin_waiting": {"POST": DESK},
    "tournaments:checkin_close": {"POST": ORGANISER},
    "tournaments:start_cards": {"GET": DESK},  # the players' private links: desk and organisers only
    "tournaments:start_card": {"GET": DESK},
    # The organiser's start page and the club's pages.
    "tournaments:organiser_home": {"GET": LOGIN},
    # Mein Zugang: the user's own page, the API token made and revoked there.
    "tournaments:account": {"GET": LOGIN},
    "tournaments:account_token_create": {"POST": LOGIN},
    "tournaments:account_token_revoke": {"POST": LOGIN},
    "tournaments:tournament_new": {"GET": ORG_ANY, "POST": ORG_ANY},
    "tournaments:archive_upload": {"GET": ORG_ANY, "POST": ORG_ANY},
    "tournaments:club": {"GET": VIEWER},
    "tournaments:club_details": {"POST": ORGANISER},
    "tournaments:club_import": {"POST": ORGANISER},
    "tournaments:club_merge": {"POST": ORGANISER},
    "tournaments:player_edit": {"GET": DESK, "POST": DESK},  # fixing a name at the desk
    # A player's personal data: export and anonymise, organisers of his club only.
    "tournaments:player_export": {"GET": ORGANISER},
    "tournaments:player_anonymise": {"POST": ORGANISER},
    # The audit log, per club and per tournament: organisers only.
    "tournaments:club_log": {"GET": ORGANISER},
    "tournaments:tournament_log": {"GET": ORGANISER},
    # Control panel (read-only for everyone with a role) and setup.
    "tournaments:control": {"GET": VIEWER},
    "tournaments:settings": {"GET": ORGANISER, "POST": ORGANISER},
    "tournaments:rules_examples": {"POST": ORGANISER},
    "tournaments:copy": {"GET": ORGANISER, "POST": ORGANISER},
    # The desk: registration, payments, check-in, withdrawal, substitutes.
    "tournaments:desk": {"GET": DESK},
    "tournaments:desk_register": {"POST": DESK},
    "tournaments:desk_quick_add": {"POST": DESK},
    "tournaments:desk_flag": {"POST": DESK},
    "tournaments:desk_withdraw": {"POST": DESK},
    "tournaments:desk_substitute": {"GET": DESK, "POST": DESK},
    # Rounds: the desk sees them, only organisers draw, publish, close and swap.
    "tournaments:rounds": {"GET": DESK},
    "tournaments:rounds_draw": {"POST": ORGANISER},
    "tournaments:rounds_redraw": {"POST": ORGANISER},
    "tournaments:rounds_publish": {"POST": ORGANISER},
    "tournaments:rounds_close": {"POST": ORGANISER},
    "tournaments:rounds_reopen": {"POST": ORGANISER},
    "tournaments:rounds_swap": {"POST": ORGANISER},
    # The tables' links and QR codes, and paper mode (entering and correcting games as an organiser).
    "tournaments:entry_tables": {"GET": ORGANISER},
    "tournaments:entry_table_qr": {"GET": ORGANISER},
    "tournaments:paper": {"GET": ORGANISER},
    "tournaments:paper_record": {"POST": ORGANISER},
    "tournaments:paper_game": {"GET": ORGANISER, "POST": ORGANISER},
    "tournaments:paper_delete": {"POST": ORGANISER},
    "tournaments:paper_preview": {"POST": ORGANISER},
    "tournaments:paper_totals": {"POST": ORGANISER},
    "tournaments:table_confirm_for": {"POST": ORGANISER},
    "tournaments:table_close": {"POST": ORGANISER},
    "tournaments:table_four": {"POST": ORGANISER},
    "tournaments:table_reopen": {"POST": ORGANISER},
    "tournaments:archive_download": {"GET": ORGANISER},
    # Printing a round's documents: the desk prints the pack (tournaments/views/printing.py: DESK).
    "tournaments:print_round": {"GET": DESK, "POST": DESK},
    "tournaments:print_status": {"GET": DESK},
    "tournaments:table_cards_renew": {"POST": ORGANISER},
    "tournaments:print_pack": {"GET": DESK},
    "tournaments:print_table_pick": {"GET": DESK},
    "tournaments:print_document": {"GET": DESK},
    "tournaments:print_table_document": {"GET": DESK},
    # The tournament's documents at its end: like the round's documents.
    "tournaments:print_standings": {"GET": DESK},
    "tournaments:print_prizes": {"GET": DESK},
    "tournaments:print_cash": {"GET": DESK},
    "tournaments:print_certificates": {"GET": DESK},
    # Standings, prizes, cash.
    "tournaments:standings_publish": {"POST": ORGANISER},
    "tournaments:standings_refresh": {"POST": DESK},
    "tournaments:prizes": {"GET": VIEWER, "POST": ORGANISER},
    "tournaments:prize_handed_over": {"POST": DESK},
    "tournaments:prize_plan_save": {"POST": ORGANISER},
    "tournaments:prize_plan_preview": {"GET": VIEWER},
    "tournaments:prize_categories_save": {"POST": ORGANISER},
    "tournaments:prize_callup": {"GET": DESK, "POST": DESK},
    "tournaments:prize_callup_projector": {"GET": PUBLIC},
    "api:prizes": {"GET": VIEWER},
    "tournaments:tournament_finish": {
        "POST": ORGANISER
    },  # "Turnier beenden"  # the tick per winner at the prize-giving
    "tournaments:cash": {"GET": DESK},  # payments
    # Organiser API: anyone with a role reads; desk helpers register; organisers do the rest.
    "api:registrations": {"GET": VIEWER, "POST": DESK},
    "api:standings": {"GET": VIEWER},
    "api:registration": {"GET": VIEWER, "PATCH": DESK},
    "api:rounds": {"GET": VIEWER, "POST": ORGANISER},
    "api:round": {"GET": VIEWER},
    "api:round_publish": {"POST": ORGANISER},
    "api:round_redraw": {"POST": ORGANISER},
    "api:round_close": {"POST": ORGANISER},
    "api:round_reopen": {"POST": ORGANISER},
    "api:round_tables": {"GET": VIEWER},
    "api:round_table": {"GET": VIEWER},
    "api:round_hand": {"PUT": ORGANISER, "PATCH": ORGANISER, "DELETE": ORGANISER},
    "api:round_table_totals": {"PUT": ORGANISER},
    # Table API: the entry key is the credential.
    "api:table": {"GET": KEY},
    "api:table_hands": {"POST": KEY},
    "api:table_hand": {"GET": KEY, "PUT": KEY, "PATCH": KEY, "DELETE": KEY},
    "api:table_preview": {"POST": KEY},
    "api:table_confirm": {"POST": KEY},
    "api:player": {"GET": KEY},
}

# Not ours to classify: Django's admin, login pages, language switch, static and media files.
EXCLUDED_PREFIXES = ("admin/", "accounts/", "i18n/", "static/", "media/", "^static/", "^media/")


# --- Walking the URL patterns -------------------------------------------------------------------------


@dataclass(frozen=True)
class Url:
    name: str
    route: str
    params: tuple[str, ...]


def _params(pattern) -> tuple[str, ...]:
    converters = getattr(pattern, "converters", None)
    if converters is not None:
        return tuple(converters)
    return tuple(pattern.regex.groupindex)


def walk(patterns=None, prefix: str = "", namespace: str | None = None, params: tuple[str, ...] = ()):
    """Every URL pattern under the root resolver, with its full name, route and parameters."""
    if patterns is None:
        patterns = get_resolver().url_patterns
    for entry in patterns:
        route = prefix + str(entry.pattern)
        if route.startswith(EXCLUDED_PREFIXES):
            continue
        if isinstance(entry, URLResolver):
            inner = ":".join(filter(None, [namespace, entry.namespace])) or None
            yield from walk(entry.url_patterns, route, inner, params + _params(entry.pattern))
        elif isinstance(entry, URLPattern):
            name = f"{namespace}:{entry.name}" if namespace and entry.name else entry.name
            yield Url(name or f"<unnamed {route}>", route, params + _params(entry.pattern))


def site_urls() -> dict[str, Url]:
    return {url.name: url for url in walk()}


def test_every_url_is_in_the_permission_table():
    urls = site_urls()
    unclassified = [
        f"unclassified URL {name} ({url.route}): add it to the permission table"
        for name, url in sorted(urls.items())
        if name not in PERMISSIONS
    ]
    assert not unclassified, "\n".join(unclassified)
    stale = sorted(set(PERMISSIONS) - set(urls))
    assert not stale, f"the permission table names URLs that do not exist: {stale}"
    assert {level for methods in PERMISSIONS.values() for level in methods.values()} <= set(LEVELS)


def test_the_walk_sees_every_area():
    """A sanity check of the walk itself: each URL module is there, the excluded ones are not."""
    names = set(site_urls())
    for name in (
        "tournaments:home",
        "tournaments:desk",
        "tournaments:entry_table",
        "tournaments:control",
        "tournaments:print_round",
        "tournaments:prizes",
        "api:registrations",
        "api:table",
        "schema",
    ):
        assert name in names
    assert not any(name.startswith("admin:") or name in ("login", "logout", "set_language") for name in names)


# --- The fixture: club A's played tournament, club B's own, the users --------------------------------


@dataclass
class World:
    tournament: Tournament
    other_tournament: Tournament
    table: Table
    signup: SignUp
    player: Player
    other_player: Player
    users: dict


def _build() -> World:
    call_command("demo", allow_without_debug=True, stdout=io.StringIO())
    tournament = Tournament.objects.select_related("club").get(slug="herbstrennen")
    standings_recompute(tournament_id=tournament.pk)
    club_a = tournament.club
    table = Table.objects.get(round__tournament=tournament, round__number=1, number=1)
    assert Hand.objects.filter(table=table, number=1).exists()

    club_b = ClubFactory(name="SC Anderswo")
    other_tournament = TournamentFactory(club=club_b, slug="anderswo-rennen")
    other_players = [PlayerFactory(club=club_b) for _ in range(8)]
    for player in other_players:
        registration_create(tournament=other_tournament, player=player, paid=True, checked_in=True)
    (rnd,) = round_draw(tournament=other_tournament, seed=3)
    round_publish(round=rnd)

    user_model = get_user_model()

    def member(username: str, club, role: str):
        user = user_model.objects.create_user(username, password="pw")
        ClubMembership.objects.create(user=user, club=club, role=role)
        return user

    users = {
        "anonymous": None,
        "viewer": member("viewer-a", club_a, Role.VIEWER),
        "desk": member("desk-a", club_a, Role.DESK),
        "other": member("organiser-b", club_b, Role.ORGANISER),
        "organiser": member("organiser-a", club_a, Role.ORGANISER),
        "superuser": user_model.objects.create_superuser("root", password="pw"),
    }
    player = tournament.registrations.get(start_number=1).player
    # One venue holding every table (an evening in several venues has its own tests/tournaments/test_venues.py).
    Venue.objects.create(tournament=tournament, name="Gasthof zur Post", first_table=1, last_table=99)
    # Its online sign-up is switched on; one person is on its waiting list (issue 19).
    SignUpOptions.objects.create(tournament=tournament, open=True, capacity=len(tournament.registrations.all()))
    signup = SignUp.objects.create(
        tournament=tournament,
        first_name="Wendelin",
        last_name="Warteliste",
        consent_text="ok",
        consent_at=timezone.now(),
        status=SignUp.Status.WAITING,
    )
    return World(tournament, other_tournament, table, signup, player, other_players[0], users)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """Built once for the module inside a transaction that is rolled back at its end (each test runs
    in a savepoint within it, each request in a savepoint within that)."""
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            yield _build()
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


@pytest.fixture(autouse=True)
def _isolated(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    cache.clear()
    yield
    cache.clear()


# --- Making the requests ----------------------------------------------------------------------------


def kwargs_for(url: Url, world: World) -> list[dict]:
    """The URL's parameters from the fixture (a list: some URLs are tried with several values)."""
    values = {
        "slug": world.tournament.slug,
        "number": 1,  # round 1, start number 1, game 1: all exist
        "start_number": 1,
        "game": 1,
        "table": world.table.number,
        "table_id": world.table.pk,
        "key": world.table.entry_key,
        "entry_key": world.table.entry_key,
        "club_id": world.tournament.club_id,
        "player_id": world.player.pk,
        "doc": "spielliste-leer" if url.name == "tournaments:print_table_document" else "sitzplan",
        "series": "jahreswertung-2026",  # the demo's season
        "player_key": world.tournament.registrations.get(start_number=1).key,
        "pk": world.signup.pk,
        "token": "not-a-token",
        "venue_id": world.tournament.venues.get().pk,
    }
    if url.name == "tournaments:standings_download":
        return [{"slug": world.tournament.slug, "fmt": fmt} for fmt in ("csv", "json")]
    if url.name == "tournaments:series_download":
        return [{"series": values["series"], "fmt": fmt} for fmt in ("pdf", "csv", "json")]
    if url.name.startswith("tournaments:table_link"):  # the table card's all-evening key
        values.update(key=table_link_key(world.tournament.pk, world.table.number), round=world.table.round.number)
    elif url.name == "tournaments:signup_girocode":  # a sign-up with a place and a fee to pay (the demo's)
        values.update(key=SignUp.objects.get(tournament__slug="dreikoenigsrennen", last_name="Gschwendtner").key)
    elif url.name.startswith("tournaments:signup_") and "key" in url.params:  # the sign-up's personal key
        values.update(key=world.signup.key)
    elif url.name.startswith(("tournaments:player", "api:player")) and "key" in url.params:  # the player's key
        values.update(key=world.table.seats.get(number=1).registration.key, round=world.table.round.number)
    missing = [p for p in url.params if p not in values]
    assert not missing, f"{url.name}: no fixture value for the parameters {missing}"
    return [{p: values[p] for p in url.params}]


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def request(client: Client, method: str, path: str, *, api: bool):
    """One request in a savepoint that is rolled back: nothing it changes stays."""
    with transaction.atomic():
        if method == "GET":
            response = client.get(path)
        elif api:
            response = client.generic(method, path, b"{}", content_type="application/json")
        else:
            response = client.generic(method, path, b"", content_type="application/x-www-form-urlencoded")
        transaction.set_rollback(True)
    return response


def outcome(response) -> str:
    """in, login, denied (403), notfound (404), or the status code of anything else.

    A redirect to the login page is "login". Any other redirect is "in" only as the answer to a change
    (POST and the like) and only within the site: no page of the table answers a GET with a redirect, so one
    that does (say, a refusal that sends the user elsewhere) is not counted as getting in.
    """
    status = response.status_code
    if status in (301, 302, 303, 307, 308):
        location = response["Location"]
        if location.startswith(reverse("login")):
            return "login"
        on_site = location.startswith("/") and not location.startswith("//")
        if response.request["REQUEST_METHOD"] == "GET" or not on_site:
            return f"{status} to {location}"
        return "in"
    if 200 <= status < 300 or status in (400, 409, 422):
        return "in"
    return {401: "login", 403: "denied", 404: "notfound"}.get(status, str(status))


def accepted(expected: str, role: str, api: bool) -> set[str]:
    if expected == "in":
        return {"in"}
    if expected == "login":
        # DRF answers an anonymous API call with 403 (session auth sends no WWW-Authenticate challenge).
        return {"login", "denied"} if api else {"login"}
    return {"denied", "notfound"}


def token_client_for(user) -> Client:
    """A script's client: no session, the user's API token in the Authorization header."""
    if user is None:
        return Client()
    return Client(HTTP_AUTHORIZATION=f"Token {api_token_create(user=user)}")


def check(
    world: World, url: Url, methods: dict[str, str], kwargs: dict, roles=ROLES, expect=None, make_client=client_for
) -> list[str]:
    path = reverse(url.name, kwargs=kwargs)
    api = url.name.startswith("api:")
    problems = []
    for role in roles:
        client = make_client(world.users[role])
        for method, level in methods.items():
            expected = expect or EXPECTED[level][role]
            got = outcome(request(client, method, path, api=api))
            if got not in accepted(expected, role, api):
                problems.append(f"{method} {path} as {role}: expected {expected} ({level}), got {got}")
    return problems


REFUSED = {"login", "denied", "notfound"}


def unlisted_method(methods: dict[str, str]) -> str | None:
    """One method the URL does not list: GET for a POST-only URL, POST for a GET-only one, and so on."""
    return next((m for m in ("GET", "POST", "PUT", "PATCH", "DELETE") if m not in methods), None)


def check_unlisted(world: World, url: Url, methods: dict[str, str], kwargs: dict, make_client=client_for) -> list[str]:
    """A method the URL does not list is 405 or refused for everyone the listed methods keep out (a POST to
    a GET-only page opens nothing the GET does not); for the others it must not fail either."""
    method = unlisted_method(methods)
    if method is None:
        return []
    path = reverse(url.name, kwargs=kwargs)
    api = url.name.startswith("api:")
    problems = []
    for role in ROLES:
        outsider = all(EXPECTED[level][role] != "in" for level in methods.values())
        allowed = REFUSED | {"405"} if outsider else REFUSED | {"405", "in"}
        got = outcome(request(make_client(world.users[role]), method, path, api=api))
        if got not in allowed:
            problems.append(
                f"{method} (not listed) {path} as {role}: expected 405 or "
                f"{'refused' if outsider else 'an answer'}, got {got}"
            )
    return problems


def _ready_pack(monkeypatch, tmp_path):
    """print_pack serves a pack that was built; pretend it was (the permission check comes first)."""
    from tournaments.services.printing import READY, PackState
    from tournaments.views import printing

    pdf = Path(tmp_path) / "pack.pdf"
    pdf.write_bytes(b"%PDF-1.4\n%%EOF\n")
    monkeypatch.setattr(
        printing,
        "round_print_pack_state",
        lambda **kwargs: PackState(READY, "fingerprint", path=pdf, size=pdf.stat().st_size),
    )


@pytest.mark.parametrize("name", sorted(name for name, methods in PERMISSIONS.items() if "GET" in methods))
def test_a_get_only_reads(name, world, db, monkeypatch, tmp_path):
    """No page or API read sends a task or leaves work for after a commit, even while the standings lag."""
    from celery.app.task import Task

    from scoring.models import StandingsSnapshot

    url = site_urls()[name]
    if name == "tournaments:print_pack":
        _ready_pack(monkeypatch, tmp_path)
    StandingsSnapshot.objects.update(revision=0)  # newer games than the snapshot: a page could be tempted
    sent = []
    monkeypatch.setattr(Task, "apply_async", lambda task, *args, **kwargs: sent.append(task.name))
    monkeypatch.setattr(transaction, "on_commit", lambda func, *args, **kwargs: sent.append(func))
    for role in ("anonymous", "organiser", "superuser"):
        client = client_for(world.users[role])
        for kwargs in kwargs_for(url, world):
            request(client, "GET", reverse(url.name, kwargs=kwargs), api=name.startswith("api:"))
    assert sent == []


@pytest.mark.parametrize("name", sorted(PERMISSIONS))
def test_who_gets_in(name, world, db, monkeypatch, tmp_path):
    url = site_urls().get(name)
    if url is None:
        pytest.fail(f"{name} is in the permission table but not among the URLs")
    if name == "tournaments:print_pack":
        _ready_pack(monkeypatch, tmp_path)
    problems = []
    for kwargs in kwargs_for(url, world):
        problems += check(world, url, PERMISSIONS[name], kwargs)
        problems += check_unlisted(world, url, PERMISSIONS[name], kwargs)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("name", sorted(n for n in PERMISSIONS if n.startswith("api:")))
def test_who_gets_in_with_an_api_token(name, world, db):
    """The same table for scripts: each user's API token instead of a session opens the same and no more."""
    url = site_urls()[name]
    problems = []
    for kwargs in kwargs_for(url, world):
        problems += check(world, url, PERMISSIONS[name], kwargs, make_client=token_client_for)
        problems += check_unlisted(world, url, PERMISSIONS[name], kwargs, make_client=token_client_for)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    "name", sorted(n for n, methods in PERMISSIONS.items() if n.startswith("api:") and KEY not in methods.values())
)
def test_a_wrong_or_revoked_token_is_401(name, world, db):
    url = site_urls()[name]
    (kwargs,) = kwargs_for(url, world)[:1]
    path = reverse(name, kwargs=kwargs)
    key = api_token_create(user=world.users["organiser"])
    api_token_revoke(user=world.users["organiser"])
    for header in (f"Token {key}", "Token " + "0" * 64, "Basic b3JnYW5pc2VyLWE6cHc="):  # revoked, made up, a password
        for method in PERMISSIONS[name]:
            response = request(Client(HTTP_AUTHORIZATION=header), method, path, api=True)
            assert response.status_code == 401 if header.startswith("Token") else response.status_code in (401, 403), (
                f"{method} {path} with {header[:12]}…: {response.status_code}"
            )


# --- The private table key, another club's objects, hidden standings ----------------------------------


@pytest.mark.parametrize("name", sorted(n for n, methods in PERMISSIONS.items() if KEY in methods.values()))
def test_a_wrong_table_key_is_404_for_everyone(name, world, db):
    url = site_urls()[name]
    (kwargs,) = kwargs_for(url, world)
    param = next(p for p in ("entry_key", "player_key", "key") if p in kwargs)
    wrong = {**kwargs, param: "x" * len(kwargs[param])}
    problems = []
    path = reverse(name, kwargs=wrong)
    for role in ROLES:
        client = client_for(world.users[role])
        for method in PERMISSIONS[name]:
            response = request(client, method, path, api=name.startswith("api:"))
            if response.status_code != 404:
                problems.append(f"{method} {path} as {role}: expected 404, got {response.status_code}")
    assert not problems, "\n".join(problems)


def test_a_key_of_a_round_not_yet_published_opens_nothing(world, db):
    with transaction.atomic():
        rnd = world.table.round
        rnd.status = rnd.Status.DRAWN
        rnd.save(update_fields=["status"])
        for name in ("tournaments:entry_table", "tournaments:entry_game"):
            kwargs = {"key": world.table.entry_key, **({"number": 1} if name.endswith("game") else {})}
            assert Client().get(reverse(name, kwargs=kwargs)).status_code == 404
        transaction.set_rollback(True)


def test_club_a_cannot_reach_club_b(world, db):
    """The other way round: club A's people get nothing of club B's tournament, club or players."""
    b = world.other_tournament
    cases = [
        ("tournaments:control", {"slug": b.slug}),
        ("tournaments:desk", {"slug": b.slug}),
        ("tournaments:settings", {"slug": b.slug}),
        ("tournaments:club", {"club_id": b.club_id}),
        ("tournaments:player_edit", {"player_id": world.other_player.pk}),
        ("tournaments:prizes", {"slug": b.slug}),
        ("api:registrations", {"slug": b.slug}),
        ("api:standings", {"slug": b.slug}),
        ("api:round", {"slug": b.slug, "number": 1}),
    ]
    problems = []
    for role in ("viewer", "desk", "organiser"):
        client = client_for(world.users[role])
        for name, kwargs in cases:
            path = reverse(name, kwargs=kwargs)
            got = outcome(request(client, "GET", path, api=name.startswith("api:")))
            if got not in ("denied", "notfound"):
                problems.append(f"GET {path} as {role} of club A: got {got}")
    # ... while club B's organiser gets into all of them.
    client = client_for(world.users["other"])
    for name, kwargs in cases:
        path = reverse(name, kwargs=kwargs)
        if outcome(request(client, "GET", path, api=name.startswith("api:"))) != "in":
            problems.append(f"GET {path} as organiser of club B: not in")
    assert not problems, "\n".join(problems)


def test_hidden_standings_only_for_the_club(world, db):
    """Standings not published: anonymous and other clubs see the "not published" page (the download is
    a 403); anyone with a role in the club sees them."""
    Tournament.objects.filter(pk=world.tournament.pk).update(standings_public=False)
    slug = world.tournament.slug
    pages = [reverse("tournaments:standings", args=[slug]), reverse("tournaments:standings_projector", args=[slug])]
    downloads = [
        reverse("tournaments:standings_download", kwargs={"slug": slug, "fmt": fmt}) for fmt in ("csv", "json")
    ]
    problems = []
    for role in ROLES:
        client = client_for(world.users[role])
        sees = role in ("viewer", "desk", "organiser", "superuser")
        for path in pages:
            response = client.get(path)
            hidden = "standings/hidden.html" in [t.name for t in response.templates]
            if response.status_code != 200 or hidden == sees:
                problems.append(f"GET {path} as {role}: status {response.status_code}, hidden page {hidden}")
        for path in downloads:
            status = client.get(path).status_code
            if (status == 200) != sees or status not in (200, 403):
                problems.append(f"GET {path} as {role}: status {status}")
    assert not problems, "\n".join(problems)


def test_viewers_do_not_get_the_table_keys(world, db):
    """The entry key is a credential: the API shows it to desk helpers and organisers only."""
    path = reverse("api:round_tables", kwargs={"slug": world.tournament.slug, "number": 1})
    for role, shown in (("viewer", False), ("desk", True), ("organiser", True)):
        tables = client_for(world.users[role]).get(path).json()
        assert all(("entry_key" in t) == shown for t in tables), role


def test_a_sign_up_key_opens_its_own_pages_and_nothing_else(world, db):
    """The personal link of a sign-up (waiting list: no place yet) opens the sign-up's pages only: not a
    table, not the player's page of the evening, not the API."""
    key = world.signup.key
    opened, problems = [], []
    for name, methods in sorted(PERMISSIONS.items()):
        url = site_urls()[name]
        if KEY not in methods.values() or name == "tournaments:signup_girocode":
            continue  # the GiroCode: a waiting sign-up has nothing to pay yet (a 404; tests/tournaments/test_payments)
        (kwargs,) = kwargs_for(url, world)
        param = next(p for p in ("entry_key", "player_key", "key") if p in kwargs)
        path = reverse(name, kwargs={**kwargs, param: key})
        for method in methods:
            status = request(Client(), method, path, api=name.startswith("api:")).status_code
            if name.startswith("tournaments:signup_"):
                opened.append(name)
                if status == 404:
                    problems.append(f"{method} {path}: its own page is a 404")
            elif status != 404:
                problems.append(f"{method} {path}: a sign-up's key got {status}")
    assert not problems, "\n".join(problems)
    assert len(set(opened)) == 4


def test_club_a_cannot_reach_club_b_through_a_sign_up_match_an_archive_a_quick_add_or_a_series(world, db):
    """The cross-club cases of issue 33, as club A's desk helper and organiser: the sign-up's "same person?"
    never shows or merges club B's player; an archive of club B uploaded by club A matches none of B's
    players; a quick-add naming club B writes nothing into it; club B's private series is a 404."""
    import json

    from django.core.files.uploadedfile import SimpleUploadedFile

    from tournaments.archive import archive_build
    from tournaments.models import Registration, Series, SeriesTournament
    from tournaments.services.series import series_create

    b, b_player = world.other_tournament, world.other_player
    problems = []
    with transaction.atomic():
        Player.objects.filter(pk=b_player.pk).update(contact="0170 5550000")
        b_players = set(
            Player.objects.filter(club=b.club).values_list("pk", "first_name", "last_name", "club_id", "contact")
        )
        b_registrations = list(Registration.objects.filter(tournament=b).values())
        series = series_create(club=b.club, name="Vereinsmeisterschaft B", slug="meisterschaft-b", public=False)
        registration = world.tournament.registrations.get(start_number=2)
        SignUp.objects.filter(pk=world.signup.pk).update(  # a suggestion as the old matching stored it
            registration=registration, status=SignUp.Status.PLACE, match=b_player, match_state=SignUp.Match.PENDING
        )
        b_signup = SignUp.objects.create(
            tournament=b,
            first_name="Bea",
            last_name="Anders",
            consent_text="ok",
            consent_at=timezone.now(),
            status=SignUp.Status.WAITING,
        )
        archive = json.dumps(archive_build(b)).encode()

        def unchanged(what: str) -> None:
            now = set(
                Player.objects.filter(club=b.club).values_list("pk", "first_name", "last_name", "club_id", "contact")
            )
            if now != b_players or list(Registration.objects.filter(tournament=b).values()) != b_registrations:
                problems.append(f"{what}: club B's players or registrations changed")

        for role in ("desk", "organiser"):
            client = client_for(world.users[role])
            slug = world.tournament.slug
            cases = [
                # (what, method, path, data, statuses accepted)
                ("sign-up list", "GET", reverse("tournaments:signups", args=[slug]), None, {200}),
                (
                    "same person",
                    "POST",
                    reverse("tournaments:signup_match", args=[slug, world.signup.pk]),
                    {"same": "1"},
                    {302},
                ),
                (
                    "B's sign-up",
                    "POST",
                    reverse("tournaments:signup_match", args=[slug, b_signup.pk]),
                    {"same": "1"},
                    {404},
                ),
                (
                    "quick-add naming B",
                    "POST",
                    reverse("tournaments:desk_quick_add", args=[slug]),
                    {"first_name": "Wastl", "last_name": "Gast", "club_name": b.club.name},
                    {302},
                ),
                ("B's series", "GET", reverse("tournaments:series_manage", args=[series.slug]), None, {404}),
                (
                    "B's series, add",
                    "POST",
                    reverse("tournaments:series_manage", args=[series.slug]),
                    {"action": "add", "tournament": world.tournament.pk},
                    {404},
                ),
                (
                    "archive of B into B",
                    "POST",
                    reverse("tournaments:archive_upload"),
                    {"club": b.club_id, "file": SimpleUploadedFile("b.json", archive), "slug": "kopie"},
                    {403} if role == "desk" else {400},
                ),
                (
                    "archive of B into A",
                    "POST",
                    reverse("tournaments:archive_upload"),
                    {"club": world.tournament.club_id, "file": SimpleUploadedFile("b.json", archive), "slug": "kopie"},
                    {403} if role == "desk" else {302},
                ),
            ]
            for what, method, path, data, statuses in cases:
                with transaction.atomic():
                    response = client.get(path) if method == "GET" else client.post(path, data)
                    if response.status_code not in statuses:
                        problems.append(
                            f"{what} ({method} {path}) as {role}: {response.status_code}, expected {sorted(statuses)}"
                        )
                    if "0170 5550000" in response.content.decode("utf-8", "replace"):
                        problems.append(f"{what} as {role}: club B's player's phone is shown")
                    unchanged(f"{what} as {role}")
                    copied = Registration.objects.filter(tournament__slug="kopie")
                    if copied.filter(player__club=b.club).exists() or copied.filter(player__in=[b_player]).exists():
                        problems.append(f"{what} as {role}: the archive's copy took club B's players")
                    if Registration.objects.filter(tournament=world.tournament, player=b_player).exists():
                        problems.append(f"{what} as {role}: club B's player was tied to club A's tournament")
                    if (
                        SeriesTournament.objects.filter(series=series).exists()
                        or Series.objects.get(pk=series.pk).name != "Vereinsmeisterschaft B"
                    ):
                        problems.append(f"{what} as {role}: club B's series was changed")
                    transaction.set_rollback(True)
        transaction.set_rollback(True)
    assert not problems, "\n".join(problems)
