"""The score sheet (Spielliste) of one table and round, rules.md section 9: a fixed form, drawn on a canvas.

One row per game with its number and dealer printed; the players' seat columns carry each game's
points and the running total; the footer holds the totals, the check that they add up to 0, the
Reuegeld each seat owes and a signature line per player. 32 rows (40 at a table of five) fit on one
A4 page; a filled sheet with thrown-in games that no longer fit continues on a second page.
"""

from __future__ import annotations

import datetime
import hashlib
import io
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial

from django.utils.formats import date_format
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase.pdfmetrics import stringWidth

from scoring.describe import describe, game_short

from .drawing import (
    BOLD,
    MIN_PT,
    MINUS,
    REGULAR,
    Canvas,
    TextRun,
    fit_size,
    fit_text,
    mm,
    money,
    new_canvas,
    shorten,
    signed,
)
from .qr import draw_qr


@dataclass(frozen=True)
class SheetPlayer:
    seat: int
    start_number: int
    name: str


@dataclass(frozen=True)
class SheetRow:
    """One line of the sheet. ``contract == ""``: not entered, a line to fill in by hand."""

    number: int
    dealer: int
    contract: str = ""
    declarer: int | None = None
    partner: int | None = None
    called: str | None = None
    trump: str | None = None
    muss: bool = False
    renonce: bool = False
    tout: bool = False
    sie: bool = False
    won: bool | None = None
    augen: int | None = None
    schwarz: bool = False
    laufende: int | None = None
    kontra: int = 0
    points: tuple[int, ...] = ()  # per seat 1..size; empty for a thrown-in or not entered game
    totals: tuple[int, ...] = ()  # running totals after this game
    won_solo: bool = False
    thrown_in: bool = False  # a Strich: "weiter" under redeal, or a Kreuz replayed after 60:60


@dataclass(frozen=True)
class ScoreSheet:
    tournament: str
    date: datetime.date
    venue: str
    round: int
    table: int
    size: int
    games: int  # games this table plays in the round (32, or 40 at a table of five)
    players: tuple[SheetPlayer, ...]
    rows: tuple[SheetRow, ...]
    entry_url: str
    filled: bool = False
    games_entered: int = 0
    totals: tuple[int, ...] | None = None  # None: nothing to add up yet
    won_solos: tuple[int, ...] | None = None
    reuegeld_cents: tuple[int, ...] | None = None
    weitergeld_cents: tuple[int, ...] | None = None
    redeal: bool = False  # all pass = thrown in (Strich, Weitergeld) instead of a Muss
    zero_sum: bool = True  # plus/minus scoring: the totals add up to 0
    paper_totals: bool = False  # the totals were entered from the paper sheet, without games
    closed_reason: str = ""  # the organiser closed the table (before its last game, perhaps): why
    changes: tuple[str, ...] = ()  # who played which games where a seat changed (``selectors.tables.seat_changes``)


# --- the form, in millimetres from the top left corner of an A4 page -------------------------

PAGE_W, PAGE_H = 210.0, 297.0
MARGIN_X = 8.0  # the columns need the room for their heads at 8 pt
MARGIN_TOP = 8.0
MARGIN_BOTTOM = 8.0
CONTENT_W = PAGE_W - 2 * MARGIN_X

TITLE_H = 25.0  # title, tournament, date, round and table, QR code
QR_SIZE = 25.0
PLAYER_HEAD_H = 12.0  # seat, start number and name over each seat's two columns
SUB_HEAD_H = 5.0  # "points" and "total" under it
ROW_MAX = 6.3
ROW_MIN = 4.4

TOTAL_ROW_H = 7.0
FOOT_ROW_H = 5.5  # won solos, Reuegeld, Weitergeld
CHECK_H = 6.5
SIGNATURE_H = 9.0  # per signature line, two side by side
CHANGE_H = 4.5  # per line saying who played which games of a changed seat

# Left columns: game number, dealer, contract, declarer, partner, Augen, Laufende; each wide enough for its head
# at 8 pt in German and English ("Geber"/"Dealer", "Spieler"/"Player", "Augen", "Lauf.").
COL_NUMBER = 7.0
COL_DEALER = 11.4
COL_GAME = 23.0
COL_DECLARER = 12.4
COL_PARTNER = 8.2
COL_AUGEN = 11.4
COL_LAUFENDE = 9.4
LEFT_W = COL_NUMBER + COL_DEALER + COL_GAME + COL_DECLARER + COL_PARTNER + COL_AUGEN + COL_LAUFENDE

