"""Export, import into an empty database, export again: the same document."""

import copy
import json
import uuid

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.storage import hand_score, outcome_columns
from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tournaments.models import Club, Hand, HandRevision, Player, Registration, Round, Seat, Table, Tournament
from tournaments.services.hands import table_paper_totals
from tournaments.services.registration import registration_create

pytestmark = pytest.mark.django_db

HANDS = [  # (number, dealer, record, points)
    (
        1,
        1,
        {"contract": "rufspiel", "declarer": 2, "partner": 4, "called": "eichel", "augen": 72, "laufende": 0},
        {"1": -1, "2": 1, "3": -1, "4": 1},
    ),
    (2, 2, {"contract": "wenz", "declarer": 1, "augen": 75, "laufende": 2}, {"1": 21, "2": -7, "3": -7, "4": -7}),
    (
        3,
        3,
        {"contract": "solo", "declarer": 3, "trump": "herz", "tout": True, "won": True, "laufende": 5},
        {"1": -20, "2": -20, "3": 60, "4": -20},
    ),  # laufende_max null: 2 × (5 + 5)
    (
        4,
        4,
        {"contract": "solo", "declarer": 4, "trump": "gras", "augen": 40, "laufende": 0},
        {"1": 5, "2": 5, "3": 5, "4": -15},
    ),  # lost: 50 cents Reuegeld
]


def _tournament_with_a_played_table() -> Tournament:
    club = ClubFactory(name="Schafkopffreunde Musterdorf")
    tournament = TournamentFactory(
        club=club, slug="herbstrennen-2026", name="Herbstrennen 2026", rules={"laufende_max": None, "solo_base": 5}
    )
    regs = [
        registration_create(tournament=tournament, player=PlayerFactory(club=club), paid=True, checked_in=True)
        for _ in range(5)
    ]
    regs[4].withdrawn_after_round = 1
    regs[4].save()
    rnd = Round.objects.create(tournament=tournament, number=1, seed=912731, status=Round.Status.CLOSED)
    table = Table.objects.create(round=rnd, number=1, size=4)
    for seat, reg in enumerate(regs[:4], start=1):
        Seat.objects.create(table=table, round=rnd, number=seat, registration=reg)
    for number, dealer, record, points in HANDS:
        outcome = outcome_columns(hand_score(record, dealer=dealer, rules=tournament.ruleset, table_size=4))
        assert Hand(**outcome).points == points
        Hand.objects.create(table=table, number=number, dealer=dealer, client_id=uuid.uuid4(), **outcome, **record)
    return tournament


PAPER_TOTALS = {"1": 14, "2": -6, "3": 3, "4": -11}


def _tournament_with_a_paper_table() -> Tournament:
    """Round 1 has a second table that played on paper: only its round totals were entered."""
    tournament = _tournament_with_a_played_table()
    rnd = tournament.rounds.get(number=1)
    table = Table.objects.create(round=rnd, number=2, size=4)
    for seat in range(1, 5):
        reg = registration_create(tournament=tournament, player=PlayerFactory(club=tournament.club), paid=True)
        Seat.objects.create(table=table, round=rnd, number=seat, registration=reg)
    table_paper_totals(table=table, totals=PAPER_TOTALS, reason="Tisch ohne Tablet")
    return tournament


def _export(slug: str, tmp_path) -> dict:
    out = tmp_path / f"{slug}-{uuid.uuid4().hex}.json"
    call_command("export_tournament", slug, output=str(out))
    doc = json.loads(out.read_text(encoding="utf-8"))
    doc.pop("exported_at")
    return doc


def _empty_database() -> None:
    for model in (Hand, Seat, Table, Round, Registration, Tournament, Player, Club):
        model.objects.all().delete()


def test_export_import_export_gives_the_same_document(tmp_path):
    tournament = _tournament_with_a_played_table()
    first = _export(tournament.slug, tmp_path)
    assert first["format"] == "schafkopfrennen-archive"
    assert first["rules"]["laufende_max"] is None
    assert [(s["points"], s["won_solos"]) for s in first["standings"][:4]] == [(57, 1), (5, 1), (-21, 0), (-41, 0)]
    assert [(e["kind"], e["cents"], e["hand"]) for e in first["ledger"]] == [("reuegeld", 50, 4), ("payout", -25, None)]
    assert first["rounds"][0]["tables"][0]["hands"][2]["points"] == {"1": -20, "2": -20, "3": 60, "4": -20}
    path = tmp_path / "archive.json"
    path.write_text(json.dumps({**first, "exported_at": "2026-11-22T21:15:00+01:00"}), encoding="utf-8")

    _empty_database()
    call_command("import_tournament", str(path))
    second = _export(tournament.slug, tmp_path)
    assert second == first


