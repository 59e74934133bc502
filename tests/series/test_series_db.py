"""Series standings over four simulated tournaments equal sums computed here from each tournament's archive."""

import csv
import io
import json
from collections import defaultdict

import pytest
from django.core.management import CommandError, call_command

from tournaments.archive import archive_build
from tournaments.models import Player, Series, SeriesTournament
from tournaments.selectors.series import player_history, series_csv, series_document, series_standings
from tournaments.services.errors import ServiceError
from tournaments.services.players import players_merge
from tournaments.services.series import series_tournament_add, series_tournament_remove, series_update

from .conftest import PLACEMENT, make_series

pytestmark = pytest.mark.django_db


def archive_results(tournaments) -> dict[str, dict[str, tuple[int, int]]]:
    """name -> {slug: (place, points)}, the points summed from the archive's hands."""
    results: dict[str, dict[str, tuple[int, int]]] = defaultdict(dict)
    for tournament in tournaments:
        archive = archive_build(tournament)
        names = {p["start_number"]: p["name"] for p in archive["players"]}
        points: dict[int, int] = defaultdict(int)
        for rnd in archive["rounds"]:
            for table in rnd["tables"]:
                for hand in table["hands"]:
                    for seat, value in hand.get("points", {}).items():
                        points[table["seats"][seat]] += value
        for row in archive["standings"]:
            assert row["points"] == points[row["start_number"]]
            results[names[row["start_number"]]][tournament.slug] = (row["rank"], points[row["start_number"]])
    return results


def by_name(data) -> dict[str, object]:
    return {row.name: row for row in data.all_rows}


def test_sum_equals_the_archives(club, season_tournaments):
    series = make_series(club, season_tournaments)
    expected = {name: sum(p for _r, p in res.values()) for name, res in archive_results(season_tournaments).items()}
    data = series_standings(series)
    assert {row.name: row.points for row in data.rows} == expected
    assert [row.points for row in data.rows] == sorted(expected.values(), reverse=True)
    assert all(row.participations == len(row.results) for row in data.rows)


def test_best_two_of_four_equals_the_archives(club, season_tournaments):
    series = make_series(club, season_tournaments, scoring="best_n", best=2)
    archive = archive_results(season_tournaments)
    expected = {name: sum(sorted((p for _r, p in res.values()), reverse=True)[:2]) for name, res in archive.items()}
    data = series_standings(series)
    assert {row.name: row.points for row in data.rows} == expected
    for row in data.rows:  # the results that count are the best two, the others are struck
        assert len(row.counted) == min(2, row.participations)
        struck = [row.results[k] for k in row.results if k not in row.counted]
        assert all(v <= min(row.results[k] for k in row.counted) for v in struck)


def test_placement_points_equal_the_archives(club, season_tournaments):
    series = make_series(club, season_tournaments, scoring="placement", placement_points=PLACEMENT)
    archive = archive_results(season_tournaments)
    expected = {name: sum(PLACEMENT[r - 1] for r, _p in res.values()) for name, res in archive.items()}
    assert {row.name: row.points for row in series_standings(series).rows} == expected

    series = series_update(series=series, placement_points=None, per_player_beaten=True)
    fields = {t.slug: sum(1 for res in archive.values() if t.slug in res) for t in season_tournaments}
    beaten = {
        name: sum(
            sum(1 for other in archive.values() if slug in other and other[slug][0] > r)
            for slug, (r, _p) in res.items()
        )
        for name, res in archive.items()
    }
    assert {row.name: row.points for row in series_standings(series).rows} == beaten
    assert max(beaten.values()) <= sum(fields.values())


def test_minimum_participations_lists_but_does_not_rank(club, season_tournaments):
    series = make_series(club, season_tournaments, min_participations=3)
    archive = archive_results(season_tournaments)
    data = series_standings(series)
    assert {r.name for r in data.rows} == {n for n, res in archive.items() if len(res) >= 3}
    assert {r.name for r in data.unranked} == {n for n, res in archive.items() if len(res) < 3}
    assert all(r.rank is None for r in data.unranked)
    assert data.rows[0].rank == 1