THIN, MEDIUM, THICK = 0.35, 0.8, 1.3  # line widths in points
SIT_OUT_GRAY = 0.82
HEAD_LABEL_SIZE = MIN_PT  # the left columns' names
SMALL = MIN_PT  # captions, legends, signatures: the smallest print on the sheet
GAME_MIN_PT = 6.0  # a long game description shrinks this far rather than lose words (see _draw_rows)


def _y(top_mm: float) -> float:
    """A distance from the top of the page in millimetres as a ReportLab y coordinate."""
    return (PAGE_H - top_mm) * mm


def _x(left_mm: float) -> float:
    return left_mm * mm


def _baseline(top_mm: float, height_mm: float, size: float) -> float:
    """The baseline that centres text of ``size`` points vertically in a band."""
    return _y(top_mm + height_mm / 2) - size * 0.36


@dataclass(frozen=True)
class _Layout:
    size: int
    seat_w: float
    rows_top: float
    row_h: float
    pages: tuple[tuple[int, int], ...]  # (first row index, row count) per page
    footer_h: float
    font: float

    def seat_x(self, seat: int) -> float:
        return MARGIN_X + LEFT_W + (seat - 1) * self.seat_w


def _footer_height(sheet: ScoreSheet) -> float:
    rows = 2 + (1 if sheet.redeal else 0)
    return (
        TOTAL_ROW_H
        + rows * FOOT_ROW_H
        + CHECK_H
        + math.ceil(sheet.size / 2) * SIGNATURE_H
        + 2.0
        + CHANGE_H * len(sheet.changes)
    )  # who played which games of a changed seat


