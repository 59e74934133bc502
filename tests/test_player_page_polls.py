"""The player's own page during play: its tag follows what the page shows, not the whole standings.

A game at another table moves the standings' version; a player whose place and points stay as they
were keeps his tag (304), one whose row moves gets a new one. The property checked after each change
of the evening, for every player: a page that reads differently has a new tag (a 304 is never wrong),
and a page whose seats, games and row did not change keeps it.
"""

import random
import re
import uuid

import pytest

from scoring.models import StandingsSnapshot
from tests.tournaments.test_links import player_url
from tournaments.models import Registration, Round, Seat, TableConfirmation
from tournaments.selectors.standings import standings_view
from tournaments.services.hands import dealer_for, hand_record
from tournaments.services.prizes import tournament_standings_publish
from tournaments.services.rounds import round_draw, round_publish, seat_swap
from tournaments.services.simulation import round_simulate, tournament_simulate_setup
from tournaments.services.standings import standings_recompute
from tournaments.simulation import random_hand

pytestmark = pytest.mark.django_db

CSRF = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]*')


@pytest.fixture
def field(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        tournament = tournament_simulate_setup(slug="saal", players=24, rounds=3, games=8, seed=3)
        (rnd,) = round_draw(tournament=tournament, seed=1)
        round_simulate(rnd=rnd, seed=1)
        (rnd,) = round_draw(tournament=tournament, seed=2)
        round_publish(round=rnd)
    tournament_standings_publish(tournament=tournament, public=True)
    standings_recompute(tournament_id=tournament.pk)
    return tournament


def _game(table, seed: int) -> None:
    number = table.hands.count() + 1
    record = random_hand(
        random.Random(seed), table_size=table.size, dealer=dealer_for(number, 0, table.size), tout_allowed=False
    )
    hand_record(table=table, record=record, client_id=uuid.uuid4())


def _pages(client, tournament) -> dict[int, tuple[str, str]]:
    """Every player's page as a fresh visitor gets it: (tag, HTML without the per-request CSRF token)."""
    pages = {}
    for reg in Registration.objects.filter(tournament=tournament).order_by("start_number"):
        response = client.get(player_url(reg))
        assert response.status_code == 200
        pages[reg.pk] = response["ETag"], CSRF.sub(r"\1", response.content.decode())
    return pages


def _polls(client, tournament, before: dict[int, tuple[str, str]]) -> dict[int, int]:
    """Each phone polls with the tag it holds: 304 or 200."""
    return {
        reg.pk: client.get(player_url(reg), HTTP_IF_NONE_MATCH=before[reg.pk][0]).status_code
        for reg in Registration.objects.filter(tournament=tournament)
    }


def _changed(client, tournament, before) -> tuple[set[int], set[int]]:
    """After a change: the players whose page reads differently, and those whose tag changed; a page
    that reads differently under the old tag (a wrong 304) fails here."""
    after = _pages(client, tournament)
    shown = {pk for pk in before if before[pk][1] != after[pk][1]}
    tagged = {pk for pk in before if before[pk][0] != after[pk][0]}
    wrong = shown - tagged
    assert not wrong, f"pages changed under an unchanged tag: {sorted(wrong)}"
    return shown, tagged


def _rows(tournament) -> dict[int, tuple]:
    return {r["registration"]: (r["rank"], r["points"]) for r in standings_view(tournament).rows}


def _version(tournament) -> int:
    return StandingsSnapshot.objects.get(tournament=tournament).version


def test_a_game_elsewhere_keeps_the_tag_of_players_it_does_not_move(client, field):
    rnd = field.rounds.get(number=2)
    table = rnd.tables.order_by("number").first()
    at_table = set(table.seats.values_list("registration_id", flat=True))
    before, rows, version = _pages(client, field), _rows(field), _version(field)
    for seed in (1, 2):
        _game(table, seed)
    standings_recompute(tournament_id=field.pk)
    assert _version(field) != version
    after_rows = _rows(field)
    kept = {pk for pk in before if pk not in at_table and rows[pk] == after_rows[pk]}
    moved = {pk for pk in before if pk not in at_table and rows[pk] != after_rows[pk]}
    assert kept and moved  # the seeded games move some players and not others
    polls = _polls(client, field, before)
    assert {pk for pk, status in polls.items() if status == 304} == kept
    shown, tagged = _changed(client, field, before)
    assert tagged == shown == moved | at_table  # his table's players see the games, the moved their place


def test_his_place_and_points_show_and_change_his_tag(client, field):
    reg = field.registrations.order_by("start_number").first()
    row = next(r for r in standings_view(field).rows if r["registration"] == reg.pk)
    first = client.get(player_url(reg))
    rank = first.context["page"].rank
    assert (rank["rank"], rank["points"], rank["start_number"]) == (row["rank"], row["points"], reg.start_number)
    assert 'data-testid="player-rank"' in first.content.decode()
    seat = Seat.objects.select_related("table").get(registration=reg, round__number=2)
    _game(seat.table, 7)
    standings_recompute(tournament_id=field.pk)
    again = client.get(player_url(reg), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200 and again["ETag"] != first["ETag"]
    row = next(r for r in standings_view(field).rows if r["registration"] == reg.pk)
    assert (again.context["page"].rank["rank"], again.context["page"].rank["points"]) == (row["rank"], row["points"])


def test_every_change_of_the_evening_gives_a_new_tag_where_the_page_reads_differently(client, field):
    rnd2 = field.rounds.get(number=2)
    everyone = set(field.registrations.values_list("pk", flat=True))

    def step(change) -> tuple[set[int], set[int]]:
        before = _pages(client, field)
        change()
        return _changed(client, field, before)

    # the standings hidden, then shown again: every page
    assert step(lambda: tournament_standings_publish(tournament=field, public=False)) == (everyone, everyone)
    assert step(lambda: tournament_standings_publish(tournament=field, public=True)) == (everyone, everyone)
    # a confirmation at a table: that table's players (the sheet says who confirmed)
    table = rnd2.tables.order_by("number").last()
    shown, tagged = step(lambda: TableConfirmation.objects.create(table=table, seat=1, device="t"))
    assert shown <= tagged <= set(table.seats.values_list("registration_id", flat=True))
    # the round closed and the next drawn: closed for everyone; a drawn round is not public yet
    assert step(lambda: Round.objects.filter(pk=rnd2.pk).update(status=Round.Status.CLOSED)) == (everyone, everyone)
    (rnd3,) = round_draw(tournament=field, seed=5)
    assert step(lambda: None) == (set(), set())
    # two players of one table swap seats before play: both pages, and their table mates'
    assert step(lambda: round_publish(round=rnd3)) == (everyone, everyone)
    a, b = (
        Seat.objects.filter(round=rnd3).select_related("registration__player").order_by("table__number", "number")[:2]
    )
    shown, tagged = step(lambda: seat_swap(round=rnd3, first=a.registration, second=b.registration))
    assert {a.registration_id, b.registration_id} <= shown
    page = client.get(player_url(a.registration)).context["page"]  # his new seat, the other at the table
    assert page.current.seat == b.number
    assert [m["seat"] for m in page.current.mates if m["name"] == b.registration.player.name] == [a.number]
    assert a.registration.player.name not in [m["name"] for m in page.current.mates]


def test_a_new_snapshot_is_read_once_per_process_and_a_poll_is_one_query(client, field, django_assert_num_queries):
    reg = field.registrations.order_by("start_number").first()
    tag = client.get(player_url(reg))["ETag"]
    with django_assert_num_queries(1):
        assert client.get(player_url(reg), HTTP_IF_NONE_MATCH=tag).status_code == 304


def test_his_open_page_asks_for_the_rounds_signature_in_one_query(client, field, django_assert_num_queries):
    reg = field.registrations.order_by("start_number").first()
    page = client.get(player_url(reg))
    url = player_url(reg, "player_status")
    with django_assert_num_queries(1):
        answer = client.get(url)
    assert answer.json() == {"signature": page.context["page"].signature} == {"signature": "2:published"}
    assert page.context["follow"]["signature"] == "2:published"
    Round.objects.filter(tournament=field, number=2).update(status=Round.Status.CLOSED)
    assert client.get(url).json() == {"signature": "2:closed"}
    Round.objects.filter(tournament=field).update(status=Round.Status.DRAWN)
    assert client.get(url).json() == {"signature": "0"} and client.get(player_url(reg)).context["page"].signature == "0"
    assert client.get(player_url(reg).replace(reg.key, "nope") + "stand/").status_code == 404
