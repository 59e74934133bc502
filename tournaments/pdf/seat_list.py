"""The seat list of a round: alphabetical in large type for the wall ("Wo sitze ich?"), and by table.

Platypus: two columns per A4 page, a table whose head repeats on every column, "Page x of y"
per part. ``seat_list_story`` and ``seat_list_templates`` let the print pack put the same pages
into its own document.
"""

from __future__ import annotations

import datetime
import io
from dataclasses import dataclass

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import (
    BaseDocTemplate,
    Frame,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Spacer,
    Table,
    TableStyle,
)

from .drawing import BOLD, MIN_PT, REGULAR, Canvas, PagedCanvas, PageSection, fit_size, mm, shorten
from .fonts import register_fonts


@dataclass(frozen=True)
class SeatListEntry:
    """One player in the alphabetical list."""

    letter: str  # the initial the list groups by (Ä under A)
    name: str  # "Huber, Anna"
    start_number: int
    table: int
    seat: int


@dataclass(frozen=True)
class SeatListSeat:
    seat: int
    name: str  # "Anna Huber"
    start_number: int


@dataclass(frozen=True)
class SeatListTable:
    number: int
    seats: tuple[SeatListSeat, ...]


@dataclass(frozen=True)
class SeatList:
    tournament: str
    date: datetime.date
    venue: str
    round: int
    entries: tuple[SeatListEntry, ...]  # alphabetical
    tables: tuple[SeatListTable, ...]  # by table number


PAGE_W, PAGE_H = A4
MARGIN_X = 12 * mm
MARGIN_TOP = 10 * mm
HEAD_H = 24 * mm  # the page head: title, tournament, round
FOOT_H = 10 * mm
GUTTER = 8 * mm
COLUMN_W = (PAGE_W - 2 * MARGIN_X - GUTTER) / 2

# Alphabetical: name, start number, table, seat (large type: read at arm's length on the wall).
ALPHA_COLUMNS = (COLUMN_W - 37 * mm, 11 * mm, 14 * mm, 12 * mm)
ALPHA_ROW_H = 7.6 * mm
ALPHA_NAME_SIZE = 12.5
ALPHA_TABLE_SIZE = 15
# By table: table, seat, name, start number.
TABLES_COLUMNS = (15 * mm, 10 * mm, COLUMN_W - 37 * mm, 12 * mm)
TABLES_ROW_H = 6.4 * mm
TABLES_NAME_SIZE = 11

HEAD_GRAY = colors.Color(0.85, 0.85, 0.85)


def _frames(prefix: str) -> list[Frame]:
    top = PAGE_H - MARGIN_TOP - HEAD_H
    height = top - FOOT_H - 6 * mm
    return [
        Frame(
            MARGIN_X + i * (COLUMN_W + GUTTER),
            FOOT_H + 6 * mm,
            COLUMN_W,
            height,
            id=f"{prefix}{i}",
            leftPadding=0,
            rightPadding=0,
            topPadding=0,
            bottomPadding=0,
        )
        for i in range(2)
    ]


def _footer(data: SeatList):
    def draw(canv: Canvas, page: int, pages: int) -> None:
        canv.saveState()
        canv.setFont(REGULAR, 9)
        canv.setFillGray(0)
        canv.drawCentredString(PAGE_W / 2, FOOT_H, _("Page %(page)d of %(pages)d") % {"page": page, "pages": pages})
        canv.restoreState()

    return draw


