"""The evening's links in a phone's browser (360 x 640, touch): a table card's link follows the rounds by
itself, a player's page shows his new seat and his games so far.

Screenshots (phone 360 px and tablet 800 x 1280) go to test-artifacts/links-*.png.
"""

import pytest
from django.urls import reverse

from tests.api.conftest import make_tournament
from tests.browser.conftest import broken_words, go_offline, go_online
from tests.browser.test_entry import expect, save, tap_game
from tests.factories import ClubFactory
from tests.tournaments.test_services_hands import rufspiel
from tournaments.links import table_link_key
from tournaments.models import Hand
from tournaments.services.hands import table_confirm, table_sheet_record
from tournaments.services.rounds import round_close, round_draw, round_publish
from tournaments.views import links as link_views

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 640}
TABLET = {"width": 800, "height": 1280}
LAPTOP = {"width": 1366, "height": 768}  # the desk's laptop
GAMES = 8


@pytest.fixture
def phone(browser, live_server):
    context = browser.new_context(viewport=PHONE, locale="de-DE", has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.base_url = live_server.url
    yield page
    context.close()


def fits(page, width: int = 360) -> None:
    """No sideways scrolling, and no name or heading broken mid-word."""
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{page.url} is {scroll}px wide at {width}px"
    assert broken_words(page) == [], page.url


def finish_round(rnd) -> None:
    """Every table plays its remaining games, every player confirms, the round is closed."""
    for table in rnd.tables.all():
        played = table.hands.count()
        table_sheet_record(table=table, records=[rufspiel(n, table.size) for n in range(played + 1, GAMES + 1)])
        for seat in range(1, table.size + 1):
            table_confirm(table=table, seat=seat)
    round_close(round=rnd)


def test_the_table_link_follows_the_rounds_and_the_player_page_shows_the_new_seat(
    phone, browser, live_server, monkeypatch, screenshot
):
    monkeypatch.setattr(link_views, "POLL_SECONDS", 2)
    tournament = make_tournament(ClubFactory(), players=8, rules={"rounds": 2, "games_per_round": GAMES})
    url = phone.base_url + reverse("tournaments:table_link", args=[table_link_key(tournament.pk, 1)])

    # Before the first round: the card's link waits.
    phone.goto(url)
    expect(phone.get_by_test_id("link-waiting")).to_be_visible()
    fits(phone)
    screenshot(phone, "links-table-waiting-360")

    (first,) = round_draw(tournament=tournament, seed=4)
    round_publish(round=first)
    expect(phone.get_by_test_id("table-title")).to_contain_text("Runde 1", timeout=10_000)  # by itself
    table1 = first.tables.get(number=1)
    fits(phone)
    screenshot(phone, "links-table-round1-360")

    # A game entered through the link stays in round 1's table; the page stays on the link.
    tap_game(phone, {"contract": "rufspiel", "called": "eichel", "declarer": 1, "partner": 3, "augen": 72})
    save(phone, 2)
    assert phone.url == url
    assert list(Hand.objects.values_list("table_id", "number")) == [(table1.pk, 1)]

    # Round 1 closes: the page says so, by itself.
    finish_round(first)
    expect(phone.get_by_test_id("link-between")).to_have_text(
        "Runde 1 ist abgeschlossen – gleich geht es mit Runde 2 weiter", timeout=10_000
    )
    fits(phone)
    screenshot(phone, "links-table-between-360")

    # Round 2 is published: the same page shows round 2's table 1 without a new scan.
    (second,) = round_draw(tournament=tournament, seed=9)
    round_publish(round=second)
    expect(phone.get_by_test_id("table-title")).to_contain_text("Runde 2", timeout=10_000)
    assert phone.url == url
    expect(phone.get_by_test_id("game-form")).to_be_visible()
    for seat in second.tables.get(number=1).seats.select_related("registration__player"):
        expect(phone.get_by_test_id(f"seat-{seat.number}")).to_contain_text(seat.registration.player.first_name)
    fits(phone)
    screenshot(phone, "links-table-round2-360")

    # The player's page: his round-2 seat, his table mates, his round-1 games.
    registration = tournament.registrations.order_by("start_number").first()
    seat1 = first.seats.select_related("table").get(registration=registration)
    seat2 = second.seats.select_related("table").get(registration=registration)
    phone.goto(phone.base_url + reverse("tournaments:player", args=[registration.key]))
    expect(phone.get_by_test_id("player-seat")).to_have_text(
        f"Runde 2: Tisch {seat2.table.number}, Platz {seat2.number}"
    )
    expect(phone.get_by_test_id("player-round-1").get_by_test_id("player-game")).to_have_count(GAMES)
    mine = sum(h.points[str(seat1.number)] for h in seat1.table.hands.all())
    total = phone.get_by_test_id("player-round-1").get_by_test_id("player-round-total").inner_text()
    assert int(total.replace("−", "-").replace("+", "")) == mine
    fits(phone)
    screenshot(phone, "links-player-360")
    phone.get_by_test_id("player-to-table").click()
    expect(phone.get_by_test_id("table-title")).to_contain_text(f"Tisch {seat2.table.number}")
    assert phone.url.endswith(reverse("tournaments:player_table", args=[registration.key]))

    # The same pages on a tablet held upright and on the desk's laptop.
    for name, viewport in (("800", TABLET), ("1366", LAPTOP)):
        context = browser.new_context(viewport=viewport, locale="de-DE", has_touch=name == "800")
        other = context.new_page()
        other.goto(phone.base_url + reverse("tournaments:player", args=[registration.key]))
        fits(other, viewport["width"])
        screenshot(other, f"links-player-{name}")
        other.goto(url)
        expect(other.get_by_test_id("table-title")).to_contain_text("Runde 2")
        fits(other, viewport["width"])
        screenshot(other, f"links-table-round2-{name}")
        context.close()


def test_the_table_link_waits_for_a_game_kept_on_the_phone_before_it_follows_the_next_round(
    phone, monkeypatch, screenshot
):
    """A queued game keeps the page on its round (after a switch it would sit, unseen, under the old table's key).
    Refused because round 1 closed meanwhile, it stays with the reason while round 2 is out; once the table has
    dealt with it (here: discarded), the page follows round 2 by itself."""
    monkeypatch.setattr(link_views, "POLL_SECONDS", 2)
    tournament = make_tournament(ClubFactory(), players=8, rules={"rounds": 2, "games_per_round": GAMES})
    (first,) = round_draw(tournament=tournament, seed=4)
    round_publish(round=first)
    table1 = first.tables.get(number=1)
    table_sheet_record(table=table1, records=[rufspiel(n, 4) for n in range(1, GAMES)])
    phone.goto(phone.base_url + reverse("tournaments:table_link", args=[table_link_key(tournament.pk, 1)]))
    expect(phone.locator("#game-form")).to_have_attribute("data-number", str(GAMES))

    go_offline(phone)
    tap_game(phone, rufspiel(GAMES, 4))
    phone.get_by_test_id("save").click()
    expect(phone.get_by_test_id(f"unsent-{GAMES}")).to_be_visible()
    expect(phone.get_by_test_id("all-queued")).to_be_visible()  # the last game, waiting for the network
    finish_round(first)  # the other device entered the last game; round 1 closes
    (second,) = round_draw(tournament=tournament, seed=9)
    round_publish(round=second)
    go_online(phone)
    expect(phone.get_by_test_id(f"unsent-{GAMES}")).to_contain_text("abgelehnt")
    phone.wait_for_timeout(5_000)  # two of the link's polls: round 2 is out, but a game waits here
    expect(phone.get_by_test_id("table-title")).to_contain_text("Runde 1")
    expect(phone.get_by_test_id(f"unsent-{GAMES}")).to_contain_text("abgelehnt")
    # "they are sent as soon as the network is back" would not be true of a refused game
    expect(phone.get_by_test_id("all-queued")).to_be_hidden()
    fits(phone)
    screenshot(phone, "links-table-held-by-a-refused-game-360")

    phone.once("dialog", lambda dialog: dialog.accept())
    phone.get_by_test_id(f"discard-{GAMES}").click()
    expect(phone.get_by_test_id("table-title")).to_contain_text("Runde 2", timeout=10_000)
    expect(phone.get_by_test_id("game-form")).to_be_visible()
    assert list(second.tables.get(number=1).hands.all()) == []
