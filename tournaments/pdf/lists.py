"""What the end-of-tournament lists share: the page head, "Page x of y", table styles, headings.

The standings, the prize list and the cash list are A4 portrait Platypus documents. Every page
carries the document's title (and the section, e.g. "Round 2"), the tournament, its date and venue,
when the standings were computed and, in a framed bold line, a warning when they are not current.
Nothing depends on colour: grey zebra stripes only help the eye along a row.
"""

from __future__ import annotations

import datetime
import io
from dataclasses import dataclass

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate, Paragraph, Table, TableStyle

from .drawing import (
    BOLD,
    MIN_PT,
    REGULAR,
    Canvas,
    PagedCanvas,
    PageSection,
    draw_logo,
    fit_size,
    logo_image,
    mm,
    shorten,
)
from .fonts import register_fonts


@dataclass(frozen=True)
class ListHead:
    """What every page of a list says about the tournament and the state of the standings."""

    tournament: str
    date: datetime.date
    venue: str
    computed_at: datetime.datetime | None  # local time the standings were computed; None: nothing counted yet
    current: bool  # False: newer games are still being counted
    logo: bytes | None = None  # the organising club's logo (PNG or JPEG), printed small in the head


PAGE_W, PAGE_H = A4
MARGIN_X = 15 * mm
MARGIN_TOP = 10 * mm
HEAD_H = 25 * mm  # title, section, tournament, date and venue, "As of"
WARNING_H = 9 * mm  # the framed "not current" line under the head
FOOT_H = 10 * mm
LOGO_W, LOGO_H = 30 * mm, 17 * mm  # the club's logo in the head, centred
RIGHT_MIN = 60 * mm  # the head's right-hand column (tournament, date, "as of") keeps at least this
CONTENT_W = PAGE_W - 2 * MARGIN_X

HEAD_GRAY = colors.Color(0.82, 0.82, 0.82)
ZEBRA_GRAY = colors.Color(0.93, 0.93, 0.93)
BODY_SIZE = 9.5
HEAD_SIZE = 8
ROW_H = 5.6 * mm  # a row of one line
CELL_TOP = 1.3 * mm  # a row's top padding (text cells start their first line there)
CELL_BOTTOM = 1.2 * mm
MIN_SIZE = MIN_PT  # smaller than this a long name is wrapped, not shrunk (nothing under 8 pt)
NOTE_SIZE = MIN_PT  # a tie note under a name
SECTION_KEY = "list"  # one page count over the whole document


def status_lines(head: ListHead) -> tuple[str, str]:
    """(when the standings were computed, the warning if they are not current — or "")."""
    if head.computed_at is None:
        return "", _("No games have been counted yet.")
    when = _("As of %(time)s") % {"time": date_format(head.computed_at, "SHORT_DATETIME_FORMAT")}
    if head.current:
        return when, ""
    return when, _("NOT CURRENT: newer games are still being counted, these figures will change.")


def head_height(head: ListHead) -> float:
    return HEAD_H + (WARNING_H if status_lines(head)[1] else 0)


def _footer(canv: Canvas, page: int, pages: int) -> None:
    canv.saveState()
    canv.setFillGray(0)
    canv.setFont(REGULAR, 9)
    canv.drawCentredString(PAGE_W / 2, FOOT_H, _("Page %(page)d of %(pages)d") % {"page": page, "pages": pages})
    canv.restoreState()


_SECTION = PageSection(SECTION_KEY, _footer)


