"""The pages a hall of phones polls (standings, player page, seat list): an unchanged poll is a 304.

A phone without a session is answered by ``UnchangedPolls`` in front of Django (gunicorn's entry,
``schafkopfrennen/wsgi.py``), in one query and without Django making a request of it; a logged-in
organiser gets the same 304 from the view. A change (a game, a seat swap) gives a 200 with a new tag.

The tests that go through the WSGI entry are transactional: like Django's own request handling, the
entry closes a connection it finds inside a transaction (what a test's rollback would be).
"""

import random
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.core.handlers.wsgi import WSGIHandler
from django.db import DatabaseError, connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext

from schafkopfrennen import polling
from schafkopfrennen.polling import UnchangedPolls
from tests.tournaments.test_links import player_url
from tournaments.models import Seat
from tournaments.selectors import links, public
from tournaments.selectors import standings as standings_selectors
from tournaments.services.hands import dealer_for, hand_record
from tournaments.services.prizes import tournament_standings_publish
from tournaments.services.rounds import round_draw, round_publish
from tournaments.services.simulation import round_simulate, tournament_simulate_setup
from tournaments.simulation import random_hand

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def field():
    tournament = tournament_simulate_setup(slug="saal", players=24, rounds=2, games=8, seed=3)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    round_simulate(rnd=rnd, seed=1)
    (rnd,) = round_draw(tournament=tournament, seed=2)
    round_publish(round=rnd)
    tournament_standings_publish(tournament=tournament, public=True)
    return tournament


class Django:
    """Django's WSGI handler behind the entry, counting what reaches it."""

    def __init__(self) -> None:
        self.handler, self.calls = WSGIHandler(), 0

    def __call__(self, environ, start_response):
        self.calls += 1
        return self.handler(environ, start_response)


@pytest.fixture
def django_app():
    return Django()


@pytest.fixture
def entry(django_app):
    return UnchangedPolls(django_app)


def get(app, url: str, cookies: str = "", **headers) -> tuple[int, dict[str, str], bytes]:
    """A GET through a WSGI application: (status, headers, body)."""
    environ = RequestFactory().get(url, **headers).environ
    if cookies:
        environ["HTTP_COOKIE"] = cookies
    started = []
    body = b"".join(
        app(environ, lambda status, response_headers, exc_info=None: started.append((status, response_headers)))
    )
    status, response_headers = started[0]
    return int(status.split()[0]), dict(response_headers), body


PAGES = {
    "standings": ("/t/saal/rangliste/?ich=3", {}),
    "standings_hx": ("/t/saal/rangliste/", {"HTTP_HX_REQUEST": "true"}),
    "player": (None, {}),
    "seatlist": ("/t/saal/sitzplan/", {}),
    "seatlist_tables": ("/t/saal/sitzplan/tische/?refresh=60", {}),
}


@pytest.mark.parametrize("page", list(PAGES))
def test_an_unchanged_poll_is_a_304_in_one_query_before_django(field, entry, django_app, page):
    url, headers = PAGES[page]
    url = url or player_url(field.registrations.order_by("start_number").first())
    status, first, _ = get(entry, url, HTTP_ACCEPT_ENCODING="gzip", **headers)
    assert status == 200 and first["ETag"] and "no-cache" in first["Cache-Control"] and django_app.calls == 1
    with CaptureQueriesContext(connection) as queries:
        status, again, body = get(entry, url, HTTP_IF_NONE_MATCH=first["ETag"], HTTP_ACCEPT_ENCODING="gzip", **headers)
    assert status == 304 and not body and django_app.calls == 1  # Django never saw it
    assert again["ETag"] == first["ETag"].removeprefix("W/")
    assert "no-cache" in again["Cache-Control"] and "Accept-Language" in again["Vary"]
    assert len(queries) == 1
    hits = polling._polled.cache_info().hits
    assert get(entry, url, HTTP_IF_NONE_MATCH=first["ETag"], **headers)[0] == 304
    assert (
        polling._polled.cache_info().hits == hits + 1
    )  # the path is matched against the URL patterns once per process


