"""Login throttling (django-axes), API tokens instead of passwords, the table API's rate limit, and the
password reset that is offered only with e-mail."""

import io
import re
import uuid
from contextlib import contextmanager

import pytest
import yaml
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from knox.models import AuthToken
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from tests.api.conftest import entry, make_tournament, member, publish_first_round
from tests.factories import ClubFactory
from tournaments.models import ClubMembership, Tournament
from tournaments.services.account import api_token_create

pytestmark = pytest.mark.django_db
NEW_KEY = re.compile(r'data-testid="new-token">([^<]+)<')


@pytest.fixture
def orga():
    club = ClubFactory(name="SK Musterdorf")
    user = member(club, ClubMembership.Role.ORGANISER, "orga")
    user.set_password("richtig-geheim-1")
    user.email = "orga@example.org"
    user.save()
    return user


def login(client, username, password, **extra):
    return client.post("/accounts/login/", {"username": username, "password": password, "next": "/o/"}, **extra)


# --- Login throttling --------------------------------------------------------------------------------


def test_five_wrong_passwords_lock_the_account_at_this_address(orga, settings):
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert login(client, "orga", "falsch").status_code == 200  # the form again, with its error
    locked = login(client, "orga", "falsch")
    assert locked.status_code == 429
    html = locked.content.decode()
    assert 'data-testid="locked-out"' in html and "15 Minuten gesperrt" in html
    # Locked means locked: the right password does not get in either, until the lock has passed.
    assert login(client, "orga", "richtig-geheim-1").status_code == 429
    assert "_auth_user_id" not in client.session


def test_the_lock_is_per_account_and_address(orga, settings):
    other = get_user_model().objects.create_user("kasse", password="kasse-geheim-1")
    hall = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(hall, "orga", "falsch")
    assert login(hall, "orga", "richtig-geheim-1").status_code == 429
    # Another helper in the same hall (same address) logs in; so does orga from another address.
    assert login(Client(), "kasse", "kasse-geheim-1").status_code == 302
    assert other.pk
    assert login(Client(REMOTE_ADDR="10.0.0.7"), "orga", "richtig-geheim-1").status_code == 302


def test_a_good_login_resets_the_count(orga, settings):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        login(client, "orga", "falsch")
    assert login(client, "orga", "richtig-geheim-1").status_code == 302
    client.logout()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        login(client, "orga", "falsch")
    assert login(client, "orga", "richtig-geheim-1").status_code == 302


def test_the_admin_login_is_throttled_too(orga, settings):
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post("/admin/login/", {"username": "orga", "password": "falsch"})
    assert login(client, "orga", "richtig-geheim-1").status_code == 429


def test_the_test_clients_login_still_works(orga):
    assert Client().login(username="orga", password="richtig-geheim-1")
    assert not Client().login(username="orga", password="falsch")


# --- API tokens --------------------------------------------------------------------------------------


def test_a_token_is_made_shown_once_replaced_and_revoked_on_the_account_page(orga):
    tournament = make_tournament(orga.club_memberships.get().club, slug="fruehjahr")
    url = f"/api/tournaments/{tournament.slug}/registrations/"
    client = Client()
    client.force_login(orga)
    page = client.get("/o/zugang/").content.decode()
    assert 'data-testid="token-create"' in page and "SK Musterdorf" in page

    client.post("/o/zugang/token/")
    shown = client.get("/o/zugang/").content.decode()
    key = NEW_KEY.search(shown).group(1)
    assert key not in client.get("/o/zugang/").content.decode()  # only once
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get(url).status_code == 200

    client.post("/o/zugang/token/")  # replace: the old key stops working
    assert api.get(url).status_code == 401
    new = APIClient()
    new.credentials(HTTP_AUTHORIZATION=f"Token {NEW_KEY.search(client.get('/o/zugang/').content.decode()).group(1)}")
    assert new.get(url).status_code == 200

    client.post("/o/zugang/token/widerrufen/")
    assert not AuthToken.objects.filter(user=orga).exists()
    assert new.get(url).status_code == 401


