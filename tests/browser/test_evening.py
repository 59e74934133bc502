"""Acceptance of issue 15: the organiser's evening through the console, in headless Chromium.

Eight players at two tables, one round, shared places instead of a lot. Player 5 checked in but has
not paid: the console warns before the draw and the cash list shows his fee as owed. Both tables play
the same games, so seat by seat the players tie and two share first place. Table 2 confirms, then a
game is corrected: its tablet says so and marks the game, three players confirm again and the organiser
confirms for the absent fourth. The standings meanwhile are provisional with the round's progress;
after the close the public page leads with the podium. Prizes on the shared places split as the rule
says; the cash list and its PDF balance; the archive goes down and up through the console. Screenshots
at 1366 × 768 and 800 × 1280 go to test-artifacts/evening-*.png; no console page scrolls sideways.
"""

import io
import json
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from pypdf import PdfReader

from tests.browser.test_entry import expect
from tests.browser.test_whole_tournament import ROUND, download
from tests.factories import ClubFactory, PlayerFactory
from tournaments.models import ClubMembership, Registration, Round, Table, Tournament
from tournaments.selectors.standings import cash_list, prize_list
from tournaments.services.hands import hand_correct, table_confirm, table_sheet_record
from tournaments.services.registration import registration_create
from tournaments.services.tournament import tournament_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1366, "height": 768}
TABLET = {"width": 800, "height": 1280}
NAMES = [
    ("Josef", "Bauer"),
    ("Maria", "Maier"),
    ("Franz", "Wimmer"),
    ("Theresa", "Gruber"),
    ("Quirin", "Ächter"),
    ("Resi", "Lechner"),
    ("Anna", "Huber"),
    ("Xaver", "Zehetmair"),
]
UNPAID = 5


class Evening:
    def __init__(self, page, browser, screenshot, slug):
        self.page, self.browser, self.shot, self.slug = page, browser, screenshot, slug
        self.step = 0
        self.visited: set[str] = set()

    def go(self, path: str) -> None:
        self.page.goto(self.page.base_url + path)
        self.visited.add(path)

    def screenshot(self, name: str, page=None) -> None:
        self.step += 1
        self.shot(page or self.page, f"evening-{self.step:02d}-{name}")

    def no_sideways_scroll(self, page=None) -> None:
        page = page or self.page
        width = page.viewport_size["width"]
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= width, (page.url, scroll, width)

    def new_page(self, viewport):
        page = self.browser.new_context(viewport=viewport, locale="de-DE", has_touch=True).new_page()
        page.set_default_timeout(15_000)
        page.base_url = self.page.base_url
        return page


def setup_tournament() -> Tournament:
    club = ClubFactory(name="Schafkopffreunde Musterdorf")
    user = get_user_model().objects.create_user("orga", password="geheim-123")
    ClubMembership.objects.create(user=user, club=club, role=ClubMembership.Role.ORGANISER)
    tournament = tournament_create(
        club=club,
        name="Kirchweihrennen",
        slug="kirchweih",
        date=__import__("datetime").date(2026, 10, 17),
        venue="Gasthaus zur Post",
        rules={"rounds": 1, "games_per_round": 8, "tiebreaks": ["shared"]},
    )
    for i, (first, last) in enumerate(NAMES, start=1):
        registration_create(
            tournament=tournament,
            player=PlayerFactory(first_name=first, last_name=last, club=club),
            paid=i != UNPAID,
            checked_in=True,
        )
    return tournament


def log_in(page) -> None:
    page.goto(f"{page.base_url}/accounts/login/?next=/o/")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "geheim-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_url("**/o/")