def test_the_entrys_304_and_the_views_304_agree(field, entry, django_app, client):
    """The tag the entry computes is the view's: a client that is logged in goes the long way."""
    url = "/t/saal/rangliste/"
    tag = client.get(url)["ETag"]  # the view's own tag, through Django's test client
    assert get(entry, url, HTTP_IF_NONE_MATCH=tag)[0] == 304 and django_app.calls == 0
    assert get(entry, url, HTTP_IF_NONE_MATCH=tag, HTTP_ACCEPT_LANGUAGE="en")[0] == 200  # another language
    assert get(entry, url, cookies="django_language=en", HTTP_IF_NONE_MATCH=tag)[0] == 200
    assert get(entry, url + "?q=a", HTTP_IF_NONE_MATCH=tag)[0] == 200  # another query
    assert django_app.calls == 3
    assert get(entry, url, cookies="sessionid=not-a-session", HTTP_IF_NONE_MATCH=tag)[0] == 304  # by the view
    assert django_app.calls == 4
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    user = get_user_model().objects.create_user("orga", password="x" * 12)
    client.force_login(user)
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 200  # another viewer, another tag


def test_a_message_waiting_or_https_required_goes_to_django(field, entry, django_app, settings):
    url = "/t/saal/sitzplan/"
    tag = get(entry, url)[1]["ETag"]
    assert get(entry, url, cookies="messages=x", HTTP_IF_NONE_MATCH=tag)[0] == 304 and django_app.calls == 2
    settings.SECURE_SSL_REDIRECT, settings.SECURE_PROXY_SSL_HEADER = True, ("HTTP_X_FORWARDED_PROTO", "https")
    django_app = Django()  # its SecurityMiddleware reads the setting when it is made
    entry = UnchangedPolls(django_app)
    assert get(entry, url, HTTP_IF_NONE_MATCH=tag)[0] == 301 and django_app.calls == 1  # Django sends it to HTTPS
    assert get(entry, url, HTTP_IF_NONE_MATCH=tag, HTTP_X_FORWARDED_PROTO="https")[0] == 304
    assert django_app.calls == 1


def test_the_view_reuses_the_entrys_read(field, entry, django_app):
    """A changed page: the state the entry read is the one the view's tag and page come from (read once)."""
    state_sql = standings_selectors._state_sql(connection.vendor)
    with CaptureQueriesContext(connection) as queries:
        status, headers, _ = get(entry, "/t/saal/rangliste/", HTTP_IF_NONE_MATCH='"old"')
    assert status == 200 and django_app.calls == 1
    assert sum(1 for q in queries if q["sql"].startswith(state_sql[:60])) == 1


def test_a_failing_database_leaves_the_poll_to_django(field, entry, django_app, monkeypatch):
    url = "/t/saal/sitzplan/"
    tag = get(entry, url)[1]["ETag"]

    def failing(*args, **kwargs):
        raise DatabaseError("the server went away")

    monkeypatch.setattr(polling, "_polled", lambda path, urlconf: (failing, (), {"slug": "saal"}))
    assert get(entry, url, HTTP_IF_NONE_MATCH=tag)[0] == 304 and django_app.calls == 2  # the view's own 304


def test_a_query_django_refuses_is_refused_as_django_would(field, entry, django_app):
    url = "/t/saal/sitzplan/"
    tag = get(entry, url)[1]["ETag"]
    status, _headers, body = get(entry, url + "?" + "&".join(f"f{i}=1" for i in range(1100)), HTTP_IF_NONE_MATCH=tag)
    assert status == 400 and django_app.calls == 2  # too many fields: Django's answer, not a crash in front of it


def _game(table):
    number = table.hands.count() + 1
    record = random_hand(
        random.Random(number), table_size=table.size, dealer=dealer_for(number, 0, table.size), tout_allowed=False
    )
    hand_record(table=table, record=record, client_id=uuid.uuid4())


