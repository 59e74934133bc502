"""Issue 37's acceptance: a 96-player evening with a "top third" plan and a U30 prize; the prize table called up on
a phone to place 40 with the projector following; the prize list and cash list PDFs matching the page.

(Teams are not built on this branch: the test has none.)"""

import io

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation
from pypdf import PdfReader

from schafkopfrennen import formats
from tests.browser.conftest import wait_until
from tournaments.models import ClubMembership, Prize
from tournaments.selectors.callup import prize_call_up
from tournaments.selectors.standings import cash_list, prize_list
from tournaments.services.prizes import prize_categories_set, registration_facts_set
from tournaments.services.simulation import tournament_simulate
from tournaments.services.standings import standings_recompute

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 640}


def pdf_text(page, path: str) -> str:
    response = page.request.get(page.base_url + path)
    assert response.ok, path
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.body())).pages)


def euro(cents: int) -> str:
    with translation.override("de"):
        return formats.euro(cents)


def test_a_96_player_evening_calls_its_prize_table_to_place_40(page, browser, screenshot):
    tournament = tournament_simulate(slug="preistisch-96", players=96, rounds=1, games=8, seed=37)
    tournament.registrations.update(paid=True)
    tournament.standings_public = True
    tournament.save(update_fields=["standings_public"])
    standings_recompute(tournament_id=tournament.pk)
    year = tournament.date.year
    for reg in tournament.registrations.all():  # every fifth under 30
        registration_facts_set(
            tournament=tournament,
            start_number=reg.start_number,
            birth_year=year - (25 if reg.start_number % 5 == 0 else 50),
        )
    prize_categories_set(
        tournament=tournament, categories=[{"name": "U30", "max_age": 29, "prizes": [{"amount_cents": 3000}]}]
    )
    user = get_user_model().objects.create_user("preistisch", password="pw-preis-1")
    ClubMembership.objects.create(user=user, club=tournament.club, role=ClubMembership.Role.ORGANISER)
    page.goto(f"{page.base_url}/accounts/login/?next=/o/")
    page.fill("#id_username", "preistisch")
    page.fill("#id_password", "pw-preis-1")
    page.locator("main button[type=submit]").click()
    page.wait_for_url("**/o/")

    # The organiser sets the plan: a third of 96, whole euros, ten goods places after the money; the preview follows.
    page.goto(f"{page.base_url}/o/{tournament.slug}/preise/")
    page.locator("#plan_curve_1").check()  # every n-th first: the preview answers the unsaved form
    page.fill("#plan_every_n", "4")
    wait_until(page, "document.querySelector('[data-testid=plan-summary]').textContent.includes('24 Preise')")
    page.locator("#plan_curve_0").check()
    page.fill("#plan_goods_places", "10")
    page.fill("#plan_goods_list", "Schinken\nBrotzeitbrettl\nKiste Bier")
    wait_until(
        page, "document.querySelector('[data-testid=plan-summary]').textContent.includes('Bei 96 Spielern: 42 Preise')"
    )
    page.get_by_test_id("plan-apply").click()
    page.wait_for_url(f"**/o/{tournament.slug}/preise/")
    assert Prize.objects.filter(tournament=tournament, amount_cents__gt=0).count() == 32
    assert Prize.objects.filter(tournament=tournament).count() == 42
    prizes = prize_list(tournament)
    # the plan shares 96 × 10 € less the U30 money; what whole euros leave and the Reuegeld stay in the pool
    assert prizes.pool_cents == 96000 + prizes.pot_share_cents
    assert 0 <= prizes.leftover_cents - prizes.pot_share_cents < 100 * 32
    (u30,) = prizes.category_awards
    assert u30.amount_cents == 3000 and u30.registration not in {a.registration for a in prizes.awards}
    screenshot(page, "prizes-plan-96")

    # The projector in the hall (public: the standings are) and the desk's phone.
    hall = browser.new_context(viewport={"width": 1366, "height": 768}, locale="de-DE")
    projector = hall.new_page()
    projector.goto(f"{page.base_url}/t/{tournament.slug}/preistisch/beamer/")
    phone = page.context.browser.new_context(
        viewport=PHONE, locale="de-DE", has_touch=True, storage_state=page.context.storage_state()
    )
    desk = phone.new_page()
    desk.set_default_timeout(15_000)
    desk.goto(f"{page.base_url}/o/{tournament.slug}/preistisch/")
    assert desk.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    taken = {}
    for place in range(1, 40):
        now = desk.get_by_test_id("callup-now")
        assert now.get_attribute("data-start") is not None
        number = int(now.get_attribute("data-start"))
        if place > 32:  # the goods places choose from the prize table
            goods = ["Schinken", "Brotzeitbrettl", "Kiste Bier"][place % 3]
            desk.get_by_test_id("callup-goods").fill(goods)
            taken[number] = goods
        desk.get_by_test_id("callup-chosen").click()
        desk.wait_for_load_state()
    call = prize_call_up(tournament)
    assert (call.current.rank, call.handed) == (40, 39)
    assert desk.get_by_test_id("callup-now").get_attribute("data-start") == str(call.current.start_number)
    text = f"Platz 40: {call.current.name} ({call.current.start_number}) – bitte zum Preistisch"
    wait_until(
        projector, f"document.querySelector('[data-testid=callup-projector-now]').textContent.includes({text!r})"
    )
    screenshot(desk, "prize-callup-phone-40", full_page=False)
    screenshot(projector, "prize-callup-projector-40", full_page=False)

    # The prize list PDF says what each took; the cash list PDF pays out what the prize list plans.
    prizes = prize_list(tournament)
    prize_pdf = pdf_text(page, f"/o/{tournament.slug}/druck/preisliste.pdf")
    for goods in set(taken.values()):
        assert goods in prize_pdf
    assert "U30" in prize_pdf
    cash = cash_list(tournament)
    assert cash.prizes_cents == prizes.paid_cents and cash.balances
    cash_pdf = pdf_text(page, f"/o/{tournament.slug}/druck/kassenliste.pdf")
    assert euro(prizes.awarded_cents) in prize_pdf and euro(prizes.category_cents) in prize_pdf
    assert euro(prizes.paid_cents) in cash_pdf  # the overall list's money + the category's, paid out
    hall.close()
    phone.close()
