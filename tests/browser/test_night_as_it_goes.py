"""Issue 34 (part A) in headless Chromium: a table that stops early, a player who leaves mid-round.

Eight players at two tables, one round of 8 games. Table 2 stops after 5 games (a player fell ill): the
organiser closes it with a reason on his laptop; the phone at table 2, still open on game 6, has its game 6
refused with that reason, and after a reload says the table is closed and why instead of offering game 6.
The round closes at once. In a second evening a player leaves during the round: the desk withdraws him and
names a substitute, is asked whether the substitute pays an entry fee (no: he takes over a paid seat), and
the standings and the cash list say so; the cash list's totals balance against what came in.
Screenshots go to test-artifacts/night-*.png.
"""

import re

import pytest
from django.contrib.auth import get_user_model

from tests.browser.test_entry import expect, tap_game
from tests.browser.test_entry_phone import LAPTOP, new_page
from tests.factories import ClubFactory, PlayerFactory
from tests.tournaments.test_services_hands import fill, rufspiel
from tournaments.models import ClubMembership, Registration, Round, Tournament
from tournaments.selectors.standings import cash_list
from tournaments.services.hands import table_confirm, table_sheet_record
from tournaments.services.registration import registration_create
from tournaments.services.rounds import round_draw, round_publish
from tournaments.services.tournament import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REASON = "Spieler krank nach Spiel 5"
FEE = 1000


def evening(slug: str) -> tuple[Tournament, Round]:
    """Eight paid players (10 €), one round of 8 games drawn and published; the organiser "orga"."""
    club = ClubFactory(name="Schafkopffreunde Musterdorf")
    user = get_user_model().objects.create_user("orga", password="geheim-123")
    ClubMembership.objects.create(user=user, club=club, role=ClubMembership.Role.ORGANISER)
    tournament = tournament_create(
        club=club,
        name="Kirchweihrennen",
        slug=slug,
        date=__import__("datetime").date(2026, 10, 17),
        venue="Gasthaus zur Post",
        rules={"rounds": 1, "games_per_round": 8},
    )
    Tournament.objects.filter(pk=tournament.pk).update(entry_fee_cents=FEE, standings_public=True)
    tournament.refresh_from_db()
    for i in range(1, 9):
        registration_create(
            tournament=tournament,
            player=PlayerFactory(first_name=f"Vor{i}", last_name=f"Nach{i}", club=club),
            paid=True,
            checked_in=True,
        )
    (rnd,) = round_draw(tournament=tournament, seed=3)
    return tournament, round_publish(round=rnd)


def organiser(browser, live_server):
    page = new_page(browser, live_server, LAPTOP)
    page.goto(f"{page.base_url}/accounts/login/?next=/o/")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "geheim-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_url("**/o/")
    return page


def test_a_table_closed_after_5_of_8_games_refuses_game_6_and_says_why_and_the_round_closes_at_once(
    browser, live_server, screenshot
):
    tournament, rnd = evening("kirchweih")
    first, second = rnd.tables.order_by("number")
    fill(first, 8)
    for seat in range(1, 5):
        table_confirm(table=first, seat=seat)
    fill(second, 5)
    phone = new_page(browser, live_server)
    phone.goto(f"{phone.base_url}/tisch/{second.entry_key}/")
    expect(phone.get_by_test_id("form-title")).to_contain_text("Spiel 6")
    # game 6 is tapped in before the organiser closes the table (the phone's poll may replace the form
    # once the table is closed, and a tap must not race it)
    tap_game(phone, rufspiel(6))

    desk = organiser(browser, live_server)
    desk.goto(f"{desk.base_url}/o/{tournament.slug}/tisch/{second.pk}/papier/")
    close = desk.get_by_test_id("table-close-form")
    close.locator("input[type=text]").fill(REASON)
    close.get_by_test_id("table-close").click()
    expect(desk.get_by_test_id("table-closed-reason")).to_contain_text(REASON)
    screenshot(desk, "night-table-closed-laptop")

    # the phone was still on game 6: it is refused with the organiser's reason, and nothing is stored
    phone.get_by_test_id("save").click()
    expect(phone.locator(".q-reason")).to_contain_text(f"Tisch geschlossen von der Turnierleitung: {REASON}")
    assert second.hands.count() == 5
    screenshot(phone, "night-phone-game-6-refused")
    phone.reload()
    expect(phone.get_by_test_id("table-closed-banner")).to_have_text(
        f"Tisch geschlossen von der Turnierleitung: {REASON}"
    )
    expect(phone.get_by_test_id("game-form")).to_have_count(0)
    assert "Danke!" not in phone.content() and "Spiel 6 speichern" not in phone.content()
    screenshot(phone, "night-phone-table-closed")

    # the round closes at once, and the standings say who played 5 of 8 games and why
    desk.goto(f"{desk.base_url}/o/{tournament.slug}/")
    desk.get_by_test_id("close-1").click()
    desk.wait_for_url(re.compile(rf"/o/{tournament.slug}/runden/"))
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED
    desk.goto(f"{desk.base_url}/t/{tournament.slug}/rangliste/")
    marks = desk.locator(".short-games")
    expect(marks).to_have_count(4)
    expect(marks.first).to_have_text(f"Runde 1: 5 von 8 Spielen (Tisch 2: {REASON})")
    screenshot(desk, "night-standings-short-table")
    phone.context.close()
    desk.context.close()


