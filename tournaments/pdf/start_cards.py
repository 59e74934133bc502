"""Start cards: each player's personal link as a QR code, four A6 cards on an A4 sheet (cut along the marks).

The desk hands a player his card at check-in: his name and start number, the tournament, and the
QR code of his own page (tournaments:player) where he finds his seat in every round, his games and
points. The link is his alone, so the card says so.
"""

from __future__ import annotations

import datetime
import io
from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth

from .drawing import BOLD, REGULAR, Canvas, fit_size, fit_text, mm, new_canvas
from .qr import draw_qr


@dataclass(frozen=True)
class StartCard:
    tournament: str
    date: datetime.date
    venue: str
    name: str
    start_number: int
    club: str
    url: str  # the player's own page


@dataclass(frozen=True)
class StartCards:
    cards: tuple[StartCard, ...]


PAGE_W, PAGE_H = A4
CARD_W, CARD_H = PAGE_W / 2, PAGE_H / 2  # A6 portrait, four to a sheet
PAD = 9 * mm
QR_SIZE = 62 * mm
SLOTS = ((0, 1), (1, 1), (0, 0), (1, 0))  # top left, top right, bottom left, bottom right


def _cut_marks(canv: Canvas) -> None:
    canv.saveState()
    canv.setLineWidth(0.4)
    canv.setStrokeGray(0.55)
    canv.setDash(3, 3)
    canv.line(CARD_W, 0, CARD_W, PAGE_H)
    canv.line(0, CARD_H, PAGE_W, CARD_H)
    canv.restoreState()


def paint_start_card(canv: Canvas, card: StartCard, x: float, y: float) -> None:
    """One card with its lower left corner at (x, y)."""
    width = CARD_W - 2 * PAD
    left, top = x + PAD, y + CARD_H - PAD
    canv.setFillGray(0)
    _line(canv, card.tournament, REGULAR, 11, left, top - 4 * mm, width)
    when = date_format(card.date, "DATE_FORMAT") + (f" · {card.venue}" if card.venue else "")
    _line(canv, when, REGULAR, 8.5, left, top - 9 * mm, width)
    _name(canv, card.name, left, top - 20 * mm, width)
    line = _("Start no. %(n)s") % {"n": card.start_number} + (f" · {card.club}" if card.club else "")
    _line(canv, line, REGULAR, 12, left, top - 27 * mm, width)
    qr_x = x + (CARD_W - QR_SIZE) / 2
    qr_y = top - 32 * mm - QR_SIZE
    draw_qr(canv, card.url, qr_x, qr_y, QR_SIZE)
    canv.setFont(BOLD, 12)
    canv.drawCentredString(x + CARD_W / 2, qr_y - 5 * mm, _("Your seat, your games, your points"))
    canv.setFont(REGULAR, 9)
    canv.drawCentredString(x + CARD_W / 2, qr_y - 10 * mm, _("Scan with your phone – in every round"))
    canv.setFont(REGULAR, fit_size(card.url, REGULAR, 8, width))
    canv.drawCentredString(x + CARD_W / 2, qr_y - 15 * mm, card.url)
    canv.setFont(REGULAR, 8)
    canv.drawCentredString(x + CARD_W / 2, y + PAD - 2 * mm, _("This link is yours alone: do not pass it on."))


def _line(canv: Canvas, text: str, font: str, size: float, left: float, baseline: float, width: float) -> None:
    """One line inside the card: shrunk to fit, never below 8 pt, else shortened (it never crosses the cut)."""
    text, size = fit_text(text, font, size, width)
    canv.setFont(font, size)
    canv.drawString(left, baseline, text)


NAME_SIZE, NAME_MIN_ONE_LINE, NAME_TWO_LINES = 20, 14, 13


def _name(canv: Canvas, name: str, left: float, baseline: float, width: float) -> None:
    """The player's name, big: on one line down to 14 pt, else on two lines at 13 pt (broken between words),
    shortened only if it still does not fit, so a long name stays inside the card."""
    if fit_size(name, BOLD, NAME_SIZE, width, minimum=NAME_MIN_ONE_LINE) * stringWidth(name, BOLD, 1) <= width:
        _line(canv, name, BOLD, NAME_SIZE, left, baseline, width)
        return
    lines = simpleSplit(name, BOLD, NAME_TWO_LINES, width)
    first, rest = (lines[0], " ".join(lines[1:])) if len(lines) > 1 else (name, "")
    _line(canv, first, BOLD, NAME_TWO_LINES, left, baseline + 2.5 * mm, width)
    if rest:
        _line(canv, rest, BOLD, NAME_TWO_LINES, left, baseline - 2.5 * mm, width)


def render_start_cards(data: StartCards | Iterable[StartCard]) -> bytes:
    cards = data.cards if isinstance(data, StartCards) else tuple(data)
    buffer = io.BytesIO()
    canv = new_canvas(buffer, pagesize=(PAGE_W, PAGE_H), title=_("Start cards"))
    for index in range(0, max(len(cards), 1), len(SLOTS)):
        _cut_marks(canv)
        for card, (column, row) in zip(cards[index : index + len(SLOTS)], SLOTS):
            paint_start_card(canv, card, column * CARD_W, row * CARD_H)
        canv.showPage()
    canv.save()
    return buffer.getvalue()


__all__ = ["StartCard", "StartCards", "paint_start_card", "render_start_cards"]
