"""The table page on players' phones (360 x 640, touch), in headless Chromium: offline first, two devices
at one table, a whole round at a table of five, an app on the table.

Screenshots go to test-artifacts/phone-*.png (360 px) and tablet-*.png (800 x 1280).
"""

import time
import uuid

import pytest

from scoring.rules import ruleset_from_dict, score_hand
from tests.browser.conftest import TABLET_PORTRAIT, broken_words, go_offline, go_online
from tests.browser.test_entry import NAMES, expect, expected_totals, page_totals, round_games, tap_game
from tests.tournaments.test_services_hands import make_table
from tournaments.models import HandRevision
from tournaments.services.hands import dealer_for, hand_delete, hand_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 640}
LAPTOP = {"width": 1366, "height": 768}  # the desk's laptop


def new_page(browser, live_server, viewport=PHONE):
    context = browser.new_context(viewport=viewport, locale="de-DE", has_touch=True, is_mobile=viewport == PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.base_url = live_server.url
    return page


@pytest.fixture
def phone(browser, live_server):
    page = new_page(browser, live_server)
    yield page
    page.context.close()


def no_sideways_scroll(page, width: int = 360) -> None:
    """Fits the width, and no name or heading is broken mid-word to get there."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert broken_words(page) == []


def wait_until(page, script: str, timeout: float = 15.0) -> None:
    """Poll ``script`` in the page until it is true (page.wait_for_function evaluates with eval, which the CSP forbids)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(script):
        assert time.monotonic() < deadline, f"still false after {timeout}s: {script}"
        page.wait_for_timeout(200)


def wait_offline_ready(page) -> None:
    """The service worker controls the page and has kept its shell."""
    wait_until(page, "document.documentElement.dataset.offlineReady === '1'")
    wait_until(page, "navigator.serviceWorker.controller !== null")
    wait_until(
        page,
        "caches.keys().then(ks => Promise.all(ks.map(k => caches.open(k).then(c => c.keys()))))"
        ".then(all => all.flat().some(r => r.url.endsWith(location.pathname)))",
    )


def queue_numbers(page, key: str) -> list[int]:
    return page.evaluate(f"(JSON.parse(localStorage.getItem('skr:{key}:queue')) || []).map(i => i.number)")


def test_five_games_entered_offline_survive_a_reload_and_are_stored_once_in_order(phone, screenshot):
    table = make_table(size=4, names=NAMES[:4])
    rules = ruleset_from_dict(None)
    games = round_games(31, 7, 4, rules)
    phone.goto(f"{phone.base_url}/tisch/{table.entry_key}/")
    wait_offline_ready(phone)
    # Game 1 online, as usual.
    tap_game(phone, games[0])
    phone.get_by_test_id("save").click()
    expect(phone.get_by_test_id("game-1")).to_be_visible()
    expect(phone.locator("#game-form")).to_have_attribute("data-number", "2")

    go_offline(phone)
    for number, record in enumerate(games[1:6], start=2):
        expect(phone.get_by_test_id("form-title")).to_contain_text(f"Spiel {number}")
        tap_game(phone, record)
        phone.get_by_test_id("save").click()
        expect(phone.get_by_test_id(f"unsent-{number}")).to_be_visible()
    assert table.hands.count() == 1
    expect(phone.get_by_test_id("pending")).to_contain_text("5")
    # The next game and its dealer follow the queued games.
    expect(phone.locator("#game-form")).to_have_attribute("data-number", "7")
    expect(phone.get_by_test_id("dealer")).to_contain_text("Xaver")  # game 7: seat 3 deals
    no_sideways_scroll(phone)
    screenshot(phone, "phone-offline-queue", full_page=False)

    phone.reload()  # still offline: the service worker opens the page, the queue is still there
    for number in range(2, 7):
        row = phone.get_by_test_id(f"unsent-{number}")
        expect(row).to_be_visible()
        expect(row).to_contain_text("nicht gesendet")
    expect(phone.locator("#game-form")).to_have_attribute("data-number", "7")
    assert queue_numbers(phone, table.entry_key) == [2, 3, 4, 5, 6]
    screenshot(phone, "phone-offline-reloaded")
    assert table.hands.count() == 1

    go_online(phone)
    expect(phone.get_by_test_id("game-6")).to_be_visible(timeout=20_000)
    expect(phone.locator("[data-queued]")).to_have_count(0)
    expect(phone.get_by_test_id("pending")).to_be_hidden()
    assert queue_numbers(phone, table.entry_key) == []
    hands = list(table.hands.order_by("number"))
    assert [h.number for h in hands] == [1, 2, 3, 4, 5, 6]
    assert [h.pk for h in hands] == sorted(h.pk for h in hands), "stored in the order they were entered"
    assert table.hands.values("client_id").distinct().count() == 6
    assert page_totals(phone, 4) == expected_totals(games[:6], 4)
    for hand, record in zip(hands, games[:6]):
        assert hand.points == {
            str(s): p
            for s, p in score_hand({**record, "dealer": dealer_for(hand.number, 0, 4)}, rules, 4).points.items()
        }
    screenshot(phone, "phone-after-sync")


def test_a_game_refused_by_the_server_stays_on_the_device_with_the_reason(phone):
    table = make_table(size=4, names=NAMES[:4])
    phone.goto(f"{phone.base_url}/tisch/{table.entry_key}/")
    go_offline(phone)
    tap_game(phone, {"contract": "wenz", "declarer": 2, "augen": 80})
    phone.get_by_test_id("save").click()
    expect(phone.get_by_test_id("unsent-1")).to_be_visible()
    table.round.status = "closed"  # meanwhile the organiser closed the round
    table.round.save()
    go_online(phone)
    row = phone.get_by_test_id("unsent-1")
    expect(row).to_contain_text("abgelehnt")
    assert queue_numbers(phone, table.entry_key) == [1]
    phone.reload()
    expect(phone.get_by_test_id("unsent-1")).to_contain_text("abgelehnt")
    assert not table.hands.exists()


def test_a_game_a_rule_refuses_after_a_correction_on_another_device_stays_with_the_reason(phone):
    """Game 1 turns out to have been thrown in (deleted and entered anew on another device): its dealer deals
    again and sits out game 2 at a table of five, so the game 2 queued here, which he played, breaks a rule
    (400, not 409). It stays on the phone with the rule's reason, through a reload, and nothing is stored."""
    table = make_table(size=5, names=NAMES, rules={"all_pass": "redeal"})
    phone.goto(f"{phone.base_url}/tisch/{table.entry_key}/")
    tap_game(phone, {"contract": "rufspiel", "called": "eichel", "declarer": 2, "partner": 3, "augen": 70})
    phone.get_by_test_id("save").click()
    expect(phone.get_by_test_id("game-1")).to_be_visible()
    expect(phone.locator("#game-form")).to_have_attribute("data-number", "2")
    go_offline(phone)
    tap_game(phone, {"contract": "wenz", "declarer": 1, "augen": 80})  # seat 2 deals game 2 here: seat 1 plays
    phone.get_by_test_id("save").click()
    expect(phone.get_by_test_id("unsent-2")).to_be_visible()
    hand_delete(hand=table.hands.get(number=1), reason="war weiter")
    hand_record(table=table, record={"contract": "weiter"}, client_id=uuid.uuid4(), number=1)
    go_online(phone)
    row = phone.get_by_test_id("unsent-2")
    expect(row).to_contain_text("abgelehnt")
    expect(row).to_contain_text("Platz 1 gibt und setzt dieses Spiel aus")
    assert queue_numbers(phone, table.entry_key) == [2]
    phone.reload()
    expect(phone.get_by_test_id("unsent-2")).to_contain_text("Platz 1 gibt und setzt dieses Spiel aus")
    assert queue_numbers(phone, table.entry_key) == [2]
    assert list(table.hands.values_list("number", "contract")) == [(1, "weiter")]


def test_a_game_saved_on_one_device_appears_on_the_other_and_a_conflict_keeps_the_chosen_version(
    browser, live_server, screenshot
):
    table = make_table(size=4, names=NAMES[:4])
    first, second = new_page(browser, live_server), new_page(browser, live_server)
    for p in (first, second):
        p.goto(f"{live_server.url}/tisch/{table.entry_key}/")
    tap_game(first, {"contract": "rufspiel", "called": "eichel", "declarer": 1, "partner": 2, "augen": 70})
    first.get_by_test_id("save").click()
    expect(first.get_by_test_id("game-1")).to_be_visible()
    # The other phone shows it without a reload, within 5 s.
    expect(second.get_by_test_id("game-1")).to_be_visible(timeout=5_000)
    expect(second.locator("#game-form")).to_have_attribute("data-number", "2")

    # Game 2 entered on both phones, differently: the second one is offline, then comes back.
    go_offline(second)
    tap_game(second, {"contract": "wenz", "declarer": 3, "augen": 80})
    second.get_by_test_id("save").click()
    expect(second.get_by_test_id("unsent-2")).to_be_visible()
    tap_game(first, {"contract": "rufspiel", "called": "gras", "declarer": 2, "partner": 4, "augen": 65})
    first.get_by_test_id("save").click()
    expect(first.get_by_test_id("game-2")).to_be_visible()
    go_online(second)
    conflict = second.get_by_test_id("conflict")
    expect(conflict).to_be_visible(timeout=10_000)
    expect(conflict.get_by_test_id("version-stored")).to_contain_text("Rufspiel")
    expect(conflict.get_by_test_id("version-rival")).to_contain_text("Wenz")
    no_sideways_scroll(second)
    screenshot(second, "phone-conflict", full_page=False)
    conflict.get_by_test_id("keep-rival").click()
    expect(conflict).to_be_hidden()
    expect(second.get_by_test_id("game-2")).to_contain_text("Wenz")
    expect(first.get_by_test_id("game-2")).to_contain_text("Wenz", timeout=5_000)
    hand = table.hands.get(number=2)
    assert hand.contract == "wenz" and hand.declarer == 3 and table.hands.count() == 2
    revision = HandRevision.objects.get(table=table, number=2, action="conflict")
    assert revision.old["contract"] == "rufspiel" and revision.old["declarer"] == 2
    assert revision.new["contract"] == "wenz"
    for p in (first, second):
        p.context.close()


def test_keeping_the_stored_version_sets_the_other_aside_as_a_revision(browser, live_server):
    table = make_table(size=4, names=NAMES[:4])
    phone = new_page(browser, live_server)
    phone.goto(f"{live_server.url}/tisch/{table.entry_key}/")
    go_offline(phone)
    tap_game(phone, {"contract": "wenz", "declarer": 3, "augen": 80})
    phone.get_by_test_id("save").click()
    expect(phone.get_by_test_id("unsent-1")).to_be_visible()
    hand_record(
        table=table,
        record={"contract": "rufspiel", "called": "gras", "declarer": 2, "partner": 4, "augen": 65},
        client_id="00000000-0000-4000-8000-000000000001",
        number=1,
    )
    go_online(phone)
    conflict = phone.get_by_test_id("conflict")
    expect(conflict).to_be_visible(timeout=10_000)
    conflict.get_by_test_id("keep-stored").click()
    expect(conflict).to_be_hidden()
    expect(phone.locator("[data-queued]")).to_have_count(0)
    assert table.hands.get().contract == "rufspiel"
    revision = HandRevision.objects.get(table=table, number=1, action="conflict")
    assert revision.old["contract"] == "wenz" and revision.old["declarer"] == 3
    assert revision.new["contract"] == "rufspiel"
    phone.context.close()


def test_a_whole_round_of_forty_games_at_a_table_of_five_through_the_table_card_link(browser, live_server, screenshot):
    from tournaments.links import table_link_key

    table = make_table(size=5, names=NAMES)
    rules = ruleset_from_dict(None)
    games = round_games(4711, 40, 5, rules)
    phone = new_page(browser, live_server)
    link = f"{live_server.url}/tk/{table_link_key(table.round.tournament_id, table.number)}/"
    phone.goto(link)
    expect(phone.get_by_test_id("seat-5")).to_contain_text("Korbinian")
    no_sideways_scroll(phone)
    screenshot(phone, "phone-table-empty", full_page=False)
    # The same link on a tablet held upright and on the desk's laptop: the form with game 1 tapped in.
    for name, viewport in (("tablet", TABLET_PORTRAIT), ("laptop", LAPTOP)):
        other = new_page(browser, live_server, viewport)
        other.goto(link)
        tap_game(other, games[0])
        no_sideways_scroll(other, viewport["width"])
        screenshot(other, f"{name}-table-form")
        other.context.close()
    for number, record in enumerate(games, start=1):
        tap_game(phone, record)
        if number == 1:
            no_sideways_scroll(phone)
            screenshot(phone, "phone-table-form", full_page=False)
            screenshot(phone, "phone-table-form-full")
        phone.get_by_test_id("save").click()
        expect(phone.get_by_test_id(f"game-{number}")).to_be_visible()
        if number < 40:
            expect(phone.locator("#game-form")).to_have_attribute("data-number", str(number + 1))
    expect(phone.get_by_test_id("confirm-panel")).to_be_visible()
    assert table.hands.count() == 40
    assert page_totals(phone, 5) == expected_totals(games, 5)
    assert phone.evaluate("location.pathname").startswith("/tk/"), "the table stayed on its all-evening link"

    # The sheet on the phone: game, contract, my column and its running total; the whole sheet one tap away.
    phone.get_by_test_id("mine-3").click()
    sheet = phone.get_by_test_id("sheet")
    first_row = phone.get_by_test_id("game-40")
    expect(first_row.locator('.c-seat[data-seat="3"]')).to_be_visible()
    expect(first_row.locator('.c-seat[data-seat="1"]')).to_be_hidden()
    no_sideways_scroll(phone)
    sheet.scroll_into_view_if_needed()
    screenshot(phone, "phone-sheet-mine")
    phone.get_by_test_id("full-sheet").click()
    for seat in range(1, 6):
        expect(first_row.locator(f'.c-seat[data-seat="{seat}"]')).to_be_visible()
    no_sideways_scroll(phone)
    screenshot(phone, "phone-sheet-full")
    first_row.click()  # a game opened for correction: the same form, on the phone too
    expect(phone.get_by_test_id("form-title")).to_contain_text("40")
    no_sideways_scroll(phone)
    screenshot(phone, "phone-correction", full_page=False)

    tablet = new_page(browser, live_server, TABLET_PORTRAIT)
    tablet.goto(link)
    expect(tablet.get_by_test_id("game-40")).to_be_visible()
    no_sideways_scroll(tablet, TABLET_PORTRAIT["width"])
    screenshot(tablet, "tablet-table-40-games")
    laptop = new_page(browser, live_server, LAPTOP)
    laptop.goto(link)
    expect(laptop.get_by_test_id("game-40")).to_be_visible()
    no_sideways_scroll(laptop, LAPTOP["width"])
    screenshot(laptop, "laptop-table-40-games")
    for p in (phone, tablet, laptop):
        p.context.close()


def test_the_table_page_is_an_app_installable_awake_and_dark_on_request(browser, live_server, screenshot):
    table = make_table(size=4, names=NAMES[:4])
    context = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True, is_mobile=True, color_scheme="dark")
    phone = context.new_page()
    phone.goto(f"{live_server.url}/tisch/{table.entry_key}/")
    # Installable: a manifest with icons, and a service worker that controls the page.
    manifest = phone.locator('link[rel="manifest"]').get_attribute("href")
    data = phone.evaluate(f"fetch({manifest!r}).then(r => r.json())")
    assert data["display"] == "standalone" and data["start_url"] == f"/tisch/{table.entry_key}/"
    for icon in data["icons"]:
        size = phone.evaluate(
            f"new Promise(ok => {{ const i = new Image(); i.onload = () => ok(i.naturalWidth + 'x' + "
            f"i.naturalHeight); i.src = {icon['src']!r}; }})"
        )
        assert size == icon["sizes"]
    wait_offline_ready(phone)
    # The screen stays on: the page asked for a screen wake lock (granted, or refused by a headless browser).
    wait_until(phone, "['on', 'denied'].includes(document.documentElement.dataset.wakeLock)")
    # Dark, as the phone asks; the switch turns it light, and the choice stays after a reload.
    background = "getComputedStyle(document.body).backgroundColor"
    assert phone.evaluate(background) == "rgb(18, 20, 18)"
    screenshot(phone, "phone-dark", full_page=False)
    phone.get_by_test_id("theme-switch").click()
    assert phone.evaluate(background) == "rgb(253, 252, 248)"
    phone.reload()
    assert phone.evaluate("document.documentElement.dataset.theme") == "light"
    assert phone.evaluate(background) == "rgb(253, 252, 248)"
    phone.get_by_test_id("theme-switch").click()
    assert phone.evaluate(background) == "rgb(18, 20, 18)"
    context.close()


