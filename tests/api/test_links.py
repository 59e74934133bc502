"""API under the evening's private keys: a table card's all-evening key on api/tisch/<key>/, a player's key on api/s/<key>/."""

import pytest

from tests.api.conftest import client_for, entry, make_tournament
from tests.factories import ClubFactory
from tournaments.links import table_link_key
from tournaments.models import Hand
from tournaments.services.rounds import round_draw, round_publish
from tournaments.services.simulation import round_simulate
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db

RULES = {"rounds": 3, "games_per_round": 8}


@pytest.fixture
def tournament():
    return make_tournament(ClubFactory(), players=8, rules=RULES)


@pytest.fixture
def anonymous():
    return client_for()


def tk(tournament, number: int, rest: str = "") -> str:
    return f"/api/tisch/{table_link_key(tournament.pk, number)}/{rest}"


def publish(tournament, seed: int = 1):
    (rnd,) = round_draw(tournament=tournament, seed=seed)
    return round_publish(round=rnd)


def play_and_close(tournament, seed: int = 1):
    (rnd,) = round_draw(tournament=tournament, seed=seed)
    round_simulate(rnd=rnd, seed=seed)
    return rnd


def test_a_table_card_key_writes_its_own_number_in_the_current_round_only(anonymous, tournament):
    rnd = publish(tournament)
    two = rnd.tables.get(number=2)
    sheet = anonymous.get(tk(tournament, 2))
    assert sheet.status_code == 200
    assert (sheet.json()["round"], sheet.json()["table"]) == (1, 2)
    created = anonymous.post(tk(tournament, 2, "hands/"), entry(1), format="json")
    assert created.status_code == 201
    assert list(Hand.objects.values_list("table_id", "number")) == [(two.pk, 1)]
    assert anonymous.patch(tk(tournament, 2, "hands/1/"), {"augen": 30}, format="json").status_code == 200
    # table 1's game 1 is not table 2's: the key reaches nothing of another number
    assert anonymous.get(tk(tournament, 1, "hands/1/")).status_code == 404
    assert anonymous.delete(tk(tournament, 1, "hands/1/")).status_code == 404
    assert Hand.objects.get().augen == 30
    # a number the round does not have, a forged key
    assert anonymous.post(tk(tournament, 3, "hands/"), entry(1), format="json").status_code == 404
    mac = table_link_key(tournament.pk, 2).split("-", 2)[2]
    forged = f"/api/tisch/{tournament.pk}-1-{mac}/hands/"
    assert anonymous.post(forged, entry(1), format="json").status_code == 404


def test_closed_and_unpublished_rounds_answer_as_today(anonymous, tournament):
    # nothing published yet: 404 like an unpublished table
    assert anonymous.get(tk(tournament, 1)).status_code == 404
    assert anonymous.post(tk(tournament, 1, "hands/"), entry(1), format="json").status_code == 404
    first = play_and_close(tournament)
    (second,) = round_draw(tournament=tournament, seed=2)  # drawn, not published
    # the key still reads round 1 (closed) and writes nothing: 409 as a closed round's own key
    sheet = anonymous.get(tk(tournament, 1))
    assert sheet.status_code == 200 and sheet.json()["round"] == 1 and sheet.json()["round_status"] == "closed"
    before = Hand.objects.count()
    late = anonymous.post(tk(tournament, 1, "hands/"), entry(), format="json")
    assert late.status_code == 409
    assert anonymous.delete(tk(tournament, 1, "hands/1/")).status_code == 409
    assert Hand.objects.count() == before
    assert not second.tables.filter(hands__isnull=False).exists()
    round_publish(round=second)
    now = anonymous.post(tk(tournament, 1, "hands/"), entry(1), format="json")
    assert now.status_code == 201
    assert Hand.objects.get(client_id=now.json()["client_id"]).table == second.tables.get(number=1)
    assert first.tables.get(number=1).hands.count() == 8


def test_a_player_key_reads_only_its_own_page(anonymous, tournament):
    first = play_and_close(tournament)
    second = publish(tournament, seed=2)
    registration, other = tournament.registrations.order_by("start_number")[:2]
    seat = second.seats.select_related("table").get(registration=registration)
    response = anonymous.get(f"/api/s/{registration.key}/")
    assert response.status_code == 200
    data = response.json()
    assert (data["name"], data["start_number"]) == (registration.player.name, registration.start_number)
    assert (data["current"]["round"], data["current"]["table"], data["current"]["seat"]) == (
        2,
        seat.table.number,
        seat.number,
    )
    assert [r["round"] for r in data["rounds"]] == [2, 1]
    seat1 = first.seats.select_related("table").get(registration=registration)
    hands = list(seat1.table.hands.order_by("number"))
    assert [g["points"] for g in data["rounds"][1]["games"]] == [h.points.get(str(seat1.number)) for h in hands]
    assert data["total"] == sum(h.points.get(str(seat1.number), 0) for h in hands)
    assert data["rank"] is None  # standings not public
    assert anonymous.get(f"/api/s/{other.key}/").json()["name"] == other.player.name
    # the player key opens no table, writes nothing; the page is read-only
    assert anonymous.get(f"/api/tisch/{registration.key}/").status_code == 404
    assert anonymous.post(f"/api/tisch/{registration.key}/hands/", entry(1), format="json").status_code == 404
    assert anonymous.post(f"/api/s/{registration.key}/", {}, format="json").status_code == 405
    # and table keys open no player page
    assert anonymous.get(f"/api/s/{seat.table.entry_key}/").status_code == 404
    assert anonymous.get(f"/api/s/{table_link_key(tournament.pk, 1)}/").status_code == 404


def test_the_players_rank_once_the_standings_are_public(anonymous, tournament):
    play_and_close(tournament)
    tournament.standings_public = True
    tournament.save(update_fields=["standings_public"])
    standings_recompute(tournament_id=tournament.pk)
    registration = tournament.registrations.first()
    data = anonymous.get(f"/api/s/{registration.key}/").json()
    assert data["rank"]["points"] == data["total"] and data["rank"]["rank"] >= 1
