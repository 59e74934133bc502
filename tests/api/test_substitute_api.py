"""Issue 34: the REST API says "für <Name>" of a substitute, in registrations and standings, with the marks."""

import uuid

import pytest

from tests.api.conftest import client_for, make_tournament, publish_first_round
from tournaments.models import Seat
from tournaments.services.hands import hand_record
from tournaments.services.registration import player_create, registration_substitute
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db
DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


@pytest.fixture
def evening(club):
    tournament = make_tournament(club, slug="abend")
    publish_first_round(tournament)
    leaving = tournament.registrations.get(start_number=1)
    seat = Seat.objects.select_related("table").get(registration=leaving)
    hand_record(
        table=seat.table,
        client_id=uuid.uuid4(),
        record={"contract": "solo", "declarer": seat.number, "trump": "herz", "augen": 80},
    )
    sub = registration_substitute(
        withdrawn=leaving, player=player_create(first_name="Quirin", last_name="Ächter", club=club), pays_fee=True
    )
    standings_recompute(tournament_id=tournament.pk)
    return tournament, sub


def test_the_registration_of_a_substitute_names_whom_he_replaces(organiser, evening):
    tournament, sub = evening
    api = client_for(organiser)
    body = api.get(f"/api/tournaments/{tournament.slug}/registrations/{sub.start_number}/", **DE).json()
    assert (body["substitute_for"], body["substitute_for_name"], body["display_name"]) == (
        1,
        "Vor1 Nach1",
        "Quirin Ächter (für Vor1 Nach1)",
    )
    assert (body["fee_due"], body["paid"], body["left_during_round"]) == (True, False, False)
    leaver = api.get(f"/api/tournaments/{tournament.slug}/registrations/1/", **DE).json()
    assert (leaver["substitute_for_name"], leaver["display_name"], leaver["left_during_round"]) == (
        None,
        "Vor1 Nach1",
        True,
    )


def test_the_standings_say_fuer_and_under_the_frozen_rule_who_left(organiser, evening):
    tournament, sub = evening
    api = client_for(organiser)
    rows = api.get(f"/api/tournaments/{tournament.slug}/standings/", **DE).json()["rows"]
    (row,) = [r for r in rows if r["start_number"] == sub.start_number]
    assert (row["points"], row["substitute_for"], row["display_name"], row["mark"]) == (
        15,
        "Vor1 Nach1",
        "Quirin Ächter (für Vor1 Nach1)",
        None,
    )
    tournament.rules = {**tournament.rules, "substitute_points": "frozen"}
    tournament.save(update_fields=["rules"])
    standings_recompute(tournament_id=tournament.pk)
    rows = api.get(f"/api/tournaments/{tournament.slug}/standings/", **DE).json()["rows"]
    assert sub.start_number not in {r["start_number"] for r in rows}
    (leaver,) = [r for r in rows if r["start_number"] == 1]
    assert (leaver["points"], leaver["mark"]) == (15, "ausgeschieden in Runde 1 (Punkte eingefroren)")
    assert api.get(f"/api/tournaments/{tournament.slug}/standings/?round=9").status_code == 400
    assert len(api.get(f"/api/tournaments/{tournament.slug}/standings/?round=1").json()["rows"]) == 8
