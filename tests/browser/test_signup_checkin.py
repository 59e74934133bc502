"""Issue 19 in headless Chromium: 30 players sign up on a 360 px phone, the waiting list moves up after a
withdrawal, the desk checks them in at the door with a scanner (code + Enter) and by name, and the draw
seats exactly the players who are here. Screenshots: test-artifacts/signup-*.png and checkin-*.png."""

import re

import pytest
from django.contrib.auth import get_user_model
from reportlab.graphics.barcode import qrencoder

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, wait_until
from tests.factories import ClubFactory, TournamentFactory
from tournaments.models import ClubMembership, Registration, Seat, SignUp, SignUpOptions
from tournaments.services.signups import signup_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1366, "height": 768}
CAPACITY = 28
CLUBS = ["Schafkopffreunde Musterdorf", "SC Grün-Weiß Oberhaching"]
FIRST = ["Sepp", "Resi", "Franz", "Vroni", "Hias", "Kathi", "Wastl", "Zenzi", "Girgl", "Burgi"]
LAST = ["Huber", "Maier", "Gruber", "Wimmer", "Bauer", "Ächter", "Lechner", "Öttl", "Zehetmair", "Brandl"]


def people() -> list[tuple[str, str, str, str]]:
    """30 people: first name, last name, club (picked, typed, none), e-mail (some)."""
    result = []
    for i in range(30):
        club = CLUBS[i % 2] if i % 5 else ("Stammtisch Zur Post" if i % 10 == 0 else "")
        result.append(
            (
                FIRST[i % 10],
                f"{LAST[i // 3 % 10]}{'' if i < 10 else i}",
                club,
                f"spieler{i}@example.org" if i % 3 == 0 else "",
            )
        )
    return result


def setup_tournament():
    club = ClubFactory(name=CLUBS[0])
    ClubFactory(name=CLUBS[1])
    tournament = TournamentFactory(
        club=club, name="Herbstrennen", slug="herbst", venue="Gasthof Post, Musterdorf", entry_fee_cents=1000
    )
    SignUpOptions.objects.create(tournament=tournament, open=True, capacity=CAPACITY, waiting_list=True)
    user = get_user_model().objects.create_user("orga", password="geheim-123")
    ClubMembership.objects.create(user=user, club=club, role=ClubMembership.Role.ORGANISER)
    return tournament


def sign_up(page, base: str, person, screenshot=None) -> str:
    first, last, club, email = person
    page.goto(f"{base}/t/herbst/anmelden/")
    page.fill("#id_first_name", first)
    page.fill("#id_last_name", last)
    if club:
        page.fill("#id_club_name", club)
    if email:
        page.fill("#id_email", email)
    page.locator("#id_consent").check()
    if screenshot:
        screenshot(page, "signup-form-phone")
    page.get_by_test_id("signup-submit").click()
    page.wait_for_url(re.compile(r"/anmeldung/[\w-]+/$"))
    return page.url


