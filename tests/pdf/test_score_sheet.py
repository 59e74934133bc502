"""The score sheet (Spielliste): names, numbers, totals and the zero-sum line against the database."""

import dataclasses
import datetime
from collections import defaultdict

import pytest

from scoring.rules import score_hand
from scoring.storage import stored_record
from tests.pdf.conftest import URL_BASE, number, page_drawing, pdf_pages
from tournaments.models import Hand, Seat, Table
from tournaments.pdf.drawing import money, signed
from tournaments.pdf.fonts import FontMissing, font_files
from tournaments.pdf.score_sheet import ScoreSheet, SheetPlayer, SheetRow, render_score_sheet, render_score_sheets
from tournaments.selectors.printing import entry_url, score_sheet_data, score_sheets_data
from tournaments.services.hands import hand_correct


def footer_values(lines: list[str], label: str, size: int) -> list[str]:
    """The values after a footer row's label (the last line with that label)."""
    index = len(lines) - 1 - lines[::-1].index(label)
    return lines[index + 1 : index + 1 + size]


def db_totals(table: Table) -> list[int]:
    totals = [0] * table.size
    for hand in Hand.objects.filter(table=table):
        for seat, points in hand.points.items():
            totals[int(seat) - 1] += points
    return totals


@pytest.mark.django_db
def test_filled_sheet_totals_are_the_sum_of_the_stored_points(played_round):
    for table in played_round.tables.order_by("number"):
        pages = pdf_pages(render_score_sheet(score_sheet_data(table, filled=True, url_base=URL_BASE)))
        assert len(pages) == 1
        lines = pages[0]
        totals = [number(value) for value in footer_values(lines, "Total", table.size)]
        assert totals == db_totals(table)
        check = lines[lines.index("Check:") + 1]
        terms, result = check.split(" = ")
        assert [number(term) for term in terms.split()] == totals
        assert result.startswith("0 ") and result.endswith("correct")
        assert sum(totals) == 0


@pytest.mark.django_db
def test_header_names_every_seat_with_start_number(played_round):
    for table in played_round.tables.order_by("number"):
        lines = pdf_pages(render_score_sheet(score_sheet_data(table, filled=False, url_base=URL_BASE)))[0]
        assert played_round.tournament.name in lines
        assert "Round 1" in lines and f"Table {table.number}" in lines
        for seat in Seat.objects.filter(table=table).select_related("registration__player"):
            player = seat.registration.player
            start = lines.index(f"Seat {seat.number}")
            assert lines[start + 1] == f"No. {seat.registration.start_number}"
            assert " ".join(lines[start + 2 : start + 4]).startswith(player.name) or lines[start + 2] == player.name
            assert f"Signature seat {seat.number}: {player.name} (no. {seat.registration.start_number})" in lines


@pytest.mark.django_db
def test_table_of_five_has_40_rows_with_the_dealer_printed_on_one_page(played_round):
    five = played_round.tables.get(size=5)
    for filled in (False, True):
        sheet = score_sheet_data(five, filled=filled, url_base=URL_BASE)
        assert len(sheet.rows) == 40
        pages = pdf_pages(render_score_sheet(sheet))
        assert len(pages) == 1
    blank = pdf_pages(render_score_sheet(score_sheet_data(five, filled=False, url_base=URL_BASE)))[0]
    start = blank.index("1 1")  # a row: game number and the dealer who sits out
    assert blank[start : start + 40] == [f"{n} {(n - 1) % 5 + 1}" for n in range(1, 41)]
    assert "40 games. The dealer sits out and scores 0 (grey field)." in blank


@pytest.mark.django_db
def test_table_of_four_blank_sheet_has_32_rows(played_round):
    four = played_round.tables.filter(size=4).first()
    sheet = score_sheet_data(four, filled=False, url_base=URL_BASE)
    assert [(r.number, r.dealer) for r in sheet.rows] == [(n, (n - 1) % 4 + 1) for n in range(1, 33)]
    lines = pdf_pages(render_score_sheet(sheet))[0]
    assert footer_values(lines, "Total", 4) == [  # nothing to add up yet: the labels follow one another
        "Won solos",
        "Reuegeld",
        "Check:",
        "the totals of all seats add up to 0:  ______",
    ]


@pytest.mark.django_db
def test_every_game_row_shows_the_stored_points(played_round):
    table = played_round.tables.filter(size=4).first()
    sheet = score_sheet_data(table, filled=True, url_base=URL_BASE)
    running = [0] * 4
    for row, hand in zip(sheet.rows, Hand.objects.filter(table=table).order_by("number"), strict=True):
        assert row.number == hand.number and row.dealer == hand.dealer
        assert list(row.points) == [hand.points[str(s)] for s in range(1, 5)]
        running = [a + b for a, b in zip(running, row.points, strict=True)]
        assert list(row.totals) == running