def test_the_organisers_evening(page, browser, screenshot, tmp_path):
    tournament = setup_tournament()
    night = Evening(page, browser, screenshot, tournament.slug)
    page.set_viewport_size(LAPTOP)
    log_in(page)

    # --- before the draw: the unpaid player is named, the draw is still possible -------------------------
    night.go(f"/o/{night.slug}/")
    warning = page.get_by_test_id("unpaid-warning")
    expect(warning).to_be_visible()
    assert f"{UNPAID} Quirin Ächter" in warning.inner_text()
    night.screenshot("control-unpaid-warning")
    page.get_by_test_id("draw-next").click()
    page.wait_for_url(re.compile(rf"/o/{night.slug}/runden/"))
    assert "Noch nicht bezahlt: 5 Quirin Ächter" in page.locator("ul.messages").inner_text()
    page.get_by_test_id("publish-1").click()
    page.locator('[data-testid="round-1"][data-status="published"]').wait_for()

    # --- play: the same games at both tables (ties seat by seat), table 1 confirms -------------------------
    rnd = Round.objects.get(tournament=tournament, number=1)
    table1, table2 = Table.objects.filter(round=rnd).order_by("number")
    for table in (table1, table2):
        table_sheet_record(table=table, records=[dict(r) for r in ROUND], device="test")
        for seat in range(1, 5):
            table_confirm(table=table, seat=seat)

    # --- a correction after confirmation: the tablet says so and marks the game ----------------------------
    game = table2.hands.get(number=4)
    record = dict(ROUND[3])
    hand_correct(hand=game, record={**record, "augen": 64}, device="tablet 2")  # same points, new Augen
    tablet = night.new_page(TABLET)
    tablet.goto(f"{page.base_url}/tisch/{table2.entry_key}/")
    banner = tablet.get_by_test_id("reconfirm-banner")
    expect(banner).to_have_text("Spiel 4 wurde geändert – bitte neu bestätigen")
    expect(tablet.locator('[data-testid="game-4"] [data-testid="changed-mark"]')).to_have_count(1)
    night.screenshot("tablet-game-changed", page=tablet)
    night.no_sideways_scroll(tablet)

    # meanwhile the standings are provisional: table 1 finished, table 2 not
    night.go(f"/t/{night.slug}/rangliste/")
    progress = page.get_by_test_id("standings-progress")
    expect(progress).to_contain_text("Vorläufig")
    expect(progress).to_contain_text("Runde 1 läuft · 1 von 2 Tischen fertig")
    night.screenshot("standings-provisional")

    # three confirm again on the tablet; the fourth has gone home: the organiser confirms for him
    for seat in (1, 2, 3):
        tablet.get_by_test_id(f"confirm-{seat}").click()
        expect(tablet.get_by_test_id(f"confirmed-{seat}")).to_be_visible()
    tablet.context.close()
    night.go(f"/o/{night.slug}/tisch/{table2.pk}/papier/")
    form = page.get_by_test_id("confirm-for-form")
    form.locator("select").select_option("4")
    form.locator("input[type=text]").fill("ist nach Spiel 8 heimgefahren")
    night.screenshot("paper-confirm-for")
    night.no_sideways_scroll()
    page.get_by_test_id("confirm-for").click()
    page.locator("ul.messages li.success").wait_for()
    table2.refresh_from_db()
    assert table2.completed_at is not None and table2.reconfirm_game is None

    # --- the end of the round -------------------------------------------------------------------------
    night.go(f"/o/{night.slug}/")
    page.get_by_test_id("close-1").click()
    page.wait_for_url(re.compile(rf"/o/{night.slug}/runden/"))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING  # the last round closed: the console offers to finish
    night.go(f"/o/{night.slug}/")
    page.get_by_test_id("finish-tournament").click()
    page.locator("ul.messages li.success").wait_for()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED

    # --- prizes on shared places ------------------------------------------------------------------------
    night.go(f"/o/{night.slug}/preise/")
    page.fill("#id_prize-0-place", "1")
    page.fill("#id_prize-0-amount_euro", "30,00")
    page.locator("#id_prize-1-last_place").uncheck()
    page.fill("#id_prize-1-place", "2")
    page.fill("#id_prize-1-amount_euro", "20,01")
    page.fill("#id_prize-2-place", "3")
    page.fill("#id_prize-2-goods", "Brotzeitbrettl")
    page.locator("form.prize-form button.primary").click()
    page.locator("ul.messages li.success").wait_for()
    awards = page.get_by_test_id("prize-awards")
    first_two = awards.locator("tbody tr").filter(has_text="teilen sich die Plätze 1–2")
    expect(first_two).to_have_count(2)
    for i in range(2):
        assert first_two.nth(i).get_by_test_id("award-money").inner_text() == "25,00 €"
    expect(awards.locator("tbody tr").filter(has_text="Brotzeitbrettl")).to_have_count(1)
    prizes = prize_list(tournament)
    assert prizes.awarded_cents == 5000 and prizes.rounding_cents == 1
    assert page.get_by_test_id("pool-left").inner_text() == f"{(prizes.pool_cents - 5000) / 100:.2f} €".replace(
        ".", ","
    )
    expect(page.get_by_test_id("prize-rule")).to_contain_text("auf den Cent abgerundet")
    night.screenshot("prizes-shared")

    # --- the cash list balances, the unpaid fee is owed, the PDF says the same ----------------------------
    night.go(f"/o/{night.slug}/kasse/")
    owed = page.locator(f'[data-testid="cash-players"] tr[data-start="{UNPAID}"]')
    expect(owed).to_contain_text("offen")
    cash = cash_list(tournament)
    assert cash.fees_owed_cents == 1000 and cash.balances
    euro = lambda cents: f"{cents // 100},{cents % 100:02d} €"  # noqa: E731
    # "Eingenommen" is the cash box: the owed fee is not in it, and closes the balance apart
    assert page.get_by_test_id("paid-in").inner_text() == euro(cash.paid_in_cents)
    assert page.get_by_test_id("fees-owed").inner_text() == euro(1000)
    assert page.get_by_test_id("paid-out").inner_text() == euro(cash.paid_in_cents + 1000)
    night.screenshot("cash-laptop")
    pdf = download(page, page.get_by_test_id("cash-pdf"))
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "10,00 € (offen)" in text
    assert re.search(rf"Eingenommen\s*{re.escape(euro(cash.paid_in_cents))}", text) and re.search(
        rf"Ausgezahlt und beim Verein\s*{re.escape(euro(cash.paid_in_cents + 1000))}", text
    ), text[-800:]

    # --- publish, and the public page leads with the podium ------------------------------------------------
    night.go(f"/o/{night.slug}/")
    page.get_by_test_id("publish-final").click()
    public = night.new_page(TABLET)
    public.goto(f"{page.base_url}/t/{night.slug}/")
    podium = public.get_by_test_id("podium")
    expect(podium).to_be_visible()
    assert podium.bounding_box()["y"] < public.get_by_test_id("to-seatlist").bounding_box()["y"]
    winners = [
        r.player.name
        for r in Registration.objects.filter(tournament=tournament)
        if r.player.name in public.get_by_test_id("podium-1").inner_text()
    ]
    assert len(winners) == 2
    night.screenshot("public-podium-tablet", page=public)
    public.goto(f"{page.base_url}/t/{night.slug}/rangliste/")
    expect(public.get_by_test_id("standings-progress")).to_contain_text("Endstand")
    public.context.close()

    # --- the archive: download, a broken upload refused with its path, a good one imported ----------------
    night.go(f"/o/{night.slug}/")
    with page.expect_download() as info:
        page.get_by_test_id("archive-download").click()
    doc = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert doc["rounds"][0]["tables"][1]["confirmations"] == [1, 2, 3, 4]
    broken = json.loads(json.dumps(doc))
    broken["rounds"][0]["tables"][0]["hands"][2]["augen"] = 130
    (tmp_path / "kaputt.json").write_text(json.dumps(broken), encoding="utf-8")
    (tmp_path / "archiv.json").write_text(json.dumps(doc), encoding="utf-8")
    night.go("/o/")
    page.get_by_test_id("archive-upload-link").click()
    page.wait_for_url("**/o/neu/archiv/")
    page.set_input_files("#id_file", str(tmp_path / "kaputt.json"))
    page.fill("#id_slug", "kirchweih-kopie")
    page.get_by_test_id("archive-upload").click()
    expect(page.get_by_test_id("archive-error-file")).to_contain_text("rounds[0].tables[0].hands[2].augen")
    assert not Tournament.objects.filter(slug="kirchweih-kopie").exists()
    night.screenshot("archive-upload-error")
    page.set_input_files("#id_file", str(tmp_path / "archiv.json"))
    page.fill("#id_slug", "kirchweih-kopie")
    page.get_by_test_id("archive-upload").click()
    page.wait_for_url("**/t/kirchweih-kopie/rangliste/")
    expect(page.locator('[data-testid="standings-table"] tr[data-start-number]')).to_have_count(8)
    copy = Tournament.objects.get(slug="kirchweih-kopie")
    assert Table.objects.get(round__tournament=copy, number=2).confirmations.count() == 4

    # --- every console page: no sideways scroll on a laptop and a tablet in portrait; screenshots ----------
    pages = [
        "/o/",
        f"/o/{night.slug}/",
        f"/o/{night.slug}/meldestelle/",
        f"/o/{night.slug}/runden/",
        f"/o/{night.slug}/tische/",
        f"/o/{night.slug}/einstellungen/",
        f"/o/{night.slug}/preise/",
        f"/o/{night.slug}/kasse/",
        "/o/neu/archiv/",
        f"/o/{night.slug}/tisch/{table2.pk}/papier/",
        f"/t/{night.slug}/rangliste/",
        f"/t/{night.slug}/",
    ]
    for size, label in ((LAPTOP, "laptop"), (TABLET, "tablet")):
        page.set_viewport_size(size)
        for path in pages:
            night.go(path)
            night.no_sideways_scroll()
            if path in (f"/o/{night.slug}/", f"/o/{night.slug}/kasse/", f"/o/{night.slug}/preise/"):
                name = path.strip("/").replace("/", "-") or "home"
                night.screenshot(f"{name}-{label}")
