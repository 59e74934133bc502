"""The print pack of a round: the seat lists, the table cards and every score sheet in one PDF.

One Platypus document: the seat list's own page templates, then one full-page flowable per table
card (landscape) and per score sheet page (portrait), each drawn by its document's module.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, NextPageTemplate, PageBreak, PageTemplate

from .drawing import Canvas, PagedCanvas
from .fonts import register_fonts
from .score_sheet import ScoreSheet, sheet_pages
from .seat_list import SeatList, seat_list_story, seat_list_templates
from .table_cards import PAGE_H as CARD_H
from .table_cards import PAGE_W as CARD_W
from .table_cards import TableCard, paint_table_card


@dataclass(frozen=True)
class PrintPackDocument:
    tournament: str
    round: int
    seat_list: SeatList
    cards: tuple[TableCard, ...]
    sheets: tuple[ScoreSheet, ...]


class _Page(Flowable):
    """A whole page drawn by a canvas function; ``done`` is called once it is drawn."""

    def __init__(
        self, size: tuple[float, float], paint: Callable[[Canvas], None], done: Callable[[], None] | None = None
    ):
        super().__init__()
        self.width, self.height = size
        self._paint = paint
        self._done = done

    def wrap(self, available_width, available_height):
        return self.width, self.height

    def draw(self):
        self._paint(self.canv)
        if self._done is not None:
            self._done()


def _full_page(template_id: str, size: tuple[float, float]) -> PageTemplate:
    frame = Frame(0, 0, size[0], size[1], leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0, id=template_id)
    return PageTemplate(id=template_id, frames=[frame], pagesize=size)


ProgressCallback = Callable[[int, int], None]


def render_pack(data: PrintPackDocument, *, progress: ProgressCallback | None = None) -> bytes:
    """The pack as PDF bytes; ``progress(tables_done, tables)`` is called as the score sheets are drawn."""
    register_fonts()
    total = len(data.sheets)
    done = 0

    def sheet_done() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    story: list = [*seat_list_story(data.seat_list)]
    if data.cards:
        story += [NextPageTemplate("card"), PageBreak()]
        story += [_Page((CARD_W, CARD_H), lambda canv, card=card: paint_table_card(canv, card)) for card in data.cards]
    if data.sheets:
        story += [NextPageTemplate("sheet"), PageBreak()]
        for sheet in data.sheets:
            painters = sheet_pages(sheet)
            for index, paint in enumerate(painters):
                story.append(_Page(A4, paint, sheet_done if index == len(painters) - 1 else None))

    buffer = io.BytesIO()
    doc = BaseDocTemplate(
        buffer,
        pagesize=A4,
        pageTemplates=[
            *seat_list_templates(data.seat_list),
            _full_page("card", (CARD_W, CARD_H)),
            _full_page("sheet", A4),
        ],
        title=_("Print pack, round %(n)d") % {"n": data.round} + f" \u2013 {data.tournament}",
        author="Schafkopfrennen",
        creator="Schafkopfrennen",
    )
    if progress is not None:
        progress(0, total)
    doc.build(story, canvasmaker=PagedCanvas)
    return buffer.getvalue()


__all__ = ["PrintPackDocument", "render_pack"]
