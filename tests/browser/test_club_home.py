"""Issue 39 in headless Chromium: a new club joins the instance ("Verein anlegen", the mail's link), the operator
approves it, its organiser announces a tournament (in the calendar, sign-up open, the club's IBAN), and a player
on a 360 px phone finds it in the calendar by postcode, signs up and sees the GiroCode.
Screenshots: test-artifacts/club-home-*.png at 360 and 1366 px."""

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import timezone

from tournaments.models import Club, SignUp, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 640}
LAPTOP = {"width": 1366, "height": 768}
PASSWORD = "Isartal-Schafkopf-1957"


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_a_club_joins_announces_and_a_player_finds_it_by_postcode(browser, live_server, screenshot, settings):
    settings.CLUB_REGISTRATION = "approved"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"  # the mail's link read back here
    mail.outbox = []
    base = live_server.url
    get_user_model().objects.create_user("betreiber", password="betrieb-2099", is_staff=True)
    day = timezone.localdate() + datetime.timedelta(days=30)

    laptop = browser.new_context(viewport=LAPTOP, locale="de-DE")
    page = laptop.new_page()
    page.set_default_timeout(15_000)
    # 1. the club registers itself
    page.goto(f"{base}/verein-anlegen/")
    page.fill("#id_name", "SK Isartal")
    page.fill("#id_town", "Freising")
    page.fill("#id_postcode", "85354")
    page.fill("#id_username", "wastl")
    page.fill("#id_email", "wastl@isartal.example")
    page.fill("#id_password", PASSWORD)
    page.fill("#id_password_again", PASSWORD)
    screenshot(page, "club-home-register-1366")
    page.get_by_test_id("club-register-submit").click()
    page.get_by_test_id("club-registered").wait_for()
    (message,) = mail.outbox
    link = re.search(r"https?://[^/\s]+(/verein-anlegen/bestaetigen/\S+/)", message.body).group(1)
    page.goto(base + link)
    page.get_by_test_id("club-confirmed").wait_for()
    assert Club.objects.get(name="SK Isartal").status == Club.Status.PENDING

    # 2. the operator approves it
    operator = browser.new_context(viewport=LAPTOP, locale="de-DE").new_page()
    operator.goto(f"{base}/accounts/login/?next=/betrieb/vereine/")
    operator.fill("#id_username", "betreiber")
    operator.fill("#id_password", "betrieb-2099")
    operator.locator("main form button").first.click()
    operator.get_by_test_id("operator-clubs").wait_for()
    screenshot(operator, "club-home-operator-1366")
    operator.locator('[data-club="SK Isartal"]').get_by_test_id("approve").click()
    operator.wait_for_load_state()
    assert Club.objects.get(name="SK Isartal").status == Club.Status.ACTIVE

    # 3. its organiser logs in and announces the tournament
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", "wastl")
    page.fill("#id_password", PASSWORD)
    page.locator("main form button").first.click()
    page.wait_for_url(re.compile(r"/o/"))
    page.goto(f"{base}/o/neu/")
    page.fill("#id_name", "Isartaler Frühjahrsrennen")
    page.fill("#id_date", day.isoformat())
    page.fill("#id_venue", "Gasthof Lerner")
    page.locator("#id_listed").check()
    page.get_by_test_id("create-tournament").click()
    page.wait_for_url(re.compile(r"/einstellungen/$"))
    tournament = Tournament.objects.get(name="Isartaler Frühjahrsrennen")
    assert tournament.listed
    club = tournament.club
    page.goto(f"{base}/o/verein/{club.pk}/")
    page.fill("#id_account_holder", "SK Isartal e. V.")
    page.fill("#id_iban", "DE89 3704 0044 0532 0130 00")
    page.locator(f'form[action$="/o/verein/{club.pk}/stammdaten/"] button').click()
    page.wait_for_load_state()
    club.refresh_from_db()
    assert club.iban == "DE89370400440532013000"
    page.goto(f"{base}/o/{tournament.slug}/anmeldung/")
    page.locator("#id_open").check()
    page.fill("#id_capacity", "40")
    page.fill("#id_start_time", "19:00")
    page.get_by_test_id("signup-options").locator("button.primary").click()
    page.wait_for_load_state()
    page.goto(f"{base}/kalender/")
    page.get_by_test_id("calendar-entry").first.wait_for()
    screenshot(page, "club-home-calendar-1366")
    assert no_sideways_scroll(page)

    # 4. a player on a phone finds it by postcode, signs up and sees the GiroCode
    phone = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True, is_mobile=True).new_page()
    phone.set_default_timeout(15_000)
    phone.goto(f"{base}/kalender/")
    phone.fill("#id_plz", "85356")  # Freising's other postcode: a few km away
    phone.fill("#id_km", "25")
    phone.get_by_test_id("calendar-search").click()
    entry = phone.locator(f'[data-slug="{tournament.slug}"]')
    entry.wait_for()
    assert "Gasthof Lerner" in entry.inner_text() and "19:00" in entry.inner_text()
    screenshot(phone, "club-home-calendar-360")
    assert no_sideways_scroll(phone)
    entry.get_by_test_id("calendar-signup").click()
    phone.fill("#id_first_name", "Vroni")
    phone.fill("#id_last_name", "Oberhuber")
    phone.locator("#id_consent").check()
    phone.get_by_test_id("signup-submit").click()
    phone.wait_for_url(re.compile(r"/anmeldung/[\w-]+/$"))
    phone.get_by_test_id("girocode").wait_for()
    assert phone.get_by_test_id("girocode-reference").inner_text() == f"{tournament.slug} Nr 1"
    assert phone.evaluate("document.querySelector('[data-testid=girocode-image]').naturalWidth") > 0
    screenshot(phone, "club-home-girocode-360")
    assert no_sideways_scroll(phone)
    assert SignUp.objects.get(last_name="Oberhuber").status == SignUp.Status.PLACE