def _page_head(data: SeatList, title: str, subtitle: str, key: str):
    section = PageSection(key, _footer(data))

    def on_page(canv: Canvas, doc) -> None:
        canv.saveState()
        top = PAGE_H - MARGIN_TOP
        canv.setFillGray(0)
        canv.setFont(BOLD, 22)
        canv.drawString(MARGIN_X, top - 8 * mm, title)
        canv.setFont(REGULAR, 11)
        canv.drawString(MARGIN_X, top - 14.5 * mm, subtitle)
        right = PAGE_W - MARGIN_X
        canv.setFont(BOLD, 22)
        canv.drawRightString(right, top - 8 * mm, _("Round %(n)d") % {"n": data.round})
        canv.setFont(BOLD, fit_size(data.tournament, BOLD, 11, 95 * mm))
        canv.drawRightString(right, top - 14.5 * mm, data.tournament)
        canv.setFont(REGULAR, 9.5)
        when = date_format(data.date, "DATE_FORMAT")
        canv.drawRightString(right, top - 19.5 * mm, f"{when} \u00b7 {data.venue}" if data.venue else when)
        canv.setLineWidth(1.2)
        canv.line(MARGIN_X, top - HEAD_H + 2 * mm, right, top - HEAD_H + 2 * mm)
        canv.restoreState()
        canv.page_section = section

    return on_page


def seat_list_templates(data: SeatList) -> list[PageTemplate]:
    return [
        PageTemplate(
            id="seats-alpha",
            frames=_frames("alpha"),
            pagesize=A4,
            onPage=_page_head(data, _("Seat list"), _("Alphabetical by last name"), "seats-alpha"),
        ),
        PageTemplate(
            id="seats-tables",
            frames=_frames("tables"),
            pagesize=A4,
            onPage=_page_head(data, _("Seat list"), _("By table: seat, name and start number"), "seats-tables"),
        ),
    ]