def test_a_sie_without_a_trump_suit_goes_through_export_import_export(tmp_path):
    """A Sie is entered without a trump suit (its own button on the tablet); the archive keeps it so."""
    tournament = _tournament_with_a_played_table()
    table = Table.objects.get(round__tournament=tournament)
    record = {"contract": "solo", "declarer": 1, "sie": True}
    outcome = outcome_columns(hand_score(record, dealer=1, rules=tournament.ruleset, table_size=4))
    assert Hand(**outcome).points == {"1": 156, "2": -52, "3": -52, "4": -52}  # laufende_max null: 4 × (5 + 8)
    Hand.objects.create(table=table, number=5, dealer=1, client_id=uuid.uuid4(), **outcome, **record)
    first = _export(tournament.slug, tmp_path)
    sie = first["rounds"][0]["tables"][0]["hands"][4]
    assert sie["sie"] is True and "trump" not in sie
    path = tmp_path / "archive.json"
    path.write_text(json.dumps({**first, "exported_at": "2026-11-22T21:15:00+01:00"}), encoding="utf-8")

    _empty_database()
    call_command("import_tournament", str(path))
    assert _export(tournament.slug, tmp_path) == first


def test_a_table_with_paper_totals_goes_through_export_import_export(tmp_path):
    tournament = _tournament_with_a_paper_table()
    first = _export(tournament.slug, tmp_path)
    played, paper = first["rounds"][0]["tables"]
    assert "paper_totals" not in played
    assert paper["paper_totals"] == PAPER_TOTALS and paper["hands"] == []
    by_start_number = {s["start_number"]: s["points"] for s in first["standings"]}
    assert {seat: by_start_number[n] for seat, n in paper["seats"].items()} == PAPER_TOTALS
    path = tmp_path / "archive.json"
    path.write_text(json.dumps({**first, "exported_at": "2026-11-22T21:15:00+01:00"}), encoding="utf-8")

    _empty_database()
    call_command("import_tournament", str(path))
    assert Table.objects.get(number=2).paper_totals == PAPER_TOTALS
    assert _export(tournament.slug, tmp_path) == first


@pytest.mark.parametrize(
    ("mutate", "bad_path"),
    [
        (lambda t: t.__setitem__("3", "drei"), "rounds[0].tables[1].paper_totals.3"),
        (lambda t: t.__setitem__("2", -6.5), "rounds[0].tables[1].paper_totals.2"),
        (lambda t: t.pop("4"), "rounds[0].tables[1].paper_totals"),
        (lambda t: t.__setitem__("5", 0), "rounds[0].tables[1].paper_totals"),
        (lambda t: t.__setitem__("1", 15), "rounds[0].tables[1].paper_totals"),  # sums to +1
    ],
)
def test_broken_paper_totals_are_refused_naming_the_path_and_nothing_is_written(tmp_path, mutate, bad_path):
    tournament = _tournament_with_a_paper_table()
    doc = _export(tournament.slug, tmp_path)
    doc["exported_at"] = "2026-11-22T21:15:00+01:00"
    mutate(doc["rounds"][0]["tables"][1]["paper_totals"])
    _refused(doc, bad_path, tmp_path)


def test_paper_totals_at_a_table_with_games_are_refused(tmp_path):
    tournament = _tournament_with_a_paper_table()
    doc = _export(tournament.slug, tmp_path)
    doc["exported_at"] = "2026-11-22T21:15:00+01:00"
    doc["rounds"][0]["tables"][0]["paper_totals"] = {"1": 0, "2": 0, "3": 0, "4": 0}
    _refused(doc, "rounds[0].tables[0].paper_totals", tmp_path)
    doc["rounds"][0]["tables"][0]["paper_totals"] = [0, 0, 0, 0]
    _refused(doc, "rounds[0].tables[0].paper_totals", tmp_path)


def _refused(doc: dict, bad_path: str, tmp_path) -> None:
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    models = (Tournament, Registration, Player, Club, Round, Table, Seat, Hand, HandRevision)
    counts = [m.objects.count() for m in models]
    with pytest.raises(CommandError) as exc:
        call_command("import_tournament", str(path), slug="kaputt")
    assert str(exc.value).startswith(bad_path + ":"), str(exc.value)
    assert [m.objects.count() for m in models] == counts


def test_import_refuses_an_existing_slug_and_takes_a_new_one(tmp_path):
    tournament = _tournament_with_a_played_table()
    path = tmp_path / "a.json"
    call_command("export_tournament", tournament.slug, output=str(path))
    with pytest.raises(CommandError, match=r"tournament\.slug"):
        call_command("import_tournament", str(path))
    call_command("import_tournament", str(path), slug="kopie")
    assert Tournament.objects.get(slug="kopie").registrations.count() == 5


