"""The standings (Rangliste), rules.md section 8: overall, then each round on pages of its own.

One table per section: place, start number, name, club, points, won solos (and, overall, the
points of each round). A tie decided by a tie-break carries its note under the name ("ahead of
Huber: more won solos"). The table's head repeats on every page; 1,000 players flow over as many
pages as they need, each with "Page x of y".
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from reportlab.platypus import LongTable, NextPageTemplate, PageBreak, Paragraph, Table, TableStyle

from .drawing import BOLD, mm, signed
from .fonts import register_fonts
from .lists import (
    BODY_SIZE,
    CONTENT_W,
    NOTE,
    ROW_H,
    ListHead,
    escape,
    grid_style,
    list_template,
    render_list,
    row_height,
    text_cell,
    wrap_head,
)


@dataclass(frozen=True)
class StandingsLine:
    place: int
    start_number: int
    name: str
    club: str
    points: int
    won_solos: int
    note: str = ""  # why he stands above the next one with equal points ("ahead of Huber: more won solos")
    substitute_for: str = ""  # whose seat and points he took over
    round_points: tuple[int, ...] = ()  # overall: per round of StandingsSection.rounds


@dataclass(frozen=True)
class StandingsSection:
    round: int | None  # None: overall
    lines: tuple[StandingsLine, ...]
    rounds: tuple[int, ...] = ()  # overall: the rounds counted so far (a column each)


@dataclass(frozen=True)
class Standings:
    head: ListHead
    sections: tuple[StandingsSection, ...]


# Columns: place, start number, name, club, points, won solos, then (overall) one per round.
PLACE_W = 11 * mm
NUMBER_W = 11 * mm
POINTS_W = 15 * mm
SOLOS_W = 20 * mm
ROUND_W = 11 * mm
MAX_ROUND_COLUMNS = 6  # more rounds: the round sections show them
NAME_SHARE = 0.58  # of what is left for name and club
HEAD_ROW_H = 8 * mm


def _widths(rounds: int) -> tuple[float, ...]:
    fixed = PLACE_W + NUMBER_W + POINTS_W + SOLOS_W + rounds * ROUND_W
    free = CONTENT_W - fixed
    name = free * NAME_SHARE
    return (PLACE_W, NUMBER_W, name, free - name, POINTS_W, SOLOS_W, *([ROUND_W] * rounds))


def _section_table(section: StandingsSection) -> Table:
    rounds = section.rounds if len(section.rounds) <= MAX_ROUND_COLUMNS else ()
    widths = _widths(len(rounds))
    head = [
        _("Place"),
        _("No."),
        _("Name"),
        _("Club"),
        _("Points"),
        _("Won solos"),
        *(_("R%(n)d") % {"n": r} for r in rounds),
    ]
    head_cells, head_style = wrap_head(head, widths)
    rows: list[list] = [head_cells]
    heights = [HEAD_ROW_H]
    for line in section.lines:
        notes = []
        if line.substitute_for:
            notes.append(_("substitute for %(name)s") % {"name": line.substitute_for})
        if line.note:
            notes.append(line.note)
        row = [
            f"{line.place}.",
            str(line.start_number),
            text_cell(line.name, widths[2], notes=notes),
            text_cell(line.club, widths[3]),
            signed(line.points),
            str(line.won_solos),
            *(signed(p) for p in line.round_points[: len(rounds)]),
        ]
        rows.append(row)
        heights.append(row_height(row, ROW_H))
    table = LongTable(rows, colWidths=widths, rowHeights=heights, repeatRows=1, hAlign="LEFT")
    style = grid_style(numeric=(0, 1))
    style += [
        ("ALIGN", (4, 0), (-1, -1), "RIGHT"),
        ("FONT", (4, 1), (4, -1), BOLD, BODY_SIZE),
        ("LINEBEFORE", (4, 0), (4, -1), 0.8, "black"),
    ]
    if rounds:
        style.append(("LINEBEFORE", (6, 0), (6, -1), 0.8, "black"))
    table.setStyle(TableStyle(style + head_style))
    return table


def _title(section: StandingsSection) -> str:
    return _("Overall") if section.round is None else _("Round %(n)d") % {"n": section.round}


def _key(section: StandingsSection) -> str:
    return "overall" if section.round is None else f"round-{section.round}"


def render_standings(data: Standings) -> bytes:
    register_fonts()
    templates = [list_template(data.head, _key(s), _("Standings"), _title(s)) for s in data.sections]
    if not templates:
        templates = [list_template(data.head, "empty", _("Standings"))]
    story: list = []
    for index, section in enumerate(data.sections):
        if index:
            story += [NextPageTemplate(_key(section)), PageBreak()]
        if section.lines:
            story.append(_section_table(section))
        else:
            story.append(Paragraph(escape(_("No standings yet.")), NOTE))
    if not story:
        story.append(Paragraph(escape(_("No standings yet.")), NOTE))
    return render_list(templates, story, title=_("Standings") + f" \u2013 {data.head.tournament}")


__all__ = ["Standings", "StandingsLine", "StandingsSection", "render_standings"]
