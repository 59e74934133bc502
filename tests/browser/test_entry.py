"""A table plays a round on the tablet page, in headless Chromium, by taps only.

Screenshots (tablet portrait 800x1280) go to test-artifacts/entry-*.png.
"""

import random
import re

import pytest

from scoring.rules import ruleset_from_dict, score_hand
from tests.browser.conftest import go_offline, go_online
from tests.tournaments.test_services_hands import close, fill, make_table
from tournaments.models import HandRevision
from tournaments.services.hands import dealer_for, table_confirm
from tournaments.simulation import random_hand

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    ("Josef", "Huber"),
    ("Theresa", "Obermeier"),
    ("Xaver", "Zehetmair"),
    ("Magdalena", "Brandl"),
    ("Korbinian", "Sedlmeier"),
]


def expect(locator):
    from playwright.sync_api import expect as pw_expect

    return pw_expect(locator)


def normalised(record: dict, rules) -> dict:
    """The record as the tablet's buttons can enter it (a run below the minimum is entered as none)."""
    record = dict(record)
    minimum = {
        "rufspiel": rules.laufende_min.rufspiel,
        "wenz": rules.laufende_min.wenz,
        "solo": rules.laufende_min.solo,
    }[record["contract"]]
    if record.get("sie"):  # its own button: no trump suit to tap, no Laufende
        record.pop("laufende", None)
        record.pop("trump", None)
    elif record.get("laufende", 0) < minimum:
        record["laufende"] = 0
    return record


def round_games(seed: int, games: int, size: int, rules) -> list[dict]:
    rng = random.Random(seed)
    return [
        normalised(random_hand(rng, table_size=size, dealer=dealer_for(n, 0, size)), rules) for n in range(1, games + 1)
    ]


def tap_game(page, record: dict) -> int:
    """Enter one game by taps; returns the taps needed besides the Augen."""
    taps = 0

    def tap(testid: str) -> None:
        nonlocal taps
        page.get_by_test_id(testid).click()
        taps += 1

    contract = "muss" if record.get("muss") else "sie" if record.get("sie") else record["contract"]
    tap(f"contract-{contract}")
    if record.get("called"):
        tap(f"called-{record['called']}")
    if record.get("trump"):
        tap(f"trump-{record['trump']}")
    tap(f"declarer-{record['declarer']}")
    if record.get("partner"):
        tap(f"partner-{record['partner']}")
    if record.get("tout"):
        tap("tout")
        tap(f"won-{1 if record['won'] else 0}")
    if "augen" in record:
        augen = record["augen"]
        if augen in (0, 30, 31, 60, 61, 90, 91, 120):
            page.get_by_test_id(f"quick-{augen}").click()
        else:
            for digit in str(augen):
                page.get_by_test_id(f"key-{digit}").click()
        if record.get("schwarz"):
            tap("schwarz")
    if record.get("laufende"):
        tap(f"laufende-{record['laufende']}")
    return taps


def wait_for_preview(page, record: dict, size: int) -> None:
    """The preview shows the engine's points for the game before it is saved."""
    dealer = int(page.locator("#game-form").get_attribute("data-number"))
    dealer = dealer_for(dealer, 0, size)
    rules = ruleset_from_dict(None)
    points = score_hand({**record, "dealer": dealer}, rules, size).points
    for seat, value in points.items():
        text = (
            "–" if size == 5 and seat == dealer else (f"+{value}" if value > 0 else str(value).replace("-", "\u2212"))
        )
        expect(page.get_by_test_id(f"preview-{seat}").locator(".pv-pts")).to_have_text(text)


def save(page, next_number: int | None) -> None:
    page.get_by_test_id("save").click()
    if next_number is None:
        expect(page.get_by_test_id("confirm-panel")).to_be_visible()
    else:
        expect(page.locator("#game-form")).to_have_attribute("data-number", str(next_number))
        expect(page.get_by_test_id(f"game-{next_number - 1}")).to_be_visible()  # the server's sheet has it


def expected_totals(records: list[dict], size: int) -> dict[int, int]:
    rules = ruleset_from_dict(None)
    totals = dict.fromkeys(range(1, size + 1), 0)
    for number, record in enumerate(records, start=1):
        for seat, points in score_hand({**record, "dealer": dealer_for(number, 0, size)}, rules, size).points.items():
            totals[seat] += points
    return totals


def page_totals(page, size: int) -> dict[int, int]:
    """Each seat's total as the page shows it (a real minus sign, "−11")."""
    return {
        seat: int(page.get_by_test_id(f"total-{seat}").inner_text().replace("\u2212", "-"))
        for seat in range(1, size + 1)
    }