def test_a_token_opens_only_its_users_clubs(orga):
    tournament = make_tournament(ClubFactory(name="SC Anderswo"), slug="anderswo")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {api_token_create(user=orga)}")
    assert api.get(f"/api/tournaments/{tournament.slug}/registrations/").status_code == 404


def test_the_account_pages_need_a_login_and_a_post():
    assert Client().get("/o/zugang/").status_code == 302
    assert Client().post("/o/zugang/token/").status_code == 302
    user = get_user_model().objects.create_user("x", password="pw-x-123456")
    client = Client()
    client.force_login(user)
    assert client.get("/o/zugang/token/").status_code == 405


def test_the_schema_documents_token_authentication(client):
    schema = yaml.safe_load(client.get("/api/schema/").content)
    schemes = schema["components"]["securitySchemes"]
    assert schemes["tokenAuth"]["type"] == "apiKey" and schemes["tokenAuth"]["name"] == "Authorization"
    assert "basicAuth" not in schemes
    get = schema["paths"]["/api/tournaments/{slug}/registrations/"]["get"]
    assert {"tokenAuth": []} in get["security"]


# --- The table API's rate limit ----------------------------------------------------------------------


@contextmanager
def two_tables_at_rate(settings, **rates: str):
    """The first round's two tables, with the rates of the scopes named (``table_read="5/min"``) set
    (restored afterwards); the others as configured."""
    from rest_framework.throttling import SimpleRateThrottle

    cache.clear()
    tournament = make_tournament(ClubFactory(), players=8)
    first, second = publish_first_round(tournament).tables.order_by("number")
    SimpleRateThrottle.THROTTLE_RATES = {**SimpleRateThrottle.THROTTLE_RATES, **rates}
    try:
        yield first, second
    finally:
        SimpleRateThrottle.THROTTLE_RATES = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
        cache.clear()


def test_a_table_key_is_rate_limited_per_key(settings):
    with two_tables_at_rate(settings, table_read="5/min") as (first, second):
        api = APIClient()
        answers = [api.get(f"/api/tisch/{first.entry_key}/").status_code for _ in range(6)]
        assert answers == [200] * 5 + [429]
        throttled = api.get(f"/api/tisch/{first.entry_key}/")
        assert int(throttled["Retry-After"]) > 0 and list(throttled.json()) == ["detail"]
        # The next table (same address, same hall) is not held up by the first.
        assert api.get(f"/api/tisch/{second.entry_key}/").status_code == 200


def test_the_rate_limit_lets_the_table_play_when_the_cache_is_down():
    from django.core.cache.backends.redis import RedisCache
    from rest_framework import throttling

    old = throttling.SimpleRateThrottle.cache
    throttling.SimpleRateThrottle.cache = RedisCache("redis://127.0.0.1:1/0", {})  # nothing listens there
    try:
        tournament = make_tournament(ClubFactory(), players=8)
        table = publish_first_round(tournament).tables.first()
        assert APIClient().get(f"/api/tisch/{table.entry_key}/").status_code == 200
    finally:
        throttling.SimpleRateThrottle.cache = old


def test_the_default_rates_are_generous():
    from rest_framework.settings import api_settings

    count, period = api_settings.DEFAULT_THROTTLE_RATES["table_read"].split("/")
    assert period.startswith("m") and int(count) >= 120  # two phones polling every 3 s use 40 a minute
    count, period = api_settings.DEFAULT_THROTTLE_RATES["table_write"].split("/")
    assert period.startswith("m") and int(count) >= 60  # a game takes a minute or more


