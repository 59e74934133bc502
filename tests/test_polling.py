"""The pages a hall of phones polls (standings, player page, seat list): an unchanged poll is a 304.

A phone without a session is answered by ``EarlyNotModifiedMiddleware`` before the rest of the
middleware, in one query and without the view; a logged-in organiser gets the same 304 from the view.
A change (a game, a seat swap) gives a 200 with a new tag.
"""
import random
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.middleware.csrf import CsrfViewMiddleware
from django.test.utils import CaptureQueriesContext

from tournaments.views import standings as standings_views
from tests.tournaments.test_links import player_url
from tournaments.models import Seat
from tournaments.services.hands import dealer_for, hand_record
from tournaments.services.prizes import tournament_standings_publish
from tournaments.services.rounds import round_draw, round_publish
from tournaments.services.simulation import round_simulate, tournament_simulate_setup
from tournaments.simulation import random_hand
from tournaments.views import seatlist as seatlist_views

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        tournament = tournament_simulate_setup(slug="saal", players=24, rounds=2, games=8, seed=3)
        (rnd,) = round_draw(tournament=tournament, seed=1)
        round_simulate(rnd=rnd, seed=1)
        (rnd,) = round_draw(tournament=tournament, seed=2)
        round_publish(round=rnd)
    tournament_standings_publish(tournament=tournament, public=True)
    return tournament


def _no_view(monkeypatch):
    """Rendering, or reaching the middleware behind the early 304 (CSRF), fails the test."""
    def boom(*args, **kwargs):
        raise AssertionError("rendered")

    monkeypatch.setattr(CsrfViewMiddleware, "process_view", boom)

    for module in (standings_views, seatlist_views):
        monkeypatch.setattr(module, "render", boom)
    monkeypatch.setattr(standings_views, "render_to_string", boom)


def _game(table):
    number = table.hands.count() + 1
    record = random_hand(random.Random(number), table_size=table.size, dealer=dealer_for(number, 0, table.size),
                         tout_allowed=False)
    hand_record(table=table, record=record, client_id=uuid.uuid4())


@pytest.mark.parametrize("page", ["standings", "standings_hx", "player", "seatlist", "seatlist_tables"])
def test_an_unchanged_poll_is_a_304_in_one_query_before_the_middleware(client, field, monkeypatch, page):
    registration = field.registrations.order_by("start_number").first()
    url, headers = {
        "standings": ("/t/saal/rangliste/?ich=3", {}),
        "standings_hx": ("/t/saal/rangliste/", {"HTTP_HX_REQUEST": "true"}),
        "player": (player_url(registration), {}),
        "seatlist": ("/t/saal/sitzplan/", {}),
        "seatlist_tables": ("/t/saal/sitzplan/tische/?refresh=60", {}),
    }[page]
    first = client.get(url, HTTP_ACCEPT_ENCODING="gzip", **headers)
    assert first.status_code == 200 and first["ETag"] and "no-cache" in first["Cache-Control"]
    _no_view(monkeypatch)
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], HTTP_ACCEPT_ENCODING="gzip", **headers)
    assert again.status_code == 304 and not again.content
    assert again["ETag"].removeprefix("W/") == first["ETag"].removeprefix("W/")
    assert "no-cache" in again["Cache-Control"] and "Accept-Language" in again["Vary"]
    assert len(queries) <= (2 if page == "player" else 1)
    from schafkopfrennen.polling import _polled

    hits = _polled.cache_info().hits
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], HTTP_ACCEPT_ENCODING="gzip", **headers).status_code == 304
    assert _polled.cache_info().hits == hits + 1  # the path is matched against the URL patterns once per process


def test_the_early_304_and_the_views_304_agree(client, field):
    """The tag the middleware computes is the view's: a client that is logged in goes the long way."""
    url = "/t/saal/rangliste/"
    tag = client.get(url)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH=tag, HTTP_ACCEPT_LANGUAGE="en").status_code == 200
    client.cookies["sessionid"] = "not-a-session"  # an unknown session: anonymous, answered by the view
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    user = get_user_model().objects.create_user("orga", password="x" * 12)
    client.force_login(user)
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 200  # another viewer, another tag


def test_a_game_changes_the_standings_and_player_page_and_a_swap_the_seat_list(client, field):
    registration = field.registrations.order_by("start_number").first()
    urls = ["/t/saal/rangliste/", player_url(registration), "/t/saal/sitzplan/"]
    tags = {url: client.get(url)["ETag"] for url in urls}
    seat = Seat.objects.filter(registration=registration).select_related("table").order_by("-round__number").first()
    _game(seat.table)
    assert client.get(urls[0], HTTP_IF_NONE_MATCH=tags[urls[0]]).status_code == 200
    assert client.get(urls[1], HTTP_IF_NONE_MATCH=tags[urls[1]]).status_code == 200
    assert client.get(urls[2], HTTP_IF_NONE_MATCH=tags[urls[2]]).status_code == 304  # the seats did not change
    seats = Seat.objects.filter(table=seat.table)  # the players on seats 1 and 2 change places
    seats.filter(number=1).update(number=5)
    seats.filter(number=2).update(number=1)
    seats.filter(number=5).update(number=2)
    assert client.get(urls[2], HTTP_IF_NONE_MATCH=tags[urls[2]]).status_code == 200


def test_no_public_round_no_tag(client, field):
    field.rounds.update(status="drawn")
    page = client.get("/t/saal/sitzplan/")
    assert page.status_code == 404 and "ETag" not in page