@pytest.mark.django_db
def test_a_printed_row_reads_like_the_game(played_round):
    five = played_round.tables.get(size=5)
    lines = pdf_pages(render_score_sheet(score_sheet_data(five, url_base=URL_BASE)))[0]
    running = [0] * 5
    for hand in Hand.objects.filter(table=five).order_by("number"):
        running = [t + hand.points[str(s)] for t, s in zip(running, range(1, 6), strict=True)]
        line = next(line for line in lines if line.startswith(f"{hand.number} {hand.dealer} "))
        cells = []
        for seat in range(1, 6):
            if seat != hand.dealer:  # the dealer sits out: his points field stays empty
                cells.append(signed(hand.points[str(seat)]))
            cells.append(signed(running[seat - 1]))
        assert line.endswith(" " + " ".join(cells)), line


@pytest.mark.django_db
def test_reuegeld_and_won_solos_follow_the_rules_engine(played_round):
    rules = played_round.tournament.ruleset
    for table in played_round.tables.all():
        reuegeld, won = defaultdict(int), defaultdict(int)
        for hand in Hand.objects.filter(table=table):
            score = score_hand({**stored_record(hand, table.size), "dealer": hand.dealer}, rules, table.size)
            for seat, cents in score.reuegeld.items():
                reuegeld[seat] += cents
            if score.won_solo:
                won[hand.declarer] += 1
        lines = pdf_pages(render_score_sheet(score_sheet_data(table, url_base=URL_BASE)))[0]
        assert footer_values(lines, "Reuegeld", table.size) == [money(reuegeld[s]) for s in range(1, table.size + 1)]
        assert footer_values(lines, "Won solos", table.size) == [str(won[s]) for s in range(1, table.size + 1)]


@pytest.mark.django_db
def test_a_correction_shows_on_the_filled_sheet(played_round):
    table = played_round.tables.filter(size=4).first()
    hand = Hand.objects.filter(table=table, contract="rufspiel", muss__isnull=True).first()
    record = {**stored_record(hand, table.size), "augen": 100, "schwarz": None, "laufende": 0}
    hand_correct(hand=hand, record=record, organiser=True, reason="test")
    lines = pdf_pages(render_score_sheet(score_sheet_data(table, url_base=URL_BASE)))[0]
    assert [number(v) for v in footer_values(lines, "Total", 4)] == db_totals(table)


@pytest.mark.django_db
def test_same_data_gives_the_same_bytes(played_round):
    first = render_score_sheets(score_sheets_data(played_round, url_base=URL_BASE))
    second = render_score_sheets(score_sheets_data(played_round, url_base=URL_BASE))
    assert first == second
    assert len(pdf_pages(first)) == played_round.tables.count()


@pytest.mark.django_db
def test_the_qr_code_holds_the_tables_entry_link(played_round):
    from tournaments.pdf.qr import qr_code

    table = played_round.tables.first()
    sheet = score_sheet_data(table, url_base=URL_BASE)
    assert sheet.entry_url == f"{URL_BASE}/tisch/{table.entry_key}/" == entry_url(URL_BASE + "/", table.entry_key)
    import io

    import pypdf

    page = pypdf.PdfReader(io.BytesIO(render_score_sheet(sheet))).pages[0]
    assert qr_code(sheet.entry_url)[1].encode() in page_drawing(page)


@pytest.mark.django_db
def test_paper_totals_are_printed_as_the_sheet_said(drawn_round):
    from tournaments.services.hands import table_paper_totals
    from tournaments.services.rounds import round_publish

    round_publish(round=drawn_round)
    table = drawn_round.tables.filter(size=4).first()
    table_paper_totals(table=table, totals={"1": 12, "2": -5, "3": -3, "4": -4})
    lines = pdf_pages(render_score_sheet(score_sheet_data(table, url_base=URL_BASE)))[0]
    assert "Round totals entered from the paper sheet" in lines
    assert footer_values(lines, "Total", 4) == ["+12", "\u22125", "\u22123", "\u22124"]


# --- documents without a database ------------------------------------------------------------

PLAYERS = tuple(
    SheetPlayer(seat=s, start_number=10 + s, name=n)
    for s, n in enumerate(("Anna Ächter", "Josef Weiß", "Theresa Groß", "Korbinian Zehetmair"), start=1)
)


