"""The demo's season in Chromium on a phone (360 px) and a laptop (1366 px): standings, charts, a player's history.

Screenshots: test-artifacts/series-*.png. Each page must fit its width (no sideways scrolling), each
chart must be an SVG with a title and its labels, and no Content-Security-Policy violation may occur.
"""

import pytest

from tests.browser.conftest import broken_words
from tournaments.models import Registration, Tournament
from tournaments.selectors.series import series_standings
from tournaments.services.demo import DEMO_SERIES_SLUG, demo_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 640}
LAPTOP = {"width": 1366, "height": 768}
LISTEN = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', function (e) { window.__csp.push(e.violatedDirective); });
"""


def chart_texts(page, testid: str) -> tuple[str, list[str]]:
    chart = page.get_by_test_id(testid)
    assert chart.count() == 1 and chart.evaluate("e => e.tagName.toLowerCase()") == "svg"
    title = chart.locator("title").first.text_content()
    texts = chart.locator("text").all_text_contents()
    box = chart.bounding_box()
    assert box["width"] > 250 and box["height"] > 100
    return title, texts


def fits(page) -> None:
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert broken_words(page) == []  # e.g. the biggest game's "(Sommerren|nen," in a narrow box


@pytest.mark.parametrize("size, name", [(PHONE, "phone"), (LAPTOP, "laptop")])
def test_series_page_and_a_players_history(browser, live_server, screenshot, size, name):
    demo_create()
    from tournaments.models import Series

    data = series_standings(Series.objects.get(slug=DEMO_SERIES_SLUG))
    leader = data.rows[0]
    context = browser.new_context(viewport=size, locale="de-DE", has_touch=size is PHONE)
    page = context.new_page()
    page.add_init_script(LISTEN)
    try:
        page.goto(f"{live_server.url}/serie/{DEMO_SERIES_SLUG}/")
        rows = page.get_by_test_id("series-standings").locator("tbody tr")
        assert rows.count() == len(data.rows)
        assert leader.name in rows.first.text_content()
        title, texts = chart_texts(page, "progression-chart")
        assert title == "Verlauf der Wertung"
        assert "Punkte" in texts and "Turnier" in texts  # the axes are labelled
        assert any(leader.name in t for t in texts)  # the legend names the lines
        title, texts = chart_texts(page, "mix-chart")
        assert title == "Spielarten" and "Rufspiel" in texts and any("%" in t for t in texts)
        fits(page)
        screenshot(page, f"series-standings-{name}")

        rows.first.locator("td.name a").click()
        page.wait_for_url(f"**/serie/{DEMO_SERIES_SLUG}/spieler/{leader.player_id}/")
        history = page.get_by_test_id("history").locator("tbody tr")
        assert history.count() == leader.participations
        title, texts = chart_texts(page, "history-chart")
        assert title == "Punkte je Turnier" and "Turnier" in texts
        fits(page)
        screenshot(page, f"series-player-{name}")

        # From the player's private page to his whole history.
        key = Registration.objects.get(player_id=leader.player_id, tournament__slug="herbstrennen").key
        page.goto(f"{live_server.url}/s/{key}/")
        page.get_by_test_id("history-link").click()
        page.wait_for_url(f"**/s/{key}/verlauf/")
        every_tournament = Tournament.objects.filter(registrations__player_id=leader.player_id).distinct().count()
        assert page.get_by_test_id("history").locator("tbody tr").count() == every_tournament
        fits(page)
        screenshot(page, f"series-history-by-key-{name}")
        assert page.evaluate("window.__csp") == []
    finally:
        context.close()
