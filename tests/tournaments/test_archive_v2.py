"""Archive version 2 (docs/archive-v2.md, issue 34): who played which games of a seat, a table of five that
played on with four, the substitute rule, a table closed with its reason and a substitute's fee round-trip;
version-1 archives stay importable (tests/tournaments/fixtures/archive_v1.json, written by version 1)."""

import json
from pathlib import Path

import pytest

from tests.api.conftest import make_tournament
from tests.factories import ClubFactory
from tournaments.archive import VERSION, ArchiveError, archive_build, archive_import
from tournaments.models import Registration, Round, Seat, Table
from tournaments.services.hands import table_confirm, table_sheet_record
from tournaments.services.registration import player_create, registration_substitute
from tournaments.services.rounds import round_close, round_draw, round_publish
from tournaments.services.tables import table_play_on_with_four

pytestmark = pytest.mark.django_db
V1 = Path(__file__).parent / "fixtures" / "archive_v1.json"


def ruf(declarer, partner, augen=72):
    return {"contract": "rufspiel", "declarer": declarer, "partner": partner, "called": "gras", "augen": augen}


def solo(declarer, augen):
    return {"contract": "solo", "declarer": declarer, "trump": "herz", "augen": augen}


def night(rules):
    """9 players, 8 games a round: table 1 (five) plays on with four after game 3 (seat 3 leaves); at table
    2 (four) a substitute takes seat 1 from game 3 and pays a fee; the round is closed."""
    club = ClubFactory(name="SK Musterdorf")
    tournament = make_tournament(club, players=9, slug="nacht", rules={"games_per_round": 8, **rules})
    (rnd,) = round_draw(tournament=tournament, seed=7)
    round_publish(round=rnd)
    five, four = (Table.objects.get(round=rnd, number=n) for n in (1, 2))
    assert (five.size, four.size) == (5, 4)
    table_sheet_record(table=five, records=[ruf(2, 4), ruf(4, 5), solo(1, 80)])  # dealers 1, 2, 3 sit out
    table_play_on_with_four(table=five, seat=3, by=None, reason="ging heim")
    table_sheet_record(table=five, records=[ruf(1, 2), solo(4, 85), ruf(5, 1), ruf(2, 4, 40), ruf(1, 5)])
    table_sheet_record(table=four, records=[solo(1, 90), ruf(2, 3)])
    leaving = Seat.objects.get(table=four, number=1).registration
    registration_substitute(
        withdrawn=leaving, pays_fee=True, player=player_create(first_name="Quirin", last_name="Ächter", club=club)
    )
    table_sheet_record(table=four, records=[solo(1, 20), ruf(1, 3), ruf(2, 4), ruf(3, 4), ruf(1, 2), ruf(4, 1)])
    for table, seats in ((five, (1, 2, 4, 5)), (four, (1, 2, 3, 4))):
        for seat in seats:
            table_confirm(table=table, seat=seat)
    round_close(round=rnd)
    tournament.refresh_from_db()
    return tournament, leaving


def without_moment(document):
    return {k: v for k, v in document.items() if k not in ("exported_at",)}


@pytest.mark.parametrize("rule", ["take_over", "frozen"])
def test_version_2_carries_who_played_which_games_and_the_table_with_four_and_round_trips_them(rule):
    tournament, leaving = night({"substitute_points": rule})
    document = archive_build(tournament)
    assert document["version"] == VERSION == 2 and document["rules"]["substitute_points"] == rule
    five, four = document["rounds"][0]["tables"]
    assert (five["seat_left"], five["seat_left_from"], five["games_with_four"]) == (3, 4, 8)
    assert [h["dealer"] for h in five["hands"]] == [1, 2, 3, 3, 3, 3, 3, 3]
    assert four["shared_seats"] == {"1": {"from_game": 3, "before": leaving.start_number}}
    players = {p["start_number"]: p for p in document["players"]}
    assert (players[10]["substitute_for"], players[10]["fee_due"], players[10]["paid"]) == (
        leaving.start_number,
        True,
        False,
    )
    ranked = {s["start_number"] for s in document["standings"]}
    assert (10 in ranked, leaving.start_number in ranked) == ((True, False) if rule == "take_over" else (False, True))
    copy = archive_import(doc=document, slug="nacht-kopie")
    again = archive_build(copy)
    assert without_moment({**again, "tournament": {**again["tournament"], "slug": "nacht"}}) == without_moment(document)
    seat = Seat.objects.get(table__round__tournament=copy, table__number=2, number=1)
    assert (seat.since_game, seat.earlier.start_number) == (3, leaving.start_number)


def test_a_table_closed_with_its_reason_round_trips_in_version_2():
    tournament, _leaving = night({})
    Table.objects.filter(round__tournament=tournament, number=2).update(closed_reason="Halle schließt")
    document = archive_build(tournament)
    assert document["rounds"][0]["tables"][1]["closed_reason"] == "Halle schließt"
    copy = archive_import(doc=document, slug="nacht-zu")
    assert Table.objects.get(round__tournament=copy, number=2).closed_reason == "Halle schließt"


def test_a_version_1_archive_is_still_imported_with_version_2s_defaults():
    document = json.loads(V1.read_text(encoding="utf-8"))
    assert document["version"] == 1 and "substitute_points" not in document["rules"]
    tournament = archive_import(doc=document, slug="alt")
    assert tournament.ruleset.substitute_points == "take_over"
    assert not Seat.objects.filter(table__round__tournament=tournament, earlier__isnull=False).exists()
    assert not Table.objects.filter(round__tournament=tournament, seat_left__isnull=False).exists()
    again = archive_build(tournament)
    assert again["version"] == 2 and again["standings"] == document["standings"]
    assert Registration.objects.get(tournament=tournament, start_number=9).substitute_for.start_number == 1
    assert Round.objects.get(tournament=tournament).status == Round.Status.CLOSED


@pytest.mark.parametrize(
    "change, path",
    [
        (lambda d: d.update(version=3), "version"),
        (
            lambda d: d["rounds"][0]["tables"][1].update(shared_seats={"7": {"from_game": 3, "before": 1}}),
            "rounds[0].tables[1].shared_seats",
        ),
        (
            lambda d: d["rounds"][0]["tables"][1]["shared_seats"]["1"].update(from_game=1),
            "rounds[0].tables[1].shared_seats.1.from_game",
        ),
        (lambda d: d["rounds"][0]["tables"][0].update(games_with_four=None), "rounds[0].tables[0].seat_left"),
        (
            lambda d: d["rounds"][0]["tables"][1].update(seat_left=2, seat_left_from=3, games_with_four=8),
            "rounds[0].tables[1].seat_left",
        ),
    ],
)
def test_a_bad_version_2_value_is_refused_with_its_path(change, path):
    tournament, _leaving = night({})
    document = archive_build(tournament)
    change(document)
    with pytest.raises(ArchiveError) as err:
        archive_import(doc=document, slug="kaputt")
    assert err.value.path == path
