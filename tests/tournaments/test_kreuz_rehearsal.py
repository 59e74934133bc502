"""A rehearsal played über Kreuz (simulate_tournament --rules FILE): its archive's standings are the sum
of its games' points, its replayed 60:60 games travel as thrown in, and the archive imports again."""

import json

import pytest
from django.core.management import CommandError, call_command

from tests.points import points_from_hands
from tournaments.models import Club, Hand, Player, Registration, Round, Seat, Table, Tournament

pytestmark = pytest.mark.django_db

RULES = {"all_pass": "kreuz", "kreuz_tie": "replay"}


@pytest.fixture
def rules_file(tmp_path):
    path = tmp_path / "kreuz.json"
    path.write_text(json.dumps(RULES))
    return path


def test_a_kreuz_rehearsal_exports_an_archive_whose_standings_are_the_sum_of_its_hands(
    rules_file, tmp_path, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        call_command(
            "simulate_tournament",
            "--players",
            "21",
            "--rounds",
            "2",
            "--games",
            "32",
            "--seed",
            "7",
            "--slug",
            "kreuz",
            "--rules",
            str(rules_file),
        )
    tournament = Tournament.objects.get(slug="kreuz")
    assert tournament.ruleset.all_pass == "kreuz" and tournament.ruleset.kreuz_tie == "replay"
    kreuz = Hand.objects.filter(table__round__tournament=tournament, contract="kreuz")
    assert kreuz.filter(thrown_in=False).exists() and kreuz.filter(thrown_in=True, augen=60).exists()
    assert not Hand.objects.filter(table__round__tournament=tournament, muss=True).exists()

    for n, player in enumerate(Player.objects.order_by("pk"), start=1):  # namesakes are another test's business
        player.last_name = f"{player.last_name} {n}"
        player.save(update_fields=["last_name"])
    out = tmp_path / "kreuz-archive.json"
    call_command("export_tournament", "kreuz", output=str(out))
    doc = json.loads(out.read_text())
    assert doc["rules"]["all_pass"] == "kreuz" and doc["rules"]["kreuz_tie"] == "replay"
    totals: dict[int, int] = {}
    replayed = 0
    for rnd in doc["rounds"]:
        for table in rnd["tables"]:
            played = 0
            for hand in table["hands"]:
                if hand["contract"] == "kreuz" and hand["augen"] == 60:
                    assert "points" not in hand  # thrown in: a Strich, no points
                    replayed += 1
                    continue
                played += 1
                for seat, points in hand["points"].items():
                    start = table["seats"][seat]
                    totals[start] = totals.get(start, 0) + points
            assert played == (32 if len(table["seats"]) == 4 else 40)
    assert replayed > 0
    assert {s["start_number"]: s["points"] for s in doc["standings"]} == totals
    assert sum(totals.values()) == 0
    assert sorted(points_from_hands(tournament).values()) == sorted(totals.values())

    # the archive imports into an empty database and exports the same again (apart from the time of export)
    for model in (Hand, Seat, Table, Round, Registration, Tournament, Player, Club):
        model.objects.all().delete()
    call_command("import_tournament", str(out))
    again = tmp_path / "again.json"
    call_command("export_tournament", "kreuz", output=str(again))
    copy = json.loads(again.read_text())
    assert copy["rounds"] == doc["rounds"] and copy["standings"] == doc["standings"]


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "rules: "),
        ('["kreuz"]', "rules: "),
        ('{"all_pass": "ramsch"}', "rules.all_pass: "),
        ('{"kreuz_tie": "draw"}', "rules.kreuz_tie: "),
    ],
)
def test_a_bad_rules_file_is_refused_naming_the_key(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(CommandError) as err:
        call_command("simulate_tournament", "--players", "8", "--rules", str(path))
    assert str(err.value).startswith(message)
    assert not Tournament.objects.exists()


def test_a_missing_rules_file_is_named(tmp_path):
    with pytest.raises(CommandError, match="rules: cannot read"):
        call_command("simulate_tournament", "--players", "8", "--rules", str(tmp_path / "nope.json"))
