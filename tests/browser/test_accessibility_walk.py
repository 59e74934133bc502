"""The acceptance walk of issue 35: every page state of a whole evening, as production serves it, at a phone
(360 × 640), a tablet held upright (800 × 1280) and a laptop (1366 × 768), light and dark, checked by axe-core
(WCAG 2.0/2.1 A+AA, tests/browser/axe.py) and for sideways scrolling (``scrollWidth <= innerWidth``).

One evening: the demo's half-played tournament as tests/test_permissions.py builds it, with the longest name
and club name the pages must hold (60 characters each). Each page is loaded once and then resized and
switched between light and dark, so the walk stays within a few minutes. A screenshot of every state at every
size and scheme is saved under test-artifacts/a11y/ (look at them).

Two tests: the public, player and organiser pages (they pass on their own), and the table page's states
(empty, mid-sheet, offline queue, conflict, confirmed, closed).
"""

from dataclasses import dataclass, field

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.browser.axe import axe_colour_violations, axe_violations, describe
from tests.browser.conftest import ARTIFACTS, go_offline, go_online
from tests.browser.test_entry import tap_game
from tests.test_permissions import _build, kwargs_for, site_urls
from tests.tournaments.test_services_hands import fill, make_table
from tournaments.links import table_link_key
from tournaments.models import ClubMembership, Table
from tournaments.selectors.tables import tournament_games_required
from tournaments.services.hands import table_confirm

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": (360, 640), "tablet": (800, 1280), "laptop": (1366, 768)}
SCHEMES = ("light", "dark")
SHOTS = ARTIFACTS / "a11y"
LONG_CLUB = "Schafkopfclub Oberammergau-Unterpeißenberg und Umgebung e.V."  # 60 characters
LONG_FIRST, LONG_LAST = "Maximilian-Ferdinand", "Gschwendtner-Obermaier von Ölschläger-Ö"  # 60 with the space

# Who sees which page: the organiser of the evening's club, or anyone (no login).
PUBLIC_PAGES = [
    "tournaments:home",
    "tournaments:accessibility",
    "tournaments:public_tournament",
    "tournaments:seatlist",
    "tournaments:seatlist_tables",
    "tournaments:standings",
    "tournaments:tournament_statistics",
    "tournaments:series",
    "tournaments:series_player",
    "tournaments:signup",
    "tournaments:signup_page",
    "login",
]
PLAYER_PAGES = ["tournaments:player", "tournaments:player_history"]
ORGANISER_PAGES = [
    "tournaments:organiser_home",
    "tournaments:control",
    "tournaments:settings",
    "tournaments:desk",
    "tournaments:checkin",
    "tournaments:signups",
    "tournaments:signup_options",
    "tournaments:rounds",
    "tournaments:entry_tables",
    "tournaments:print_round",
    "tournaments:prizes",
    "tournaments:cash",
    "tournaments:club",
    "tournaments:player_edit",
    "tournaments:tournament_log",
    "tournaments:club_log",
    "tournaments:series_manage_list",
    "tournaments:series_manage",
    "tournaments:account",
    "tournaments:tournament_new",
    "tournaments:copy",
    "tournaments:standings_projector",
]


# The innermost elements that reach past the window's right edge: where a sideways scroll comes from.
TOO_WIDE = """(() => {
  const out = [...document.body.querySelectorAll('*')].filter(e => e.getBoundingClientRect().right > innerWidth + 0.5);
  const leaves = out.filter(e => ![...e.children].some(c => out.includes(c)));
  return leaves.slice(0, 4).map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
    (e.className && typeof e.className === 'string' ? '.' + e.className.trim().split(/\\s+/).join('.') : '') +
    ' (' + Math.round(e.getBoundingClientRect().right) + ' px)');
})()"""


@dataclass
class Walk:
    """The problems found so far, one line each, and how many page states were looked at."""

    problems: list[str] = field(default_factory=list)
    states: int = 0

    def look(self, page, name: str) -> None:
        """Check the page as it stands at every size and in both schemes; save a screenshot of each."""
        SHOTS.mkdir(parents=True, exist_ok=True)
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            for scheme in SCHEMES:
                page.emulate_media(color_scheme=scheme)
                page.wait_for_timeout(50)  # a relayout after the resize
                where = f"{name} at {width}×{height} {scheme}"
                self.states += 1
                wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
                if wide[0] > wide[1]:
                    self.problems.append(
                        f"{where}: scrolls sideways ({wide[0]} px in {wide[1]}): " + ", ".join(page.evaluate(TOO_WIDE))
                    )
                # The same page in dark mode differs only in its colours: the colour rules see to it.
                violations = axe_violations(page) if scheme == "light" else axe_colour_violations(page)
                if violations:
                    self.problems.append(f"{where}:\n  " + describe(violations).replace("\n", "\n  "))
                page.screenshot(path=str(SHOTS / f"{name}-{size}-{scheme}.png"), full_page=scheme == "light")
        page.emulate_media(color_scheme="light")

    def assert_clean(self) -> None:
        assert not self.problems, f"{len(self.problems)} of {self.states} page states fail:\n" + "\n".join(
            self.problems
        )


