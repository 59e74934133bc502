"""A table of five that loses a player plays on with four (rules.md section 2, issue 34): the organiser's
step, the table page taking the games with nobody sitting out, the round's games, confirmations, standings.

8 games a round: a table of five plays 10. After games 1-3 (seats 1, 2, 3 sat out) seat 3 leaves; seats 1
and 2 played 2 games, 4 and 5 played 3: the four play 5 more (games 4-8), so 4 and 5 play 8, 1 and 2 play 7.
"""

import re

import pytest
from django.urls import reverse
from django.utils import translation

from tests.tournaments.test_services_hands import fill, make_table, organiser
from tests.tournaments.test_views_entry import post_game
from tournaments.models import Hand, Registration, Table
from tournaments.selectors.audit import audit_sentence
from tournaments.selectors.standings import short_rounds, standings_compute
from tournaments.services.errors import ServiceError, StateConflict
from tournaments.services.hands import table_confirm
from tournaments.services.tables import table_play_on_with_four

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def table():
    table = make_table(size=5, rules={"games_per_round": 8})
    fill(table, 3)
    table_play_on_with_four(table=table, seat=3, by=organiser(), reason="went home")
    return Table.objects.get(pk=table.pk)


def game(declarer, partner):
    return {
        "contract": "rufspiel",
        "called": "eichel",
        "declarer": str(declarer),
        "partner": str(partner),
        "augen": "72",
        "laufende": "0",
    }


def test_the_table_records_the_empty_seat_from_which_game_and_the_rounds_games(table):
    assert table.left() == (3, 4, 8)
    leaver = Registration.objects.get(seats__table=table, seats__number=3)
    assert (leaver.withdrawn_after_round, leaver.left_during_round) == (1, True)
    assert short_rounds(table.round.tournament) == {13: "left in round 1"}
    (entry,) = [e for e in table.round.tournament.audit_entries.all() if e.action == "table_four"]
    assert audit_sentence(entry) == "Round 1, table 1 plays on with four from game 4 (13: Name3, Vorname3 left seat 3)"


def test_the_table_page_says_so_and_takes_the_games_with_nobody_sitting_out(client, table):
    html = client.get(reverse("tournaments:entry_table", args=[table.entry_key])).content.decode()
    assert "From game 4 the table plays on with four, nobody sits out (seat 3, Vorname3 Name3, left)" in html
    assert "Seat 4 deals game 4." in html
    dealer_line = re.search(r'data-testid="dealer">(.*?)</p>', html, re.S).group(1).strip()
    assert dealer_line == "Vorname4 Name4 deals"
    assert re.search(r'data-testid="seat-3".*?<div class="seat-role" data-role>left</div>', html, re.S)
    refused = post_game(client, table, game(3, 1))  # the empty seat plays no more
    assert refused.status_code == 400 and "declarer" in refused.json()["errors"]
    for _number, (declarer, partner) in enumerate([(1, 2), (4, 5), (1, 4), (2, 5), (5, 1)], start=4):
        response = post_game(client, table, game(declarer, partner))
        assert response.status_code in (200, 201), response.content
    hands = list(Hand.objects.filter(table=table).order_by("number"))
    assert [h.dealer for h in hands] == [1, 2, 3, 3, 3, 3, 3, 3]  # the empty seat "sits out" from game 4
    assert all(h.points.get("3", 0) == 0 for h in hands[3:])
    assert post_game(client, table, game(1, 2)).status_code == 409  # game 9: the round has 8
    for seat in (1, 2, 4, 5):
        table_confirm(table=table, seat=seat)
    assert Table.objects.get(pk=table.pk).completed_at is not None  # four confirmations are all of them
    result, info = standings_compute(table.round.tournament)
    points = {info[s.player].start_number: s.points for s in result.overall}
    assert points[13] == sum(h.points.get("3", 0) for h in hands) and sum(points.values()) == 0


def test_only_a_table_of_five_and_only_once(table):
    with pytest.raises(StateConflict):
        table_play_on_with_four(table=table, seat=2, by=None, reason="again")
    four = make_table(size=4)
    with pytest.raises(ServiceError) as err:
        table_play_on_with_four(table=four, seat=2, by=None, reason="x")
    assert err.value.field == "seat"


def test_the_score_sheet_says_it_and_the_empty_seat_sits_out_on_its_lines(table):
    from tests.tournaments.test_closed_table import pdf_text
    from tournaments.pdf.score_sheet import render_score_sheet
    from tournaments.selectors.printing import score_sheet_data

    sheet = score_sheet_data(table)
    assert sheet.games == 8 and [row.dealer for row in sheet.rows] == [1, 2, 3, 3, 3, 3, 3, 3]
    text = " ".join(pdf_text(render_score_sheet(sheet)).split())
    assert "From game 4 the table plays on with four, nobody sits out (seat 3, Vorname3 Name3, left)" in text