def _page_head(head: ListHead, title: str, subtitle: str):
    when, warning = status_lines(head)
    place = date_format(head.date, "DATE_FORMAT")
    if head.venue:
        place = f"{place} \u00b7 {head.venue}"
    logo = logo_image(head.logo)

    # The right-hand column (tournament, date and venue, "as of") keeps what it needs at its natural
    # sizes, up to half the width and never less than RIGHT_MIN; title, subtitle and logo share the rest.
    right_w = min(
        CONTENT_W / 2,
        max(
            RIGHT_MIN,
            stringWidth(head.tournament, BOLD, 12),
            stringWidth(place, REGULAR, 9.5),
            stringWidth(when, REGULAR, 9.5),
        ),
    )
    left_w = CONTENT_W - right_w - 6 * mm - ((LOGO_W + 6 * mm) if logo is not None else 0)

    def on_page(canv: Canvas, doc) -> None:
        canv.saveState()
        canv.setFillGray(0)
        top = PAGE_H - MARGIN_TOP
        left, right = MARGIN_X, PAGE_W - MARGIN_X
        title_size = fit_size(title, BOLD, 20, left_w)
        canv.setFont(BOLD, title_size)
        canv.drawString(left, top - 8 * mm, title)
        used = stringWidth(title, BOLD, title_size)
        if subtitle:
            subtitle_size = fit_size(subtitle, BOLD, 14, left_w)
            canv.setFont(BOLD, subtitle_size)
            canv.drawString(left, top - 15.5 * mm, subtitle)
            used = max(used, stringWidth(subtitle, BOLD, subtitle_size))
        used += left + 6 * mm
        if logo is not None:  # right of the title, no taller than the head's text
            draw_logo(canv, logo, centre_x=used + LOGO_W / 2, top=top - 1 * mm, max_w=LOGO_W, max_h=LOGO_H)
            used += LOGO_W + 6 * mm
        width = right - used  # the tournament's side: at least right_w (the left side was fitted to leave it)
        tournament_size = fit_size(head.tournament, BOLD, 12, width)
        canv.setFont(BOLD, tournament_size)
        canv.drawRightString(right, top - 6.5 * mm, head.tournament)
        small = min(9.5, tournament_size)  # the lines under the name are never larger than the name
        canv.setFont(REGULAR, fit_size(place, REGULAR, small, width))
        canv.drawRightString(right, top - 11.5 * mm, place)
        if when:
            canv.setFont(REGULAR, fit_size(when, REGULAR, small, width))
            canv.drawRightString(right, top - 16.5 * mm, when)
        line_y = top - HEAD_H + 3 * mm
        canv.setLineWidth(1.2)
        canv.line(left, line_y, right, line_y)
        if warning:
            box_y = line_y - WARNING_H + 1 * mm
            canv.setLineWidth(1.5)
            canv.rect(left, box_y, CONTENT_W, WARNING_H - 2.5 * mm)
            canv.setFont(BOLD, fit_size(warning, BOLD, 10.5, CONTENT_W - 6 * mm))
            canv.drawCentredString(PAGE_W / 2, box_y + 2.2 * mm, warning)
        canv.restoreState()
        canv.page_section = _SECTION

    return on_page


def list_template(head: ListHead, template_id: str, title: str, subtitle: str = "") -> PageTemplate:
    """An A4 page with the list's head and the page number; the body flows in one frame."""
    top = PAGE_H - MARGIN_TOP - head_height(head)
    bottom = FOOT_H + 5 * mm
    frame = Frame(
        MARGIN_X,
        bottom,
        CONTENT_W,
        top - bottom,
        id=template_id,
        leftPadding=0,
        rightPadding=0,
        topPadding=0,
        bottomPadding=0,
    )
    return PageTemplate(id=template_id, frames=[frame], pagesize=A4, onPage=_page_head(head, title, subtitle))


def render_list(templates: list[PageTemplate], story: list, *, title: str) -> bytes:
    """The document: the first template starts, ``story`` switches with NextPageTemplate."""
    register_fonts()
    buffer = io.BytesIO()
    doc = BaseDocTemplate(
        buffer,
        pagesize=A4,
        pageTemplates=templates,
        title=title,
        author="Schafkopfrennen",
        creator="Schafkopfrennen",
        leftMargin=MARGIN_X,
        rightMargin=MARGIN_X,
        topMargin=MARGIN_TOP,
        bottomMargin=FOOT_H,
    )
    doc.build(story, canvasmaker=PagedCanvas)
    return buffer.getvalue()


# --- tables and headings ---------------------------------------------------------------------

