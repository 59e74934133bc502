"""The pages a player or spectator opens, on a phone (360 x 640, touch) and a tablet held upright (800 x 1280):
no sideways scrolling, and no word (a name, a column head) broken mid-word. Screenshots go to test-artifacts/phone-*.png and tablet-*.png.

(The table's entry page has its own tests; the player's page and the table card's link: test_links.py.)
"""

import pytest
from django.urls import reverse

from tests.browser.conftest import broken_words
from tournaments.models import Tournament
from tournaments.services.demo import DEMO_SLUG, demo_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {"phone": {"width": 360, "height": 640}, "tablet": {"width": 800, "height": 1280}}


def pages(slug: str, key: str) -> dict[str, str]:
    return {
        "home": reverse("tournaments:home"),
        "tournament": reverse("tournaments:public_tournament", args=[slug]),
        "seatlist": reverse("tournaments:seatlist", args=[slug]),
        "seatlist-tables": reverse("tournaments:seatlist_tables", args=[slug]),
        "standings": reverse("tournaments:standings", args=[slug]),
        "projector": reverse("tournaments:standings_projector", args=[slug]),
        "player": reverse("tournaments:player", args=[key]),
    }


@pytest.mark.parametrize("device", sorted(VIEWPORTS))
def test_the_public_pages_fit_without_sideways_scrolling(device, browser, live_server, screenshot):
    demo_create()
    Tournament.objects.filter(slug=DEMO_SLUG).update(standings_public=True)
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    from tournaments.services.standings import standings_recompute

    standings_recompute(tournament_id=tournament.pk)
    key = tournament.registrations.order_by("start_number").first().key
    viewport = VIEWPORTS[device]
    context = browser.new_context(viewport=viewport, locale="de-DE", has_touch=True, is_mobile=device == "phone")
    page = context.new_page()
    wide, broken = {}, {}
    try:
        for name, path in pages(DEMO_SLUG, key).items():
            page.goto(live_server.url + path)
            page.wait_for_load_state("networkidle")
            screenshot(page, f"{device}-{name}")
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > viewport["width"]:
                wide[name] = width
            if words := broken_words(page):
                broken[name] = words
    finally:
        context.close()
    assert not wide, f"wider than {viewport['width']} px: {wide}"
    assert not broken, f"words broken across lines: {broken}"


def test_on_a_phone_a_tap_on_a_standings_row_shows_its_details(browser, live_server, screenshot):
    demo_create()
    Tournament.objects.filter(slug=DEMO_SLUG).update(standings_public=True)
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    from tournaments.services.standings import standings_recompute

    standings_recompute(tournament_id=tournament.pk)
    leader = tournament.standings_snapshot.overall[0]
    context = browser.new_context(viewport=VIEWPORTS["phone"], locale="de-DE", has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        page.goto(live_server.url + reverse("tournaments:standings", args=[DEMO_SLUG]))
        row = page.locator(f'tr[data-start-number="{leader["start_number"]}"]')
        assert not row.locator("td").nth(1).is_visible()  # the start number waits for a tap
        row.locator("td.name").tap()
        details = page.locator("tr.row-details")
        details.wait_for()
        text = details.inner_text()
        assert f"Nr.{leader['start_number']}" in text.replace(" ", "").replace("\n", "")
        assert "R1" in text
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        details.scroll_into_view_if_needed()
        screenshot(page, "phone-standings-details", full_page=False)
        row.locator("td.name").tap()
        assert page.locator("tr.row-details").count() == 0
    finally:
        context.close()