@pytest.mark.parametrize(
    ("mutate", "bad_path"),
    [
        (
            lambda d: d["rounds"][0]["tables"][0]["hands"][1].__setitem__("augen", 121),
            "rounds[0].tables[0].hands[1].augen",
        ),
        (
            lambda d: d["rounds"][0]["tables"][0]["hands"][0].__setitem__("partner", 2),
            "rounds[0].tables[0].hands[0].partner",
        ),
        (
            lambda d: d["rounds"][0]["tables"][0]["hands"][0].__setitem__("points", {"1": 5, "2": 1, "3": -1, "4": 1}),
            "rounds[0].tables[0].hands[0].points",
        ),
        (lambda d: d["rounds"][0]["tables"][0]["seats"].__setitem__("3", 99), "rounds[0].tables[0].seats.3"),
        (lambda d: d["players"][2].__setitem__("start_number", 1), "players[2].start_number"),
        (lambda d: d["rules"].__setitem__("solo_base", "fünf"), "rules.solo_base"),
        (lambda d: d["tournament"].pop("name"), "tournament.name"),
        (lambda d: d.__setitem__("format", "something-else"), "format"),
        (lambda d: d["standings"][0].__setitem__("points", 999), "standings[0].points"),
        (lambda d: d["ledger"][0].__setitem__("kind", "spende"), "ledger[0].kind"),
    ],
)
def test_a_broken_archive_is_refused_naming_the_path_and_nothing_is_written(tmp_path, mutate, bad_path):
    tournament = _tournament_with_a_played_table()
    doc = _export(tournament.slug, tmp_path)
    doc["exported_at"] = "2026-11-22T21:15:00+01:00"
    broken = copy.deepcopy(doc)
    mutate(broken)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken), encoding="utf-8")
    counts = [m.objects.count() for m in (Tournament, Registration, Player, Club, Round, Table, Seat, Hand)]

    with pytest.raises(CommandError) as exc:
        call_command("import_tournament", str(path), slug="kaputt")
    assert str(exc.value).startswith(bad_path + ":"), str(exc.value)
    assert [m.objects.count() for m in (Tournament, Registration, Player, Club, Round, Table, Seat, Hand)] == counts


@pytest.mark.parametrize(
    ("mutate", "bad_path"),
    [
        (lambda d: d["tournament"].__setitem__("entry_fee_cents", "500"), "tournament.entry_fee_cents"),
        (lambda d: d["players"][0].__setitem__("paid", "true"), "players[0].paid"),
        (lambda d: d["players"][1].__setitem__("club", 7), "players[1].club"),
        (lambda d: d["rounds"][0].__setitem__("number", True), "rounds[0].number"),
        (
            lambda d: d["rounds"][0]["tables"][0]["hands"][1].__setitem__("augen", "61"),
            "rounds[0].tables[0].hands[1].augen",
        ),
        (lambda d: d["rounds"][0]["tables"][0].__setitem__("hands", {}), "rounds[0].tables[0].hands"),
        (lambda d: d.__setitem__("players", [1]), "players[0]"),
        (lambda d: d["audit"].append({"at": "2026-11-21T19:30:00", "action": "x"}), "audit[0].at"),
    ],
)
def test_the_schema_takes_values_as_json_gives_them_never_coerced(tmp_path, mutate, bad_path):
    """A number in quotes is no number and true is no 1: the schema's fields are strict, and name the path."""
    tournament = _tournament_with_a_played_table()
    doc = _export(tournament.slug, tmp_path)
    doc["exported_at"] = "2026-11-22T21:15:00+01:00"
    doc["audit"] = []
    mutate(doc)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CommandError) as exc:
        call_command("import_tournament", str(path), slug="kaputt")
    assert str(exc.value).startswith(bad_path + ":"), str(exc.value)
    assert not Tournament.objects.filter(slug="kaputt").exists()


def test_import_of_a_file_that_is_not_json_is_a_command_error(tmp_path):
    path = tmp_path / "x.json"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match="file: not JSON"):
        call_command("import_tournament", str(path))


def test_export_of_an_unknown_slug_is_a_command_error():
    with pytest.raises(CommandError, match="slug"):
        call_command("export_tournament", "gibt-es-nicht")


def test_a_finished_tournament_and_a_prize_handed_over_go_through_export_import_export(tmp_path):
    """The end of the evening is kept: the tournament finished, which winner the desk handed his prize."""
    tournament = _tournament_with_a_played_table()
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    winner = tournament.registrations.order_by("start_number").first()
    Registration.objects.filter(pk=winner.pk).update(prize_handed_over=True)
    first = _export(tournament.slug, tmp_path)
    assert first["tournament"]["status"] == "finished"
    assert [p["prize_handed_over"] for p in first["players"]] == [True, False, False, False, False]
    path = tmp_path / "archive.json"
    path.write_text(json.dumps({**first, "exported_at": "2026-11-22T21:15:00+01:00"}), encoding="utf-8")

    _empty_database()
    call_command("import_tournament", str(path))
    assert Registration.objects.get(start_number=winner.start_number).prize_handed_over
    assert Tournament.objects.get(slug=tournament.slug).status == Tournament.Status.FINISHED
    assert _export(tournament.slug, tmp_path) == first