def test_a_substitute_mid_round_the_fee_question_the_standings_and_a_cash_list_that_balances(
    browser, live_server, screenshot
):
    tournament, rnd = evening("kirchweih")
    table = rnd.tables.get(seats__registration__start_number=3)
    fill(table, 3)
    desk = organiser(browser, live_server)
    desk.on("dialog", lambda dialog: dialog.accept())  # "Withdraw ...?"
    desk.goto(f"{desk.base_url}/o/{tournament.slug}/meldestelle/")
    desk.get_by_test_id("withdraw-3").click()
    desk.get_by_test_id("substitute-3").click()
    desk.wait_for_url(re.compile(r"/ersatz/"))
    desk.fill("#id_first_name", "Quirin")
    desk.fill("#id_last_name", "Ächter")
    desk.get_by_test_id("substitute-new").click()
    question = desk.get_by_test_id("substitute-fee")
    expect(desk.locator("h1")).to_have_text("Zahlt Quirin Ächter ein Startgeld?")
    screenshot(desk, "night-substitute-fee-question")
    question.get_by_test_id("fee-no").click()
    desk.wait_for_url(re.compile(r"/meldestelle/"))
    sub = Registration.objects.get(substitute_for__start_number=3)
    assert (sub.paid, sub.fee_due) == (False, False)
    expect(desk.get_by_test_id("status-3")).to_contain_text("ausgeschieden in Runde 1")
    expect(desk.get_by_test_id(f"paid-{sub.start_number}")).to_contain_text("kein Startgeld")

    # the substitute plays on in the seat: the rest of the round, all confirm
    table_sheet_record(table=table, records=[rufspiel(n) for n in range(4, 9)])  # the sheet goes on from game 4
    desk.goto(f"{desk.base_url}/t/{tournament.slug}/rangliste/")
    row = desk.locator(f'tr[data-start-number="{sub.start_number}"]')
    expect(row).to_contain_text("Quirin Ächter (für Vor3 Nach3)")
    screenshot(desk, "night-standings-substitute")

    desk.goto(f"{desk.base_url}/o/{tournament.slug}/kasse/")
    expect(desk.locator(f'[data-testid="cash-players"] tr[data-start="{sub.start_number}"]')).to_contain_text(
        "Quirin Ächter (für Vor3 Nach3)"
    )
    cash = cash_list(tournament)
    assert (cash.fees_collected_cents, cash.fees_owed_cents) == (8 * FEE, 0) and cash.balances
    euro = lambda cents: f"{cents // 100},{cents % 100:02d} €"  # noqa: E731
    assert desk.get_by_test_id("in-fees").inner_text() == euro(8 * FEE)
    assert (
        desk.get_by_test_id("paid-in").inner_text()
        == desk.get_by_test_id("paid-out").inner_text()
        == euro(cash.paid_in_cents)
    )
    screenshot(desk, "night-cash-list")
    desk.context.close()
