"""Acceptance (issue 33): under production's settings (DEBUG off, the manifest storage's hashed static files,
gunicorn's WSGI entry; tests/browser/conftest.py) a phone installs the table page's service worker, loses
the network, reloads the table page, enters a game, and the game is stored once the network is back.

With DEBUG off the service worker used to answer 500 (``static("")`` has no manifest entry): it never
installed, and a reload without network showed the browser's offline page instead of the table.
"""

import re

import pytest
from django.conf import settings

from scoring.rules import ruleset_from_dict
from tests.browser.conftest import go_offline, go_online
from tests.browser.test_entry import NAMES, expect, round_games, tap_game
from tests.browser.test_entry_phone import new_page, queue_numbers, wait_offline_ready, wait_until
from tests.tournaments.test_services_hands import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HASHED = re.compile(r"/static/.+\.[0-9a-f]{12}\.(?:css|js|png)$")
# The files the page loads, by their URLs in the page.
PAGE_FILES = (
    "[...document.querySelectorAll('link[rel=stylesheet], script[src], link[rel=icon], link[rel=apple-touch-icon]')]"
    ".map(e => new URL(e.href || e.src).pathname)"
)
# The URLs the service worker's install put into its cache of static files.
PRECACHED = """caches.keys().then(ks => ks.find(k => k.startsWith('skr-table-assets-')))
                 .then(k => k ? caches.open(k).then(c => c.keys()) : [])
                 .then(rs => rs.map(r => new URL(r.url).pathname))"""


@pytest.fixture
def phone(browser, live_server):
    page = new_page(browser, live_server)
    yield page
    page.context.close()


def test_the_table_page_reloads_offline_and_takes_a_game_under_production_settings(phone, screenshot):
    assert not settings.DEBUG and "Manifest" in settings.STORAGES["staticfiles"]["BACKEND"]
    table = make_table(size=4, names=NAMES[:4])
    first = round_games(5, 1, 4, ruleset_from_dict(None))[0]
    sw = phone.request.get(f"{phone.base_url}/tisch/sw.js")
    assert sw.status == 200, sw.text()

    phone.goto(f"{phone.base_url}/tisch/{table.entry_key}/")
    files = phone.evaluate(PAGE_FILES)
    assert files and all(HASHED.search(path) for path in files), files
    wait_offline_ready(phone)
    wait_until(phone, f"({PRECACHED}).then(cached => {files!r}.every(f => cached.includes(f)))")

    go_offline(phone)
    phone.reload()  # the service worker opens the page and its files from the device
    expect(phone.get_by_test_id("table-title")).to_contain_text("Tisch 1")
    # app.css and entry.css came from the cache, with their rules
    assert phone.evaluate("[...document.styleSheets].filter(s => s.cssRules.length > 0).length") >= 2
    expect(phone.locator("#game-form")).to_have_attribute("data-number", "1")
    tap_game(phone, first)
    phone.get_by_test_id("save").click()
    expect(phone.get_by_test_id("unsent-1")).to_be_visible()
    assert queue_numbers(phone, table.entry_key) == [1]
    assert table.hands.count() == 0
    screenshot(phone, "production-offline-reloaded-game-queued")

    go_online(phone)
    expect(phone.get_by_test_id("game-1")).to_be_visible(timeout=20_000)
    expect(phone.locator("[data-queued]")).to_have_count(0)
    assert queue_numbers(phone, table.entry_key) == []
    (hand,) = table.hands.all()
    assert (hand.number, hand.contract) == (1, first["contract"])
