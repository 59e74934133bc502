"""The bad input the fuzz walk (test_fuzz.py) cannot reach from its fixture, each case once by name: a NUL in the
reason that reopens a closed round, paper totals beyond any sheet, a body that is no JSON."""

import pytest
from django.test import Client

from tests.api.conftest import client_for, make_tournament, member
from tests.factories import ClubFactory
from tests.tournaments.test_audit import play_round
from tournaments.models import ClubMembership, Round, Table
from tournaments.services.errors import ServiceError
from tournaments.services.hands import table_paper_totals
from tournaments.services.rounds import round_close, round_draw, round_publish

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def club():
    return ClubFactory(name="SK Musterdorf")


@pytest.fixture
def orga(club):
    return member(club, ClubMembership.Role.ORGANISER, "sepp")


@pytest.fixture
def closed(club, orga) -> Round:
    tournament = make_tournament(club, players=8, slug="herbst")
    (rnd,) = round_draw(tournament=tournament, seed=5, by=orga)
    round_publish(round=rnd, by=orga)
    play_round(rnd)
    return round_close(round=rnd, by=orga)


def test_a_nul_in_the_reason_to_reopen_a_round_is_a_form_error_naming_the_reason(closed, orga):
    client = Client()
    client.force_login(orga)
    response = client.post("/o/herbst/runden/1/wieder-oeffnen/", {"reason": "Tisch 1\x00 falsch"}, **EN)
    assert response.status_code == 400
    assert "reason:" in response.content.decode()
    closed.refresh_from_db()
    assert closed.status == Round.Status.CLOSED


def test_a_nul_in_the_reason_to_reopen_a_round_is_a_400_in_the_api(closed, orga):
    response = client_for(orga).post("/api/tournaments/herbst/rounds/1/reopen/", {"reason": "a\x00b"}, format="json")
    assert response.status_code == 400 and list(response.json()) == ["reason"]
    closed.refresh_from_db()
    assert closed.status == Round.Status.CLOSED


@pytest.fixture
def paper_table(club, orga) -> Table:
    tournament = make_tournament(club, players=8, slug="papier")
    (rnd,) = round_draw(tournament=tournament, seed=5, by=orga)
    round_publish(round=rnd, by=orga)
    return rnd.tables.get(number=1)


HUGE = {"1": 10**30, "2": -(10**30), "3": 0, "4": 0}  # adds up to 0, as plus/minus scoring wants


def test_paper_totals_beyond_any_sheet_are_refused_by_the_service(paper_table):
    with pytest.raises(ServiceError) as refused:
        table_paper_totals(table=paper_table, totals=HUGE)
    assert refused.value.field == "totals.1"
    paper_table.refresh_from_db()
    assert paper_table.paper_totals is None


def test_paper_totals_beyond_any_sheet_are_a_400_in_the_api_naming_the_seat(paper_table, orga):
    response = client_for(orga).put(
        "/api/tournaments/papier/rounds/1/tables/1/totals/", {"totals": HUGE}, format="json"
    )
    assert response.status_code == 400 and list(response.json()) == ["totals.1", "totals.2"]
    paper_table.refresh_from_db()
    assert paper_table.paper_totals is None


@pytest.mark.parametrize(
    "body", [b'{"reason": ', b"\xff\xfe", b"[" * 50 + b"]" * 50], ids=["cut off", "not UTF-8", "deep"]
)
def test_a_body_that_is_no_json_is_a_400_in_the_documented_shape(closed, orga, body):
    response = client_for(orga).post("/api/tournaments/herbst/rounds/1/reopen/", body, content_type="application/json")
    assert response.status_code == 400
    errors = response.json()
    assert list(errors) == ["non_field_errors"] and all(isinstance(m, str) for m in errors["non_field_errors"])