def _layout(sheet: ScoreSheet) -> _Layout:
    rows_top = MARGIN_TOP + TITLE_H + PLAYER_HEAD_H + SUB_HEAD_H
    footer_h = _footer_height(sheet)
    area_full = PAGE_H - MARGIN_BOTTOM - rows_top
    area_last = area_full - footer_h
    n = max(1, len(sheet.rows))
    if area_last / n >= ROW_MIN:
        pages = ((0, len(sheet.rows)),)
        row_h = min(ROW_MAX, area_last / n)
    else:
        row_h = ROW_MIN
        cap_full, cap_last = int(area_full // ROW_MIN), int(area_last // ROW_MIN)
        pages_list, start = [], 0
        while len(sheet.rows) - start > cap_last:
            take = min(cap_full, len(sheet.rows) - start - 1)
            pages_list.append((start, take))
            start += take
        pages_list.append((start, len(sheet.rows) - start))
        pages = tuple(pages_list)
    seat_w = (CONTENT_W - LEFT_W) / sheet.size
    font = 8.0 if row_h < 5.2 else 9.0
    return _Layout(sheet.size, seat_w, rows_top, row_h, pages, footer_h, font)


# --- text of a row ---------------------------------------------------------------------------


def contract_text(row: SheetRow) -> str:
    """The contract column: the game and its details in the players' words (Ruf Gras, Wenz-Tout ...)."""
    return game_short(describe(row))


def augen_text(row: SheetRow) -> str:
    if row.sie:
        return "Sie"
    if row.tout:
        return pgettext("tout", "won") if row.won else pgettext("tout", "lost")
    return "" if row.augen is None else str(row.augen)


# --- drawing ---------------------------------------------------------------------------------


def sheet_pages(sheet: ScoreSheet) -> list[Callable[[Canvas], None]]:
    """One painter per page of the sheet (usually one); each draws a whole page without ending it."""
    layout = _layout(sheet)
    count = len(layout.pages)
    return [
        partial(
            _draw_page,
            sheet=sheet,
            layout=layout,
            rows=sheet.rows[first : first + n],
            page=index + 1,
            pages=count,
            footer=index == count - 1,
        )
        for index, (first, n) in enumerate(layout.pages)
    ]


def draw_score_sheet(canv: Canvas, sheet: ScoreSheet) -> int:
    """Draw one table's sheet on its own page(s), ending each with ``showPage``; returns the pages drawn."""
    pages = sheet_pages(sheet)
    for paint in pages:
        paint(canv)
        canv.showPage()
    return len(pages)


def _draw_page(
    canv: Canvas, *, sheet: ScoreSheet, layout: _Layout, rows: Iterable[SheetRow], page: int, pages: int, footer: bool
) -> None:
    rows = list(rows)
    bottom = layout.rows_top + layout.row_h * len(rows)
    canv.doForm(_frame_form(canv, sheet, layout, rows, footer))
    _draw_title(canv, sheet, page, pages)
    _draw_players(canv, sheet, layout)
    _draw_rows(canv, sheet, layout, rows)
    if footer:
        _draw_footer(canv, sheet, layout, bottom)


# The printed form's fixed parts (lines, grey fields, column names) are the same on every sheet of a
# size: they are drawn once per document as a PDF form and placed on each page, which keeps a pack
# of 250 sheets small and quick. Everything that differs between tables is drawn on the page.


def _frame_form(canv: Canvas, sheet: ScoreSheet, layout: _Layout, rows: list[SheetRow], footer: bool) -> str:
    key = (
        get_language(),
        sheet.size,
        sheet.redeal,
        layout.rows_top,
        layout.row_h,
        footer,
        tuple((row.number, row.dealer) for row in rows),
    )
    name = "sheet" + hashlib.sha1(repr(key).encode()).hexdigest()[:16]
    if not canv.hasForm(name):
        canv.beginForm(name)
        _paint_head_frame(canv, sheet, layout)
        bottom = _paint_row_grid(canv, sheet, layout, rows)
        if footer:
            _paint_footer_frame(canv, sheet, layout, bottom)
        canv.endForm()
    return name


def _left_columns(size: int) -> list[tuple[float, str]]:
    dealer = _("Sits out") if size == 5 else _("Dealer")
    return [
        (COL_NUMBER, _("No.")),
        (COL_DEALER, dealer),
        (COL_GAME, _("Game")),
        (COL_DECLARER, pgettext("declarer", "Player")),
        (COL_PARTNER, pgettext("partner", "with")),
        (COL_AUGEN, "Augen"),
        (COL_LAUFENDE, _("Lauf.")),
    ]


def _left_column_lines() -> list[float]:
    """The x of the lines between the left columns, in millimetres."""
    xs, x = [], MARGIN_X
    for width in (COL_NUMBER, COL_DEALER, COL_GAME, COL_DECLARER, COL_PARTNER, COL_AUGEN):
        x += width
        xs.append(x)
    return xs


def _paint_head_frame(canv: Canvas, sheet: ScoreSheet, layout: _Layout) -> None:
    """The column heads without the players: names of the left columns, "points" and "total", lines."""
    top = MARGIN_TOP + TITLE_H
    height = PLAYER_HEAD_H + SUB_HEAD_H
    canv.setFillGray(0)
    x = MARGIN_X
    for width, label in _left_columns(sheet.size):
        available = (width - 0.8) * mm
        first, _space, second = label.partition(" ")
        if not second or stringWidth(label, BOLD, HEAD_LABEL_SIZE) <= available:
            canv.setFont(BOLD, fit_size(label, BOLD, HEAD_LABEL_SIZE, available))
            canv.drawCentredString(_x(x + width / 2), _y(top + height - 2), label)
        else:  # two words on two lines
            canv.setFont(
                BOLD,
                min(
                    fit_size(first, BOLD, HEAD_LABEL_SIZE, available),
                    fit_size(second, BOLD, HEAD_LABEL_SIZE, available),
                ),
            )
            canv.drawCentredString(_x(x + width / 2), _y(top + height - 4.8), first)
            canv.drawCentredString(_x(x + width / 2), _y(top + height - 2), second)
        x += width
    canv.setFont(REGULAR, SMALL)
    for seat in range(1, sheet.size + 1):
        sx, w = layout.seat_x(seat), layout.seat_w
        canv.drawCentredString(_x(sx + w / 4), _y(top + height - 1.5), _("Points"))
        canv.drawCentredString(_x(sx + 3 * w / 4), _y(top + height - 1.5), pgettext("running total", "Total"))
    canv.setLineWidth(THICK)
    canv.rect(_x(MARGIN_X), _y(top + height), CONTENT_W * mm, height * mm, stroke=1, fill=0)
    canv.lines(
        [(_x(layout.seat_x(s)), _y(top), _x(layout.seat_x(s)), _y(top + height)) for s in range(1, sheet.size + 1)]
    )
    canv.setLineWidth(MEDIUM)
    canv.line(_x(MARGIN_X + LEFT_W), _y(top + PLAYER_HEAD_H), _x(MARGIN_X + CONTENT_W), _y(top + PLAYER_HEAD_H))
    canv.setLineWidth(THIN)
    canv.lines([(_x(v), _y(top), _x(v), _y(top + height)) for v in _left_column_lines()])
    canv.lines(
        [
            (
                _x(layout.seat_x(s) + layout.seat_w / 2),
                _y(top + PLAYER_HEAD_H),
                _x(layout.seat_x(s) + layout.seat_w / 2),
                _y(top + height),
            )
            for s in range(1, sheet.size + 1)
        ]
    )


def _paint_row_grid(canv: Canvas, sheet: ScoreSheet, layout: _Layout, rows: list[SheetRow]) -> float:
    """The rows' lines (heavier after each round of deals) and, at a table of five, the grey field of
    the dealer who sits out; returns the bottom of the last row (mm from the top)."""
    top, h, size = layout.rows_top, layout.row_h, sheet.size
    bottom = top + h * len(rows)
    sub_w = layout.seat_w / 2
    if size == 5:
        canv.setFillGray(SIT_OUT_GRAY)
        path = canv.beginPath()
        for i, row in enumerate(rows):
            path.rect(_x(layout.seat_x(row.dealer)), _y(top + (i + 1) * h), sub_w * mm, h * mm)
        canv.drawPath(path, stroke=0, fill=1)
        canv.setFillGray(0)
    left, right = MARGIN_X, MARGIN_X + CONTENT_W
    thin_h, thick_h = [], []
    for i in range(1, len(rows)):
        y = _y(top + i * h)
        (thick_h if rows[i].number % size == 1 and rows[i].number > 1 else thin_h).append((_x(left), y, _x(right), y))
    canv.setLineWidth(THIN)
    canv.lines(thin_h)
    verticals = [(_x(v), _y(top), _x(v), _y(bottom)) for v in _left_column_lines()]
    verticals += [
        (_x(layout.seat_x(s) + sub_w), _y(top), _x(layout.seat_x(s) + sub_w), _y(bottom)) for s in range(1, size + 1)
    ]
    canv.lines(verticals)
    canv.setLineWidth(MEDIUM)
    canv.lines(thick_h)
    canv.setLineWidth(THICK)
    canv.lines([(_x(layout.seat_x(s)), _y(top), _x(layout.seat_x(s)), _y(bottom)) for s in range(1, size + 1)])
    canv.rect(_x(left), _y(bottom), CONTENT_W * mm, (bottom - top) * mm, stroke=1, fill=0)
    return bottom


def _footer_bands(sheet: ScoreSheet) -> list[tuple[str, float, tuple[str, ...] | None, str, float]]:
    """(label, height, the seats' values or None, font, size) of each footer row."""
    totals = tuple(signed(t) for t in sheet.totals) if sheet.totals is not None else None
    bands = [
        (_("Total"), TOTAL_ROW_H, totals, BOLD, 11),
        (
            _("Won solos"),
            FOOT_ROW_H,
            tuple(str(n) for n in sheet.won_solos) if sheet.won_solos is not None else None,
            REGULAR,
            8.5,
        ),
        (
            "Reuegeld",
            FOOT_ROW_H,
            tuple(money(c) for c in sheet.reuegeld_cents) if sheet.reuegeld_cents is not None else None,
            REGULAR,
            8.5,
        ),
    ]
    if sheet.redeal:
        bands.append(
            (
                "Weitergeld",
                FOOT_ROW_H,
                tuple(money(c) for c in sheet.weitergeld_cents) if sheet.weitergeld_cents is not None else None,
                REGULAR,
                8.5,
            )
        )
    return bands


def _paint_footer_frame(canv: Canvas, sheet: ScoreSheet, layout: _Layout, top: float) -> None:
    """The boxes of the footer rows and the signature lines."""
    right = MARGIN_X + CONTENT_W
    y, band_lines = top, []
    for _label, height, _values, _font, _size in _footer_bands(sheet):
        y += height
        band_lines.append(y)
    canv.setLineWidth(THIN)
    canv.lines([(_x(MARGIN_X + LEFT_W), _y(b), _x(right), _y(b)) for b in band_lines[:-1]])
    canv.setLineWidth(THICK)
    canv.rect(_x(MARGIN_X + LEFT_W), _y(y), (CONTENT_W - LEFT_W) * mm, (y - top) * mm, stroke=1, fill=0)
    canv.lines([(_x(layout.seat_x(s)), _y(top), _x(layout.seat_x(s)), _y(y)) for s in range(2, sheet.size + 1)])
    y += CHECK_H
    canv.setLineWidth(THIN)
    col_w = CONTENT_W / 2
    canv.lines(
        [
            (
                _x(MARGIN_X + (i % 2) * col_w + 2),
                _y(y + (i // 2 + 1) * SIGNATURE_H - 3.2),
                _x(MARGIN_X + (i % 2) * col_w + col_w - 4),
                _y(y + (i // 2 + 1) * SIGNATURE_H - 3.2),
            )
            for i in range(sheet.size)
        ]
    )


def _draw_title(canv: Canvas, sheet: ScoreSheet, page: int, pages: int) -> None:
    top = MARGIN_TOP
    canv.setFillGray(0)
    canv.setFont(BOLD, 17)
    canv.drawString(_x(MARGIN_X), _y(top + 7), _("Score sheet"))
    tournament, size = fit_text(sheet.tournament, BOLD, 11, 112 * mm)
    canv.setFont(BOLD, size)
    canv.drawString(_x(MARGIN_X), _y(top + 13), tournament)
    canv.setFont(REGULAR, 9)
    when = date_format(sheet.date, "DATE_FORMAT")
    canv.drawString(_x(MARGIN_X), _y(top + 18), f"{when} \u00b7 {sheet.venue}" if sheet.venue else when)
    canv.setFont(REGULAR, SMALL)
    if sheet.paper_totals:
        status = _("Round totals entered from the paper sheet")
    elif sheet.filled and sheet.closed_reason:
        status = _("%(entered)d of %(games)d games. Table closed by the organiser: %(reason)s") % {
            "entered": sheet.games_entered,
            "games": sheet.games,
            "reason": sheet.closed_reason,
        }
    elif sheet.filled:
        status = _("%(entered)d of %(games)d games entered") % {"entered": sheet.games_entered, "games": sheet.games}
    elif sheet.size == 5:
        status = _("%(games)d games. The dealer sits out and scores 0 (grey field).") % {"games": sheet.games}
    else:
        status = _("%(games)d games. Seat 1 deals game 1, then the deal passes clockwise.") % {"games": sheet.games}
    if pages > 1:
        status += "   \u00b7   " + _("Page %(page)d of %(pages)d") % {"page": page, "pages": pages}
    right = MARGIN_X + CONTENT_W - QR_SIZE - 3
    scan = _("Enter games on the tablet: scan the code")
    room = (right - MARGIN_X) * mm - stringWidth(scan, REGULAR, SMALL) - 4 * mm  # the status ends before the caption
    canv.drawString(_x(MARGIN_X), _y(top + 23), shorten(status, REGULAR, SMALL, room))

    canv.setFont(REGULAR, 12)
    canv.drawRightString(_x(right), _y(top + 6.5), _("Round %(n)d") % {"n": sheet.round})
    canv.setFont(BOLD, 26)
    canv.drawRightString(_x(right), _y(top + 17), _("Table %(n)d") % {"n": sheet.table})
    canv.setFont(REGULAR, SMALL)
    canv.drawRightString(_x(right), _y(top + 23), scan)
    draw_qr(canv, sheet.entry_url, _x(MARGIN_X + CONTENT_W - QR_SIZE), _y(top + QR_SIZE), QR_SIZE * mm)


def _draw_players(canv: Canvas, sheet: ScoreSheet, layout: _Layout) -> None:
    """Over each seat's columns: the seat, the player's start number and name."""
    top = MARGIN_TOP + TITLE_H
    players = {p.seat: p for p in sheet.players}
    for seat in range(1, sheet.size + 1):
        sx, w = layout.seat_x(seat), layout.seat_w
        canv.setFont(BOLD, 8)
        canv.drawString(_x(sx + 1.2), _y(top + 3.6), _("Seat %(n)d") % {"n": seat})
        player = players.get(seat)
        if player is not None:
            canv.setFont(REGULAR, 8)
            canv.drawRightString(_x(sx + w - 1.2), _y(top + 3.6), _("No. %(n)d") % {"n": player.start_number})
            _draw_name(canv, player.name, sx + 1.2, top + 4.6, w - 2.4)


def _draw_name(canv: Canvas, name: str, x: float, top: float, width: float) -> None:
    """The player's name in bold, on one line if it fits at 8 pt, else first and last name on two, each
    shortened with an ellipsis if it still does not fit its column (never under 8 pt)."""
    size = fit_size(name, BOLD, 9.5, width * mm)
    first, _sep, last = name.partition(" ")
    if stringWidth(name, BOLD, size) <= width * mm or not last:
        canv.setFont(BOLD, size)
        canv.drawString(_x(x), _y(top + 4.6), shorten(name, BOLD, size, width * mm))
        return
    size = min(fit_size(first, BOLD, 8.5, width * mm), fit_size(last, BOLD, 8.5, width * mm))
    canv.setFont(BOLD, size)
    canv.drawString(_x(x), _y(top + 3.0), shorten(first, BOLD, size, width * mm))
    canv.drawString(_x(x), _y(top + 6.3), shorten(last, BOLD, size, width * mm))


def _draw_rows(canv: Canvas, sheet: ScoreSheet, layout: _Layout, rows: list[SheetRow]) -> None:
    """Each row's text: number and dealer, and what was entered (one text object for the page)."""
    top, h, size, font = layout.rows_top, layout.row_h, sheet.size, layout.font
    x_number = MARGIN_X + COL_NUMBER / 2
    x_dealer = MARGIN_X + COL_NUMBER + COL_DEALER / 2
    x_game = MARGIN_X + COL_NUMBER + COL_DEALER + 1.0
    x_declarer = MARGIN_X + COL_NUMBER + COL_DEALER + COL_GAME + COL_DECLARER / 2
    x_partner = x_declarer + COL_DECLARER / 2 + COL_PARTNER / 2
    x_augen = x_partner + COL_PARTNER / 2 + COL_AUGEN / 2
    x_laufende = x_augen + COL_AUGEN / 2 + COL_LAUFENDE / 2
    game_w = (COL_GAME - 1.5) * mm
    sub_w = layout.seat_w / 2
    circles = []
    canv.setFillGray(0)
    text = TextRun(canv, REGULAR, font)
    for i, row in enumerate(rows):
        row_top = top + i * h
        base = _baseline(row_top, h, font)
        text.centre(_x(x_number), base, str(row.number))
        text.centre(_x(x_dealer), base, str(row.dealer))
        if not row.contract:
            continue
        game = contract_text(row)
        # The one exception to the 8 pt floor: a game's description is what the players sign, so a long one
        # ("Strich (Kreuz 60:60)") is shrunk to fit its column down to GAME_MIN_PT rather than cut short.
        game_size = min(font, max(GAME_MIN_PT, font * game_w / stringWidth(game, REGULAR, font)))
        text.font(REGULAR, game_size)
        text.left(_x(x_game), base, game)
        text.font(REGULAR, font)
        if row.contract == "weiter" or row.thrown_in:
            continue
        text.centre(_x(x_declarer), base, str(row.declarer or ""))
        if row.partner:
            text.centre(_x(x_partner), base, str(row.partner))
        text.centre(_x(x_augen), base, augen_text(row))
        if row.laufende:
            text.centre(_x(x_laufende), base, str(row.laufende))
        for seat in range(1, size + 1):
            sx = layout.seat_x(seat)
            if row.points and not (size == 5 and seat == row.dealer):
                text.right(_x(sx + sub_w - 1.5), base, signed(row.points[seat - 1]))
            if row.totals:
                text.right(_x(sx + layout.seat_w - 1.5), base, signed(row.totals[seat - 1]))
        if row.won_solo and row.declarer:
            centre_x = layout.seat_x(row.declarer) + sub_w / 2 + 0.2
            circles.append((centre_x, row_top + h / 2, sub_w / 2 - 0.5, h / 2 - 0.35))
    text.close()
    if circles:  # players circle a won solo on paper; so does the filled sheet
        canv.setLineWidth(0.9)
        for cx, cy, rx, ry in circles:
            canv.ellipse(_x(cx - rx), _y(cy + ry), _x(cx + rx), _y(cy - ry), stroke=1, fill=0)


def _draw_footer(canv: Canvas, sheet: ScoreSheet, layout: _Layout, top: float) -> None:
    """The footer's words and numbers: totals, won solos, money, the zero-sum check, who signs."""
    size = sheet.size
    left, right = MARGIN_X, MARGIN_X + CONTENT_W
    label_x = MARGIN_X + LEFT_W - 2
    canv.setFillGray(0)
    y = top
    for label, height, values, font, font_size in _footer_bands(sheet):
        base = _baseline(y, height, font_size)
        canv.setFont(BOLD, 8.5 if font == BOLD else SMALL)
        canv.drawRightString(_x(label_x), base, label)
        if values is not None:
            canv.setFont(font, font_size)
            for seat in range(1, size + 1):
                canv.drawCentredString(_x(layout.seat_x(seat) + layout.seat_w / 2), base, values[seat - 1])
        y += height

    # the check that the totals add up to 0
    check_base = _baseline(y, CHECK_H, 9)
    canv.setFont(BOLD, 9)
    label = _("Check:")
    canv.drawString(_x(left), check_base, label)
    text_x = left + stringWidth(label, BOLD, 9) / mm + 3
    canv.setFont(REGULAR, 9)
    if sheet.totals is not None and sheet.zero_sum:
        total = sum(sheet.totals)
        terms = " ".join(signed(t) for t in sheet.totals)
        verdict = _("correct") if total == 0 else _("WRONG: the totals must add up to 0")
        canv.drawString(_x(text_x), check_base, f"{terms} = {signed(total).replace('+', '')}  \u2013  {verdict}")
    elif not sheet.zero_sum:
        canv.drawString(_x(text_x), check_base, _("Plus points only: the totals do not add up to 0."))
    else:
        canv.drawString(_x(text_x), check_base, _("the totals of all seats add up to 0:") + "  ______")
    canv.setFont(REGULAR, SMALL)
    legend = _("Won solos are circled.") if sheet.filled else _("Circle the points of a won solo.")
    canv.drawRightString(_x(right), check_base, legend)
    y += CHECK_H

    # signatures, two side by side (the lines are part of the form)
    col_w = CONTENT_W / 2
    canv.setFont(REGULAR, SMALL)
    for index, player in enumerate(sorted(sheet.players, key=lambda p: p.seat)):
        x0 = left + (index % 2) * col_w
        line_y = y + (index // 2) * SIGNATURE_H + SIGNATURE_H - 3.2
        caption = _("Signature seat %(seat)d: %(name)s (no. %(number)d)") % {
            "seat": player.seat,
            "name": player.name,
            "number": player.start_number,
        }
        canv.drawString(_x(x0 + 2), _y(line_y + 2.6), shorten(caption, REGULAR, SMALL, (col_w - 6) * mm))
    # who played which games where a seat changed (a substitute, a table that played on with four)
    y += (len(sheet.players) + 1) // 2 * SIGNATURE_H + 2
    for text in sheet.changes:
        canv.setFont(REGULAR, fit_size(text, REGULAR, 8, CONTENT_W * mm))
        canv.drawString(_x(left), _y(y + 3.5), text)
        y += CHANGE_H


def render_score_sheets(sheets: Iterable[ScoreSheet], *, title: str | None = None) -> bytes:
    """Every sheet's pages in one PDF (the round's sheets, or one table's)."""
    sheets = list(sheets)
    buffer = io.BytesIO()
    if title is None:
        title = (
            _("Score sheets")
            if len(sheets) != 1
            else _("Score sheet, round %(round)d, table %(table)d")
            % {"round": sheets[0].round, "table": sheets[0].table}
        )
    canv = new_canvas(buffer, pagesize=A4, title=title)
    for sheet in sheets:
        draw_score_sheet(canv, sheet)
    canv.save()
    return buffer.getvalue()


def render_score_sheet(sheet: ScoreSheet) -> bytes:
    return render_score_sheets([sheet])


__all__ = [
    "MINUS",
    "ScoreSheet",
    "SheetPlayer",
    "SheetRow",
    "contract_text",
    "draw_score_sheet",
    "render_score_sheet",
    "render_score_sheets",
    "sheet_pages",
]
