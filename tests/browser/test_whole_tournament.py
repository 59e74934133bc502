"""A whole small tournament, run through the organiser console in headless Chromium like on the night.

12 players, 2 rounds of 8 games: the tournament is created from a preset, the players are registered,
paid and checked in at the desk, each round is drawn, published, played on the tables' tablet pages
by taps, confirmed and closed; the standings are published, checked against the rules engine and
downloaded as a PDF. No translations are assumed: elements are found by data-testid, ids and URLs,
so the test runs under the German default UI. Screenshots: test-artifacts/whole-*.png.
"""

import io
import re
from collections import Counter
from urllib.parse import urljoin

import pytest
from django.contrib.auth import get_user_model
from pypdf import PdfReader

from scoring.rules import ruleset_from_dict, score_hand
from tests.browser.conftest import TABLET_PORTRAIT, wait_until
from tests.browser.test_entry import expect, page_totals, save, tap_game, wait_for_preview
from tests.factories import ClubFactory, PlayerFactory
from tournaments.models import ClubMembership, Registration, Round, Table, Tournament
from tournaments.services.hands import dealer_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 412, "height": 915}
NAME = "Kirchweihrennen Musterdorf"
GAMES = 8

# In the club's database already (registered through the desk search) ...
CLUB_PLAYERS = [
    ("Josef", "Bauer"),
    ("Maria", "Maier"),
    ("Franz", "Wimmer"),
    ("Theresa", "Gruber"),
    ("Quirin", "Ächter"),
    ("Resi", "Lechner"),
    ("Anna", "Huber"),
    ("Xaver", "Zehetmair"),
    ("Magdalena", "Brandl"),
    ("Korbinian", "Sedlmeier"),
]
# ... and two people nobody knew yet (quick-added at the desk).
NEWCOMERS = [("Alois", "Kainz"), ("Walburga", "Strobl")]

# One round at a table of four, seats as at a table that starts with seat 1 dealing. Each table
# plays it with its seats rotated and a longer run in game 7, so the totals differ between tables.
ROUND = [
    {"contract": "rufspiel", "called": "eichel", "declarer": 1, "partner": 3, "augen": 72},
    {"contract": "rufspiel", "called": "gras", "declarer": 2, "partner": 4, "augen": 45},
    {"contract": "wenz", "declarer": 3, "augen": 91, "laufende": 2},
    {"contract": "solo", "trump": "herz", "declarer": 4, "augen": 61},
    {"contract": "rufspiel", "muss": True, "called": "schellen", "declarer": 1, "partner": 2, "augen": 66},
    {"contract": "rufspiel", "called": "schellen", "declarer": 4, "partner": 1, "augen": 31},
    {"contract": "rufspiel", "called": "eichel", "declarer": 2, "partner": 3, "augen": 95, "laufende": 3},
    {"contract": "solo", "trump": "gras", "declarer": 3, "augen": 38},
]


def games_for(round_number: int, table_number: int) -> list[dict]:
    shift = (3 * round_number + table_number) % 4

    def seat(s: int) -> int:
        return (s - 1 + shift) % 4 + 1

    games = []
    for record in ROUND:
        record = dict(record)
        for key in ("declarer", "partner"):
            if key in record:
                record[key] = seat(record[key])
        games.append(record)
    games[2]["laufende"] = 1 + round_number  # the Wenz: 2, then 3 Laufende
    games[6]["laufende"] = 2 + table_number  # the Rufspiel: 3, 4 or 5 Laufende
    return games


def seat_points(games: list[dict], rules) -> dict[int, int]:
    totals = dict.fromkeys(range(1, 5), 0)
    for number, record in enumerate(games, start=1):
        score = score_hand({**record, "dealer": dealer_for(number, 0, 4)}, rules, 4)
        for seat, points in score.points.items():
            totals[seat] += points
    return totals


def parse_points(text: str) -> int:
    return int(text.strip().replace("−", "-").replace("+", ""))