_ALPHA_STYLE = TableStyle(
    [
        ("FONT", (0, 0), (0, 0), BOLD, 14),
        ("FONT", (1, 0), (-1, 0), BOLD, 8),
        ("BACKGROUND", (0, 0), (-1, 0), HEAD_GRAY),
        ("FONT", (0, 1), (0, -1), REGULAR, ALPHA_NAME_SIZE),
        ("FONT", (1, 1), (1, -1), REGULAR, 9),
        ("FONT", (2, 1), (2, -1), BOLD, ALPHA_TABLE_SIZE),
        ("FONT", (3, 1), (3, -1), REGULAR, ALPHA_NAME_SIZE),
        ("ALIGN", (1, 0), (-1, -1), "CENTER"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("TOPPADDING", (0, 0), (-1, -1), 0),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ("LINEBELOW", (0, 0), (-1, -1), 0.4, colors.black),
        ("LINEAFTER", (0, 0), (-2, -1), 0.4, colors.black),
        ("BOX", (0, 0), (-1, -1), 1.0, colors.black),
    ]
)


def _name_lines(name: str, size: float, width: float) -> tuple[str, float]:
    """A name cell's text and size: on one line, shrunk down to 9 pt; else on two lines at 8 pt, broken between
    words and shortened with an ellipsis if still too long, so it never reaches the next column."""
    fitted = fit_size(name, REGULAR, size, width, minimum=9)
    if stringWidth(name, REGULAR, fitted) <= width:
        return name, fitted
    lines = simpleSplit(name, REGULAR, MIN_PT, width) or [name]
    first, rest = lines[0], " ".join(lines[1:])
    text = shorten(first, REGULAR, MIN_PT, width) + ("\n" + shorten(rest, REGULAR, MIN_PT, width) if rest else "")
    return text, MIN_PT


def _style_name(table: Table, name: str, size: float, width: float, cell: tuple[int, int]) -> None:
    _text, fitted = _name_lines(name, size, width)
    if fitted < size:
        table.setStyle([("FONTSIZE", cell, cell, fitted), ("LEADING", cell, cell, fitted * 1.1)])


def _alpha_tables(data: SeatList) -> list:
    """One table per initial; its head row (the letter and the column names) repeats in every column."""
    groups: dict[str, list[SeatListEntry]] = {}
    for entry in data.entries:
        groups.setdefault(entry.letter, []).append(entry)
    name_w = ALPHA_COLUMNS[0] - 6
    flowables = []
    for letter, entries in groups.items():
        rows = [[letter, _("No."), _("Table"), _("Seat")]]
        rows += [[e.name, str(e.start_number), str(e.table), str(e.seat)] for e in entries]
        for r, entry in enumerate(entries, start=1):
            rows[r][0] = _name_lines(entry.name, ALPHA_NAME_SIZE, name_w)[0]
        table = Table(
            rows,
            colWidths=ALPHA_COLUMNS,
            rowHeights=[6.5 * mm] + [ALPHA_ROW_H] * len(entries),
            repeatRows=1,
            style=_ALPHA_STYLE,
            hAlign="LEFT",
        )
        for r, entry in enumerate(entries, start=1):
            _style_name(table, entry.name, ALPHA_NAME_SIZE, name_w, (0, r))
        flowables += [table, Spacer(0, 2.5 * mm)]
    return flowables


_TABLES_STYLE = TableStyle(
    [
        ("FONT", (0, 0), (0, -1), BOLD, 18),
        ("FONT", (1, 0), (2, -1), REGULAR, TABLES_NAME_SIZE),
        ("FONT", (3, 0), (3, -1), REGULAR, 9),
        ("ALIGN", (0, 0), (1, -1), "CENTER"),
        ("ALIGN", (3, 0), (3, -1), "CENTER"),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("VALIGN", (0, 0), (0, 0), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("TOPPADDING", (0, 0), (-1, -1), 0),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ("LINEBELOW", (1, 0), (-1, -1), 0.4, colors.black),
        ("LINEAFTER", (0, 0), (2, -1), 0.4, colors.black),
        ("BOX", (0, 0), (-1, -1), 1.0, colors.black),
    ]
)


class _Block(Table):
    """One table's seats: never split over two columns (it moves to the next one whole)."""

    def split(self, available_width, available_height):
        return []


def _tables_blocks(data: SeatList) -> list:
    """One small table per table of players, in two columns; each column starts with the column heads."""
    name_w = TABLES_COLUMNS[2] - 6
    blocks = []
    for table in data.tables:
        rows = [
            [
                str(table.number) if index == 0 else "",
                str(seat.seat),
                _name_lines(seat.name, TABLES_NAME_SIZE, name_w)[0],
                str(seat.start_number),
            ]
            for index, seat in enumerate(table.seats)
        ]
        block = _Block(
            rows, colWidths=TABLES_COLUMNS, rowHeights=[TABLES_ROW_H] * len(rows), style=_TABLES_STYLE, hAlign="LEFT"
        )
        for r, seat in enumerate(table.seats):
            _style_name(block, seat.name, TABLES_NAME_SIZE, name_w, (2, r))
        blocks.append(block)
    return blocks


def seat_list_story(data: SeatList) -> list:
    """The flowables of both parts; the caller's current page template must be "seats-alpha"."""
    return [
        *_alpha_tables(data),
        NextPageTemplate("seats-tables"),
        PageBreak(),
        *_tables_blocks(data),
    ]


def render_seat_list(data: SeatList) -> bytes:
    register_fonts()
    buffer = io.BytesIO()
    doc = BaseDocTemplate(
        buffer,
        pagesize=A4,
        pageTemplates=seat_list_templates(data),
        title=_("Seat list, round %(n)d") % {"n": data.round},
        author="Schafkopfrennen",
        creator="Schafkopfrennen",
        leftMargin=MARGIN_X,
        rightMargin=MARGIN_X,
        topMargin=MARGIN_TOP,
        bottomMargin=FOOT_H,
    )
    doc.build(seat_list_story(data), canvasmaker=PagedCanvas)
    return buffer.getvalue()


__all__ = [
    "SeatList",
    "SeatListEntry",
    "SeatListSeat",
    "SeatListTable",
    "render_seat_list",
    "seat_list_story",
    "seat_list_templates",
]