def session_cookie(user, url: str) -> list[dict]:
    client = Client()
    client.force_login(user)
    return [
        {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value, "url": url}
    ]


def new_page(browser, live_server, user=None):
    context = browser.new_context(
        base_url=live_server.url, locale="de-DE", has_touch=True, viewport={"width": 360, "height": 640}
    )
    if user is not None:
        context.add_cookies(session_cookie(user, live_server.url))
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.base_url = live_server.url
    return page


def evening():
    """The demo's evening (test_permissions' world) with the longest club name and player name."""
    world = _build()
    club = world.tournament.club
    club.name = LONG_CLUB
    club.save(update_fields=["name"])
    player = world.table.seats.get(number=2).registration.player
    player.first_name, player.last_name = LONG_FIRST, LONG_LAST
    player.save(update_fields=["first_name", "last_name"])
    return world


def path_of(name: str, world) -> str:
    if name == "login":
        return reverse("login")
    (kwargs,) = kwargs_for(site_urls()[name], world)
    return reverse(name, kwargs=kwargs)


def test_every_public_player_and_organiser_page_has_no_violation_and_no_sideways_scroll(
    browser, live_server, settings, tmp_path
):
    settings.MEDIA_ROOT = tmp_path / "media"
    world = evening()
    walk = Walk()
    for names, user in ((PUBLIC_PAGES + PLAYER_PAGES, None), (ORGANISER_PAGES, world.users["organiser"])):
        page = new_page(browser, live_server, user)
        try:
            for name in names:
                response = page.goto(path_of(name, world))
                assert response.status == 200, f"{name}: {response.status}"
                walk.look(page, name.split(":")[-1])
        finally:
            page.context.close()
    assert walk.states == len(PUBLIC_PAGES + PLAYER_PAGES + ORGANISER_PAGES) * len(SIZES) * len(SCHEMES)
    walk.assert_clean()


LONG_NAMES = [("Ötzi", "Öttl"), ("Josef", "Gschwendtner-Obermaier"), ("Anna", "Ölschläger"), (LONG_FIRST, LONG_LAST)]


def tap_rufspiel(page) -> None:
    tap_game(page, {"contract": "rufspiel", "declarer": 1, "partner": 2, "augen": 70})


def test_every_state_of_the_table_page_has_no_violation_and_no_sideways_scroll(browser, live_server):
    """Empty, mid-sheet, a game queued offline, a conflict, confirmed by all, closed."""
    walk = Walk()
    pages = []

    def table_page_at(path: str, user=None):
        page = new_page(browser, live_server, user)
        pages.append(page)
        response = page.goto(path)
        assert response.status == 200, f"{path}: {response.status}"
        return page

    def table_page(table: Table):
        return table_page_at(f"/tisch/{table.entry_key}/")

    try:
        walk.look(table_page(make_table(names=LONG_NAMES)), "table-empty")

        mid = make_table(names=LONG_NAMES)
        fill(mid, 5)
        walk.look(table_page(mid), "table-mid-sheet")

        offline = table_page(make_table(names=LONG_NAMES))
        tap_rufspiel(offline)
        go_offline(offline)
        offline.get_by_test_id("save").click()
        offline.get_by_test_id("pending").wait_for()
        walk.look(offline, "table-offline-queue")

        # A conflict: game 1 queued on a phone that is offline, game 1 saved differently on another meanwhile.
        contested = make_table(names=LONG_NAMES)
        first, second = table_page(contested), table_page(contested)
        go_offline(second)
        tap_game(second, {"contract": "wenz", "declarer": 3, "augen": 80})
        second.get_by_test_id("save").click()
        second.get_by_test_id("pending").wait_for()
        tap_rufspiel(first)
        first.get_by_test_id("save").click()
        first.locator('#game-form[data-number="2"]').wait_for()
        go_online(second)
        second.get_by_test_id("conflict").wait_for(timeout=20_000)
        walk.look(second, "table-conflict")

        confirmed = make_table(names=LONG_NAMES)
        fill(confirmed, tournament_games_required(confirmed.round.tournament, confirmed.size))
        for seat in range(1, confirmed.size + 1):
            table_confirm(table=confirmed, seat=seat)
        walk.look(table_page(confirmed), "table-confirmed")

        # The same sheet as a player's own page, the table card's all-evening link and the organiser's paper mode show it.
        walk.look(table_page_at(f"/s/{mid.seats.get(number=1).registration.key}/tisch/"), "player-table")
        walk.look(table_page_at(f"/tk/{table_link_key(mid.round.tournament_id, mid.number)}/"), "table-link")
        organiser = get_user_model().objects.create_user("orga-walk", password="pw")
        ClubMembership.objects.create(
            user=organiser, club=mid.round.tournament.club, role=ClubMembership.Role.ORGANISER
        )
        walk.look(
            table_page_at(
                reverse("tournaments:paper", kwargs={"slug": mid.round.tournament.slug, "table_id": mid.pk}), organiser
            ),
            "paper",
        )

        closed = make_table(names=LONG_NAMES)
        fill(closed, 8)
        closed.round.status = closed.round.Status.CLOSED
        closed.round.save(update_fields=["status"])
        walk.look(table_page(closed), "table-closed")
    finally:
        for page in pages:
            page.context.close()
    walk.assert_clean()
