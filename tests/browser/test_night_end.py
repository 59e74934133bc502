"""The end of the night in a browser (issue 34, part B): two Hans Meiers told apart by their start numbers on
the public lists, a place decided by lot named on the prize list and the player's page, and the tournament
finished from the console, after which the public standings say "Endstand"."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.pdf.test_prize_giving import lot_pair
from tournaments.models import Club, ClubMembership, Player, Registration, Tournament
from tournaments.services.prizes import prizes_set
from tournaments.services.simulation import tournament_simulate
from tournaments.services.standings import standings_recompute

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 640}


def test_namesakes_a_lot_and_the_finish(browser, page, live_server):
    # The rehearsal of the prize tests (a lot decides two places), played but not finished yet, with two
    # Hans Meiers from two clubs.
    tournament = tournament_simulate(slug="ende-21", players=21, rounds=2, games=8, seed=4)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING, standings_public=True)
    first, second = tournament.registrations.order_by("start_number")[:2]
    Player.objects.filter(pk=first.player_id).update(
        first_name="Hans", last_name="Meier", club=Club.objects.create(name="SK Öd")
    )
    Player.objects.filter(pk=second.player_id).update(
        first_name="Hans", last_name="Meier", club=Club.objects.create(name="Kartler Au")
    )
    standings_recompute(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    meiers = [f"Hans Meier ({first.start_number}, SK Öd)", f"Hans Meier ({second.start_number}, Kartler Au)"]
    above, below = lot_pair(tournament)
    prizes_set(
        tournament=tournament,
        prizes=[
            {"place": above["rank"], "amount_cents": 4000, "goods": ""},
            {"place": below["rank"], "amount_cents": 3000, "goods": ""},
        ],
    )

    # The public lists on a phone: both Meiers with their start numbers (and clubs).
    phone = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True, is_mobile=True).new_page()
    phone.set_default_timeout(15_000)
    try:
        by_last_name = [name.replace("Hans Meier", "Meier, Hans") for name in meiers]  # the seat list's order
        for path, names in (
            (f"/t/{tournament.slug}/sitzplan/", by_last_name),
            (f"/t/{tournament.slug}/rangliste/", meiers),
            (f"/t/{tournament.slug}/rangliste/beamer/", meiers),
        ):
            phone.goto(live_server.url + path)
            body = phone.locator("body")
            for name in names:
                expect(body).to_contain_text(name)
        # The player's page of the one the lot put below: his lot and his prize show once the evening is finished.
        key = Registration.objects.get(pk=below["registration"]).key
        phone.goto(f"{live_server.url}/s/{key}/")
        expect(phone.get_by_test_id("player-rank")).to_be_visible()
        expect(phone.get_by_test_id("player-prize")).to_have_count(0)

        # The organiser: the prize list names the lot; the console offers to finish, and finishes.
        user = get_user_model().objects.create_user("ende", password="pw-ende-1")
        ClubMembership.objects.create(user=user, club=tournament.club, role=ClubMembership.Role.ORGANISER)
        page.goto(f"{page.base_url}/accounts/login/?next=/o/{tournament.slug}/preise/")
        page.fill("#id_username", "ende")
        page.fill("#id_password", "pw-ende-1")
        page.locator("main button[type=submit]").click()
        page.wait_for_url(f"**/o/{tournament.slug}/preise/")
        for row in (above, below):
            expect(page.locator(f"#award-{row['start_number']}")).to_contain_text("Gleichstand – durch Los")
        expect(page.get_by_test_id("prize-by-lot").first).to_have_text("Gleichstand – durch Los")

        page.goto(f"{page.base_url}/o/{tournament.slug}/")
        page.get_by_test_id("finish-tournament").click()
        page.locator("ul.messages li.success").wait_for()
        expect(page.get_by_test_id("next-end")).to_be_visible()
        assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED

        phone.goto(f"{live_server.url}/t/{tournament.slug}/rangliste/")
        expect(phone.get_by_test_id("standings-progress")).to_contain_text("Endstand")
        phone.goto(f"{live_server.url}/s/{key}/")
        expect(phone.get_by_test_id("player-prize")).to_contain_text("30,00 €")
        expect(phone.get_by_test_id("player-by-lot")).to_have_text("Gleichstand – durch Los")
    finally:
        phone.context.close()
