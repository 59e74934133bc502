"""The standings PDF (Rangliste): overall and per round, checked against the snapshot; long lists, stale standings."""

import datetime

import pytest
from django.utils import translation
from django.utils.formats import date_format

from tests.pdf.conftest import number, pdf_pages
from tournaments.models import Table
from tournaments.pdf.lists import ListHead
from tournaments.pdf.standings import Standings, StandingsLine, StandingsSection, render_standings
from tournaments.selectors.printing import standings_data
from tournaments.selectors.standings import standings_view, tie_note

COMPUTED_AT = datetime.datetime(2026, 11, 21, 22, 14)  # noqa: DTZ001 (local time, as the head holds it)
HEAD = ListHead(
    tournament="Großes Schafkopfrennen",
    date=datetime.date(2026, 11, 21),
    venue="Gasthof zur Post",
    computed_at=COMPUTED_AT,
    current=True,
)


def rows_in(lines: list[str], rows: list[dict], *, club: bool = True) -> list[dict]:
    """Each standings row as printed: place, start number, name, the notes under it, club, points, solos, rounds."""
    found, position = [], 0
    for row in rows:
        start = next(
            i
            for i in range(position, len(lines) - 2)
            if lines[i] == f"{row['rank']}."
            and lines[i + 1] == str(row["start_number"])
            and lines[i + 2] == row["name"]
        )
        after_name = start + 3
        club_at = lines.index(row["club"], after_name) if club else after_name
        values = lines[club_at + 1 : club_at + 3 + len(row["round_points"])]
        found.append(
            {
                "place": lines[start],
                "notes": " ".join(lines[after_name:club_at]),
                "points": number(values[0]),
                "won_solos": int(values[1]),
                "round_points": [number(v) for v in values[2:]],
            }
        )
        position = club_at
    return found


@pytest.mark.django_db
def test_overall_and_every_round_as_in_the_snapshot(finished_tournament):
    view = standings_view(finished_tournament)
    pages = pdf_pages(render_standings(standings_data(finished_tournament)))

    assert [page[:2] for page in pages] == [
        ["Standings", "Overall"],
        ["Standings", "Round 1"],
        ["Standings", "Round 2"],
    ]
    when = date_format(finished_tournament.date, "DATE_FORMAT")
    for index, page in enumerate(pages, start=1):
        assert f"Page {index} of 3" in page
        assert page[2:4] == [finished_tournament.name, f"{when} \u00b7 Gasthof zur Post, Großkarolinenfeld"]
        assert page[4].startswith("As of ")
        assert not any(line.startswith("NOT CURRENT") for line in page)

    overall = rows_in(pages[0], view.rows)
    assert len(overall) == 21
    for printed, row in zip(overall, view.rows, strict=True):
        assert printed["points"] == row["points"]
        assert printed["won_solos"] == row["won_solos"]
        assert printed["round_points"] == row["round_points"]
        assert printed["notes"] == tie_note(row["note"])
    assert sum(r["points"] for r in overall) == 0

    for number_, page in ((1, pages[1]), (2, pages[2])):
        rows = standings_view(finished_tournament, round=number_).rows
        printed = rows_in(page, [{**row, "round_points": []} for row in rows])
        assert [p["points"] for p in printed] == [row["points"] for row in rows]
        assert [p["notes"] for p in printed] == [tie_note(row["note"]) for row in rows]


@pytest.mark.django_db
def test_tie_notes_say_why_the_tied_stand_in_their_order(finished_tournament):
    rows = standings_view(finished_tournament).rows
    decided_by_solos = [row for row in rows if row["note"] and row["note"]["tiebreak"] == "won_solos"]
    assert decided_by_solos, "seed 4 has a tie decided by won solos"
    text = " ".join(pdf_pages(render_standings(standings_data(finished_tournament)))[0])  # a note may wrap
    for row in decided_by_solos:
        assert f"ahead of {row['note']['below']}: more won solos" in text