def test_no_amount_of_reading_refuses_a_tables_save(settings):
    """Issue 33: 300 reads a minute (two devices polling, a player reloading) put the saves into 429."""
    with two_tables_at_rate(settings) as (table, _second):  # the configured rates
        api, page = APIClient(), Client()
        reads, _period = SimpleRateThrottle.THROTTLE_RATES["table_read"].split("/")
        sheet = f"/api/tisch/{table.entry_key}/"
        answers = {api.get(sheet).status_code for _ in range(int(reads))}
        assert answers == {200} and api.get(sheet).status_code == 429  # the reads' budget is spent
        saved = api.post(f"{sheet}hands/", entry(1), format="json")
        assert saved.status_code == 201, saved.content
        assert api.patch(f"{sheet}hands/1/", {"augen": 80}, format="json").status_code == 200
        assert api.post(f"{sheet}confirm/", {"seat": 1}, format="json").status_code != 429
        # The page's form (a write of the same key's budget) saves too.
        form = page.post(
            f"/tisch/{table.entry_key}/spiel/",
            {
                "number": "2",
                "client_id": str(uuid.uuid4()),
                "contract": "rufspiel",
                "called": "eichel",
                "declarer": "1",
                "partner": "3",
                "augen": "72",
                "laufende": "0",
            },
            HTTP_ACCEPT="application/json",
        )
        assert form.status_code == 200 and form.json()["ok"] is True
        assert table.hands.count() == 2


def test_wrong_keys_are_limited_per_address_and_a_right_key_still_works(settings):
    with two_tables_at_rate(settings) as (table, _second):
        api, page = APIClient(), Client()
        wrong, _period = SimpleRateThrottle.THROTTLE_RATES["wrong_key"].split("/")
        places = ["/api/tisch/", "/tisch/", "/tk/", "/s/"]  # the API and every page with a key
        answers = [(api if n % 4 == 0 else page).get(f"{places[n % 4]}falsch{n}/") for n in range(int(wrong))]
        assert {a.status_code for a in answers} == {404}
        # The next wrong key from this address waits, on the API and on the pages alike ...
        throttled = api.get("/api/tisch/nochmal/")
        assert throttled.status_code == 429 and int(throttled["Retry-After"]) > 0
        assert api.post("/api/tisch/nochmal/hands/", entry(1), format="json").status_code == 429
        assert page.get("/tisch/nochmal/").status_code == 429
        assert "unbekannte Links" in page.get("/tk/nochmal/").content.decode()  # German first
        assert page.get("/s/nochmal/").status_code == 429
        assert api.get("/api/s/nochmal/").status_code == 429  # a player's key alike
        # ... while a right key from the same address (the whole hall's) reads and saves as before,
        assert api.get(f"/api/tisch/{table.entry_key}/").status_code == 200
        assert page.get(f"/tisch/{table.entry_key}/").status_code == 200
        assert api.post(f"/api/tisch/{table.entry_key}/hands/", entry(1), format="json").status_code == 201
        # and a wrong key from another address is a plain 404.
        assert APIClient(REMOTE_ADDR="10.0.0.9").get("/api/tisch/nochmal/").status_code == 404


# --- Password reset only with e-mail ----------------------------------------------------------------


def test_without_email_the_login_page_says_whom_to_ask(settings):
    settings.PASSWORD_RESET_BY_EMAIL = False
    settings.ACCOUNT_HELP = "Sepp Huber, Tel. 0171 1234567"
    page = Client(HTTP_ACCEPT_LANGUAGE="de").get("/accounts/login/").content.decode()
    assert "/accounts/password_reset/" not in page
    assert "Sepp Huber, Tel. 0171 1234567" in page and "Passwort vergessen?" in page
    assert Client().get("/accounts/password_reset/").status_code == 404


def test_with_email_a_reset_link_is_mailed_and_works(orga, settings):
    settings.PASSWORD_RESET_BY_EMAIL = True
    client = Client()
    assert "/accounts/password_reset/" in client.get("/accounts/login/").content.decode()
    assert client.post("/accounts/password_reset/", {"email": "orga@example.org"}).status_code == 302
    assert len(mail.outbox) == 1
    link = next(line for line in mail.outbox[0].body.splitlines() if "/accounts/reset/" in line).strip()
    path = link[link.index("/accounts/reset/") :]
    form = client.get(path, follow=True)
    assert form.status_code == 200
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": "ganz-neu-geheim-7", "new_password2": "ganz-neu-geheim-7"}
    )
    assert done.status_code == 302
    assert login(Client(), "orga", "ganz-neu-geheim-7").status_code == 302


