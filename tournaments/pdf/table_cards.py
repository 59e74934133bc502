"""Table cards: one A4 sheet per table, folded along the middle into a tent that stands on the table.

The front shows the big table number, the round and the players by seat; the back (printed upside
down, so it reads upright once folded) shows the table number again and the QR code of the
table's all-evening link: the same code opens this table number in every round, so the back half
serves the whole evening.
"""

from __future__ import annotations

import datetime
import io
from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4, landscape

from .drawing import BOLD, REGULAR, Canvas, fit_size, mm, new_canvas
from .qr import draw_qr
from .score_sheet import SheetPlayer


@dataclass(frozen=True)
class TableCard:
    tournament: str
    date: datetime.date
    round: int
    table: int
    players: tuple[SheetPlayer, ...]
    entry_url: str  # the all-evening link of this table number (tournaments:table_link)


@dataclass(frozen=True)
class TableCards:
    cards: tuple[TableCard, ...]


PAGE_W, PAGE_H = landscape(A4)
HALF_H = PAGE_H / 2
MARGIN = 14 * mm
NUMBER_SIZE = 190  # points: the table number, readable across the room
QR_SIZE = 64 * mm
PLAYER_SIZE = 15
PLAYER_LINE = 9.5 * mm
INFO_X = PAGE_W * 0.5  # where the right-hand block starts


def _draw_number(canv: Canvas, card: TableCard, width: float) -> None:
    canv.setFont(REGULAR, 24)
    canv.drawString(MARGIN, HALF_H - MARGIN - 8 * mm, _("Table"))
    number = str(card.table)
    canv.setFont(BOLD, fit_size(number, BOLD, NUMBER_SIZE, width))
    canv.drawString(MARGIN - 2 * mm, MARGIN + 2 * mm, number)


def _draw_heading(canv: Canvas, card: TableCard, x: float, width: float) -> float:
    top = HALF_H - MARGIN
    canv.setFont(BOLD, 22)
    canv.drawString(x, top - 8 * mm, _("Round %(n)d") % {"n": card.round})
    canv.setFont(REGULAR, fit_size(card.tournament, REGULAR, 11, width))
    when = date_format(card.date, "DATE_FORMAT")
    canv.drawString(x, top - 14 * mm, card.tournament)
    canv.setFont(REGULAR, 9)
    canv.drawString(x, top - 19 * mm, when)
    return top - 19 * mm


def _draw_front(canv: Canvas, card: TableCard) -> None:
    """The lower half: number, round, players by seat."""
    _draw_number(canv, card, INFO_X - MARGIN - 6 * mm)
    width = PAGE_W - MARGIN - INFO_X
    y = _draw_heading(canv, card, INFO_X, width) - 5 * mm
    canv.setFont(REGULAR, 8)
    canv.drawString(INFO_X, y, _("Seat"))
    canv.drawString(INFO_X + 9 * mm, y, _("Player"))
    canv.drawRightString(PAGE_W - MARGIN, y, _("Start no."))
    y -= 1.5 * mm
    for player in sorted(card.players, key=lambda p: p.seat):
        y -= PLAYER_LINE
        canv.setFont(BOLD, PLAYER_SIZE)
        canv.drawString(INFO_X, y, str(player.seat))
        name_w = width - 10 * mm - 18 * mm
        canv.setFont(REGULAR, fit_size(player.name, REGULAR, PLAYER_SIZE, name_w, minimum=8))
        canv.drawString(INFO_X + 9 * mm, y, player.name)
        canv.setFont(REGULAR, 10)
        canv.drawRightString(PAGE_W - MARGIN, y, _("No. %(n)d") % {"n": player.start_number})
    canv.setFont(REGULAR, 8)
    canv.drawString(INFO_X, MARGIN - 4 * mm, _("Seat 1 deals the first game; the deal passes clockwise."))


def _draw_back(canv: Canvas, card: TableCard) -> None:
    """The upper half (drawn upside down by the caller): number and the QR code of the entry link."""
    qr_x = PAGE_W - MARGIN - QR_SIZE
    _draw_number(canv, card, qr_x - MARGIN - 50 * mm)
    qr_y = (HALF_H - QR_SIZE) / 2
    draw_qr(canv, card.entry_url, qr_x, qr_y, QR_SIZE)
    text_right = qr_x - 4 * mm
    canv.setFont(BOLD, 13)
    canv.drawRightString(text_right, HALF_H / 2 + 6 * mm, _("Enter the games"))
    canv.setFont(REGULAR, 11)
    canv.drawRightString(text_right, HALF_H / 2, _("scan the code with a phone or tablet"))
    canv.setFont(REGULAR, 9)
    canv.drawRightString(text_right, HALF_H / 2 - 6 * mm, _("valid all evening, in every round"))


def paint_table_card(canv: Canvas, card: TableCard) -> None:
    """Draw the card on the current (landscape A4) page without ending it."""
    canv.setFillGray(0)
    _draw_front(canv, card)
    canv.saveState()
    canv.translate(PAGE_W, PAGE_H)
    canv.rotate(180)
    _draw_back(canv, card)
    canv.restoreState()
    # the fold
    canv.saveState()
    canv.setLineWidth(0.5)
    canv.setDash(4, 3)
    canv.line(0, HALF_H, PAGE_W, HALF_H)
    canv.restoreState()


def draw_table_card(canv: Canvas, card: TableCard) -> None:
    """The card on a page of its own."""
    canv.setPageSize((PAGE_W, PAGE_H))
    paint_table_card(canv, card)
    canv.showPage()


def render_table_cards(data: TableCards | Iterable[TableCard]) -> bytes:
    cards = data.cards if isinstance(data, TableCards) else tuple(data)
    buffer = io.BytesIO()
    canv = new_canvas(buffer, pagesize=(PAGE_W, PAGE_H), title=_("Table cards"))
    for card in cards:
        draw_table_card(canv, card)
    canv.save()
    return buffer.getvalue()


__all__ = ["PAGE_H", "PAGE_W", "TableCard", "TableCards", "draw_table_card", "paint_table_card", "render_table_cards"]