@pytest.mark.django_db
def test_one_round_only(finished_tournament):
    pages = pdf_pages(render_standings(standings_data(finished_tournament, round=2)))
    assert len(pages) == 1 and pages[0][:2] == ["Standings", "Round 2"] and "Page 1 of 1" in pages[0]
    assert "R1" not in pages[0]  # no round columns in a round's standings


@pytest.mark.django_db
def test_standings_that_are_not_current_say_so_on_every_page(finished_tournament):
    from tournaments.models import HandRevision

    table = Table.objects.get(round__tournament=finished_tournament, number=1, round__number=1)
    # a change the snapshot has not counted yet (written with its revision, as the services do)
    HandRevision.objects.create(
        table=table,
        number=HandRevision.TOTALS_NUMBER,
        action=HandRevision.Action.TOTALS,
        new={"1": 0, "2": 0, "3": 0, "4": 0},
    )
    data = standings_data(finished_tournament)
    assert data.head.current is False
    for page in pdf_pages(render_standings(data)):
        assert "NOT CURRENT: newer games are still being counted, these figures will change." in page


@pytest.mark.django_db
def test_before_any_game_is_counted(finished_tournament):
    finished_tournament.standings_snapshot.delete()
    finished_tournament.refresh_from_db()
    pages = pdf_pages(render_standings(standings_data(finished_tournament)))
    assert len(pages) == 1
    assert "No games have been counted yet." in pages[0] and "No standings yet." in pages[0]


def test_a_thousand_players_flow_over_pages_with_the_head_repeated():
    lines = tuple(
        StandingsLine(
            place=i,
            start_number=1001 - i,
            name=f"Spieler Nummer {i:04d}",
            club="Schafkopfclub Ödenhof",
            points=600 - i,
            won_solos=i % 5,
            round_points=(300 - i, 300),
            note="",
        )
        for i in range(1, 1001)
    )
    data = Standings(
        head=HEAD,
        sections=(
            StandingsSection(round=None, lines=lines, rounds=(1, 2)),
            StandingsSection(round=1, lines=lines[:40]),
        ),
    )
    content = render_standings(data)
    pages = pdf_pages(content)
    overall = [page for page in pages if page[1] == "Overall"]
    assert 20 <= len(overall) <= 40 and pages[len(overall)][1] == "Round 1"
    for index, page in enumerate(pages, start=1):
        assert f"Page {index} of {len(pages)}" in page
        assert page[5:11] == ["Place", "No.", "Name", "Club", "Points", "Won solos"] or page[5:12] == [
            "Place",
            "No.",
            "Name",
            "Club",
            "Points",
            "Won",
            "solos",
        ]
    names = [line for page in overall for line in page if line.startswith("Spieler Nummer")]
    assert names == [line.name for line in lines]
    assert "Schafkopfclub Ödenhof" in overall[-1] and "\u2212400" in overall[-1]  # umlauts, a real minus sign
    assert content == render_standings(data)  # deterministic


def test_long_names_clubs_and_notes_stay_in_their_column():
    long_club = "Schafkopffreunde Oberammergau-Unterpeißenberg und Umgebung e. V."
    line = StandingsLine(
        place=1,
        start_number=7,
        name="Maximilian Obermüller-Huberbauer von und zu Höhenkirchen",
        club=long_club,
        points=12,
        won_solos=3,
        note="ahead of Korbinian Zehetmair-Oberpfaffenhofen: more won solos",
        substitute_for="Franz Xaver Sedlmeier",
    )
    pages = pdf_pages(render_standings(Standings(head=HEAD, sections=(StandingsSection(None, (line,)),))))
    text = " ".join(pages[0])
    assert "substitute for Franz Xaver Sedlmeier" in text
    assert "more won solos" in text and "Höhenkirchen" in text and "Umgebung" in text


@pytest.mark.django_db
def test_printed_in_german_the_documents_language(finished_tournament):
    with translation.override("de"):
        pages = pdf_pages(render_standings(standings_data(finished_tournament)))
    for index, page in enumerate(pages, start=1):
        assert f"Seite {index} von {len(pages)}" in page