class Night:
    """The organiser's browser (page) plus the helpers to move around the console by clicks."""

    def __init__(self, page, browser, screenshot):
        self.page, self.browser, self.shot = page, browser, screenshot
        self.slug = ""
        self.step = 0

    def screenshot(self, name: str, page=None, full_page: bool = True) -> None:
        self.step += 1
        self.shot(page or self.page, f"whole-{self.step:02d}-{name}", full_page=full_page)

    def to_control(self) -> None:
        self.page.locator('header.topbar a[href="/o/"]').click()
        self.page.get_by_test_id(f"control-{self.slug}").click()
        self.page.wait_for_url(f"**/o/{self.slug}/")
        self.page.get_by_test_id("console-nav").wait_for()

    def console_link(self, url_end: str):
        return self.page.locator(f'[data-testid="console-nav"] a[href$="{url_end}"]')

    def tablet(self):
        context = self.browser.new_context(viewport=TABLET_PORTRAIT, locale="de-DE", has_touch=True)
        tablet = context.new_page()
        tablet.set_default_timeout(15_000)
        return tablet


def log_in(page) -> None:
    page.goto(f"{page.base_url}/accounts/login/?next=/o/")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "geheim-123")
    page.locator("main button[type=submit]").click()
    page.wait_for_url("**/o/")


def create_tournament(night: Night) -> Tournament:
    page = night.page
    page.set_viewport_size(LAPTOP)
    page.get_by_test_id("new-tournament").click()
    page.wait_for_url("**/o/neu/")
    page.fill("#id_name", NAME)
    page.fill("#id_date", "2026-10-17")
    page.fill("#id_venue", "Gasthaus zur Post")
    page.select_option("#id_preset", "default")
    night.screenshot("create")
    page.get_by_test_id("create-tournament").click()
    page.wait_for_url(re.compile(r"/o/[-\w]+/einstellungen/$"))
    night.slug = re.search(r"/o/([-\w]+)/einstellungen/$", page.url).group(1)

    # The preset plays 2 rounds of 32; tonight it is 2 rounds of 8 games.
    page.fill("#id_rounds", "2")
    page.fill("#id_games_per_round", str(GAMES))
    page.get_by_test_id("save-rules").click()
    page.locator("ul.messages li.success").wait_for()
    expect(page.locator("#id_games_per_round")).to_have_value(str(GAMES))
    night.screenshot("settings")
    tournament = Tournament.objects.get(slug=night.slug)
    assert tournament.name == NAME
    assert (tournament.rules["rounds"], tournament.rules["games_per_round"]) == (2, GAMES)
    return tournament


def register_everybody(night: Night, players) -> None:
    page = night.page
    page.get_by_test_id("to-control").click()
    page.wait_for_url(f"**/o/{night.slug}/")
    night.console_link("/meldestelle/").click()
    page.wait_for_url(f"**/o/{night.slug}/meldestelle/")
    page.set_viewport_size(TABLET_PORTRAIT)
    number = 0

    # Six come in, pay and are here: one tap each from the search.
    for player in players[:6]:
        page.get_by_test_id("desk-search").fill(player.last_name)
        page.get_by_test_id(f"register-here-{player.pk}").click()
        page.wait_for_url(re.compile(r"/meldestelle/$"))
        number += 1
    # Four registered beforehand: registered now, they pay and check in at the toggles.
    for i, player in enumerate(players[6:]):
        page.get_by_test_id("desk-search").fill(player.last_name)
        if i == 0:
            page.get_by_test_id(f"register-{player.pk}").wait_for()
            night.screenshot("desk-search")
        page.get_by_test_id(f"register-{player.pk}").click()
        page.wait_for_url(re.compile(r"/meldestelle/$"))
        number += 1
    # Two newcomers: quick-added from a search that finds nobody.
    for i, (first, last) in enumerate(NEWCOMERS):
        page.get_by_test_id("desk-search").fill(f"{first} {last}")
        page.get_by_test_id("quick-add-form").wait_for()
        expect(page.locator("#id_last_name")).to_have_value(last)
        expect(page.locator("#id_first_name")).to_have_value(first)
        page.locator("#id_checked_in").check()
        if i == 0:
            page.locator("#id_paid").check()
            night.screenshot("desk-quick-add")
        page.get_by_test_id("quick-add-submit").click()
        page.wait_for_url(re.compile(r"/meldestelle/$"))
        number += 1
    assert number == 12

    # The toggles (htmx swaps the row in place).
    for n in range(7, 11):
        for flag in ("paid", "checkin"):
            page.get_by_test_id(f"{flag}-{n}").click()
            page.locator(f'[data-testid="{flag}-{n}"][aria-pressed="true"]').wait_for()
    page.get_by_test_id("paid-12").click()
    page.locator('[data-testid="paid-12"][aria-pressed="true"]').wait_for()

    expect(page.get_by_test_id("registered-count")).to_have_text("12")
    expect(page.get_by_test_id("paid-count")).to_have_text("12")
    expect(page.get_by_test_id("checked-in-count")).to_have_text("12")
    assert page.get_by_test_id("draw-check").get_attribute("data-tables") == "4,4,4"
    night.screenshot("desk-all-here")
    regs = Registration.objects.filter(tournament__slug=night.slug)
    assert regs.count() == 12 and all(r.paid and r.checked_in for r in regs)


