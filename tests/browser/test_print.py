"""The print page of a round in headless Chromium: build the print pack, watch it finish, download it."""

import pytest
from django.contrib.auth import get_user_model

from scoring.storage import stored_record
from tests.pdf.test_print_trust import broker_down
from tournaments.models import ClubMembership, Hand, PrintPack
from tournaments.services.hands import hand_correct
from tournaments.services.printing import round_print_pack_build, round_print_pack_state
from tournaments.services.rounds import round_draw
from tournaments.services.simulation import round_simulate, tournament_simulate_setup

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 800}


@pytest.fixture(autouse=True)
def _media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


def test_build_the_print_pack_and_download_it(page, screenshot):
    tournament = tournament_simulate_setup(slug="druck-browser", players=21, rounds=2, games=32, seed=3)
    (rnd,) = round_draw(tournament=tournament, seed=3)
    round_simulate(rnd=rnd, seed=3, close=False)
    user = get_user_model().objects.create_user("orga", password="geheim-123")
    ClubMembership.objects.create(user=user, club=tournament.club, role=ClubMembership.Role.ORGANISER)

    page.set_viewport_size(LAPTOP)
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": page.base_url}])
    target = f"/o/{tournament.slug}/runde/1/druck/"
    page.goto(f"{page.base_url}/accounts/login/?next={target}")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "geheim-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_url(f"**{target}")
    screenshot(page, "print-round-laptop")

    page.get_by_test_id("pack-build").click()  # htmx: the worker runs in-process without a broker
    download_link = page.get_by_test_id("pack-download")
    download_link.wait_for()
    assert page.get_by_test_id("pack-state").get_attribute("data-status") == "ready"
    screenshot(page, "print-round-ready-laptop")
    with page.expect_download() as info:
        download_link.click()
    assert info.value.suggested_filename == "druckpaket-druck-browser-runde-1.pdf"
    with open(info.value.path(), "rb") as fh:
        assert fh.read(5) == b"%PDF-"

    # A hand is corrected: the pack is outdated. A worker (here: this test) builds the new one while
    # the page polls its progress every second and offers the download when it is done.
    hand = Hand.objects.filter(table__round=rnd, contract="rufspiel", muss__isnull=True).first()
    hand_correct(
        hand=hand,
        record={**stored_record(hand, hand.table.size), "augen": 120 - hand.augen, "schwarz": None},
        organiser=True,
        reason="Augen vertauscht",
    )
    page.reload()
    assert page.get_by_test_id("pack-outdated").is_visible()
    url_base = page.base_url + "/"
    state = round_print_pack_state(round=rnd, url_base=url_base, language="en")
    PrintPack.objects.update_or_create(
        round=rnd, defaults={"status": "running", "fingerprint": state.fingerprint, "done": 2, "total": 5}
    )
    page.reload()
    assert page.get_by_test_id("pack-progress").inner_text().strip() == "Building: 2 of 5 score sheets …"
    screenshot(page, "print-round-running-laptop")
    round_print_pack_build(round=rnd, url_base=url_base, language="en")
    page.get_by_test_id("pack-download").wait_for(timeout=10_000)  # the next poll shows it

    page.set_viewport_size({"width": 800, "height": 1280})
    field = page.get_by_test_id("pick-table")
    field.fill("99")  # there are 5 tables: the browser refuses before anything is sent
    assert field.evaluate("e => e.validity.rangeOverflow")
    field.fill("2")
    screenshot(page, "print-round-tablet")
    with page.expect_response(lambda r: r.url.endswith(".pdf")) as response:
        page.get_by_test_id("pick-blank").click()
    assert response.value.url.endswith("/o/druck-browser/runde/1/tisch/2/spielliste-leer.pdf")
    assert response.value.status == 200 and response.value.header_value("content-type") == "application/pdf"


def test_the_print_page_with_redis_down_on_a_phone(page, screenshot):
    """Issue 13, fix 4: Redis down, the organiser's phone still gets the page and the single PDFs."""
    tournament = tournament_simulate_setup(slug="druck-ohne-redis", players=9, rounds=2, games=8, seed=5)
    round_draw(tournament=tournament, seed=5)
    user = get_user_model().objects.create_user("orga", password="geheim-123")
    ClubMembership.objects.create(user=user, club=tournament.club, role=ClubMembership.Role.ORGANISER)
    page.set_viewport_size({"width": 360, "height": 640})
    target = f"/o/{tournament.slug}/runde/1/druck/"
    page.goto(f"{page.base_url}/accounts/login/?next=/o/")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "geheim-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_url("**/o/")

    with broker_down():
        page.goto(page.base_url + target)
        notice = page.get_by_test_id("pack-unavailable")
        assert notice.is_visible() and "Druckdienst" in notice.inner_text()
        assert page.get_by_test_id("pack-build").count() == 0
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        screenshot(page, "print-round-redis-down-phone")
        page.get_by_test_id("to-single-documents").click()
        seat_list = page.get_by_test_id("doc-sitzplan")
        assert seat_list.is_visible()
        response = page.request.get(page.base_url + seat_list.get_attribute("href"))
        assert response.status == 200 and response.body()[:5] == b"%PDF-"