def sheet(**changes) -> ScoreSheet:
    base = ScoreSheet(
        tournament="Schafkopfrennen Übersee",
        date=datetime.date(2026, 11, 21),
        venue="Saal",
        round=2,
        table=7,
        size=4,
        games=32,
        players=PLAYERS,
        rows=tuple(SheetRow(number=n, dealer=(n - 1) % 4 + 1) for n in range(1, 33)),
        entry_url="https://example.org/tisch/abc/",
    )
    return dataclasses.replace(base, **changes)


def test_umlauts_and_sharp_s_come_out_as_text():
    lines = pdf_pages(render_score_sheet(sheet()))[0]
    assert "Schafkopfrennen Übersee" in lines
    assert "Signature seat 3: Theresa Groß (no. 13)" in lines
    assert "Signature seat 1: Anna Ächter (no. 11)" in lines


def test_thrown_in_games_and_weitergeld_under_redeal():
    rows = (
        SheetRow(number=1, dealer=1, contract="weiter"),
        SheetRow(
            number=2,
            dealer=1,
            contract="wenz",
            declarer=2,
            augen=70,
            won=True,
            points=(-5, 15, -5, -5),
            totals=(-5, 15, -5, -5),
            won_solo=True,
        ),
    )
    rows += tuple(SheetRow(number=n, dealer=(n - 2) % 4 + 1) for n in range(3, 34))
    lines = pdf_pages(
        render_score_sheet(
            sheet(
                rows=rows,
                redeal=True,
                filled=True,
                games_entered=1,
                totals=(-5, 15, -5, -5),
                won_solos=(0, 1, 0, 0),
                reuegeld_cents=(0, 0, 0, 0),
                weitergeld_cents=(10, 10, 10, 10),
            )
        )
    )[0]
    assert "1 1 Strich (all passed)" in lines
    assert footer_values(lines, "Weitergeld", 4) == ["0.10 \u20ac"] * 4
    assert "1 of 32 games entered" in lines


def test_a_long_sheet_continues_on_a_second_page_with_the_footer_at_the_end():
    rows = tuple(SheetRow(number=n, dealer=(n - 1) % 5 + 1) for n in range(1, 61))
    pages = pdf_pages(
        render_score_sheet(
            sheet(
                size=5,
                games=40,
                rows=rows,
                players=PLAYERS + (SheetPlayer(seat=5, start_number=99, name="Xaver Huber"),),
            )
        )
    )
    assert len(pages) == 2
    assert any("Page 1 of 2" in line for line in pages[0])
    assert any("Page 2 of 2" in line for line in pages[1])
    assert "Check:" not in pages[0] and "Check:" in pages[1]
    assert "Table 7" in pages[1]


def test_plus_only_scoring_has_no_zero_sum_check():
    lines = pdf_pages(render_score_sheet(sheet(filled=True, zero_sum=False, totals=(3, 0, 0, 5))))[0]
    assert "Plus points only: the totals do not add up to 0." in lines


def test_a_missing_font_names_the_debian_package(tmp_path):
    with pytest.raises(FontMissing, match="fonts-dejavu-core"):
        font_files(tmp_path)


def test_fonts_are_embedded():
    content = render_score_sheet(sheet())
    assert b"/FontFile2" in content and b"DejaVuSans" in content


@pytest.mark.django_db
def test_kreuz_rows_name_the_pair_and_a_replayed_60_to_60_is_a_strich(tmp_path):
    from tests.tournaments.test_services_hands import make_table
    from tournaments.services.hands import table_sheet_record

    table = make_table(size=5, rules={"all_pass": "kreuz", "kreuz_tie": "replay", "games_per_round": 8})
    table_sheet_record(
        table=table,
        records=[
            {"contract": "kreuz", "declarer": 4, "augen": 95, "laufende": 3},  # dealer 1: 2+4 against 3+5
            {"contract": "kreuz", "declarer": 1, "augen": 60},  # dealer 2: thrown in, dealt again
            {"contract": "kreuz", "declarer": 5, "augen": 40},  # dealer 2 again: 1+4 against 3+5 -> 5 plays with 3
        ],
    )
    data = score_sheet_data(table, url_base=URL_BASE)
    pdf = render_score_sheet(data)
    (tmp_path / "kreuz.pdf").write_bytes(pdf)
    lines = pdf_pages(pdf)[0]
    assert "1 1 2+4 über Kreuz 4 2 95 3 0 +5 +5 −5 −5 +5 +5 −5 −5" in lines
    assert "2 2 Strich (Kreuz 60:60)" in lines
    assert any(line.startswith("3 2 3+5 über Kreuz 5 3 40 ") for line in lines), lines
    assert "2 of 10 games entered" in lines  # a table of five plays 8 × 5 / 4
