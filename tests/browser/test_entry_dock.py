"""The sticky save bar never covers the Laufende row: scrolled into view (as a tap or the keyboard does),
the whole row sits above the bar on a phone, a tablet in portrait and a laptop, also once the preview
with every player's points has made the bar taller. And a Sie is a game button of its own."""

import pytest

from tests.browser.conftest import wait_until
from tests.browser.test_entry import NAMES, expect
from tests.tournaments.test_services_hands import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [{"width": 360, "height": 640}, {"width": 800, "height": 1280}, {"width": 1366, "height": 768}]


def open_table(page, size):
    table = make_table(names=NAMES[:4])
    page.set_viewport_size(size)
    page.goto(f"{page.base_url}/tisch/{table.entry_key}/")
    page.wait_for_load_state("load")  # entry.js (deferred) binds the buttons and measures the bar
    return table


def assert_row_above_the_bar(page, block: str) -> None:
    laufende = page.locator('[data-part="laufende"]')
    page.evaluate("window.scrollTo(0, 0)")
    laufende.evaluate(f"el => el.scrollIntoView({{block: '{block}'}})")
    row = laufende.bounding_box()
    dock = page.locator(".dock").bounding_box()
    assert row["y"] + row["height"] <= dock["y"] + 1, (block, row, dock)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_the_save_bar_leaves_the_laufende_row_visible(page, size):
    open_table(page, size)
    page.get_by_test_id("contract-rufspiel").click()
    expect(page.locator('[data-part="laufende"]')).to_be_visible()
    for block in ("nearest", "end"):
        assert_row_above_the_bar(page, block)
    # the preview fills the bar with every player's points: the row still clears it
    page.get_by_test_id("called-gras").click()
    page.get_by_test_id("declarer-1").click()
    page.get_by_test_id("partner-3").click()
    page.get_by_test_id("quick-91").click()
    expect(page.get_by_test_id("preview-1")).to_have_text("Josef Huber +2")
    wait_until(
        page,
        "parseInt(getComputedStyle(document.documentElement).getPropertyValue('--dock-h')) "
        "=== document.querySelector('.dock').offsetHeight",
    )
    for block in ("nearest", "end"):
        assert_row_above_the_bar(page, block)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
def test_a_sie_is_its_own_button_without_a_trump_suit_to_tap(page, size, screenshot):
    table = open_table(page, size)
    page.get_by_test_id("contract-sie").click()
    for part in ("trump", "called", "partner", "augen", "laufende", "announce"):
        expect(page.locator(f'[data-part="{part}"]')).to_be_hidden()
    page.get_by_test_id("declarer-2").click()
    expect(page.get_by_test_id("preview-2")).to_contain_text("+108")
    name = f"entry-sie-{size['width']}x{size['height']}"
    screenshot(page, name, full_page=False)
    screenshot(page, f"{name}-full")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "no sideways scroll"
    page.get_by_test_id("save").click()
    expect(page.get_by_test_id("game-1")).to_contain_text("Sie")
    hand = table.hands.get()
    assert (hand.contract, hand.sie, hand.trump, hand.declarer) == ("solo", True, None, 2)
    assert hand.points == {"1": -36, "2": 108, "3": -36, "4": -36}
