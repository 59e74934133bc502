"""The desk, the rounds page and the public seat list, driven in headless Chromium like a person would."""

import re

import pytest
from django.contrib.auth import get_user_model

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tournaments.models import ClubMembership, Registration, Seat
from tournaments.services.registration import registration_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 800}


def organiser(club):
    user = get_user_model().objects.create_user("orga", password="geheim-123")
    ClubMembership.objects.create(user=user, club=club, role=ClubMembership.Role.ORGANISER)
    return user


def log_in(page, next_url: str) -> None:
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": page.base_url}])
    page.goto(f"{page.base_url}/accounts/login/?next={next_url}")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "geheim-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_url(f"**{next_url}")


def test_register_check_in_draw_and_find_a_player_on_the_seat_list(page, screenshot):
    club = ClubFactory(name="Schafkopffreunde Musterdorf")
    tournament = TournamentFactory(club=club, name="Herbstrennen", slug="herbstrennen")
    organiser(club)
    # Six players registered beforehand (not here yet); two more are in the club's database.
    for first, last in [
        ("Josef", "Bauer"),
        ("Maria", "Maier"),
        ("Franz", "Wimmer"),
        ("Theresa", "Gruber"),
        ("Quirin", "Ächter"),
        ("Resi", "Lechner"),
    ]:
        registration_create(tournament=tournament, player=PlayerFactory(first_name=first, last_name=last, club=club))
    anna = PlayerFactory(first_name="Anna", last_name="Huber", club=club)
    PlayerFactory(first_name="Hans", last_name="Huber", club=club)
    desk_url = "/o/herbstrennen/meldestelle/"
    log_in(page, desk_url)

    # Search as you type, register Anna Huber as paid and here.
    page.get_by_test_id("desk-search").fill("hub")
    page.get_by_test_id(f"register-here-{anna.pk}").wait_for()
    screenshot(page, "desk-search-tablet")
    page.get_by_test_id(f"register-here-{anna.pk}").click()
    page.wait_for_url(re.compile(r"/meldestelle/$"))
    anna_reg = Registration.objects.get(player=anna)
    assert anna_reg.start_number == 7 and anna_reg.paid and anna_reg.checked_in

    # Quick-add a new person: the search that found nobody fills in the name.
    page.get_by_test_id("desk-search").fill("Korbinian Zehetmair")
    page.get_by_test_id("quick-add-form").wait_for()
    assert page.locator("#id_last_name").input_value() == "Zehetmair"
    assert page.locator("#id_first_name").input_value() == "Korbinian"
    page.locator("#quick-add label.check", has_text="checked in").click()
    page.get_by_test_id("quick-add-submit").click()
    page.wait_for_url(re.compile(r"/meldestelle/$"))
    new = Registration.objects.get(player__last_name="Zehetmair")
    assert new.start_number == 8 and new.checked_in and not new.paid

    # Check in the six others with the toggles (htmx updates the row and the counts in place).
    for number in range(1, 7):
        page.get_by_test_id(f"checkin-{number}").click()
        page.locator(f'[data-testid="checkin-{number}"][aria-pressed="true"]').wait_for()
    page.get_by_test_id("paid-1").click()
    page.locator('[data-testid="paid-1"][aria-pressed="true"]').wait_for()
    assert page.get_by_test_id("checked-in-count").inner_text() == "8"
    assert page.get_by_test_id("paid-count").inner_text() == "2"
    assert page.get_by_test_id("draw-check").get_attribute("data-tables") == "4,4"
    assert Registration.objects.filter(tournament=tournament, checked_in=True).count() == 8
    screenshot(page, "desk-checked-in-tablet")
    page.set_viewport_size(LAPTOP)
    screenshot(page, "desk-checked-in-laptop")

    # Draw and publish on the rounds page.
    page.get_by_test_id("to-rounds").click()
    page.get_by_test_id("draw").click()
    page.locator('[data-testid="round-1"][data-status="drawn"]').wait_for()
    assert page.locator('[data-testid^="table-1-"]').count() == 2
    screenshot(page, "rounds-drawn-laptop")
    page.get_by_test_id("publish-1").click()
    page.locator('[data-testid="round-1"][data-status="published"]').wait_for()

    # The desk shows each player's seat now.
    page.get_by_test_id("nav-desk").click()
    seat = Seat.objects.select_related("table").get(registration=anna_reg)
    assert f"{seat.table.number}" in page.get_by_test_id(f"status-{anna_reg.start_number}").inner_text()

    # The public seat list: find Anna by typing part of her name, on a phone.
    page.set_viewport_size({"width": 412, "height": 915})
    page.goto(f"{page.base_url}/t/herbstrennen/")
    page.get_by_test_id("to-seatlist").click()
    page.wait_for_load_state("load")
    rows = page.get_by_test_id("seat-row")
    assert rows.count() == 8
    assert rows.first.inner_text().startswith("Ächter")  # umlauts sort with their base letter
    page.get_by_test_id("seat-search").fill("anna hu")
    visible = page.locator('[data-testid="seat-row"]:visible')
    assert visible.count() == 1
    assert "Huber, Anna" in visible.inner_text()
    assert visible.get_by_test_id("seat-table").inner_text() == str(seat.table.number)
    assert visible.get_by_test_id("seat-seat").inner_text() == str(seat.number)
    screenshot(page, "seatlist-search-phone")
    page.get_by_test_id("seat-search").fill("")
    screenshot(page, "seatlist-phone")
    page.get_by_test_id("tab-tables").click()
    assert page.locator('[data-testid^="seat-table-"]').count() == 2
    page.set_viewport_size({"width": 1920, "height": 1080})
    screenshot(page, "seatlist-tables-projector", full_page=False)


