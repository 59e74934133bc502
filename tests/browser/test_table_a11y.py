"""The table page and the player's pages for every player (issue 35, the player-facing half): axe-core clean
(WCAG 2.0/2.1 A+AA) in every state of the table page and on the public phone pages, light and dark, at
360 x 640, 800 x 1280 and 1366 x 768; no sideways scrolling; names keep every glyph; a Rufspiel entered on
a phone without scrolling; large text and high contrast one tap away; touch targets of at least 44 px.

Screenshots go to test-artifacts/a11y-*.png.
"""

import uuid

import pytest

from tests.browser.axe import axe_violations, describe
from tests.browser.conftest import broken_words, go_offline
from tests.browser.test_entry import expect, tap_game
from tests.tournaments.test_services_hands import close, fill, make_table
from tournaments.models import Table
from tournaments.services.hands import hand_record, table_confirm

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 640}
TABLET = {"width": 800, "height": 1280}
LAPTOP = {"width": 1366, "height": 768}
SIZES = {"phone": PHONE, "tablet": TABLET, "laptop": LAPTOP}
# names that lost their dots or broke mid-word at the table (issue 35)
GLYPH_NAMES = [
    ("Ötzi", "Öttl"),
    ("Alois", "Gschwendtner-Obermaier"),
    ("Ägidius", "Ölschläger"),
    ("Theresa", "Obermeier"),
    ("Korbinian", "Sedlmeier"),
]
SOLO_WON = {"contract": "solo", "trump": "herz", "declarer": 3, "augen": 75}