HEADING = ParagraphStyle(
    "list-heading", fontName=BOLD, fontSize=13, leading=16, spaceBefore=5 * mm, spaceAfter=2 * mm, keepWithNext=1
)
CELL = ParagraphStyle("list-cell", fontName=REGULAR, fontSize=BODY_SIZE, leading=BODY_SIZE * 1.2, alignment=TA_LEFT)
NOTE = ParagraphStyle("list-note", fontName=REGULAR, fontSize=9, leading=11, spaceBefore=2 * mm)


def heading(text: str) -> Paragraph:
    return Paragraph(escape(text), HEADING)


def cell(text: str, style: ParagraphStyle = CELL) -> Paragraph:
    return Paragraph(escape(text), style)


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def grid_style(*, numeric_from: int | None = None, numeric: tuple[int, ...] = (), total_row: bool = False) -> list:
    """A list table: bold grey head row (repeated on every page), zebra rows, thin rules, a frame.

    ``numeric`` columns (or every column from ``numeric_from``) are right-aligned; ``total_row``
    sets the last row in bold between two heavy rules.
    """
    style = [
        ("FONT", (0, 0), (-1, 0), BOLD, HEAD_SIZE),
        ("BACKGROUND", (0, 0), (-1, 0), HEAD_GRAY),
        ("FONT", (0, 1), (-1, -1), REGULAR, BODY_SIZE),
        ("VALIGN", (0, 0), (-1, 0), "MIDDLE"),
        ("VALIGN", (0, 1), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), 2.5),
        ("RIGHTPADDING", (0, 0), (-1, -1), 2.5),
        ("TOPPADDING", (0, 0), (-1, 0), 1),
        ("BOTTOMPADDING", (0, 0), (-1, 0), 2),
        ("TOPPADDING", (0, 1), (-1, -1), CELL_TOP),
        ("BOTTOMPADDING", (0, 1), (-1, -1), CELL_BOTTOM),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [None, ZEBRA_GRAY]),
        ("LINEBELOW", (0, 0), (-1, 0), 1.0, colors.black),
        ("LINEBELOW", (0, 1), (-1, -1), 0.25, colors.black),
        ("BOX", (0, 0), (-1, -1), 1.0, colors.black),
    ]
    for column in numeric:
        style.append(("ALIGN", (column, 0), (column, -1), "RIGHT"))
    if numeric_from is not None:
        style.append(("ALIGN", (numeric_from, 0), (-1, -1), "RIGHT"))
    if total_row:
        style += [
            ("FONT", (0, -1), (-1, -1), BOLD, BODY_SIZE),
            ("BACKGROUND", (0, -1), (-1, -1), colors.white),
            ("LINEABOVE", (0, -1), (-1, -1), 1.2, colors.black),
        ]
    return style


class CellText(Flowable):
    """Lines of text in a table cell: the value (shrunk a little, or wrapped) and notes in small type below.

    The first baseline sits where a plain string cell of ``size`` would have it, so the row reads level.
    """

    def __init__(self, lines: list[tuple[str, str, float]], width: float, size: float):
        super().__init__()
        self.lines = lines
        self.width = width
        self._size = size
        rest = sum(line_size * 1.18 for _text, _font, line_size in lines[1:])
        self.height = size + rest + 0.3 * lines[-1][2]

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self):
        y = self.height - self._size
        for index, (text, font, size) in enumerate(self.lines):
            if index:
                y -= size * 1.18
            self.canv.setFont(font, size)
            self.canv.drawString(0, y, text)


def _value_lines(text: str, font: str, size: float, width: float) -> list[tuple[str, str, float]]:
    smaller = fit_size(text, font, size, width, minimum=MIN_SIZE)
    if stringWidth(text, font, smaller) <= width:
        return [(text, font, smaller)]
    return [(line, font, MIN_SIZE) for line in simpleSplit(text, font, MIN_SIZE, width)]