def test_seven_players_get_the_clear_message_and_twenty_one_sit_at_five_tables(page, screenshot):
    club = ClubFactory(name="Schafkopffreunde Musterdorf")
    tournament = TournamentFactory(club=club, name="Frühjahrsrennen", slug="fruehjahr")
    organiser(club)
    for _ in range(7):
        registration_create(tournament=tournament, player=PlayerFactory(club=club), paid=True, checked_in=True)
    log_in(page, "/o/fruehjahr/runden/")
    page.set_viewport_size(LAPTOP)
    assert page.get_by_test_id("draw-check").get_attribute("data-tables") == ""
    page.get_by_test_id("draw").click()
    error = page.get_by_test_id("round-error")
    error.wait_for()
    assert "7 players cannot be seated" in error.inner_text()
    assert "add 1" in error.inner_text() and "withdraw 2" in error.inner_text()
    screenshot(page, "rounds-seven-players-laptop")
    assert not tournament.rounds.exists()

    for _ in range(14):
        registration_create(tournament=tournament, player=PlayerFactory(club=club), paid=True, checked_in=True)
    page.goto(f"{page.base_url}/o/fruehjahr/runden/")
    assert page.get_by_test_id("draw-check").get_attribute("data-tables") == "5,4,4,4,4"
    page.get_by_test_id("draw").click()
    page.locator('[data-testid="round-1"][data-status="drawn"]').wait_for()
    sizes = [page.get_by_test_id(f"table-1-{n}").get_attribute("data-size") for n in range(1, 6)]
    assert sorted(sizes) == ["4", "4", "4", "4", "5"]
    assert page.locator('[data-testid^="table-1-"]').count() == 5
    screenshot(page, "rounds-twenty-one-laptop")
    page.set_viewport_size({"width": 800, "height": 1280})
    screenshot(page, "rounds-twenty-one-tablet")

    # Before publishing, the public seat list says so; afterwards a projector shows all 21.
    response = page.goto(f"{page.base_url}/t/fruehjahr/sitzplan/")
    assert response.status == 404
    assert page.get_by_test_id("seatlist-pending").is_visible()
    page.goto(f"{page.base_url}/o/fruehjahr/runden/")
    page.get_by_test_id("publish-1").click()
    page.locator('[data-testid="round-1"][data-status="published"]').wait_for()
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{page.base_url}/t/fruehjahr/sitzplan/?refresh=60")
    assert page.get_by_test_id("seat-row").count() == 21
    screenshot(page, "seatlist-projector", full_page=False)