def new_page(browser, live_server, viewport, scheme="light"):
    context = browser.new_context(
        viewport=viewport,
        locale="de-DE",
        has_touch=True,
        is_mobile=viewport == PHONE,
        color_scheme=scheme,
        bypass_csp=True,
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.base_url = live_server.url
    return page


def entry_url(page, table: Table) -> str:
    return f"{page.base_url}/tisch/{table.entry_key}/"


def glyph_table(size: int = 4, rules: dict | None = None) -> Table:
    return make_table(size=size, names=GLYPH_NAMES[:size], rules=rules)


def state_empty(page):
    page.goto(entry_url(page, glyph_table()))


def state_mid_sheet(page):
    table = glyph_table()
    fill(table, 5)
    hand_record(table=table, record=SOLO_WON, client_id=uuid.uuid4())
    fill(table, 0)
    page.goto(entry_url(page, table))
    expect(page.get_by_test_id("game-6")).to_be_visible()


def state_offline_queue(page):
    table = glyph_table()
    fill(table, 3)
    page.goto(entry_url(page, table))
    go_offline(page)
    tap_game(page, {"contract": "wenz", "declarer": 3, "augen": 80})
    page.get_by_test_id("save").click()
    expect(page.get_by_test_id("unsent-4")).to_be_visible()
    expect(page.get_by_test_id("pending")).to_be_visible()


def state_conflict(page):
    table = glyph_table()
    page.goto(entry_url(page, table))
    tap_game(page, {"contract": "wenz", "declarer": 3, "augen": 80})
    hand_record(
        table=table,
        record={"contract": "rufspiel", "called": "gras", "declarer": 2, "partner": 4, "augen": 65},
        client_id=uuid.uuid4(),
        number=1,
    )
    page.get_by_test_id("save").click()
    expect(page.get_by_test_id("conflict")).to_be_visible()
    expect(page.get_by_test_id("version-rival")).to_contain_text("Wenz")


def state_confirmed(page):
    table = glyph_table(rules={"games_per_round": 8})
    fill(table, 8)
    for seat in (1, 2):
        table_confirm(table=table, seat=seat)
    page.goto(entry_url(page, table))
    expect(page.get_by_test_id("confirm-panel")).to_be_visible()


def state_closed(page):
    table = glyph_table(rules={"games_per_round": 8})
    fill(table, 8)
    for seat in range(1, 5):
        table_confirm(table=table, seat=seat)
    close(table)
    page.goto(entry_url(page, table))
    expect(page.get_by_test_id("closed-banner")).to_be_visible()


TABLE_STATES = {
    "empty": state_empty,
    "mid-sheet": state_mid_sheet,
    "offline-queue": state_offline_queue,
    "conflict": state_conflict,
    "confirmed": state_confirmed,
    "closed": state_closed,
}


def sideways(page) -> int:
    """How far the page reaches beyond the screen's width (0: no sideways scrolling)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_state_of_the_table_page_is_axe_clean_and_fits(scheme, browser, live_server, screenshot):
    found, wide = {}, {}
    for size, viewport in SIZES.items():
        for name, build in TABLE_STATES.items():
            page = new_page(browser, live_server, viewport, scheme)
            try:
                build(page)
                screenshot(page, f"a11y-table-{name}-{size}-{scheme}", full_page=False)
                if violations := axe_violations(page):
                    found[f"{name} {size}"] = describe(violations)
                if (over := sideways(page)) > 0:
                    wide[f"{name} {size}"] = over
            finally:
                page.context.close()
    assert not found, "\n\n".join(f"== {k}\n{v}" for k, v in found.items())
    assert not wide, f"wider than the screen: {wide}"


# Every line of every name on the page, against the box that cuts it off (the nearest ancestor whose overflow
# is not visible): a line that reaches above or below it has lost the top of its capitals (the dots of Ö) or
# its descenders; one wholly outside it is a name cut off. A name shortened with "…" at the side passes.
CLIPPED_NAMES = """(selectors) => {
  const lost = [];
  const range = document.createRange();
  for (const el of document.querySelectorAll(selectors)) {
    if (!el.getClientRects().length) continue;  // not shown
    let clip = el;
    while (clip && getComputedStyle(clip).overflowY === "visible" && getComputedStyle(clip).overflowX === "visible") clip = clip.parentElement;
    if (!clip) continue;
    const box = clip.getBoundingClientRect();
    const top = box.top + clip.clientTop, bottom = top + clip.clientHeight;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.data.trim()) continue;
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) {
        if (r.width === 0) continue;
        if (r.top < top - 0.5 || r.bottom > bottom + 0.5)
          lost.push(`${el.className}: "${node.data.trim()}" line ${Math.round(r.top)}-${Math.round(r.bottom)} in ${Math.round(top)}-${Math.round(bottom)}`);
      }
    }
  }
  return lost;
}"""
NAME_SELECTORS = ".seat-name, .nb-name, .pv-name, .cf-name, .h-name, .c-game .who, .dealer"

# Tiles of one row (the preview's players, the seats, the name buttons) that overlap one another, or a name
# reaching out of its tile.
OVERLAPS = """() => {
  const bad = [];
  for (const group of [".pv-seat", ".seat", ".names label", ".cf"]) {
    const tiles = [...document.querySelectorAll(group)].filter(t => t.getClientRects().length);
    tiles.forEach((a, i) => {
      const ra = a.getBoundingClientRect();
      for (const b of tiles.slice(i + 1)) {
        const rb = b.getBoundingClientRect();
        if (ra.left < rb.right - 0.5 && rb.left < ra.right - 0.5 && ra.top < rb.bottom - 0.5 && rb.top < ra.bottom - 0.5)
          bad.push(`${group}: "${a.innerText}" overlaps "${b.innerText}"`);
      }
      for (const name of a.querySelectorAll(".pv-name, .seat-name, .nb-name, .cf-name")) {
        const rn = name.getBoundingClientRect();
        if (rn.left < ra.left - 0.5 || rn.right > ra.right + 0.5) bad.push(`${group}: "${name.innerText}" leaves its tile`);
      }
    });
  }
  return bad;
}"""


def glyphs_lost(page) -> list[str]:
    return page.evaluate(CLIPPED_NAMES, NAME_SELECTORS) + page.evaluate(OVERLAPS)


@pytest.mark.parametrize("size", [4, 5])
def test_names_keep_their_umlauts_and_never_break_mid_word_in_any_tile(size, browser, live_server, screenshot):
    lost, broken = {}, {}
    for device, viewport in SIZES.items():
        page = new_page(browser, live_server, viewport)
        try:
            table = glyph_table(size=size, rules={"games_per_round": 8})
            page.goto(entry_url(page, table))
            # the form with every name on a button and the preview's points for each player
            page.get_by_test_id("contract-rufspiel").click()
            page.get_by_test_id("called-gras").click()
            page.get_by_test_id("declarer-2").click()
            page.get_by_test_id("partner-3").click()
            page.get_by_test_id("quick-61").click()
            expect(page.get_by_test_id("preview-2")).to_be_visible()
            states = {"form": None}
            for name in states:
                screenshot(page, f"a11y-glyphs-{size}-{name}-{device}")
                lost[f"{name} {device}"] = glyphs_lost(page)
                broken[f"{name} {device}"] = broken_words(page)
            # the sheet and the confirmation tiles
            fill(table, int(page.get_by_test_id("entry-root").get_attribute("data-required")))
            page.reload()
            expect(page.get_by_test_id("confirm-panel")).to_be_visible()
            screenshot(page, f"a11y-glyphs-{size}-confirm-{device}")
            lost[f"confirm {device}"] = glyphs_lost(page)
            broken[f"confirm {device}"] = broken_words(page)
        finally:
            page.context.close()
    lost = {k: v for k, v in lost.items() if v}
    broken = {k: v for k, v in broken.items() if v}
    assert not lost, lost
    assert not broken, broken


IN_VIEW = """(el) => {
  const r = el.getBoundingClientRect();
  const dock = document.querySelector(".dock");
  const covered = dock && !dock.contains(el) && r.bottom > dock.getBoundingClientRect().top + 1;
  return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth && !covered;
}"""


def test_a_rufspiel_is_entered_on_a_phone_by_taps_alone_without_scrolling(browser, live_server, screenshot):
    table = glyph_table()
    fill(table, 4)  # game 5: a sheet below the form, as in the evening
    page = new_page(browser, live_server, PHONE)
    try:
        page.goto(entry_url(page, table))
        expect(page.get_by_test_id("game-4")).to_be_visible()
        taps = []
        for testid in ["contract-rufspiel", "called-eichel", "declarer-2", "partner-4", "key-7", "key-2", "save"]:
            target = page.get_by_test_id(testid)
            if not target.evaluate(IN_VIEW):
                screenshot(page, "a11y-rufspiel-scrolled-" + testid, full_page=False)
            assert target.evaluate(IN_VIEW), f"{testid} is not on the screen without scrolling"
            if testid == "save":
                screenshot(page, "a11y-rufspiel-one-screen", full_page=False)
            target.tap()
            taps.append(testid)
            page.wait_for_timeout(300)  # a preview arrives, a smooth scroll would have begun
            if scrolled := page.evaluate("window.scrollY"):
                screenshot(page, "a11y-rufspiel-scrolled-after-" + testid, full_page=False)
            assert scrolled == 0, f"the page scrolled by {scrolled} px after {testid}"
        expect(page.get_by_test_id("game-5")).to_be_visible()
        hand = table.hands.get(number=5)
        assert (hand.contract, hand.called, hand.declarer, hand.partner, hand.augen) == ("rufspiel", "eichel", 2, 4, 72)
        assert page.evaluate("window.scrollY") == 0
        print("taps:", len(taps), taps)  # the recorded taps (pytest -s shows them)
        assert len(taps) == 7
    finally:
        page.context.close()


def public_pages(live_server) -> dict[str, str]:
    """The pages a player opens on his phone, with the demo's evening (standings published)."""
    from tests.browser.test_phone_pages import pages
    from tournaments.models import Tournament
    from tournaments.services.demo import DEMO_SLUG, demo_create
    from tournaments.services.standings import standings_recompute

    demo_create()
    Tournament.objects.filter(slug=DEMO_SLUG).update(standings_public=True)
    tournament = Tournament.objects.get(slug=DEMO_SLUG)
    standings_recompute(tournament_id=tournament.pk)
    key = tournament.registrations.order_by("start_number").first().key
    return {name: live_server.url + path for name, path in pages(DEMO_SLUG, key).items() if name != "projector"}