def test_thirty_sign_up_on_phones_and_the_door_checks_them_in(browser, live_server, screenshot, settings):
    settings.SIGNUP_RATE = "1000/min"  # thirty sign-ups from one test address in a minute are no spam here
    tournament = setup_tournament()
    base = live_server.url
    phone = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True, is_mobile=True)
    page = phone.new_page()
    page.set_default_timeout(15_000)
    page.on("dialog", lambda dialog: dialog.accept())
    links, wide = [], {}
    try:
        for i, person in enumerate(people()):
            links.append(sign_up(page, base, person, screenshot if i == 0 else None))
            if i in (0, 29):
                width = page.evaluate("document.documentElement.scrollWidth")
                if width > PHONE["width"]:
                    wide[page.url] = width
            if i == 0:
                screenshot(page, "signup-confirmation-phone")
                assert page.get_by_test_id("start-number").inner_text() == "1"
                page.get_by_test_id("signup-qr").wait_for()
                assert page.evaluate("document.querySelector('[data-testid=signup-qr]').naturalWidth") > 0
        # The last two are on the waiting list.
        assert page.get_by_test_id("waiting-position").inner_text() == "2"
        screenshot(page, "signup-waiting-phone")
        assert SignUp.objects.filter(status="place").count() == CAPACITY
        assert list(SignUp.objects.filter(status="waiting").values_list("last_name", flat=True)) == [
            people()[28][1],
            people()[29][1],
        ]

        # Number 5 cannot come and withdraws through his link: the first of the waiting list moves up.
        page.goto(links[4])
        page.get_by_test_id("signup-withdraw").click()
        page.get_by_test_id("signup-status").and_(page.locator("[data-status=withdrawn]")).wait_for()
        page.goto(links[28])
        assert page.get_by_test_id("start-number").inner_text() == str(CAPACITY + 1)
        screenshot(page, "signup-moved-up-phone")
        page.goto(links[29])
        assert page.get_by_test_id("waiting-position").inner_text() == "1"
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            wide[page.url] = width
    finally:
        phone.close()
    assert not wide, f"wider than {PHONE['width']} px: {wide}"

    # At the door: the desk's laptop with a USB scanner, which types each code and Enter.
    desk = browser.new_context(viewport=LAPTOP, locale="de-DE")
    page = desk.new_page()
    page.set_default_timeout(15_000)
    page.on("dialog", lambda dialog: dialog.accept())
    try:
        page.goto(f"{base}/accounts/login/?next=/o/herbst/einlass/")
        page.fill("#id_username", "orga")
        page.fill("#id_password", "geheim-123")
        page.locator("main button[type=submit]").click()
        page.wait_for_url("**/o/herbst/einlass/")
        page.wait_for_load_state("load")
        with_place = [i for i in range(29) if i != 4]  # 28 with a place (the 29th moved up)
        by_name = with_place[-2:]  # these two forgot their phones
        code = page.get_by_test_id("checkin-code")
        for i in with_place[:-2]:
            code.press_sequentially(links[i], delay=2)  # no waiting for the answer: the next code comes at once
            code.press("Enter")
        wait_until(page, "document.querySelector('[data-testid=count-present]').textContent.trim() === '26'")
        assert page.locator('[data-testid="checkin-result"][data-outcome="checked_in"]').count() == 26
        assert page.get_by_test_id("count-paid").inner_text() == "26"
        assert page.get_by_test_id("count-missing").inner_text() == "2"
        # The same code again (a second scan): nothing doubles.
        code.press_sequentially(links[0], delay=2)
        code.press("Enter")
        page.locator('[data-testid="checkin-result"][data-outcome="already"]').wait_for()
        # The one still on the waiting list came anyway: noted at the door.
        code.press_sequentially(links[29], delay=2)
        code.press("Enter")
        page.locator('[data-testid="checkin-result"][data-outcome="waiting"]').wait_for()

        for i in by_name:
            reg = SignUp.objects.get(key=links[i].rstrip("/").rsplit("/", 1)[1]).registration
            page.get_by_test_id("checkin-search").fill(people()[i][1])
            page.get_by_test_id(f"checkin-by-name-{reg.start_number}").click()
            page.locator(f'[data-testid="checkin-result"][data-number="{reg.start_number}"]').wait_for()
        wait_until(page, "document.querySelector('[data-testid=count-present]').textContent.trim() === '28'")
        assert page.get_by_test_id("count-missing").inner_text() == "0"
        assert page.get_by_test_id("checkin-code").evaluate("el => el === document.activeElement")
        screenshot(page, "checkin-laptop", full_page=False)
        page.set_viewport_size({"width": 360, "height": 740})
        screenshot(page, "checkin-phone")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"the check-in page is {width} px wide on a phone"
        page.set_viewport_size(LAPTOP)

        present = set(Registration.objects.filter(tournament=tournament, checked_in=True).values_list("pk", flat=True))
        assert len(present) == CAPACITY
        assert Registration.objects.filter(tournament=tournament, checked_in=True, paid=True).count() == CAPACITY

        # Close check-in (the waiting list may fill free places: there are none), then draw.
        page.get_by_test_id("checkin-close").click()
        page.get_by_test_id("checkin-closed").wait_for()
        page.goto(f"{base}/o/herbst/runden/")
        page.get_by_test_id("draw").click()
        page.locator('[data-testid="round-1"][data-status="drawn"]').wait_for()
        seated = set(Seat.objects.filter(round__tournament=tournament).values_list("registration_id", flat=True))
        assert seated == present
        assert SignUp.objects.get(key=links[29].rstrip("/").rsplit("/", 1)[1]).status == "waiting"
        page.goto(f"{base}/o/herbst/anmeldungen/")
        screenshot(page, "signup-list-laptop")
    finally:
        desk.close()


