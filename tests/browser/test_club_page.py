"""The club page (the organiser's players, the CSV import) fits a phone, a tablet held upright and a laptop:
no sideways scrolling (issue 15: its players table was 430 px wide on a 360 px phone).
Screenshots go to test-artifacts/club-<device>.png."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournaments.models import Player
from tournaments.services.demo import demo_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {
    "phone": {"width": 360, "height": 640},
    "tablet": {"width": 800, "height": 1280},
    "laptop": {"width": 1366, "height": 768},
}


@pytest.mark.parametrize("device", list(VIEWPORTS))
def test_the_club_page_fits_without_sideways_scrolling(device, browser, live_server, screenshot):
    tournament, username, _password = demo_create()
    club = tournament.club
    # the longest a contact and a name get in a real club
    player = Player.objects.filter(club=club).order_by("pk").first()
    player.contact = "korbinian.obermeier-zehetmair@schafkopffreunde-musterdorf.de, 0171 2345678"
    player.last_name = "Obermeier-Zehetmair"
    player.save(update_fields=["contact", "last_name"])
    user = get_user_model().objects.get(username=username)
    viewport = VIEWPORTS[device]
    context = browser.new_context(
        viewport=viewport, locale="de-DE", has_touch=device != "laptop", is_mobile=device == "phone"
    )
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
    page = context.new_page()
    try:
        page.goto(live_server.url + reverse("tournaments:club", args=[club.pk]))
        page.wait_for_load_state("load")
        assert page.locator('[data-testid="players"]').is_visible()
        assert "Obermeier-Zehetmair" in page.locator('[data-testid="players"]').inner_text()
        screenshot(page, f"club-{device}")
        widths = page.evaluate(
            "[document.documentElement.scrollWidth, "
            "document.querySelector('[data-testid=players]').getBoundingClientRect().right]"
        )
    finally:
        context.close()
    assert max(widths) <= viewport["width"], f"{device}: {widths} wider than {viewport['width']} px"