# Everything a player taps that is smaller than 44 x 44 px (WCAG 2.5.5's size; a link inside a sentence is
# exempt, as there).
SMALL_TARGETS = """() => {
  const small = [];
  const targets = document.querySelectorAll("button, a, summary, select, input:not([type=hidden]):not(.vh), label[for]");
  for (const el of targets) {
    if (!el.getClientRects().length || getComputedStyle(el).visibility === "hidden") continue;
    if (el.matches("label[for]")) {
      const input = document.getElementById(el.htmlFor);
      if (!input || !input.classList.contains("vh")) continue;  // a label beside its field: the field is the target
    }
    if (el.matches("a") && getComputedStyle(el).display === "inline" && el.parentElement.closest("p, li, td, dd, small, legend, h1, h2, h3")
        && el.parentElement.textContent.trim() !== el.textContent.trim()) continue;  // a link in a sentence
    // a game's link covers its row (the row is what a player taps)
    const r = (el.matches(".g-link") ? el.closest("tr") : el).getBoundingClientRect();
    if (r.width < 43.5 || r.height < 43.5)
      small.push(`${el.tagName.toLowerCase()}.${el.className} "${(el.innerText || el.value || "").trim().slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  return small;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_player_pages_are_axe_clean_fit_and_have_big_targets(scheme, browser, live_server, screenshot):
    urls = public_pages(live_server)
    found, wide, small = {}, {}, {}
    for size, viewport in SIZES.items():
        page = new_page(browser, live_server, viewport, scheme)
        try:
            for name, url in urls.items():
                page.goto(url)
                page.wait_for_load_state("networkidle")
                screenshot(page, f"a11y-public-{name}-{size}-{scheme}", full_page=False)
                if violations := axe_violations(page):
                    found[f"{name} {size}"] = describe(violations)
                if (over := sideways(page)) > 0:
                    wide[f"{name} {size}"] = over
                if size == "phone" and (tiny := page.evaluate(SMALL_TARGETS)):
                    small[name] = tiny
        finally:
            page.context.close()
    assert not found, "\n\n".join(f"== {k}\n{v}" for k, v in found.items())
    assert not wide, f"wider than the screen: {wide}"
    assert not small, f"touch targets under 44 x 44 px: {small}"


# A button's label wider than its button (the text runs over the border).
LABELS_OVERFLOW = """() => [...document.querySelectorAll(".seg label, .names label, button")]
  .filter(el => el.getClientRects().length && el.scrollWidth > el.clientWidth + 1).map(el => el.innerText.trim())"""


def test_large_text_and_strong_contrast_are_one_tap_away_and_remembered(browser, live_server, screenshot):
    table = glyph_table()
    fill(table, 3)
    urls = {"table": None, **public_pages(live_server)}
    for scheme in ("light", "dark"):
        page = new_page(browser, live_server, PHONE, scheme)
        try:
            page.goto(entry_url(page, table))
            normal = page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
            switch = page.get_by_test_id("reading-switch")
            expect(switch).to_have_attribute("aria-pressed", "false")
            switch.tap()
            expect(switch).to_have_attribute("aria-pressed", "true")
            assert page.evaluate("document.documentElement.dataset.reading") == "large"
            assert page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)") >= normal * 1.2
            for name, url in urls.items():  # the choice holds on every page of this device, after a reload too
                page.goto(url or entry_url(page, table))
                page.wait_for_load_state("networkidle")
                expect(page.get_by_test_id("reading-switch")).to_have_attribute("aria-pressed", "true")
                screenshot(page, f"a11y-large-{name}-{scheme}", full_page=False)
                assert (violations := axe_violations(page)) == [], describe(violations)
                assert sideways(page) <= 0, f"{name} scrolls sideways in large text"
                if name == "table":
                    page.get_by_test_id("contract-rufspiel").tap()
                    screenshot(page, f"a11y-large-table-rufspiel-{scheme}", full_page=False)
                    assert (small := page.evaluate(SMALL_TARGETS)) == [], small
                    assert (lost := glyphs_lost(page)) == [], lost
                    assert sideways(page) <= 0
                    page.get_by_test_id("contract-solo").tap()
                    assert page.evaluate(LABELS_OVERFLOW) == []
                assert broken_words(page) == [], f"{name}: words broken in large text"
            page.get_by_test_id("reading-switch").tap()  # and back
            assert page.evaluate("document.documentElement.dataset.reading") is None
            page.reload()
            expect(page.get_by_test_id("reading-switch")).to_have_attribute("aria-pressed", "false")
        finally:
            page.context.close()


def test_every_target_a_player_taps_on_the_table_page_is_at_least_44_px(browser, live_server):
    table = glyph_table()
    fill(table, 3)
    page = new_page(browser, live_server, PHONE)
    try:
        page.goto(entry_url(page, table))
        page.get_by_test_id("contract-rufspiel").tap()
        assert page.evaluate(SMALL_TARGETS) == []
        page.get_by_test_id("contract-wenz").tap()  # Tout, Laufende
        assert page.evaluate(SMALL_TARGETS) == []
    finally:
        page.context.close()
