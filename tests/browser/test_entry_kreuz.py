"""Kreuz on the tablet at a table of five, in headless Chromium, by taps only (rules.md section 6).

The Kreuz button stands where Muss would be; it proposes the Vorhand's pair with both names and
asks only for Augen, Schwarz and Laufende; a 60:60 under kreuz_tie = replay is saved as thrown in
and the same dealer deals again. Screenshots: test-artifacts/entry-kreuz-*.png.
"""

import pytest

from tests.browser.conftest import go_offline, go_online
from tests.browser.test_entry import expect, save
from tests.tournaments.test_services_hands import make_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    ("Josef", "Huber"),
    ("Theresa", "Obermeier"),
    ("Xaver", "Zehetmair"),
    ("Magdalena", "Brandl"),
    ("Korbinian", "Sedlmeier"),
]
RULES = {"all_pass": "kreuz", "kreuz_tie": "replay", "games_per_round": 8}


def test_a_kreuz_and_a_replayed_60_to_60_at_a_table_of_five(page, screenshot):
    table = make_table(size=5, rules=RULES, names=NAMES)
    page.goto(f"{page.base_url}/tisch/{table.entry_key}/")
    expect(page.get_by_test_id("contract-muss")).to_have_count(0)

    # Game 1: seat 1 deals and sits out, Vorhand is seat 2: the page proposes 2+4 against 3+5.
    page.get_by_test_id("contract-kreuz").click()
    pair = page.get_by_test_id("pair-2-4")
    expect(pair).to_be_visible()
    expect(pair).to_contain_text("Theresa Obermeier + Magdalena Brandl")
    assert page.locator("#pair-2").is_checked()
    # only the pair, the Augen (with Schwarz) and the Laufende are asked for
    for part in ("declarer", "partner", "called", "trump", "announce", "muss", "kontra", "won"):
        expect(page.locator(f'[data-part="{part}"]')).to_be_hidden()
    for part in ("kreuz", "augen", "laufende"):
        expect(page.locator(f'[data-part="{part}"]')).to_be_visible()
    expect(page.get_by_test_id("schwarz")).to_be_visible()
    page.get_by_test_id("key-9").click()
    page.get_by_test_id("key-5").click()
    page.get_by_test_id("laufende-3").click()
    for seat, text in ((1, "–"), (2, "+5"), (3, "\u22125"), (4, "+5"), (5, "\u22125")):  # a real minus sign
        expect(page.get_by_test_id(f"preview-{seat}").locator(".pv-pts")).to_have_text(text)
    expect(page.get_by_test_id("preview-summary")).to_contain_text("2+4 über Kreuz")
    screenshot(page, "entry-kreuz-proposed", full_page=False)
    save(page, 2)
    expect(page.get_by_test_id("form-title")).to_contain_text("1 von 10")  # the server's form for game 2
    first = table.hands.get(number=1)
    assert (first.contract, first.declarer, first.augen, first.laufende) == ("kreuz", 2, 95, 3)
    assert first.points == {"1": 0, "2": 5, "3": -5, "4": 5, "5": -5}

    # Game 2: seat 2 deals; Vorhand seat 3 with seat 5. They make 60: thrown in, seat 2 deals again.
    dealer = page.get_by_test_id("dealer").inner_text()
    assert "Theresa Obermeier" in dealer
    page.get_by_test_id("contract-kreuz").click()
    expect(page.get_by_test_id("pair-3-5")).to_contain_text("Xaver Zehetmair + Korbinian Sedlmeier")
    page.get_by_test_id("quick-60").click()
    expect(page.get_by_test_id("preview-summary")).to_contain_text("60:60")
    screenshot(page, "entry-kreuz-60-60", full_page=False)
    save(page, 3)
    replayed = table.hands.get(number=2)
    assert replayed.thrown_in and replayed.dealer == 2 and replayed.points == {}
    assert page.get_by_test_id("dealer").inner_text() == dealer  # the same dealer deals again
    expect(page.get_by_test_id("form-title")).to_contain_text("1 von 10")  # the replayed game does not count
    expect(page.get_by_test_id("game-2")).to_contain_text("60:60")

    # Game 3 is played: 3+5 lose with 59.
    page.get_by_test_id("contract-kreuz").click()
    page.get_by_test_id("key-5").click()
    page.get_by_test_id("key-9").click()
    save(page, 4)
    assert table.hands.get(number=3).points == {"1": 1, "2": 0, "3": -1, "4": 1, "5": -1}
    screenshot(page, "entry-kreuz-sheet")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    # On a phone the two pairs still fit side by side (the page's own phone layout is 12b's; at 360 px its
    # contract row overflows under every ruleset today, so only the pairs are checked here).
    page.set_viewport_size({"width": 360, "height": 640})
    page.get_by_test_id("contract-kreuz").click()
    page.get_by_test_id("pair-1-4").scroll_into_view_if_needed()  # game 4: seat 3 deals, Vorhand 4 plays with 1
    screenshot(page, "entry-kreuz-phone", full_page=False)
    pairs = page.locator(".kreuz-pairs")
    assert pairs.evaluate("el => el.scrollWidth <= el.clientWidth")


def test_a_replayed_60_to_60_entered_offline_keeps_the_dealer_for_the_next_queued_game(page):
    table = make_table(size=4, rules=RULES, names=NAMES[:4])
    page.goto(f"{page.base_url}/tisch/{table.entry_key}/")
    go_offline(page)
    page.get_by_test_id("contract-kreuz").click()
    page.get_by_test_id("quick-60").click()
    page.get_by_test_id("save").click()
    expect(page.get_by_test_id("pending")).to_be_visible()
    page.get_by_test_id("contract-kreuz").click()
    page.get_by_test_id("quick-61").click()
    page.get_by_test_id("save").click()
    queued = page.evaluate(f"JSON.parse(localStorage.getItem('skr:{table.entry_key}:queue'))")
    assert [(item["number"], item["dealer"], item["thrownIn"]) for item in queued] == [(1, 1, True), (2, 1, False)]
    assert queued[0]["who"] == "Theresa Obermeier + Magdalena Brandl"  # the Vorhand's pair, as proposed
    go_online(page)
    expect(page.get_by_test_id("game-2")).to_be_visible()  # the server's sheet has both
    expect(page.locator("#game-form")).to_have_attribute("data-number", "3")
    assert [(h.number, h.dealer, h.thrown_in) for h in table.hands.order_by("number")] == [(1, 1, True), (2, 1, False)]
