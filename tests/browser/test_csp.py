"""The main pages run under the Content-Security-Policy without a single violation, in Chromium.

Every page is opened with a listener for ``securitypolicyviolation`` installed before any script runs;
the pages' own behaviours that moved out of inline script (seat search, standings search, the round
close question) are used while listening.
"""

import pytest

from tournaments.models import Club, Round, Table
from tournaments.services.demo import DEMO_PASSWORD, DEMO_SLUG, DEMO_USERNAME, demo_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LISTEN = """
window.__csp = [];
document.addEventListener('securitypolicyviolation', function (e) {
  window.__csp.push(e.violatedDirective + ' ' + (e.blockedURI || 'inline') + ' ' + (e.sourceFile || '') + ':' + e.lineNumber);
});
"""


def visit(page, url: str, violations: list, console: list) -> None:
    page.goto(page.base_url + url)
    page.wait_for_load_state("networkidle")
    found = page.evaluate("window.__csp")
    violations.extend(f"{url}: {v}" for v in found)


def test_the_main_pages_raise_no_csp_violation(page, screenshot):
    demo_create()
    tournament_round = Round.objects.get(tournament__slug=DEMO_SLUG, number=1)
    table = Table.objects.filter(round=tournament_round).order_by("number").first()
    club = Club.objects.get(tournaments__slug=DEMO_SLUG)
    player = club.players.order_by("pk").first()
    violations: list[str] = []
    console: list[str] = []
    page.add_init_script(LISTEN)
    page.on("console", lambda msg: console.append(msg.text) if "Content Security Policy" in msg.text else None)

    for url in [
        "/",
        f"/t/{DEMO_SLUG}/",
        f"/t/{DEMO_SLUG}/sitzplan/tische/",
        f"/t/{DEMO_SLUG}/rangliste/beamer/",
        f"/tisch/{table.entry_key}/",
        "/accounts/login/",
    ]:
        visit(page, url, violations, console)

    # The seat list's search (a static script now) still filters.
    visit(page, f"/t/{DEMO_SLUG}/sitzplan/", violations, console)
    page.get_by_test_id("seat-search").fill("huber")
    assert page.get_by_test_id("seat-row").filter(visible=True).count() == 1
    # The standings search: typing asks the server through htmx; Enter does not reload the page.
    visit(page, f"/t/{DEMO_SLUG}/rangliste/", violations, console)
    page.fill("#q", "Huber")
    page.wait_for_load_state("networkidle")
    page.press("#q", "Enter")
    assert page.input_value("#q") == "Huber"

    # Log in (the login form posts under form-action 'self') and walk the organiser's pages.
    page.goto(page.base_url + "/accounts/login/?next=/o/")
    page.fill("#id_username", DEMO_USERNAME)
    page.fill("#id_password", DEMO_PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_url("**/o/")
    for url in [
        "/o/",
        f"/o/{DEMO_SLUG}/",
        f"/o/{DEMO_SLUG}/meldestelle/",
        f"/o/{DEMO_SLUG}/einstellungen/",
        f"/o/{DEMO_SLUG}/tische/",
        f"/o/{DEMO_SLUG}/runde/1/druck/",
        f"/o/{DEMO_SLUG}/preise/",
        f"/o/{DEMO_SLUG}/kasse/",
        f"/o/verein/{club.pk}/",
        f"/o/spieler/{player.pk}/",
        f"/tisch/{table.entry_key}/",
        "/api/docs/",
    ]:
        visit(page, url, violations, console)

    # Closing a round asks first (data-confirm, no inline onsubmit): saying no leaves it open.
    visit(page, f"/o/{DEMO_SLUG}/runden/", violations, console)
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.get_by_test_id("close-1").click()
    page.wait_for_timeout(300)
    assert asked and "1" in asked[0]
    tournament_round.refresh_from_db()
    assert tournament_round.status != Round.Status.CLOSED
    violations.extend(page.evaluate("window.__csp"))
    screenshot(page, "csp-rounds")

    assert not violations, "\n".join(violations)
    assert not console, "\n".join(console)