def draw_and_publish(night: Night, number: int) -> None:
    page = night.page
    page.set_viewport_size(LAPTOP)
    night.to_control()
    page.get_by_test_id("draw-next").click()
    page.wait_for_url(re.compile(rf"/o/{night.slug}/runden/"))
    page.locator(f'[data-testid="round-{number}"][data-status="drawn"]').wait_for()
    assert page.locator(f'[data-testid^="table-{number}-"]').count() == 3
    night.screenshot(f"round-{number}-drawn")
    page.get_by_test_id(f"publish-{number}").click()
    page.locator(f'[data-testid="round-{number}"][data-status="published"]').wait_for()


def table_links(night: Night, number: int) -> list[str]:
    page = night.page
    night.to_control()
    night.console_link("/tische/").click()
    page.wait_for_url(re.compile(rf"/o/{night.slug}/tische/"))
    links = page.locator('a[data-testid^="link-"]')
    expect(links).to_have_count(3)
    wait_until(page, "[...document.querySelectorAll('img.qr')].every(i => i.complete && i.naturalWidth > 0)")
    night.screenshot(f"round-{number}-table-links")
    return [links.nth(i).get_attribute("href") for i in range(3)]


def play_table(night: Night, link: str, round_number: int, rules) -> dict[int, int]:
    """One table plays its 8 games on its tablet and confirms; returns start number -> points."""
    tablet = night.tablet()
    try:
        tablet.goto(link)
        table_number = int(
            re.search(r"\d+", tablet.get_by_test_id("table-title").locator("strong").inner_text()).group()
        )
        table = Table.objects.get(entry_key=link.rstrip("/").rsplit("/", 1)[1])
        assert (table.round.number, table.number) == (round_number, table_number)
        games = games_for(round_number, table_number)
        for number, record in enumerate(games, start=1):
            tap_game(tablet, record)
            if number == 3 and table_number == 1:
                wait_for_preview(tablet, record, 4)  # the engine's points, shown before saving
                night.screenshot(f"round-{round_number}-table-{table_number}-entry", page=tablet, full_page=False)
            save(tablet, number + 1 if number < GAMES else None)
        expected = seat_points(games, rules)
        assert page_totals(tablet, 4) == expected
        if table_number == 1:
            night.screenshot(f"round-{round_number}-table-{table_number}-sheet", page=tablet)
        for seat in range(1, 5):
            tablet.get_by_test_id(f"confirm-{seat}").click()
            expect(tablet.get_by_test_id(f"confirmed-{seat}")).to_be_visible()
        expect(tablet.get_by_test_id("complete-banner")).to_be_visible()
        if table_number == 1:
            night.screenshot(f"round-{round_number}-table-{table_number}-confirmed", page=tablet, full_page=False)
    finally:
        tablet.context.close()
    seats = {s.number: s.registration.start_number for s in table.seats.select_related("registration")}
    return {seats[seat]: points for seat, points in expected.items()}


def close_round(night: Night, number: int) -> None:
    page = night.page
    night.to_control()
    for table in range(1, 4):
        expect(page.get_by_test_id(f"tile-{number}-{table}")).to_have_class(re.compile(r"\bcomplete\b"))
    night.screenshot(f"round-{number}-complete")
    page.get_by_test_id(f"close-{number}").click()
    page.wait_for_url(re.compile(rf"/o/{night.slug}/runden/"))
    page.locator(f'[data-testid="round-{number}"][data-status="closed"]').wait_for()
    assert Round.objects.get(tournament__slug=night.slug, number=number).status == Round.Status.CLOSED


