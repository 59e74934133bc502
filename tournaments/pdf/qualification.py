"""The qualification list of a qualifier series as A4: who goes to the final and how, who is next."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils.translation import gettext as _
from reportlab.platypus import Paragraph, Table, TableStyle

from .fonts import register_fonts
from .lists import CONTENT_W, NOTE, ListHead, cell, escape, grid_style, heading, list_template, render_list


@dataclass(frozen=True)
class QualificationLine:
    number: int
    name: str
    club: str
    how: str  # in words: "1. Platz, Vorrunde Post", "Wildcard: Titelverteidiger", "Verlosung"


@dataclass(frozen=True)
class QualificationDocument:
    series: str
    final: str  # the final's name and date, or ""
    date: datetime.date
    lines: tuple[QualificationLine, ...]
    next_in_line: tuple[tuple[str, str], ...]  # (evening, names)
    rules: str  # "2 per evening · ..."


def render_qualification_list(data: QualificationDocument) -> bytes:
    register_fonts()
    head = ListHead(tournament=data.series, date=data.date, venue=data.final, computed_at=None, current=True)
    rows = [[_("No."), _("Player"), _("Club"), _("Qualified by")]]
    rows += [[str(line.number), cell(line.name), cell(line.club), cell(line.how)] for line in data.lines]
    widths = (12 * 2.83465, CONTENT_W * 0.34, CONTENT_W * 0.24, None)
    widths = (widths[0], widths[1], widths[2], CONTENT_W - sum(widths[:3]))
    table = Table(rows, colWidths=widths, repeatRows=1)
    table.setStyle(TableStyle(grid_style(numeric=(0,))))
    story: list = [Paragraph(escape(data.rules), NOTE), table]
    if data.next_in_line:
        story.append(heading(_("Next in line")))
        story += [Paragraph(escape(f"{evening}: {names}"), NOTE) for evening, names in data.next_in_line]
    templates = [list_template(head, "qualification", _("Qualification list"))]
    return render_list(templates, story, title=_("Qualification list") + f" \u2013 {data.series}")


__all__ = ["QualificationDocument", "QualificationLine", "render_qualification_list"]