def test_a_table_enters_a_whole_round_corrects_a_game_and_confirms(page, screenshot):
    table = make_table(names=NAMES[:4])
    rules = ruleset_from_dict(None)
    games = round_games(2026, 32, 4, rules)
    games[0] = {"contract": "rufspiel", "called": "eichel", "declarer": 2, "partner": 4, "augen": 72, "laufende": 0}
    page.goto(f"{page.base_url}/tisch/{table.entry_key}/")
    expect(page.get_by_test_id("seat-1")).to_contain_text("Josef Huber")
    expect(page.get_by_test_id("seat-1")).to_contain_text("11")
    screenshot(page, "entry-empty")

    for number, record in enumerate(games, start=1):
        taps = tap_game(page, record)
        wait_for_preview(page, record, 4)
        if number == 1:
            assert taps + 1 <= 6, "a plain Rufspiel takes at most six taps plus the Augen"
            screenshot(page, "entry-rufspiel-preview", full_page=False)
            screenshot(page, "entry-rufspiel-preview-full")
        save(page, number + 1 if number < 32 else None)

    assert table.hands.count() == 32
    assert page_totals(page, 4) == expected_totals(games, 4)
    screenshot(page, "entry-sheet-32")

    # A correction: tap game 5, change the Augen, save.
    page.get_by_test_id("game-5").click()
    expect(page.get_by_test_id("form-title")).to_contain_text("5")
    corrected = dict(games[4])
    if corrected.get("tout") or corrected.get("sie"):
        corrected = {"contract": "wenz", "declarer": corrected["declarer"], "augen": 45, "laufende": 0}
        page.get_by_test_id("contract-wenz").click()
        page.get_by_test_id("announce-none").click()
    corrected["augen"] = 45 if corrected.get("augen") != 45 else 46
    corrected.pop("schwarz", None)
    if page.get_by_test_id("schwarz").locator("xpath=preceding-sibling::input[1]").is_checked():
        page.get_by_test_id("schwarz").click()
    for digit in str(corrected["augen"]):
        page.get_by_test_id(f"key-{digit}").click()
    expect(page.get_by_test_id("augen")).to_have_value(str(corrected["augen"]))
    page.get_by_test_id("save").click()
    expect(page.get_by_test_id("confirm-panel")).to_be_visible()
    games[4] = corrected
    assert HandRevision.objects.filter(table=table, action="update", number=5).count() == 1
    assert table.hands.get(number=5).augen == corrected["augen"]
    assert page_totals(page, 4) == expected_totals(games, 4)
    screenshot(page, "entry-confirm")

    # Every player confirms by tapping his name.
    for seat in range(1, 5):
        page.get_by_test_id(f"confirm-{seat}").click()
        expect(page.get_by_test_id(f"confirmed-{seat}")).to_be_visible()
    expect(page.get_by_test_id("complete-banner")).to_be_visible()
    table.refresh_from_db()
    assert table.completed_at is not None
    screenshot(page, "entry-confirmed")

    # The totals against the rules engine, once more from the database.
    stored = dict.fromkeys(range(1, 5), 0)
    for hand in table.hands.all():
        for seat, points in hand.points.items():
            stored[int(seat)] += points
    assert stored == expected_totals(games, 4) == page_totals(page, 4)
    assert sum(stored.values()) == 0


def test_a_table_of_five_shows_who_sits_out(page, screenshot):
    table = make_table(size=5, names=NAMES)
    rules = ruleset_from_dict(None)
    games = round_games(7, 6, 5, rules)
    page.goto(f"{page.base_url}/tisch/{table.entry_key}/")
    for number, record in enumerate(games[:3], start=1):
        tap_game(page, record)
        save(page, number + 1)
    # Game 4: seat 4 deals and sits out; his name buttons cannot be tapped.
    expect(page.get_by_test_id("seat-4")).to_have_class(re.compile(r"\bout\b"))
    assert page.locator("#d-4").is_disabled() and page.locator("#p-4").is_disabled()
    page.get_by_test_id("contract-rufspiel").click()
    page.get_by_test_id("called-gras").click()
    page.get_by_test_id("declarer-1").click()
    page.get_by_test_id("partner-5").click()
    page.get_by_test_id("quick-91").click()
    record = {"contract": "rufspiel", "called": "gras", "declarer": 1, "partner": 5, "augen": 91}
    wait_for_preview(page, record, 5)
    expect(page.get_by_test_id("preview-4")).to_contain_text("–")
    screenshot(page, "entry-table-of-five", full_page=False)
    screenshot(page, "entry-table-of-five-full")
    save(page, 5)
    assert table.hands.get(number=4).points["4"] == 0
    assert page_totals(page, 5) == expected_totals(games[:3] + [record], 5)