def test_a_whole_tournament_of_twelve_through_the_console(page, browser, screenshot):
    club = ClubFactory(name="Schafkopffreunde Musterdorf")
    user = get_user_model().objects.create_user("orga", password="geheim-123")
    ClubMembership.objects.create(user=user, club=club, role=ClubMembership.Role.ORGANISER)
    players = [PlayerFactory(first_name=first, last_name=last, club=club) for first, last in CLUB_PLAYERS]
    night = Night(page, browser, screenshot)

    log_in(page)
    tournament = create_tournament(night)
    rules = ruleset_from_dict(tournament.rules)
    register_everybody(night, players)

    totals: Counter[int] = Counter()
    for round_number in (1, 2):
        draw_and_publish(night, round_number)
        for link in table_links(night, round_number):
            totals.update(play_table(night, link, round_number, rules))
        close_round(night, round_number)
    night.to_control()
    page.get_by_test_id("finish-tournament").click()  # "Turnier beenden" after the last round
    page.locator("ul.messages li.success").wait_for()
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert len(totals) == 12 and sum(totals.values()) == 0

    # Publish the standings from the control panel (the button posts public=1).
    night.to_control()
    page.locator('form[action$="/rangliste/veroeffentlichen/"] button[name="public"][value="1"]').click()
    page.wait_for_url(f"**/t/{night.slug}/rangliste/")
    night.screenshot("standings-organiser")

    # The public standings, on a phone without a login: every player's points as the engine has them.
    public = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True).new_page()
    try:
        public.goto(f"{page.base_url}/t/{night.slug}/rangliste/")
        rows = public.locator('[data-testid="standings-table"] tr[data-start-number]')
        expect(rows).to_have_count(12)
        shown = {
            int(rows.nth(i).get_attribute("data-start-number")): parse_points(
                rows.nth(i).locator("td.points").inner_text()
            )
            for i in range(12)
        }
        assert shown == dict(totals)
        best = max(totals.values())
        leader = rows.first
        assert leader.locator("td.rank").inner_text().strip() == "1."
        assert parse_points(leader.locator("td.points").inner_text()) == best
        leader_number = int(leader.get_attribute("data-start-number"))
        assert totals[leader_number] == best
        leader_name = Registration.objects.get(tournament=tournament, start_number=leader_number).player.name
        assert leader_name in leader.locator("td.name").inner_text()
        night.screenshot("standings-public-phone", page=public)
    finally:
        public.context.close()

    # The standings as a PDF, from the control panel.
    night.to_control()
    pdf_link = page.get_by_test_id("standings-pdf")
    expect(pdf_link).to_have_count(1)
    night.screenshot("control-finished")
    data = download(page, pdf_link)
    assert data[:5] == b"%PDF-"
    pages = [" ".join((p.extract_text() or "").split()) for p in PdfReader(io.BytesIO(data)).pages]
    overall = pages[0]  # overall, then one page per round
    assert NAME in overall
    # The leader's row: "1. <no.> <name> [tie note] <club> <points> <solos> <R1> <R2>", points with their sign.
    row = re.search(rf"(?<!\d)1\. {leader_number} {re.escape(leader_name)} (.*?) 2\. \d+ ", overall)
    assert row, (leader_number, leader_name, overall[:600])
    signed = f"+{best}" if best > 0 else (f"−{-best}" if best < 0 else "0")
    assert f" {signed} " in f" {row.group(1)} ", (signed, row.group(0))


def download(page, link) -> bytes:
    """The file behind a link: saved by the browser when the link says download, else fetched with the session.

    Chromium shows an inline PDF in its viewer instead of saving it, and the viewer's response is not the file.
    """
    if link.get_attribute("download") is not None:
        with page.expect_download() as info:
            link.click()
        with open(info.value.path(), "rb") as fh:
            return fh.read()
    response = page.request.get(urljoin(page.url, link.get_attribute("href")))
    assert response.ok and response.headers["content-type"] == "application/pdf", response.headers
    return response.body()
