"""The evening's private links: a table card's all-evening link (tk/<key>/) and a player's page (s/<key>/)."""

import uuid

import pytest
from django.urls import reverse
from django.utils import translation

from tests.api.conftest import make_tournament, member
from tests.factories import ClubFactory
from tournaments.links import table_link_key, table_link_parse
from tournaments.models import AuditEntry, ClubMembership, Hand, Round, TableConfirmation
from tournaments.services.hands import table_sheet_record
from tournaments.services.registration import registration_withdraw
from tournaments.services.rounds import round_draw, round_publish
from tournaments.services.simulation import round_simulate
from tournaments.services.standings import standings_recompute
from tournaments.services.tournament import tournament_finish
from tournaments.simulation import random_hand

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
RUF_FIELDS = {
    "contract": "rufspiel",
    "called": "eichel",
    "declarer": "1",
    "partner": "3",
    "augen": "72",
    "laufende": "0",
}
RULES = {"rounds": 3, "games_per_round": 8}


@pytest.fixture(autouse=True)
def _english(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def tournament():
    return make_tournament(ClubFactory(), players=8, rules=RULES)


def link(tournament, number: int) -> str:
    return reverse("tournaments:table_link", args=[table_link_key(tournament.pk, number)])


def status(client, tournament, number: int) -> dict:
    key = table_link_key(tournament.pk, number)
    return client.get(reverse("tournaments:table_link_status", args=[key])).json()


def play_round(tournament, *, close: bool = True) -> Round:
    (rnd,) = round_draw(tournament=tournament, seed=11)
    round_simulate(rnd=rnd, seed=5, close=close)
    return rnd


def draw_and_publish(tournament) -> Round:
    (rnd,) = round_draw(tournament=tournament, seed=12)
    return round_publish(round=rnd)


# --- the key ----------------------------------------------------------------------------------------------


def test_a_key_names_its_tournament_and_number_and_cannot_be_altered(tournament):
    key = table_link_key(tournament.pk, 3)
    assert table_link_parse(key) == (tournament.pk, 3, 0)
    mac = key.split("-", 2)[2]
    assert table_link_parse(f"{tournament.pk}-4-{mac}") is None  # another number, same signature
    assert table_link_parse(f"{tournament.pk + 1}-3-{mac}") is None
    assert table_link_parse(key[:-1] + ("A" if key[-1] != "A" else "B")) is None
    for junk in ("", "1-2", "x-1-abc", "1-0-" + mac, "²-3-" + mac, "-".join(["9" * 12, "3", mac])):
        assert table_link_parse(junk) is None


# --- the table link through the rounds ----------------------------------------------------------------------


def test_before_the_first_round_the_link_waits_and_a_wrong_key_is_404(client, tournament):
    response = client.get(link(tournament, 1))
    assert response.status_code == 200
    assert b'data-testid="link-waiting"' in response.content
    assert b"The first round is not published yet" in response.content
    assert status(client, tournament, 1) == {"signature": "waiting:0", "state": "waiting", "round": None, "table": 1}
    assert client.get(reverse("tournaments:table_link", args=["1-1-nothing"])).status_code == 404
    round_draw(tournament=tournament, seed=1)  # drawn, not published: still nothing to see
    assert b'data-testid="link-waiting"' in client.get(link(tournament, 1)).content


def test_the_link_opens_its_number_in_the_published_round_and_games_stay_there(client, tournament):
    rnd = draw_and_publish(tournament)
    table = rnd.tables.get(number=2)
    response = client.get(link(tournament, 2))
    assert response.status_code == 200
    assert response.context["table"] == table
    html = response.content.decode()
    assert 'data-testid="game-form"' in html and "data-follow=" in html
    urls = response.context["urls"]
    key = table_link_key(tournament.pk, 2)
    assert urls.page == f"/tk/{key}/" and urls.record == f"/tk/{key}/1/spiel/"
    assert urls.storage_key == f"skr:{table.entry_key}"
    saved = client.post(urls.record, {"client_id": str(uuid.uuid4()), **RUF_FIELDS}, **JSON)
    assert saved.status_code == 200 and saved.json()["redirect"] == urls.page
    assert table.hands.count() == 1 and rnd.tables.get(number=1).hands.count() == 0
    # correction and preview under the link too
    assert client.get(urls.game(1)).status_code == 200
    fixed = client.post(urls.game(1), {**RUF_FIELDS, "augen": "50", "number": "1"}, **JSON)
    assert fixed.status_code == 200 and table.hands.get(number=1).augen == 50
    assert client.post(urls.preview, RUF_FIELDS).status_code == 200
    assert client.post(urls.delete(1), {"reason": "oops"}, **JSON).status_code == 200
    assert table.hands.count() == 0
    # a round that is not public behind the link is not found
    assert client.post(f"/tk/{key}/2/spiel/", {"client_id": str(uuid.uuid4()), **RUF_FIELDS}).status_code == 404


def test_between_rounds_the_link_says_so_and_then_opens_the_next_round(client, tournament):
    first = play_round(tournament)
    response = client.get(link(tournament, 1))
    html = response.content.decode()
    assert "Round 1 is finished – round 2 starts shortly" in html
    assert response.context["table"] == first.tables.get(number=1)  # the final sheet, read only
    assert 'data-testid="game-form"' not in html
    assert status(client, tournament, 1)["signature"] == "closed:1"
    (second,) = round_draw(tournament=tournament, seed=3)
    assert status(client, tournament, 1)["signature"] == "closed:1"  # drawn is not public
    round_publish(round=second)
    assert status(client, tournament, 1) == {"signature": "play:2", "state": "play", "round": 2, "table": 1}
    response = client.get(link(tournament, 1))
    assert response.context["table"] == second.tables.get(number=1)
    assert 'data-testid="game-form"' in response.content.decode()
    # a game kept from round 1 (its URL names the round) is refused, not put into round 2
    key = table_link_key(tournament.pk, 1)
    late = client.post(f"/tk/{key}/1/spiel/", {"client_id": str(uuid.uuid4()), **RUF_FIELDS}, **JSON)
    assert late.status_code == 409
    assert not second.tables.get(number=1).hands.exists()


def test_in_german_the_break_between_rounds_reads_as_on_the_card(client, tournament):
    play_round(tournament)
    html = client.get(link(tournament, 1), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Runde 1 ist abgeschlossen – gleich geht es mit Runde 2 weiter" in html


def test_a_number_the_next_round_does_not_have_says_so(client, tournament):
    play_round(tournament)
    for registration in tournament.registrations.order_by("start_number")[:4]:
        registration_withdraw(registration=registration)
    second = draw_and_publish(tournament)
    assert second.tables.count() == 1
    response = client.get(link(tournament, 2))
    assert response.status_code == 200
    assert "Round 2 has no table 2" in response.content.decode()
    assert status(client, tournament, 2)["state"] == "missing"
    assert response.context.get("table") is None
    german = client.get(link(tournament, 2), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "In Runde 2 gibt es keinen Tisch 2" in german  # as the volunteers' guide quotes it
    assert reverse("tournaments:seatlist", args=[tournament.slug]) in german  # and where to look instead


def test_after_the_last_round_the_link_says_thank_you(client, tournament):
    for _ in range(RULES["rounds"]):
        play_round(tournament)
    response = client.get(link(tournament, 1))
    assert "The last round is finished" in response.content.decode()
    assert status(client, tournament, 1)["state"] == "finished"


def test_confirming_through_the_link(client, tournament):
    rnd = draw_and_publish(tournament)
    table = rnd.tables.get(number=1)
    table_sheet_record(
        table=table,
        records=[
            random_hand(__import__("random").Random(n), table_size=4, dealer=((n - 1) % 4) + 1) for n in range(1, 9)
        ],
    )
    key = table_link_key(tournament.pk, 1)
    response = client.post(f"/tk/{key}/1/bestaetigen/", {"seat": "2"})
    assert response.status_code == 302 and response.url == f"/tk/{key}/#confirm"
    assert list(TableConfirmation.objects.filter(table=table).values_list("seat", flat=True)) == [2]


def test_the_links_do_not_open_each_other(client, tournament):
    rnd = draw_and_publish(tournament)
    table = rnd.tables.get(number=1)
    key = table_link_key(tournament.pk, 1)
    player_key = tournament.registrations.first().key
    assert client.get(reverse("tournaments:entry_table", args=[key])).status_code == 404
    assert client.get(reverse("tournaments:entry_table", args=[player_key])).status_code == 404
    assert client.get(reverse("tournaments:table_link", args=[player_key])).status_code == 404
    assert client.get(reverse("tournaments:table_link", args=[table.entry_key])).status_code == 404
    assert client.get(reverse("tournaments:player", args=[key])).status_code == 404
    assert client.get(reverse("tournaments:player", args=[table.entry_key])).status_code == 404
    other = make_tournament(ClubFactory(), players=4, slug="other")
    assert client.get(link(other, 1)).status_code == 200  # its own number 1 (waiting), not ours
    assert client.get(link(other, 1)).context.get("table") is None


# --- the player's page ----------------------------------------------------------------------------------------


def player_url(registration, name: str = "player") -> str:
    return reverse(f"tournaments:{name}", args=[registration.key])


def test_the_player_page_shows_his_seat_mates_and_games_per_round(client, tournament):
    first = play_round(tournament)
    second = draw_and_publish(tournament)
    registration = tournament.registrations.order_by("start_number").first()
    seat2 = second.seats.select_related("table").get(registration=registration)
    seat1 = first.seats.select_related("table").get(registration=registration)
    response = client.get(player_url(registration))
    assert response.status_code == 200
    html = response.content.decode()
    assert f"Round 2: table {seat2.table.number}, seat {seat2.number}" in html
    mates = [
        s.registration.player.name
        for s in seat2.table.seats.select_related("registration__player")
        if s.registration_id != registration.pk
    ]
    for name in mates:
        assert name in html
    page = response.context["page"]
    assert [r.number for r in page.rounds] == [2, 1] and page.current.number == 2
    round1 = page.rounds[1]
    hands = list(seat1.table.hands.order_by("number"))
    assert [g.number for g in round1.games] == [h.number for h in hands]
    mine = [h.points.get(str(seat1.number)) for h in hands]
    assert [g.points for g in round1.games] == mine
    assert round1.total == sum(p or 0 for p in mine) == round1.games[-1].running
    assert html.count('data-testid="player-game"') == len(hands)
    assert f'href="{player_url(registration, "player_table")}"' in html
    # his table's entry page, through his key: games go to this round's table, the page stays on his key
    to_table = client.get(player_url(registration, "player_table"))
    assert to_table.status_code == 200 and to_table.context["table"] == seat2.table
    urls = to_table.context["urls"]
    assert urls.page == player_url(registration, "player_table")
    assert urls.record == f"/s/{registration.key}/2/spiel/"
    saved = client.post(urls.record, {"client_id": str(uuid.uuid4()), **RUF_FIELDS}, **JSON)
    assert saved.status_code == 200 and saved.json()["redirect"] == urls.page
    assert seat2.table.hands.count() == 1


def test_in_german_the_seat_reads_runde_tisch_platz(client, tournament):
    rnd = draw_and_publish(tournament)
    registration = tournament.registrations.first()
    seat = rnd.seats.select_related("table").get(registration=registration)
    html = client.get(player_url(registration), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert f"Runde 1: Tisch {seat.table.number}, Platz {seat.number}" in html


def test_rank_and_points_only_when_the_standings_are_public(client, tournament):
    play_round(tournament)
    registration = tournament.registrations.first()
    response = client.get(player_url(registration))
    assert response.context["page"].rank is None and b'data-testid="player-rank"' not in response.content
    tournament.standings_public = True
    tournament.save(update_fields=["standings_public"])
    standings_recompute(tournament_id=tournament.pk)
    response = client.get(player_url(registration))
    rank = response.context["page"].rank
    assert rank is not None and rank["start_number"] == registration.start_number
    assert b'data-testid="player-rank"' in response.content
    assert rank["points"] == response.context["page"].total


def test_before_any_round_and_a_wrong_key(client, tournament):
    registration = tournament.registrations.first()
    response = client.get(player_url(registration))
    assert response.status_code == 200 and response.context["page"].current is None
    assert b"The seats are not published yet." in response.content
    assert client.get(reverse("tournaments:player", args=["nope"])).status_code == 404
    assert client.get(reverse("tournaments:player_table", args=["nope"])).status_code == 404
    assert client.post(reverse("tournaments:player_confirm", args=["nope"])).status_code == 404
    to_table = client.get(player_url(registration, "player_table"))
    assert to_table.status_code == 302 and to_table.url == player_url(registration)


def test_he_confirms_his_own_tables_sheet_from_his_phone(client, tournament):
    (rnd,) = round_draw(tournament=tournament, seed=11)
    round_simulate(rnd=rnd, seed=5, play=False)  # published, nothing played
    registration = tournament.registrations.first()
    seat = rnd.seats.select_related("table").get(registration=registration)
    response = client.post(player_url(registration, "player_confirm"), follow=True)
    assert "0 of 8 games are entered; confirm when all are." in response.content.decode()
    assert not TableConfirmation.objects.exists()
    rng = __import__("random").Random(3)
    table_sheet_record(
        table=seat.table,
        records=[
            random_hand(rng, table_size=seat.table.size, dealer=((n - 1) % seat.table.size) + 1) for n in range(1, 9)
        ],
    )
    page = client.get(player_url(registration))
    assert b'data-testid="player-confirm"' in page.content
    response = client.post(player_url(registration, "player_confirm"))
    assert response.status_code == 302
    assert list(TableConfirmation.objects.values_list("table_id", "seat")) == [(seat.table_id, seat.number)]
    assert b'data-testid="player-confirmed"' in client.get(player_url(registration)).content


def test_the_players_table_link_reaches_only_his_own_tables(client, tournament):
    first = play_round(tournament)
    registration = tournament.registrations.first()
    key = registration.key
    body = {"client_id": str(uuid.uuid4()), **RUF_FIELDS}
    assert client.post(f"/s/{key}/2/spiel/", body, **JSON).status_code == 404  # round 2 is not public
    late = client.post(f"/s/{key}/1/spiel/", body, **JSON)
    assert late.status_code == 409  # his round-1 table, closed
    second = draw_and_publish(tournament)
    saved = client.post(f"/s/{key}/2/spiel/", body, **JSON)
    assert saved.status_code == 200
    assert second.seats.get(registration=registration).table.hands.count() == 1
    assert sum(t.hands.count() for t in second.tables.all()) == 1
    assert first.tables.filter(hands__client_id=body["client_id"]).count() == 0


def test_the_player_pages_share_a_tables_sheet_until_it_changes(tournament):
    """The sheets of a player page are kept per table and version: his table mates' pages and his
    next poll read no game again, while a changed game, a confirmation or the round's state are read anew."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tournaments.selectors.links import player_page
    from tournaments.services.hands import hand_delete

    first = play_round(tournament, close=False)
    table = first.tables.order_by("number").first()
    seats = list(table.seats.select_related("registration__tournament").order_by("number"))

    def page_and_game_reads(registration):
        with CaptureQueriesContext(connection) as queries:
            page = player_page(registration)
        return page, sum('FROM "tournaments_hand"' in q["sql"] for q in queries)

    games = table.hands.count()
    page, reads = page_and_game_reads(seats[0].registration)
    assert reads == 1 and len(page.rounds[0].games) == games
    for seat in seats:  # his next poll and his table mates: the same sheet, no game read
        page, reads = page_and_game_reads(seat.registration)
        assert reads == 0 and page.rounds[0].seat == seat.number and len(page.rounds[0].games) == games
    hand_delete(hand=table.hands.order_by("-number").first(), device="t")  # a revision: read anew
    page, reads = page_and_game_reads(seats[1].registration)
    assert reads == 1 and len(page.rounds[0].games) == games - 1
    TableConfirmation.objects.create(table=table, seat=seats[2].number, device="t")
    page, reads = page_and_game_reads(seats[2].registration)
    assert reads == 1 and page.rounds[0].confirmed
    Round.objects.filter(pk=first.pk).update(status=Round.Status.CLOSED)
    page, reads = page_and_game_reads(seats[2].registration)
    assert reads == 1 and not page.rounds[0].open


# --- new table cards; a tournament that is over (issue 33.11d) -------------------------------------------------


def test_a_later_generations_key_is_signed_with_it(tournament):
    key = table_link_key(tournament.pk, 3, 2)
    assert table_link_parse(key) == (tournament.pk, 3, 2)
    mac = key.split("-", 3)[3]
    assert table_link_parse(f"{tournament.pk}-3-1-{mac}") is None  # another generation, same signature
    assert table_link_parse(f"{tournament.pk}-3-{mac}") is None


def test_new_table_cards_revoke_the_old_ones(client, tournament):
    rnd = draw_and_publish(tournament)
    table = rnd.tables.get(number=2)
    old = table_link_key(tournament.pk, 2)
    assert client.get(f"/tk/{old}/").status_code == 200
    renew = reverse("tournaments:table_cards_renew", args=[tournament.slug, rnd.number])
    desk = member(tournament.club, ClubMembership.Role.DESK, "tisch-helfer")
    client.force_login(desk)
    assert client.post(renew).status_code == 404  # organisers only
    assert (
        'data-testid="table-cards-renew"'
        not in client.get(reverse("tournaments:print_round", args=[tournament.slug, rnd.number])).content.decode()
    )
    client.force_login(member(tournament.club, ClubMembership.Role.ORGANISER, "orga-karten"))
    assert (
        'data-testid="table-cards-renew"'
        in client.get(reverse("tournaments:print_round", args=[tournament.slug, rnd.number])).content.decode()
    )
    assert client.post(renew).status_code == 302
    client.logout()
    gone = client.get(f"/tk/{old}/")
    assert gone.status_code == 410 and "This table card is no longer valid" in gone.content.decode()
    assert 'data-testid="game-form"' not in gone.content.decode()
    assert client.post(f"/tk/{old}/1/spiel/", {"client_id": str(uuid.uuid4()), **RUF_FIELDS}, **JSON).status_code == 404
    assert not Hand.objects.filter(table=table).exists()
    new = table_link_key(tournament.pk, 2, 1)
    assert client.get(f"/tk/{new}/").context["table"] == table
    assert client.post(f"/tk/{new}/1/spiel/", {"client_id": str(uuid.uuid4()), **RUF_FIELDS}, **JSON).status_code == 200
    assert Hand.objects.filter(table=table).count() == 1
    assert AuditEntry.objects.filter(tournament=tournament, action="tournament.table_cards_renew").exists()


def test_once_the_tournament_is_over_the_card_takes_no_games(client, tournament):
    for _ in range(RULES["rounds"]):
        last = play_round(tournament)
    tournament_finish(tournament=tournament)  # "Turnier beenden": the organiser's step after the last round
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    key = table_link_key(tournament.pk, 1)
    page = client.get(f"/tk/{key}/").content.decode()
    assert "no more games are entered here" in page and 'data-testid="game-form"' not in page
    games = Hand.objects.count()
    posted = client.post(f"/tk/{key}/{last.number}/spiel/", {"client_id": str(uuid.uuid4()), **RUF_FIELDS}, **JSON)
    assert posted.status_code == 404 and Hand.objects.count() == games