def test_a_game_changes_the_standings_and_player_page_and_a_swap_the_seat_list(field, entry):
    registration = field.registrations.order_by("start_number").first()
    urls = ["/t/saal/rangliste/", player_url(registration), "/t/saal/sitzplan/"]
    tags = {url: get(entry, url)[1]["ETag"] for url in urls}
    seat = Seat.objects.filter(registration=registration).select_related("table").order_by("-round__number").first()
    _game(seat.table)
    assert get(entry, urls[0], HTTP_IF_NONE_MATCH=tags[urls[0]])[0] == 200
    assert get(entry, urls[1], HTTP_IF_NONE_MATCH=tags[urls[1]])[0] == 200
    assert get(entry, urls[2], HTTP_IF_NONE_MATCH=tags[urls[2]])[0] == 304  # the seats did not change
    seats = Seat.objects.filter(table=seat.table)  # the players on seats 1 and 2 change places
    seats.filter(number=1).update(number=5)
    seats.filter(number=2).update(number=1)
    seats.filter(number=5).update(number=2)
    assert get(entry, urls[2], HTTP_IF_NONE_MATCH=tags[urls[2]])[0] == 200


def test_no_public_round_no_tag(field, entry):
    field.rounds.update(status="drawn")
    status, headers, _ = get(entry, "/t/saal/sitzplan/", HTTP_IF_NONE_MATCH='"x"')
    assert status == 404 and "ETag" not in headers


def test_the_states_are_the_selectors():
    """The views poll the selectors' own tokens: one read, one home (the entry calls them with the URL's arguments)."""
    from tournaments.views import links as link_views
    from tournaments.views import seatlist, standings

    assert standings.standings.polled_state is standings_selectors.standings_state
    assert link_views.player.polled_state is links.player_page_state
    assert seatlist.seatlist.polled_state is seatlist.seatlist_tables.polled_state is public.seat_list_state


SECURITY_HEADERS = (
    "Content-Security-Policy",
    "X-Content-Type-Options",
    "Referrer-Policy",
    "X-Frame-Options",
    "Cross-Origin-Opener-Policy",
    "Strict-Transport-Security",
)


@pytest.mark.parametrize("secure", [False, True])
def test_the_entrys_304_carries_djangos_security_headers(field, settings, secure):
    """Issue 33.11a: the 304 answered before Django has every security header Django's answers have."""
    settings.SECURE_HSTS_SECONDS, settings.SECURE_PROXY_SSL_HEADER = 3600, ("HTTP_X_FORWARDED_PROTO", "https")
    django_app = Django()  # its middleware read the settings when they are made, as the entry's
    entry = UnchangedPolls(django_app)
    https = {"HTTP_X_FORWARDED_PROTO": "https"} if secure else {}
    url = "/t/saal/sitzplan/"
    status, page, _ = get(entry, url, **https)
    status, again, _ = get(entry, url, HTTP_IF_NONE_MATCH=page["ETag"], **https)
    assert status == 304 and django_app.calls == 1
    expected = {name: page[name] for name in SECURITY_HEADERS if name in page}
    assert {"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy"} <= set(expected)
    assert ("Strict-Transport-Security" in expected) is secure
    policy = {
        name: set(again.get(name, "").split("; ")) if name == "Content-Security-Policy" else again.get(name)
        for name in expected
    }
    assert policy == {**expected, "Content-Security-Policy": set(expected["Content-Security-Policy"].split("; "))}


def test_a_304_to_a_host_not_allowed_is_djangos_400(field, entry, django_app, settings):
    """Issue 33.11a: ALLOWED_HOSTS holds before Django too: a poll naming another host is refused (400)."""
    settings.ALLOWED_HOSTS = ["rennen.example.org"]
    url = "/t/saal/sitzplan/"
    status, page, _ = get(entry, url, HTTP_HOST="rennen.example.org")
    assert status == 200
    assert get(entry, url, HTTP_HOST="rennen.example.org", HTTP_IF_NONE_MATCH=page["ETag"])[0] == 304
    assert get(entry, url, HTTP_HOST="evil.example.com", HTTP_IF_NONE_MATCH=page["ETag"])[0] == 400
    assert get(entry, url, HTTP_HOST="evil.example.com", HTTP_IF_NONE_MATCH=page["ETag"])[0] == 400  # kept, still 400