def test_ties_are_broken_as_configured(club, season_tournaments):
    # placement points with a table of one point for the winner only: many players tie on 0
    series = make_series(
        club,
        season_tournaments,
        scoring="placement",
        placement_points=[1],
        tiebreaks=["participations", "wins", "best_result"],
    )
    data = series_standings(series)
    rows = data.rows
    for above, below in zip(rows, rows[1:]):
        key_above = (-above.points, -above.participations, -above.wins, -above.best_result)
        key_below = (-below.points, -below.participations, -below.wins, -below.best_result)
        assert key_above <= key_below
        assert (above.rank == below.rank) == (key_above == key_below)  # no lot: a full tie is a shared place
    assert any(r.tiebreak == "participations" for r in rows)

    series = series_update(series=series, tiebreaks=["lot"])
    rows = series_standings(series).rows
    assert [r.rank for r in rows] == list(range(1, len(rows) + 1))  # the lot leaves no shared place
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    again = series_standings(Series.objects.get(pk=series.pk)).rows
    assert [r.player_id for r in again] == [r.player_id for r in rows]  # the lot is the series' stored seed


def test_a_new_series_breaks_ties_in_the_issue_order(club):
    series = make_series(club, [])
    assert Series.objects.get(pk=series.pk).tiebreaks == ["participations", "wins", "best_result", "lot"]


def test_a_guest_appears_with_his_club(club, season_tournaments):
    data = series_standings(make_series(club, season_tournaments))
    clubs = {row.name: row.club for row in data.all_rows}
    assert clubs["Spieler11 Nachname11"] == "Gäste-Verein Nachbarort"
    assert clubs["Spieler00 Nachname00"] == club.name


def test_merging_two_records_merges_the_history(club, people, season_tournaments):
    # Spieler11 (the guest) played only the last evening, which Spieler05 missed: one person, two records
    keep, remove = people[5], people[11]
    series = make_series(club, season_tournaments)
    before = by_name(series_standings(series))
    history_keep = {r.tournament.slug for r in player_history(keep).rows}
    history_remove = {r.tournament.slug for r in player_history(remove).rows}
    assert not history_keep & history_remove
    players_merge(keep=keep, remove=remove)
    keep = Player.objects.get(pk=keep.pk)
    history = player_history(keep)
    assert {r.tournament.slug for r in history.rows} == history_keep | history_remove
    assert all(r.place is not None and r.points is not None for r in history.rows)
    after = by_name(series_standings(series))
    assert "Spieler11 Nachname11" not in after
    merged = after["Spieler05 Nachname05"]
    assert merged.points == before["Spieler05 Nachname05"].points + before["Spieler11 Nachname11"].points
    assert merged.participations == len(history_keep | history_remove)


def test_history_row_holds_place_points_solos_and_tischbester(club, people, season_tournaments):
    archive = archive_results(season_tournaments)
    history = player_history(people[0])
    assert {r.tournament.slug for r in history.rows} == set(archive["Spieler00 Nachname00"])  # three evenings
    assert [r.tournament.date for r in history.rows] == sorted((r.tournament.date for r in history.rows), reverse=True)
    for row in history.rows:
        assert (row.place, row.points) == archive["Spieler00 Nachname00"][row.tournament.slug]
        assert row.field_size == 8
        assert row.won_solos >= 0 and row.tischbester >= 0
    assert sum(r.tischbester for p in people for r in player_history(p).rows) >= 2 * 2 * 4


def test_a_tournament_is_added_once_and_can_be_taken_out(club, season_tournaments):
    """(Who may add: the views, test_another_clubs_organiser_adds_his_tournament_but_not_the_scoring.)"""
    series = make_series(club, season_tournaments[:1])
    with pytest.raises(ServiceError) as err:
        series_tournament_add(series=series, tournament=season_tournaments[0])
    assert err.value.field == "tournament"
    series_tournament_remove(series=series, tournament=season_tournaments[0])
    assert not SeriesTournament.objects.filter(series=series).exists()


