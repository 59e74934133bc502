"""Issue 34's acceptance in one walk through the pages (headless Chromium, the production chain):

one evening of eight players, two tables, one round of 8 games, two of them named Hans Meier (two clubs).
- One table stops after 5 games: the organiser closes it with a reason on his laptop; the phone at that table,
  in the middle of game 6, has it refused with that reason, and after a reload says the table is closed and why.
- At the other table a player leaves after game 3: the desk names a substitute and is asked whether he pays an entry
  fee (no: he takes over a paid seat); he plays games 4-8, the table confirms.
- The round closes at once from the console; the standings mark the closed table's players (5 of 8 games and why)
  and say "für" of the substitute; the cash list names him too, and its totals balance.
- The namesakes show their start numbers (and clubs) on the seat list, the standings and the projector.
- A place decided by lot is named on the prize list, its PDF and, once finished, on the player's page.
- The tournament is finished from the console; the public standings say "Endstand".
Screenshots go to test-artifacts/night-acceptance-*.png.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_entry import tap_game
from tests.browser.test_entry_phone import new_page
from tests.browser.test_night_as_it_goes import FEE, REASON, evening, organiser
from tests.pdf.conftest import pdf_pages
from tests.pdf.test_prize_giving import lot_pair
from tests.tournaments.test_services_hands import fill, rufspiel
from tournaments.models import Club, Player, Registration, Round, Tournament
from tournaments.selectors.standings import cash_list
from tournaments.services.hands import table_confirm, table_sheet_record
from tournaments.services.prizes import prizes_set

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_night_as_it_really_goes(browser, live_server, screenshot):
    tournament, rnd = evening("nacht-34")
    meiers = list(tournament.registrations.filter(start_number__in=(5, 6)).order_by("start_number"))
    for reg, club in zip(meiers, ("SK Öd", "Kartler Au")):
        Player.objects.filter(pk=reg.player_id).update(
            first_name="Hans", last_name="Meier", club=Club.objects.create(name=club)
        )
    names = ["Hans Meier (5, SK Öd)", "Hans Meier (6, Kartler Au)"]
    leaving_table = rnd.tables.get(seats__registration__start_number=3)
    closed_table = rnd.tables.exclude(pk=leaving_table.pk).get()
    fill(closed_table, 5)
    fill(leaving_table, 3)

    # A table that stops early: closed on the laptop, refused on the phone with the reason.
    phone = new_page(browser, live_server)
    phone.goto(f"{phone.base_url}/tisch/{closed_table.entry_key}/")
    expect(phone.get_by_test_id("form-title")).to_contain_text("Spiel 6")
    tap_game(phone, rufspiel(6))  # the phone's game 6 is under way while the organiser closes the table
    desk = organiser(browser, live_server)
    desk.goto(f"{desk.base_url}/o/{tournament.slug}/tisch/{closed_table.pk}/papier/")
    close = desk.get_by_test_id("table-close-form")
    close.locator("input[type=text]").fill(REASON)
    close.get_by_test_id("table-close").click()
    expect(desk.get_by_test_id("table-closed-reason")).to_contain_text(REASON)
    phone.get_by_test_id("save").click()
    expect(phone.locator(".q-reason")).to_contain_text(f"Tisch geschlossen von der Turnierleitung: {REASON}")
    assert closed_table.hands.count() == 5
    phone.reload()
    expect(phone.get_by_test_id("table-closed-banner")).to_have_text(
        f"Tisch geschlossen von der Turnierleitung: {REASON}"
    )
    expect(phone.get_by_test_id("game-form")).to_have_count(0)
    assert "Danke!" not in phone.content() and "Spiel 6 speichern" not in phone.content()
    screenshot(phone, "night-acceptance-phone-closed")

    # A player who leaves: the substitute, the fee question (no), the rest of the round.
    desk.on("dialog", lambda dialog: dialog.accept())  # "Withdraw ...?"
    desk.goto(f"{desk.base_url}/o/{tournament.slug}/meldestelle/")
    desk.get_by_test_id("withdraw-3").click()
    desk.get_by_test_id("substitute-3").click()
    desk.wait_for_url(re.compile(r"/ersatz/"))
    desk.fill("#id_first_name", "Quirin")
    desk.fill("#id_last_name", "Ächter")
    desk.get_by_test_id("substitute-new").click()
    expect(desk.locator("h1")).to_have_text("Zahlt Quirin Ächter ein Startgeld?")
    desk.get_by_test_id("substitute-fee").get_by_test_id("fee-no").click()
    desk.wait_for_url(re.compile(r"/meldestelle/"))
    sub = Registration.objects.get(substitute_for__start_number=3)
    assert (sub.paid, sub.fee_due) == (False, False)
    expect(desk.get_by_test_id("status-3")).to_contain_text("ausgeschieden in Runde 1")
    table_sheet_record(table=leaving_table, records=[rufspiel(n) for n in range(4, 9)])
    for seat in range(1, 5):
        table_confirm(table=leaving_table, seat=seat)

    # The round closes at once; the standings mark the closed table and say "für".
    desk.goto(f"{desk.base_url}/o/{tournament.slug}/")
    desk.get_by_test_id("close-1").click()
    desk.wait_for_url(re.compile(rf"/o/{tournament.slug}/runden/"))
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.CLOSED
    desk.goto(f"{desk.base_url}/t/{tournament.slug}/rangliste/")
    expect(desk.locator(".short-games")).to_have_count(4)
    expect(desk.locator(".short-games").first).to_have_text(
        f"Runde 1: 5 von 8 Spielen (Tisch {closed_table.number}: {REASON})"
    )
    expect(desk.locator(f'tr[data-start-number="{sub.start_number}"]')).to_contain_text(
        "Quirin Ächter (für Vor3 Nach3)"
    )
    screenshot(desk, "night-acceptance-standings")
    desk.goto(f"{desk.base_url}/o/{tournament.slug}/kasse/")
    expect(desk.locator(f'[data-testid="cash-players"] tr[data-start="{sub.start_number}"]')).to_contain_text(
        "Quirin Ächter (für Vor3 Nach3)"
    )
    cash = cash_list(tournament)
    assert (cash.fees_collected_cents, cash.fees_owed_cents) == (8 * FEE, 0) and cash.balances
    assert desk.get_by_test_id("paid-in").inner_text() == desk.get_by_test_id("paid-out").inner_text()

    # Namesakes on every public list (a phone), with their start numbers and clubs.
    for path, shown in (
        (f"/t/{tournament.slug}/sitzplan/", [n.replace("Hans Meier", "Meier, Hans") for n in names]),
        (f"/t/{tournament.slug}/rangliste/", names),
        (f"/t/{tournament.slug}/rangliste/beamer/", names),
    ):
        phone.goto(live_server.url + path)
        for name in shown:
            expect(phone.locator("body")).to_contain_text(name)
    screenshot(phone, "night-acceptance-namesakes")

    # A tie by lot: named on the prize list, its PDF and (after the finish) the player's page.
    above, below = lot_pair(tournament)
    prizes_set(
        tournament=tournament,
        prizes=[
            {"place": above["rank"], "amount_cents": 4000, "goods": ""},
            {"place": below["rank"], "amount_cents": 3000, "goods": ""},
        ],
    )
    desk.goto(f"{desk.base_url}/o/{tournament.slug}/preise/")
    for row in (above, below):
        expect(desk.locator(f"#award-{row['start_number']}")).to_contain_text("Gleichstand – durch Los")
    pdf = desk.request.get(f"{desk.base_url}/o/{tournament.slug}/druck/preisliste.pdf")
    assert pdf.ok and "Gleichstand – durch Los" in " ".join(" ".join(page) for page in pdf_pages(pdf.body()))
    screenshot(desk, "night-acceptance-prizes")

    # The finish from the console: Endstand; the player's page shows his prize and the lot.
    desk.goto(f"{desk.base_url}/o/{tournament.slug}/")
    desk.get_by_test_id("finish-tournament").click()
    desk.locator("ul.messages li.success").wait_for()
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    phone.goto(f"{live_server.url}/t/{tournament.slug}/rangliste/")
    expect(phone.get_by_test_id("standings-progress")).to_contain_text("Endstand")
    phone.goto(f"{live_server.url}/s/{Registration.objects.get(pk=below['registration']).key}/")
    expect(phone.get_by_test_id("player-prize")).to_contain_text("30,00 €")
    expect(phone.get_by_test_id("player-by-lot")).to_have_text("Gleichstand – durch Los")
    screenshot(phone, "night-acceptance-player")
    phone.context.close()
    desk.context.close()