# A stand-in for the Screen Wake Lock API, which headless Chromium refuses: it records what the page asks for
# and hands out a lock that the test can release, as a browser does when the phone's screen goes off.
WAKE_LOCK = """(() => {
  window.wakeLockAsked = [];
  const request = type => {
    window.wakeLockAsked.push(type);
    const lock = new EventTarget();
    lock.type = type;
    lock.released = false;
    lock.release = () => { lock.released = true; lock.dispatchEvent(new Event("release")); return Promise.resolve(); };
    window.wakeLockHeld = lock;
    return Promise.resolve(lock);
  };
  Object.defineProperty(navigator, "wakeLock", { value: { request }, configurable: true });
})();"""


def test_the_screen_stays_on_while_the_table_page_is_open_and_after_it_comes_back(phone):
    table = make_table(size=4, names=NAMES[:4])
    phone.add_init_script(WAKE_LOCK)
    phone.goto(f"{phone.base_url}/tisch/{table.entry_key}/")
    wait_until(phone, "document.documentElement.dataset.wakeLock === 'on'")
    assert phone.evaluate("window.wakeLockAsked") == ["screen"]
    # The phone was put away: the browser drops the lock; back on the table page, the page takes it again.
    phone.evaluate("window.wakeLockHeld.release()")
    wait_until(phone, "document.documentElement.dataset.wakeLock === 'off'")
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    wait_until(phone, "document.documentElement.dataset.wakeLock === 'on'")
    assert phone.evaluate("window.wakeLockAsked") == ["screen", "screen"]