def test_behind_a_proxy_the_lock_sees_the_clients_address(orga, settings):
    settings.PROXY_COUNT = 1  # DJANGO_PROXY_COUNT=1: nginx appends the address it saw to X-Forwarded-For
    # The guesser writes a made-up address into the header himself; our proxy appends his real one.
    guesser = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.1, 203.0.113.9")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(guesser, "orga", "falsch")
    assert login(guesser, "orga", "richtig-geheim-1").status_code == 429
    changed_story = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.77, 203.0.113.9")
    assert login(changed_story, "orga", "richtig-geheim-1").status_code == 429
    # The organiser at the venue comes through the same proxy (same REMOTE_ADDR) from another address.
    venue = Client(REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="198.51.100.4")
    assert login(venue, "orga", "richtig-geheim-1").status_code == 302


def test_the_tablet_pages_posts_are_rate_limited_per_key_but_not_their_reads_or_previews(settings):
    with two_tables_at_rate(settings, table_write="3/min") as (first, second):
        client = Client()
        confirm = f"/tisch/{first.entry_key}/bestaetigen/"
        answers = [client.post(confirm, {"seat": "9"}).status_code for _ in range(4)]
        assert answers[:3] != [429] * 3 and answers[3] == 429
        throttled = client.post(f"/tisch/{first.entry_key}/spiel/", {}, HTTP_ACCEPT="application/json")
        assert throttled.status_code == 429 and int(throttled["Retry-After"]) > 0
        assert "Tisch" in throttled.json()["detail"]  # German first
        # Reading the page and asking for the preview still work; the next table is not held up.
        assert client.get(f"/tisch/{first.entry_key}/").status_code == 200
        assert client.post(f"/tisch/{first.entry_key}/vorschau/", {}).status_code != 429
        assert client.post(f"/tisch/{second.entry_key}/bestaetigen/", {"seat": "9"}).status_code != 429


def test_a_token_is_stored_only_as_a_digest(orga):
    """Issue 33.11b: the database holds no usable key (django-rest-knox keeps a SHA-512 digest)."""
    key = api_token_create(user=orga)
    (stored,) = AuthToken.objects.filter(user=orga).values()
    assert key not in str(stored) and stored["digest"] != key and len(key) >= 64
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")  # the documented header, as before
    assert api.get(_registrations(orga)).status_code == 200


@pytest.mark.parametrize("how", ["set_password", "password_change_page", "changepassword"])
def test_a_password_change_revokes_the_token(orga, how, monkeypatch):
    """Issue 33.11b: a token made with the old password stops working when the password changes."""
    key = api_token_create(user=orga)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get(_registrations(orga)).status_code == 200
    new = "ein-ganz-neues-Passwort-42"
    if how == "set_password":
        orga.set_password(new)
        orga.save()
    elif how == "password_change_page":
        client = Client()
        client.force_login(orga)
        response = client.post(
            reverse("password_change"), {"old_password": "richtig-geheim-1", "new_password1": new, "new_password2": new}
        )
        assert response.status_code == 302
    else:
        monkeypatch.setattr("getpass.getpass", lambda prompt="": new)
        call_command("changepassword", orga.get_username(), stdout=io.StringIO())
    response = api.get(_registrations(orga))
    assert response.status_code == 401 and response["WWW-Authenticate"] == "Token"
    assert not AuthToken.objects.filter(user=orga).exists()


def _registrations(orga) -> str:
    """An organiser API's URL of the organiser's club."""
    if not Tournament.objects.filter(slug="token-probe").exists():
        make_tournament(orga.club_memberships.get().club, slug="token-probe")
    return "/api/tournaments/token-probe/registrations/"