def qr_video(path, text: str, size: int = 480) -> None:
    """A Y4M video (what Chromium's fake camera plays) that shows the QR code of ``text``, black on white."""
    qr = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    qr.addData(text)
    qr.make()
    count = qr.getModuleCount()
    scale = (size * 3 // 4) // (count + 8)
    offset = (size - count * scale) // 2
    luma = bytearray(b"\xff" * size * size)
    for row in range(count):
        for col in range(count):
            if qr.isDark(row, col):
                for y in range(offset + row * scale, offset + (row + 1) * scale):
                    start = y * size + offset + col * scale
                    luma[start : start + scale] = b"\x00" * scale
    chroma = b"\x80" * (size // 2) * (size // 2)
    frame = b"FRAME\n" + bytes(luma) + chroma + chroma
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{size} H{size} F5:1 Ip A1:1 C420jpeg\n".encode())
        f.write(frame * 5)


def test_the_phone_camera_reads_the_code_under_the_content_security_policy(browser, live_server, screenshot, tmp_path):
    """Chromium's fake camera shows a player's QR code; the vendored reader decodes it (in its worker, which the
    check-in page's policy allows as a blob) and the player is checked in once, though the camera sees the
    code again and again."""
    tournament = setup_tournament()
    entry = signup_create(tournament=tournament, first_name="Kathi", last_name="Kamera", consent=True)
    video = tmp_path / "qr.y4m"
    qr_video(video, f"{live_server.url}/anmeldung/{entry.key}/")
    camera_browser = browser.browser_type.launch(
        executable_path=CHROMIUM,
        headless=True,
        args=CHROMIUM_ARGS
        + [
            "--use-fake-device-for-media-stream",
            "--use-fake-ui-for-media-stream",
            f"--use-file-for-fake-video-capture={video}",
        ],
    )
    problems = []
    try:
        context = camera_browser.new_context(
            viewport=PHONE, locale="de-DE", has_touch=True, is_mobile=True, permissions=["camera"]
        )
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda err: problems.append(str(err)))
        page.goto(f"{live_server.url}/accounts/login/?next=/o/herbst/einlass/")
        page.fill("#id_username", "orga")
        page.fill("#id_password", "geheim-123")
        page.locator("main button[type=submit]").click()
        page.wait_for_url("**/o/herbst/einlass/")
        page.wait_for_load_state("load")
        page.get_by_test_id("camera-toggle").click()
        page.locator('[data-testid="checkin-result"][data-outcome="checked_in"]').wait_for(timeout=30_000)
        page.wait_for_timeout(1500)  # the camera keeps seeing the code
        screenshot(page, "checkin-camera-phone")
        page.get_by_test_id("camera-toggle").click()
        assert page.locator('[data-testid="checkin-result"][data-outcome="checked_in"]').count() == 1
        assert page.get_by_test_id("count-present").inner_text() == "1"
        context.close()
    finally:
        camera_browser.close()
    entry.refresh_from_db()
    assert entry.registration.checked_in and entry.registration.paid
    assert not [p for p in problems if "Content Security Policy" in p or "Refused" in p], problems
