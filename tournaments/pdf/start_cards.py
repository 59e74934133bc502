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

from .drawing import BOLD, REGULAR, Canvas, fit_size, mm, new_canvas
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
    canv.setFont(REGULAR, fit_size(card.tournament, REGULAR, 11, width))
    canv.drawString(left, top - 4 * mm, card.tournament)
    when = date_format(card.date, "DATE_FORMAT") + (f" · {card.venue}" if card.venue else "")
    canv.setFont(REGULAR, fit_size(when, REGULAR, 8.5, width))
    canv.drawString(left, top - 9 * mm, when)
    canv.setFont(BOLD, fit_size(card.name, BOLD, 20, width, minimum=9))
    canv.drawString(left, top - 20 * mm, card.name)
    canv.setFont(REGULAR, 12)
    line = _("Start no. %(n)s") % {"n": card.start_number} + (f" · {card.club}" if card.club else "")
    canv.setFont(REGULAR, fit_size(line, REGULAR, 12, width))
    canv.drawString(left, top - 27 * mm, line)
    qr_x = x + (CARD_W - QR_SIZE) / 2
    qr_y = top - 32 * mm - QR_SIZE
    draw_qr(canv, card.url, qr_x, qr_y, QR_SIZE)
    canv.setFont(BOLD, 12)
    canv.drawCentredString(x + CARD_W / 2, qr_y - 5 * mm, _("Your seat, your games, your points"))
    canv.setFont(REGULAR, 9)
    canv.drawCentredString(x + CARD_W / 2, qr_y - 10 * mm, _("Scan with your phone – in every round"))
    canv.setFont(REGULAR, fit_size(card.url, REGULAR, 7, width, minimum=4))
    canv.drawCentredString(x + CARD_W / 2, qr_y - 15 * mm, card.url)
    canv.setFont(REGULAR, 7.5)
    canv.drawCentredString(x + CARD_W / 2, y + PAD - 2 * mm, _("This link is yours alone: do not pass it on."))


def render_start_cards(data: StartCards | Iterable[StartCard]) -> bytes:
    cards = data.cards if isinstance(data, StartCards) else tuple(data)
    buffer = io.BytesIO()
    canv = new_canvas(buffer, pagesize=(PAGE_W, PAGE_H), title=_("Start cards"))
    for index in range(0, max(len(cards), 1), len(SLOTS)):
        _cut_marks(canv)
        for card, (column, row) in zip(cards[index:index + len(SLOTS)], SLOTS):
            paint_start_card(canv, card, column * CARD_W, row * CARD_H)
        canv.showPage()
    canv.save()
    return buffer.getvalue()


__all__ = ["StartCard", "StartCards", "paint_start_card", "render_start_cards"]
