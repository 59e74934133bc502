"""The browser tests' OfflineGate (conftest.py): a write from a context taken offline never reaches the app."""

import pytest

from tests.browser.conftest import OFFLINE_COOKIE, OfflineGate
from tests.browser.test_entry import NAMES, expect, tap_game
from tests.tournaments.test_services_hands import make_table


def call(gate, method: str, cookie: str = "") -> str:
    answers = []
    body = gate(
        {"REQUEST_METHOD": method, "PATH_INFO": "/tisch/k/spiel/", "HTTP_COOKIE": cookie},
        lambda status, headers: answers.append(status),
    )
    return f"{answers[0]} {b''.join(body).decode()}"


def test_a_write_from_an_offline_context_is_answered_503_and_reads_and_other_contexts_pass():
    reached = []

    def app(environ, start_response):
        reached.append(environ["REQUEST_METHOD"])
        start_response("200 OK", [])
        return [b"stored"]

    gate = OfflineGate(app)
    offline = f"csrftoken=x; {OFFLINE_COOKIE}=1"
    assert call(gate, "POST", offline) == "503 Service Unavailable offline (test)"
    assert call(gate, "DELETE", offline).startswith("503")
    assert reached == [] and gate.refused == ["/tisch/k/spiel/"] * 2
    assert call(gate, "GET", offline) == "200 OK stored"  # reads are the context's offline mode's business
    assert call(gate, "POST", "csrftoken=x") == "200 OK stored"  # another device at the table is online
    assert call(gate, "POST", f"{OFFLINE_COOKIE}=0") == "200 OK stored"
    assert reached == ["GET", "POST", "POST"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_in_the_browser_the_gate_alone_keeps_a_game_on_the_device(page, live_server):
    """Only the cookie, no offline mode, no route: the table page's write meets the gate, and the page keeps the
    game as it does when the network is down; without the cookie it is sent."""
    table = make_table(names=NAMES[:4])
    page.goto(f"{page.base_url}/tisch/{table.entry_key}/")
    page.context.add_cookies([{"name": OFFLINE_COOKIE, "value": "1", "url": page.base_url}])
    tap_game(page, {"contract": "wenz", "declarer": 2, "augen": 80})
    page.get_by_test_id("save").click()
    expect(page.get_by_test_id("unsent-1")).to_be_visible()
    assert not table.hands.exists()
    assert f"/tisch/{table.entry_key}/spiel/" in live_server.thread.httpd.get_app().refused
    page.context.clear_cookies(name=OFFLINE_COOKIE)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.get_by_test_id("game-1")).to_be_visible()
    assert table.hands.count() == 1
