"""The standings of a series (Saison or Cup) with the club's logo, and its charts (ReportLab's own chart module).

Page 1 on: place, name, club, points, participations, wins, then one column per tournament (a
struck result in brackets); the players below the minimum of participations follow, unranked.
Then the season in pictures: the leaders' points tournament by tournament (a line plot) and the
contract mix (horizontal bars), and the statistics in a small table.

An evening's statistics (``render_statistics``) are the same pictures on their own, the leaders' points
round by round.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from reportlab.graphics.charts.barcharts import HorizontalBarChart
from reportlab.graphics.charts.legends import LineLegend
from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib import colors
from reportlab.platypus import KeepTogether, LongTable, NextPageTemplate, PageBreak, Paragraph, Table, TableStyle

from .drawing import BOLD, REGULAR, mm, signed
from .fonts import register_fonts
from .lists import (
    BODY_SIZE,
    CONTENT_W,
    NOTE,
    ROW_H,
    ListHead,
    escape,
    grid_style,
    heading,
    list_template,
    render_list,
    row_height,
    text_cell,
    wrap_head,
)


@dataclass(frozen=True)
class SeriesLine:
    place: int | None  # None: below the minimum of participations
    name: str
    club: str
    points: int
    participations: int
    wins: int
    results: tuple[str, ...]  # per tournament: "25", "(11)" struck, "" not played


@dataclass(frozen=True)
class SeriesDocument:
    head: ListHead
    scoring: str  # "best 2 of 3", "placement points 25, 20, 16 ..."
    tournaments: tuple[str, ...]  # the column heads: "1", "2" ... with the names in the key below
    tournament_names: tuple[str, ...]
    lines: tuple[SeriesLine, ...]
    unranked: tuple[SeriesLine, ...] = ()
    progression: tuple[tuple[str, tuple[int, ...]], ...] = ()  # (name, series points after each tournament)
    mix: tuple[tuple[str, int], ...] = ()  # (contract, games)
    facts: tuple[tuple[str, str], ...] = ()  # (label, value): solo win rate, biggest game ...


@dataclass(frozen=True)
class StatisticsDocument:
    """An evening's statistics: the leaders' points round by round, the contract mix, the figures."""

    head: ListHead
    progression: tuple[tuple[str, tuple[int, ...]], ...]  # (name, points after each round)
    mix: tuple[tuple[str, int], ...]
    facts: tuple[tuple[str, str], ...]


PLACE_W = 11 * mm
POINTS_W = 15 * mm
COUNT_W = 12 * mm
RESULT_W = 12 * mm
MAX_RESULT_COLUMNS = 10
NAME_SHARE = 0.6
HEAD_ROW_H = 8 * mm
CHART_H = 70 * mm
LINE_COLOURS = (
    colors.HexColor("#1f5f3a"),
    colors.HexColor("#b5452a"),
    colors.HexColor("#2b5f9e"),
    colors.HexColor("#8a6d00"),
    colors.HexColor("#6b3f8f"),
)
LINE_DASHES = (None, (4, 2), (1, 2), (6, 2, 1, 2), (2, 2))


def _widths(results: int) -> tuple[float, ...]:
    fixed = PLACE_W + POINTS_W + 2 * COUNT_W + results * RESULT_W
    free = CONTENT_W - fixed
    name = free * NAME_SHARE
    return (PLACE_W, name, free - name, POINTS_W, COUNT_W, COUNT_W, *([RESULT_W] * results))


def _table(data: SeriesDocument, lines: tuple[SeriesLine, ...]) -> Table:
    results = len(data.tournaments) if len(data.tournaments) <= MAX_RESULT_COLUMNS else 0
    widths = _widths(results)
    head = [_("Place"), _("Name"), _("Club"), _("Points"), _("Played"), _("Wins"), *data.tournaments[:results]]
    head_cells, head_style = wrap_head(head, widths)
    rows: list[list] = [head_cells]
    heights = [HEAD_ROW_H]
    for line in lines:
        row = [
            f"{line.place}." if line.place else "\u2013",
            text_cell(line.name, widths[1]),
            text_cell(line.club, widths[2]),
            signed(line.points),
            str(line.participations),
            str(line.wins),
            *line.results[:results],
        ]
        rows.append(row)
        heights.append(row_height(row, ROW_H))
    table = LongTable(rows, colWidths=widths, rowHeights=heights, repeatRows=1, hAlign="LEFT")
    style = grid_style(numeric=(0,))
    style += [
        ("ALIGN", (3, 0), (-1, -1), "RIGHT"),
        ("FONT", (3, 1), (3, -1), BOLD, BODY_SIZE),
        ("LINEBEFORE", (3, 0), (3, -1), 0.8, "black"),
    ]
    if results:
        style.append(("LINEBEFORE", (6, 0), (6, -1), 0.8, "black"))
    table.setStyle(TableStyle(style + head_style))
    return table


def _progression_chart(progression: tuple[tuple[str, tuple[int, ...]], ...], *, x_label: str, y_label: str) -> Drawing:
    drawing = Drawing(CONTENT_W, CHART_H + 22 * mm)
    plot = LinePlot()
    plot.x, plot.y = 18 * mm, 24 * mm
    plot.width, plot.height = CONTENT_W - 24 * mm, CHART_H - 12 * mm
    plot.data = [[(i + 1, v) for i, v in enumerate(values)] for _name, values in progression]
    steps = max((len(v) for _n, v in progression), default=1)
    plot.xValueAxis.valueMin, plot.xValueAxis.valueMax = 0.5, steps + 0.5
    plot.xValueAxis.valueSteps = list(range(1, steps + 1))
    plot.xValueAxis.labelTextFormat = "%d"
    for axis in (plot.xValueAxis, plot.yValueAxis):
        axis.labels.fontName, axis.labels.fontSize = REGULAR, 8
    plot.yValueAxis.labelTextFormat = lambda v: signed(int(v))
    for index in range(len(progression)):
        line = plot.lines[index]
        line.strokeColor = LINE_COLOURS[index % len(LINE_COLOURS)]
        line.strokeWidth = 1.8
        if LINE_DASHES[index % len(LINE_DASHES)]:
            line.strokeDashArray = LINE_DASHES[index % len(LINE_DASHES)]
    drawing.add(plot)
    drawing.add(
        String(plot.x + plot.width / 2, plot.y - 9 * mm, x_label, fontName=REGULAR, fontSize=8, textAnchor="middle")
    )
    drawing.add(String(2 * mm, plot.y + plot.height + 4 * mm, y_label, fontName=REGULAR, fontSize=8))
    legend = LineLegend()
    legend.x, legend.y = plot.x, 9 * mm
    legend.fontName, legend.fontSize = REGULAR, 8
    legend.alignment = "right"  # the line's sample left, the name right of it
    legend.columnMaximum = 2
    legend.deltax = 60 * mm
    legend.deltay = 4.5 * mm
    legend.dx, legend.dy = 8 * mm, 2
    legend.colorNamePairs = [
        (LINE_COLOURS[i % len(LINE_COLOURS)], name[:22]) for i, (name, _v) in enumerate(progression)
    ]
    drawing.add(legend)
    return drawing


def _mix_chart(mix: tuple[tuple[str, int], ...]) -> Drawing:
    bar_h = 8 * mm
    height = bar_h * len(mix) + 10 * mm
    drawing = Drawing(CONTENT_W, height)
    chart = HorizontalBarChart()
    chart.x, chart.y = 32 * mm, 6 * mm
    chart.width, chart.height = CONTENT_W - 60 * mm, bar_h * len(mix)
    chart.data = [[games for _label, games in reversed(mix)]]
    chart.categoryAxis.categoryNames = [label for label, _games in reversed(mix)]
    chart.categoryAxis.labels.fontName, chart.categoryAxis.labels.fontSize = REGULAR, 9
    chart.valueAxis.labels.fontName, chart.valueAxis.labels.fontSize = REGULAR, 8
    chart.valueAxis.valueMin = 0
    chart.bars[0].fillColor = LINE_COLOURS[0]
    chart.barLabelFormat = "%d"
    chart.barLabels.fontName, chart.barLabels.fontSize = BOLD, 8
    chart.barLabels.boxAnchor, chart.barLabels.dx = "w", 3
    drawing.add(chart)
    return drawing


def _facts(facts: tuple[tuple[str, str], ...]) -> Table:
    table = Table([[label, value] for label, value in facts], colWidths=(70 * mm, CONTENT_W - 70 * mm), hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, 0), (-1, -1), REGULAR, BODY_SIZE),
                ("FONT", (0, 0), (0, -1), BOLD, BODY_SIZE),
                ("LINEBELOW", (0, 0), (-1, -1), 0.25, "black"),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    return table


def render_series(data: SeriesDocument) -> bytes:
    register_fonts()
    templates = [
        list_template(data.head, "standings", _("Series standings"), data.scoring),
        list_template(data.head, "statistics", _("Series standings"), _("Statistics")),
    ]
    story: list = []
    if data.lines:
        story.append(_table(data, data.lines))
    else:
        story.append(Paragraph(escape(_("No tournament of the series has been played yet.")), NOTE))
    if data.unranked:
        story.append(heading(_("Below the minimum of participations (not ranked)")))
        story.append(_table(data, data.unranked))
    if data.tournament_names:
        key = "; ".join(
            f"{label} = {name}" for label, name in zip(data.tournaments, data.tournament_names, strict=True)
        )
        story.append(Paragraph(escape(key + ". " + _("A result in brackets does not count.")), NOTE))
    if data.progression or data.mix:
        story += [NextPageTemplate("statistics"), PageBreak()]
        story += _pictures(data.progression, data.mix, data.facts, x_label=_("Tournament"), y_label=_("Series points"))
    return render_list(templates, story, title=_("Series standings") + f" \u2013 {data.head.tournament}")


def _pictures(progression, mix, facts, *, x_label: str, y_label: str) -> list:
    story: list = []
    if progression:
        story.append(
            KeepTogether(
                [heading(_("Standings progression")), _progression_chart(progression, x_label=x_label, y_label=y_label)]
            )
        )
    if mix:
        story.append(KeepTogether([heading(_("Contract mix")), _mix_chart(mix)]))
    if facts:
        story.append(KeepTogether([heading(_("Statistics")), _facts(facts)]))
    return story


def render_statistics(data: StatisticsDocument) -> bytes:
    """An evening's statistics on their own (the statistics page as a PDF)."""
    register_fonts()
    templates = [list_template(data.head, "statistics", _("Statistics"))]
    story = _pictures(data.progression, data.mix, data.facts, x_label=_("Round"), y_label=_("Points"))
    if not story:
        story.append(Paragraph(escape(_("No games counted yet.")), NOTE))
    return render_list(templates, story, title=_("Statistics") + f" \u2013 {data.head.tournament}")


__all__ = ["SeriesDocument", "SeriesLine", "StatisticsDocument", "render_series", "render_statistics"]
