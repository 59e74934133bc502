"""Issue 35: printed for old eyes on cheap printers. Every string of every document is at least 8 pt, and a
60-character name never runs into its neighbour column (seat list) nor across a start card's cut line; it is
wrapped or shortened inside its place. Sizes and positions come from the PDFs themselves (text_boxes.py)."""

from collections.abc import Callable

import pytest

from tests.pdf.conftest import URL_BASE
from tests.pdf.text_boxes import Run, text_runs
from tournaments.pdf.cash_list import render_cash_list
from tournaments.pdf.certificates import render_certificates
from tournaments.pdf.drawing import MIN_PT
from tournaments.pdf.pack import render_pack
from tournaments.pdf.prize_list import render_prize_list
from tournaments.pdf.standings import render_standings
from tournaments.pdf.start_cards import render_start_cards
from tournaments.selectors.printing import (
    cash_list_data,
    certificates_data,
    print_pack_data,
    prize_list_data,
    standings_data,
    start_cards_data,
)

LONG_FIRST, LONG_LAST = "Maximilian-Ferdinand", "Gschwendtner-Obermaier von Ölschläger-Ö"  # 60 with the space
LONG_CLUB = "Schafkopfclub Oberammergau-Unterpeißenberg und Umgebung e.V."  # 60

DOCUMENTS: dict[str, Callable] = {
    "print pack (seat lists, table cards, filled score sheets)": lambda t: render_pack(
        print_pack_data(t.rounds.get(number=1), url_base=URL_BASE)
    ),
    "blank score sheets": lambda t: render_pack(print_pack_data(t.rounds.get(number=2), url_base=URL_BASE, blank=True)),
    "start cards": lambda t: render_start_cards(start_cards_data(t, url_base=URL_BASE)),
    "standings": lambda t: render_standings(standings_data(t)),
    "prize list": lambda t: render_prize_list(prize_list_data(t)),
    "cash list": lambda t: render_cash_list(cash_list_data(t)),
    "certificates": lambda t: render_certificates(certificates_data(t)),
}


@pytest.fixture
def long_named(finished_tournament):
    """The finished evening, its start number 1 given a 60-character name and club."""
    registration = finished_tournament.registrations.select_related("player__club").get(start_number=1)
    player = registration.player
    assert len(f"{LONG_FIRST} {LONG_LAST}") == 60 and len(LONG_CLUB) == 60
    player.first_name, player.last_name = LONG_FIRST, LONG_LAST
    player.save(update_fields=["first_name", "last_name"])
    player.club.name = LONG_CLUB
    player.club.save(update_fields=["name"])
    return finished_tournament


def is_game_description(run: Run) -> bool:
    """A score sheet row's game ("Strich (Kreuz 60:60)"): the one text allowed under 8 pt, down to GAME_MIN_PT,
    because it is what the players sign and must not be cut short (tournaments/pdf/score_sheet.py)."""
    from reportlab.lib.units import mm

    from tournaments.pdf.score_sheet import (
        COL_DEALER,
        COL_NUMBER,
        GAME_MIN_PT,
        MARGIN_X,
    )

    return abs(run.x - (MARGIN_X + COL_NUMBER + COL_DEALER + 1.0) * mm) < 0.5 and run.size >= GAME_MIN_PT


def small(runs: list[Run]) -> list[str]:
    return [
        f"p{r.page} {r.size} pt: {r.text[:40]!r}" for r in runs if r.size < MIN_PT - 0.01 and not is_game_description(r)
    ]


@pytest.mark.django_db
@pytest.mark.parametrize("document", sorted(DOCUMENTS))
def test_every_string_is_at_least_8_pt(long_named, document):
    runs = text_runs(DOCUMENTS[document](long_named))
    assert runs
    too_small = small(runs)
    assert not too_small, f"{len(too_small)} strings under {MIN_PT} pt:\n" + "\n".join(too_small[:40])


def name_runs(runs: list[Run]) -> list[Run]:
    """The strings that are (part of) the long name, as printed: whole, wrapped or shortened."""
    parts = ("Maximili", "Gschwend", "Ölschl", "von ")
    return [r for r in runs if any(part in r.text for part in parts)]


@pytest.mark.django_db
def test_a_long_name_stays_inside_its_column_of_the_seat_list(long_named):
    from tournaments.pdf.seat_list import (
        ALPHA_COLUMNS,
        COLUMN_W,
        GUTTER,
        MARGIN_X,
        TABLES_COLUMNS,
        render_seat_list,
    )
    from tournaments.selectors.printing import seat_list_data

    runs = text_runs(render_seat_list(seat_list_data(long_named.rounds.get(number=1))))
    assert not small(runs)
    longs = name_runs(runs)
    assert longs, "the long name is printed"
    columns = (MARGIN_X, MARGIN_X + COLUMN_W + GUTTER)  # the page's two columns of lists
    for run in longs:
        start = max(c for c in columns if c <= run.x + 0.5)
        # Alphabetical (page 1): the name's column ends where the start number's begins; by table (page 2) the
        # name is the third column. Either way it ends 3 pt (the cell padding) before the next column's line.
        name_end = start + ALPHA_COLUMNS[0] if run.page == 1 else start + sum(TABLES_COLUMNS[:3])
        assert run.right <= name_end - 2.9, f"{run.text!r} ends at {run.right:.1f} pt, its column at {name_end:.1f}"
    printed = " ".join(r.text for r in longs if r.page == 2)
    assert printed.startswith("Maximilian-Ferdinand")  # wrapped or shortened, never dropped


@pytest.mark.django_db
def test_a_long_name_stays_inside_its_start_card(long_named):
    from tournaments.pdf.start_cards import CARD_H, CARD_W, PAD

    runs = text_runs(render_start_cards(start_cards_data(long_named, start_number=1, url_base=URL_BASE)))
    assert not small(runs)
    assert name_runs(runs)
    for run in runs:  # the first card sits top left: inside its padding, left of the vertical cut line
        assert run.x >= PAD - 0.5 and run.right <= CARD_W - PAD + 0.5, f"{run.text!r}: {run.x:.1f}–{run.right:.1f} pt"
        assert run.y >= CARD_H - 0.5  # above the horizontal cut line (the card is the top one)
    name = [r for r in name_runs(runs) if r.size >= 12]
    assert name and name[0].text.startswith("Maximilian-Ferdinand")  # wrapped between words, not cut short


@pytest.mark.django_db
def test_a_long_name_stays_inside_its_seat_columns_on_the_score_sheet(long_named):
    from tournaments.pdf.score_sheet import render_score_sheet
    from tournaments.selectors.printing import score_sheet_data

    seat = long_named.registrations.get(start_number=1).seats.select_related("table").get(round__number=1)
    sheet = score_sheet_data(seat.table, filled=True)
    runs = text_runs(render_score_sheet(sheet))
    assert not small(runs)
    heads = [r for r in name_runs(runs) if not r.text.startswith(("Signature", "Unterschrift"))]
    assert heads
    from reportlab.lib.units import mm

    from tournaments.pdf.score_sheet import CONTENT_W, LEFT_W, MARGIN_X

    seat_w = (CONTENT_W - LEFT_W) / sheet.size * mm
    left = (MARGIN_X + LEFT_W) * mm + (seat.number - 1) * seat_w
    for run in heads:
        assert left <= run.x and run.right <= left + seat_w, f"{run.text!r} leaves seat {seat.number}'s columns"