def test_a_closed_round_shows_the_final_sheet_read_only(page, screenshot):
    table = make_table(rules={"games_per_round": 8}, names=NAMES[:4])
    fill(table, 8)
    for seat in range(1, 5):
        table_confirm(table=table, seat=seat)
    close(table)
    page.goto(f"{page.base_url}/tisch/{table.entry_key}/")
    expect(page.get_by_test_id("closed-banner")).to_be_visible()
    assert page.get_by_test_id("game-form").count() == 0
    assert page.locator("a[data-testid^=game-]").count() == 0
    screenshot(page, "entry-closed")


def test_an_invalid_game_is_explained_next_to_the_field(page, screenshot):
    table = make_table(names=NAMES[:4])
    page.goto(f"{page.base_url}/tisch/{table.entry_key}/")
    page.get_by_test_id("contract-wenz").click()
    page.get_by_test_id("declarer-2").click()
    page.get_by_test_id("key-1").click()
    page.get_by_test_id("key-3").click()
    page.get_by_test_id("key-0").click()
    expect(page.locator("#err-augen")).not_to_be_empty()
    expect(page.get_by_test_id("preview-error")).to_be_visible()
    screenshot(page, "entry-invalid", full_page=False)
    page.get_by_test_id("save").click()
    expect(page.locator("#err-augen")).to_contain_text("130")
    assert not table.hands.exists()


def test_a_game_entered_offline_is_kept_and_sent_when_the_network_is_back(page, screenshot):
    table = make_table(names=NAMES[:4])
    page.goto(f"{page.base_url}/tisch/{table.entry_key}/")
    tap_game(page, {"contract": "rufspiel", "declarer": 1, "partner": 2, "augen": 61})
    expect(page.get_by_test_id("preview-1")).to_contain_text("+1")
    go_offline(page)
    page.get_by_test_id("save").click()
    expect(page.get_by_test_id("pending")).to_be_visible()
    screenshot(page, "entry-offline", full_page=False)
    assert not table.hands.exists()
    queued = page.evaluate(f"JSON.parse(localStorage.getItem('skr:{table.entry_key}:queue'))")
    assert [item["number"] for item in queued] == [1]
    # The points the preview showed before the network dropped are in the sheet, marked as not sent.
    expect(page.get_by_test_id("unsent-1").locator('.c-seat[data-seat="1"] .pts')).to_have_text("+1")
    go_online(page)
    expect(page.get_by_test_id("game-1")).to_be_visible()
    expect(page.locator("#game-form")).to_have_attribute("data-number", "2")
    assert table.hands.count() == 1
    # the queue empties once the page has taken the answer in (a moment after the sheet shows the game)
    page.wait_for_function(f"localStorage.getItem('skr:{table.entry_key}:queue') === null")


def test_two_tablets_submitting_the_same_game_one_wins_the_other_is_told(browser, live_server, screenshot):
    table = make_table(names=NAMES[:4])
    pages = []
    for _ in range(2):
        context = browser.new_context(viewport={"width": 800, "height": 1280}, locale="de-DE", has_touch=True)
        p = context.new_page()
        p.set_default_timeout(15_000)
        p.goto(f"{live_server.url}/tisch/{table.entry_key}/")
        pages.append(p)
    first, second = pages
    tap_game(first, {"contract": "rufspiel", "declarer": 1, "partner": 2, "augen": 70})
    tap_game(second, {"contract": "wenz", "declarer": 3, "augen": 80})
    save(first, 2)
    second.get_by_test_id("save").click()
    # Both versions of game 1 side by side; the table keeps one with a tap, the other is a revision.
    expect(second.get_by_test_id("conflict")).to_be_visible()
    expect(second.get_by_test_id("conflict")).to_contain_text("1")
    expect(second.get_by_test_id("version-stored")).to_contain_text("Rufspiel")
    expect(second.get_by_test_id("version-rival")).to_contain_text("Wenz")
    screenshot(second, "entry-conflict", full_page=False)
    second.get_by_test_id("keep-stored").click()
    expect(second.get_by_test_id("conflict")).to_be_hidden()
    expect(second.locator("#game-form")).to_have_attribute("data-number", "2")
    assert table.hands.count() == 1 and table.hands.get().contract == "rufspiel"
    assert HandRevision.objects.get(table=table, action="conflict").old["contract"] == "wenz"
    for p in pages:
        p.context.close()