@pytest.mark.parametrize(
    "settings, field",
    [
        ({"scoring": "best_n"}, "best"),
        ({"scoring": "placement"}, "placement_points"),
        ({"scoring": "sum", "placement_points": [3, 2, 1]}, "placement_points"),
        ({"scoring": "placement", "placement_points": [3, "x"]}, "placement_points"),
        ({"scoring": "nonsense"}, "scoring"),
        ({"tiebreaks": ["height"]}, "tiebreaks"),
    ],
)
def test_bad_settings_name_the_field_and_write_nothing(club, settings, field):
    from tournaments.services.series import series_create

    with pytest.raises(ServiceError) as err:
        series_create(club=club, name="Kaputt", slug="kaputt", **settings)
    assert err.value.field == field
    assert not Series.objects.exists()


def test_command_json_csv_and_list(club, season_tournaments, capsys):
    series = make_series(club, season_tournaments, scoring="best_n", best=2)
    make_series(club, [], slug="cup-2027")
    call_command("series_standings", "jahreswertung")
    document = json.loads(capsys.readouterr().out)
    assert set(document) >= {"series", "scoring", "best", "placement_points", "tournaments", "standings"}
    assert (document["series"], document["scoring"], document["best"], document["placement_points"]) == (
        "jahreswertung",
        "best_n",
        2,
        None,
    )
    assert document["tournaments"] == [t.slug for t in season_tournaments]
    data = series_standings(series)
    assert document == json.loads(json.dumps(series_document(data)))
    first = document["standings"][0]
    assert set(first) >= {"rank", "name", "club", "points", "participations", "results"}
    assert first["rank"] == 1 and first["points"] == data.rows[0].points
    assert set(first["results"]) <= set(document["tournaments"])

    call_command("series_standings", "jahreswertung", "--format", "csv")
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out), delimiter=";"))
    assert rows[0][:4] == ["rank", "name", "club", "points"]
    assert [r[1] for r in rows[1:]] == [r.name for r in data.all_rows]
    assert rows[1][3] == str(data.rows[0].points)
    assert series_csv(data).count("(") == sum(len(r.results) - len(r.counted) for r in data.all_rows)

    call_command("series_standings", "--list")
    assert capsys.readouterr().out.split() == ["cup-2027", "jahreswertung"]


def test_command_refuses_unknown_slug_and_format(club):
    make_series(club, [])
    with pytest.raises(CommandError, match="slug"):
        call_command("series_standings", "gibts-nicht")
    with pytest.raises(CommandError, match="format"):
        call_command("series_standings", "jahreswertung", "--format", "xml")
    with pytest.raises(CommandError, match="slug"):
        call_command("series_standings")


def test_the_series_csv_neutralises_formulas_in_names_and_clubs(club, people, season_tournaments):
    """Issue 13, fix 8 for the season's download: a name or club a spreadsheet would run stays text."""
    people[0].first_name = '=HYPERLINK("http://evil.example";"klick")'
    people[0].save()
    people[11].club.name = "@SUM(A1:A9)"
    people[11].club.save()
    rows = list(
        csv.reader(io.StringIO(series_csv(series_standings(make_series(club, season_tournaments)))), delimiter=";")
    )
    cells = [cell for row in rows for cell in row]
    assert not [cell for cell in cells if cell[:1] in ("=", "+", "@", "\t", "\r")]
    assert "'@SUM(A1:A9)" in {row[2] for row in rows[1:]}
    assert "'" + people[0].name in {row[1] for row in rows[1:]}
    negative = [cell for row in rows[1:] for cell in row[3:] if cell.lstrip("(").startswith(("-", "'-"))]
    assert negative and all(cell.strip("()").lstrip("-").isdigit() for cell in negative)  # -3 stays a number
