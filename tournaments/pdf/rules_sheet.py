"""The rules of a tournament as a one- or two-page PDF: linked from the sign-up's confirmation and mail.

Every setting of the tournament's ruleset with its label, then worked examples of typical games as the
console's settings page shows them. Renders from a plain dataclass, without a database.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from .drawing import BOLD, REGULAR, mm
from .fonts import register_fonts
from .lists import escape


@dataclass(frozen=True)
class RulesSheet:
    tournament: str
    club: str
    when: str  # "Samstag, 21. November 2026, 19:00"
    venue: str
    entry_fee: str
    rules: tuple[tuple[str, str], ...]  # (label, value)
    examples: tuple[tuple[str, str, str], ...]  # (game, declarer, each opponent)
    night: tuple[str, ...] = ()  # a player who leaves, a table that stops early (``rules_text.night_rules``)


TITLE = ParagraphStyle("rules-title", fontName=BOLD, fontSize=18, leading=22, spaceAfter=2 * mm)
LEAD = ParagraphStyle("rules-lead", fontName=REGULAR, fontSize=10.5, leading=14)
HEADING = ParagraphStyle(
    "rules-heading", fontName=BOLD, fontSize=13, leading=16, spaceBefore=5 * mm, spaceAfter=2 * mm, keepWithNext=1
)
CELL = ParagraphStyle("rules-cell", fontName=REGULAR, fontSize=9.5, leading=11.5)
GRID = [
    ("FONT", (0, 0), (-1, -1), REGULAR, 9.5),
    ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ("LINEBELOW", (0, 0), (-1, -1), 0.25, colors.black),
    ("BOX", (0, 0), (-1, -1), 1.0, colors.black),
    ("ROWBACKGROUNDS", (0, 0), (-1, -1), [None, colors.Color(0.93, 0.93, 0.93)]),
]


def render_rules_sheet(data: RulesSheet) -> bytes:
    register_fonts()
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=18 * mm,
        rightMargin=18 * mm,
        topMargin=15 * mm,
        bottomMargin=15 * mm,
        title=_("Rules: %(t)s") % {"t": data.tournament},
        author="Schafkopfrennen",
        creator="Schafkopfrennen",
    )
    width = A4[0] - 36 * mm
    lines = [data.when, data.venue, _("Entry fee: %(fee)s") % {"fee": data.entry_fee}, data.club]
    story = [
        Paragraph(escape(_("Rules: %(t)s") % {"t": data.tournament}), TITLE),
        Paragraph("<br/>".join(escape(line) for line in lines if line), LEAD),
        Paragraph(escape(_("How games are scored")), HEADING),
        Table(
            [[Paragraph(escape(label), CELL), Paragraph(escape(value), CELL)] for label, value in data.rules],
            colWidths=[width * 0.55, width * 0.45],
            style=TableStyle(GRID),
        ),
    ]
    if data.night:
        story.append(Paragraph(escape(_("When a player leaves or a table stops early")), HEADING))
        story += [Paragraph(escape(text), LEAD) for text in data.night]
    if data.examples:
        head = [_("Game (seat 1 plays)"), _("declarer"), _("each opponent")]
        rows = [head] + [list(row) for row in data.examples]
        story += [
            Paragraph(escape(_("Examples at a table of four")), HEADING),
            Table(
                rows,
                colWidths=[width * 0.6, width * 0.2, width * 0.2],
                repeatRows=1,
                style=TableStyle(GRID + [("FONT", (0, 0), (-1, 0), BOLD, 9), ("ALIGN", (1, 0), (-1, -1), "RIGHT")]),
            ),
        ]
    story.append(Spacer(1, 4 * mm))
    doc.build(story)
    return buffer.getvalue()