def text_cell(
    text: str, width: float, *, notes: tuple[str, ...] | list[str] = (), font: str = REGULAR, size: float = BODY_SIZE
) -> str | CellText:
    """``text`` as it is if it fits; else shrunk down to MIN_SIZE, or wrapped; ``notes`` below in small type.

    A line break in ``text`` starts a new line (e.g. one player per line).
    """
    width -= 5.5  # the cell's padding
    if not notes and "\n" not in text and stringWidth(text, font, size) <= width:
        return text
    lines = [line for part in text.split("\n") for line in _value_lines(part, font, size, width)]
    lines += [(line, REGULAR, NOTE_SIZE) for note in notes for line in simpleSplit(note, REGULAR, NOTE_SIZE, width)]
    # A single word longer than the column (a long club name) is shortened rather than run over.
    lines = [(shorten(line, line_font, line_size, width), line_font, line_size) for line, line_font, line_size in lines]
    return CellText(lines, width, size)


def row_height(cells: list, minimum: float) -> float:
    """A row tall enough for its tallest text cell."""
    tallest = max((c.height for c in cells if isinstance(c, CellText) and len(c.lines) > 1), default=0)
    return max(minimum, tallest + CELL_TOP + CELL_BOTTOM) if tallest else minimum


def wrap_head(head: list[str], widths: tuple[float, ...]) -> tuple[list[str], list[tuple]]:
    """Column names for the head row: on two lines where one is too narrow, shrunk where a word still is.

    Returns the cells and the style commands that shrink them (the head row must be tall enough).
    """
    cells, commands = [], []
    for column, (text, width) in enumerate(zip(head, widths, strict=True)):
        room = width - 5
        lines = simpleSplit(text, BOLD, HEAD_SIZE, room)
        if len(lines) > 2:
            lines = [text]
        cells.append("\n".join(lines))
        widest = max(lines, key=lambda line: stringWidth(line, BOLD, HEAD_SIZE))
        size = fit_size(widest, BOLD, HEAD_SIZE, room)
        if size < HEAD_SIZE:
            cell_range = ((column, 0), (column, 0))
            commands += [("FONTSIZE", *cell_range, size), ("LEADING", *cell_range, size * 1.2)]
    return cells, commands


def fitted(
    table: Table,
    rows: list[list],
    columns: tuple[int, ...],
    widths: tuple[float, ...],
    *,
    size: float = BODY_SIZE,
    first_row: int = 1,
    font: str = REGULAR,
) -> None:
    """Shrink the text of the string cells in ``columns`` that would not fit their column."""
    commands = []
    for r, row in enumerate(rows[first_row:], start=first_row):
        for c in columns:
            text = row[c]
            if isinstance(text, str) and text:
                fitted_size = fit_size(text, font, size, widths[c] - 5.5)
                if fitted_size < size:
                    commands.append(("FONTSIZE", (c, r), (c, r), fitted_size))
    if commands:
        table.setStyle(TableStyle(commands))


__all__ = [
    "CONTENT_W",
    "ROW_H",
    "CellText",
    "ListHead",
    "cell",
    "fitted",
    "grid_style",
    "heading",
    "list_template",
    "render_list",
    "row_height",
    "status_lines",
    "text_cell",
    "wrap_head",
]


def amounts_table(rows: list[list[str]], widths: tuple[float, float], *, total_row: int) -> Table:
    """Label and amount per row, the amounts right-aligned, row ``total_row`` set off as the sum."""
    table = Table(rows, colWidths=widths, hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), REGULAR, BODY_SIZE),
                ("FONT", (0, total_row), (-1, total_row), BOLD, BODY_SIZE + 1),
                ("ALIGN", (1, 0), (1, -1), "RIGHT"),
                ("LINEBELOW", (0, 0), (-1, -1), 0.25, "black"),
                ("LINEABOVE", (0, total_row), (-1, total_row), 1.2, "black"),
                ("LINEBELOW", (0, total_row), (-1, total_row), 1.2, "black"),
                ("BOX", (0, 0), (-1, -1), 1.0, "black"),
                ("TOPPADDING", (0, 0), (-1, -1), 2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ]
        )
    )
    return table
