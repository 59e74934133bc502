"""The pages trust added, on a phone (360 px) and a laptop (1366 px): Mein Zugang with its API token, the
audit log per tournament and per club, a player's personal data, the login page when locked out.
No sideways scroll, no Content-Security-Policy violation; screenshots go to test-artifacts/trust-*.png."""

import re

import pytest
from django.contrib.auth import get_user_model

from tournaments.models import Registration
from tournaments.services.demo import DEMO_PASSWORD, DEMO_SLUG, DEMO_USERNAME, demo_create
from tournaments.services.registration import registration_update

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 640}
LAPTOP = {"width": 1366, "height": 768}
LISTEN = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', function (e) { window.__csp.push(e.violatedDirective); });
"""


def expect(locator):
    from playwright.sync_api import expect as pw_expect

    return pw_expect(locator)


def fits(page, url):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{url}: {width} px wide on a {page.viewport_size['width']} px screen"
    assert page.evaluate("window.__csp") == [], url


def log_in(page, username=DEMO_USERNAME, password=DEMO_PASSWORD, next_url="/o/"):
    page.goto(f"{page.base_url}/accounts/login/?next={next_url}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.locator("main button[type=submit]").click()


@pytest.fixture
def evening():
    tournament, _, _ = demo_create()
    orga = get_user_model().objects.get(username=DEMO_USERNAME)
    regs = list(Registration.objects.filter(tournament=tournament).select_related("player").order_by("start_number"))
    registration_update(registration=regs[2], paid=False, by=orga)
    registration_update(registration=regs[2], paid=True, by=orga)
    regs[5].player.contact = "0171 555 1234"
    regs[5].player.save()
    return tournament, orga, regs


@pytest.mark.parametrize("viewport,size", [(PHONE, "phone"), (LAPTOP, "laptop")])
def test_the_new_pages_fit_and_work(browser, live_server, screenshot, evening, viewport, size):
    tournament, orga, regs = evening
    context = browser.new_context(viewport=viewport, locale="de-DE", has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.base_url = live_server.url
    page.add_init_script(LISTEN)
    try:
        log_in(page)
        page.wait_for_url("**/o/")

        # Mein Zugang: through the user's name in the top bar; make a token, see it once.
        page.get_by_test_id("account-link").click()
        page.wait_for_url("**/o/zugang/")
        page.get_by_test_id("token-create").click()
        token = page.get_by_test_id("new-token").inner_text().strip()
        assert re.fullmatch(r"[0-9a-f]{64}", token)  # a knox key (issue 33.11b)
        fits(page, "/o/zugang/")
        screenshot(page, f"trust-account-{size}")

        # The tournament's log, reached from the control panel.
        page.goto(f"{page.base_url}/o/{DEMO_SLUG}/")
        page.get_by_test_id("tournament-log").click()
        page.wait_for_url(f"**/o/{DEMO_SLUG}/protokoll/")
        expect(page.get_by_test_id("audit-entry").first).to_be_visible()
        assert page.get_by_test_id("audit-entry").count() >= 2
        assert "hat bezahlt" in page.get_by_test_id("audit").inner_text()  # one German sentence per entry
        fits(page, "tournament log")
        screenshot(page, f"trust-log-{size}")
        page.goto(f"{page.base_url}/o/verein/{tournament.club_id}/protokoll/")
        fits(page, "club log")

        # A player's page: download his data, then anonymise him (the question is asked first).
        player = regs[5].player
        page.goto(f"{page.base_url}/o/spieler/{player.pk}/")
        expect(page.get_by_test_id("personal-data")).to_be_visible()
        fits(page, "player page")
        screenshot(page, f"trust-player-{size}")
        with page.expect_download() as download:
            page.get_by_test_id("player-export").click()
        assert download.value.suggested_filename == f"spieler-{player.pk}.json"
        page.get_by_test_id("anonymise-confirm").check()
        page.once("dialog", lambda dialog: dialog.accept())
        page.get_by_test_id("player-anonymise").click()
        page.wait_for_url(f"**/o/verein/{tournament.club_id}/")
        player.refresh_from_db()
        assert player.name == f"Spieler {player.pk}" and player.contact == ""
        expect(page.locator(".messages")).to_contain_text(f"Spieler {player.pk}")
        assert f"Spieler {player.pk}," not in page.get_by_test_id("players").inner_text()
    finally:
        context.close()


def test_the_locked_out_login_page_on_a_phone(browser, live_server, screenshot, settings):
    get_user_model().objects.create_user("kasse", password="kasse-geheim-1")
    context = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True)
    page = context.new_page()
    page.base_url = live_server.url
    page.add_init_script(LISTEN)
    try:
        for _ in range(settings.AXES_FAILURE_LIMIT):
            log_in(page, "kasse", "falsch")
        expect(page.get_by_test_id("locked-out")).to_contain_text("15 Minuten gesperrt")
        expect(page.get_by_test_id("forgot-password")).to_contain_text("Passwort vergessen?")
        fits(page, "locked-out login")
        screenshot(page, "trust-login-locked-phone")
    finally:
        context.close()
