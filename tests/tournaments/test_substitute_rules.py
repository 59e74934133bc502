"""Who played which games of a seat a substitute took over mid-round, and both substitute rules of
rules.md section 2 over the database (the pure rule: tests/scoring/test_rules_substitute.py).

Round 1 under way, start number 1 on seat s: game 1 is his Solo with 80 Augen (+15), game 2 a Rufspiel
of two other seats, 72 Augen (he −1); he leaves; from game 3 Quirin plays the seat and loses a
Solo with 30 Augen (Schneider: −18).
"""

import uuid

import pytest
from django.utils import translation

from tests.api.conftest import make_tournament, publish_first_round
from tests.factories import ClubFactory
from tournaments.models import Seat
from tournaments.selectors.standings import short_rounds, standings_compute, standings_view
from tournaments.services.hands import hand_record
from tournaments.services.registration import player_create, registration_substitute
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db


def solo(seat, augen):
    return {"contract": "solo", "declarer": seat, "trump": "herz", "augen": augen}


def play(table, number, record):
    hand_record(table=table, record=record, client_id=uuid.uuid4(), number=number)


@pytest.fixture
def evening():
    club = ClubFactory(name="SK Musterdorf")
    tournament = make_tournament(club, slug="abend", standings_public=True)
    publish_first_round(tournament)
    leaving = tournament.registrations.get(start_number=1)
    seat = Seat.objects.select_related("table").get(registration=leaving)
    others = [s for s in (1, 2, 3, 4) if s != seat.number]
    play(seat.table, 1, solo(seat.number, 80))
    play(
        seat.table,
        2,
        {"contract": "rufspiel", "declarer": others[0], "partner": others[1], "called": "gras", "augen": 72},
    )
    sub = registration_substitute(
        withdrawn=leaving, player=player_create(first_name="Quirin", last_name="Ächter", club=club)
    )
    play(seat.table, 3, solo(seat.number, 30))
    return tournament, leaving, sub, Seat.objects.get(pk=seat.pk)


def points_of(tournament):
    result, info = standings_compute(tournament)
    return {info[s.player].start_number: s.points for s in result.overall}


def test_the_seat_records_from_which_game_the_substitute_played_and_who_played_before(evening):
    _tournament, leaving, sub, seat = evening
    assert (seat.registration_id, seat.since_game, seat.earlier_id) == (sub.pk, 3, leaving.pk)


def test_default_the_substitute_holds_the_seat_and_the_leavers_points(evening):
    tournament, _leaving, sub, _seat = evening
    points = points_of(tournament)
    assert points[sub.start_number] == 15 - 1 - 18 and 1 not in points
    assert short_rounds(tournament) == {}


def test_option_frozen_the_leaver_keeps_his_games_and_the_substitute_is_not_ranked(evening):
    tournament, _leaving, sub, _seat = evening
    tournament.rules = {**tournament.rules, "substitute_points": "frozen"}
    tournament.save(update_fields=["rules"])
    points = points_of(tournament)
    assert points[1] == 15 - 1 and sub.start_number not in points
    assert sum(points.values()) == 18  # the table's other seats won what Quirin lost: their points stand
    standings_recompute(tournament_id=tournament.pk)
    view = standings_view(tournament)
    assert {r["start_number"]: r["points"] for r in view.rows} == points
    with translation.override("de"):
        assert short_rounds(tournament) == {1: "ausgeschieden in Runde 1 (Punkte eingefroren)"}
    with translation.override("en"):
        assert short_rounds(tournament) == {1: "left in round 1 (points frozen)"}


def test_the_score_sheet_and_the_table_page_say_who_played_which_games(evening, client):
    from tests.tournaments.test_closed_table import pdf_text
    from tournaments.pdf.score_sheet import render_score_sheet
    from tournaments.selectors.printing import score_sheet_data

    _tournament, _leaving, _sub, seat = evening
    expected = f"Platz {seat.number}: Vor1 Nach1 spielte die Spiele 1 bis 2, Quirin Ächter spielt ab Spiel 3."
    with translation.override("de"):
        assert expected in " ".join(pdf_text(render_score_sheet(score_sheet_data(seat.table))).split())
    page = client.get(f"/tisch/{seat.table.entry_key}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert expected in page
