"""Reopening a closed round (issue 13's audit list names it): only the last round played, only by an organiser,
only with a reason, and logged; its tables correct and confirm anew, and it is closed again the usual way."""

import pytest
from django.test import Client
from django.utils import translation

from tests.api.conftest import client_for, make_tournament, member, rufspiel
from tests.factories import ClubFactory
from tests.tournaments.test_audit import entries, play_round
from tournaments.models import ClubMembership, Round, Tournament
from tournaments.services.errors import ServiceError, StateConflict
from tournaments.services.hands import hand_correct, table_confirm
from tournaments.services.rounds import round_close, round_draw, round_publish, round_reopen
from tournaments.services.tournament import tournament_finish

pytestmark = pytest.mark.django_db
Role = ClubMembership.Role
REASON = "Tisch 1 hat Spiel 2 falsch eingetragen"


@pytest.fixture
def club():
    return ClubFactory(name="SK Musterdorf")


@pytest.fixture
def orga(club):
    return member(club, Role.ORGANISER, "sepp")


def closed_round(tournament, orga) -> Round:
    (rnd,) = round_draw(tournament=tournament, seed=5, by=orga)
    round_publish(round=rnd, by=orga)
    play_round(rnd)
    return round_close(round=rnd, by=orga)


def test_a_closed_round_is_reopened_only_with_a_reason_and_the_log_says_who_and_why(club, orga):
    tournament = make_tournament(club, players=8, slug="herbst")
    rnd = closed_round(tournament, orga)

    for reason in ("", "   "):
        with pytest.raises(ServiceError) as refused:
            round_reopen(round=rnd, reason=reason, by=orga)
        assert refused.value.field == "reason"
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED and not entries(tournament, "round.reopen")

    round_reopen(round=rnd, reason=REASON, by=orga)
    rnd.refresh_from_db()
    assert (rnd.status, rnd.closed_at) == (Round.Status.PUBLISHED, None)
    (logged,) = entries(tournament, "round.reopen")
    assert (logged.by, logged.reason, logged.subject) == (
        orga,
        REASON,
        "1",
    )  # the round, named in the reader's language
    assert (logged.before, logged.after) == ({"status": "closed"}, {"status": "published"})

    with pytest.raises(StateConflict):  # open already
        round_reopen(round=rnd, reason=REASON, by=orga)


def test_the_tables_of_a_reopened_round_correct_confirm_anew_and_the_round_closes_again(club, orga):
    tournament = make_tournament(club, players=8, slug="herbst")
    rnd = closed_round(tournament, orga)
    round_reopen(round=rnd, reason=REASON, by=orga)
    table = rnd.tables.get(number=1)
    hand = table.hands.get(number=2)

    hand_correct(hand=hand, record={**rufspiel(2), "augen": 40}, device="tablet")  # the table itself, no reason
    with pytest.raises(StateConflict):  # table 1 must confirm its changed sheet again
        round_close(round=rnd, by=orga)
    for seat in range(1, table.size + 1):
        table_confirm(table=table, seat=seat, device="tablet")
    round_close(round=rnd, by=orga)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED
    assert [e.action for e in entries(tournament) if e.action.startswith("round.")][-2:] == [
        "round.reopen",
        "round.close",
    ]


def test_only_the_last_round_played_is_reopened(club, orga):
    tournament = make_tournament(club, players=8, slug="herbst")
    first = closed_round(tournament, orga)
    (second,) = round_draw(tournament=tournament, seed=6, by=orga)

    round_reopen(round=first, reason=REASON, by=orga)  # the next round is only drawn: it waits
    with pytest.raises(StateConflict):
        round_publish(round=second, by=orga)
    round_close(round=first, by=orga)  # nothing changed: the tables' confirmations still hold
    round_publish(round=second, by=orga)

    with pytest.raises(StateConflict) as refused, translation.override("de"):
        round_reopen(round=first, reason=REASON, by=orga)
    assert "Runde 2 läuft schon" in refused.value.message
    first.refresh_from_db()
    assert first.status == Round.Status.CLOSED and len(entries(tournament, "round.reopen")) == 1
    web = Client()
    web.force_login(orga)
    assert 'data-testid="reopen-1"' not in web.get("/o/herbst/runden/").content.decode()


def test_reopening_the_last_round_makes_a_finished_tournament_running_again(club, orga):
    tournament = make_tournament(club, players=8, slug="herbst")
    tournament.rules = {**tournament.rules, "rounds": 1}
    tournament.save()
    rnd = closed_round(tournament, orga)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING  # closing the last round does not finish the evening
    tournament_finish(tournament=tournament, by=orga)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    round_reopen(round=rnd, reason=REASON, by=orga)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING
    round_close(round=rnd, by=orga)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING


def test_the_console_finishes_the_tournament_after_the_last_round_and_the_public_page_says_endstand(club, orga):
    tournament = make_tournament(club, players=8, slug="herbst")
    tournament.rules = {**tournament.rules, "rounds": 1}
    tournament.standings_public = True
    tournament.save()
    web = Client()
    web.force_login(orga)
    (rnd,) = round_draw(tournament=tournament, seed=5, by=orga)
    round_publish(round=rnd, by=orga)
    play_round(rnd)
    refused = web.post("/o/herbst/beenden/", HTTP_ACCEPT_LANGUAGE="en")  # the round is still open
    assert refused.status_code == 409 and "Only 0 of 1 rounds are closed" in refused.content.decode()
    round_close(round=rnd, by=orga)
    page = web.get("/o/herbst/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="finish-tournament"' in page and 'data-testid="next-end"' not in page
    assert "Final standings" not in web.get("/t/herbst/rangliste/", HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert web.post("/o/herbst/beenden/").status_code == 302
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    (logged,) = entries(tournament, "tournament.finish")
    assert (logged.by, logged.before, logged.after) == (orga, {"status": "running"}, {"status": "finished"})
    page = web.get("/o/herbst/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="finish-tournament"' not in page and 'data-testid="next-end"' in page
    with translation.override("de"):
        public = web.get("/t/herbst/rangliste/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Endstand" in public
    assert web.post("/o/herbst/beenden/", HTTP_ACCEPT_LANGUAGE="en").status_code == 409  # finished already


def test_a_finished_tournament_refuses_even_the_organisers_logged_correction(club, orga):
    tournament = make_tournament(club, players=8, slug="herbst")
    tournament.rules = {**tournament.rules, "rounds": 1}
    tournament.save()
    rnd = closed_round(tournament, orga)
    table = rnd.tables.order_by("number").first()
    hand = table.hands.order_by("number").first()
    tournament_finish(tournament=tournament, by=orga)
    with pytest.raises(StateConflict) as refused:
        hand_correct(hand=hand, record=rufspiel(hand.number, augen=80), organiser=True, reason=REASON, by=orga)
    assert refused.value.code == "tournament_finished"
    round_reopen(round=rnd, reason=REASON, by=orga)  # the way back: the last round reopened, with a reason
    hand_correct(hand=hand, record=rufspiel(hand.number, augen=80), organiser=True, reason=REASON, by=orga)


def test_only_an_organiser_finishes_and_only_his_clubs_tournament(club, orga):
    tournament = make_tournament(club, players=8, slug="herbst")
    tournament.rules = {**tournament.rules, "rounds": 1}
    tournament.save()
    closed_round(tournament, orga)
    desk = Client()
    desk.force_login(member(club, Role.DESK, "kasse"))
    assert desk.post("/o/herbst/beenden/").status_code == 404  # access.tournament_for: not his to finish
    stranger = Client()
    stranger.force_login(member(ClubFactory(name="Anderer Verein"), Role.ORGANISER, "fremd"))
    assert stranger.post("/o/herbst/beenden/").status_code == 404
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING


def test_the_rounds_page_offers_it_for_the_closed_round_and_asks_why(club, orga):
    tournament = make_tournament(club, players=8, slug="herbst")
    rnd = closed_round(tournament, orga)
    web = Client(HTTP_ACCEPT_LANGUAGE="de")
    web.force_login(orga)
    page = web.get("/o/herbst/runden/").content.decode()
    assert 'data-testid="reopen-1"' in page and 'name="reason" required' in page

    refused = web.post("/o/herbst/runden/1/wieder-oeffnen/", {"reason": ""})
    assert refused.status_code == 400 and "nur mit einem Grund" in refused.content.decode()
    done = web.post("/o/herbst/runden/1/wieder-oeffnen/", {"reason": REASON})
    assert done.status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED
    page = web.get("/o/herbst/runden/").content.decode()
    assert 'data-testid="reopen-1"' not in page and 'data-testid="close-1"' in page

    desk = Client()
    desk.force_login(member(club, Role.DESK, "kasse"))
    round_close(round=rnd, by=orga)
    assert 'data-testid="reopen-1"' not in desk.get("/o/herbst/runden/").content.decode()
    assert desk.post("/o/herbst/runden/1/wieder-oeffnen/", {"reason": REASON}).status_code in (403, 404)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED


def test_the_api_reopens_with_a_reason(club, orga):
    tournament = make_tournament(club, players=8, slug="herbst")
    closed_round(tournament, orga)
    api = client_for(orga)
    url = "/api/tournaments/herbst/rounds/1/reopen/"
    missing = api.post(url, {}, format="json")
    assert missing.status_code == 400 and list(missing.json()) == ["reason"]
    done = api.post(url, {"reason": REASON}, format="json")
    assert done.status_code == 200 and done.json()["status"] == "published"
    assert api.post(url, {"reason": REASON}, format="json").status_code == 409
    assert entries(tournament, "round.reopen")[0].by_name == "sepp"
