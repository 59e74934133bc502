"""Charts as inline SVG for the pages: a line chart (standings progression) and horizontal bars (contract mix).

Drawn in a 480-unit-wide viewBox that scales to the page's width; the text is sized so that it is
still about 13 px high on a 360 px phone (a 300 px wide figure). Colours come as presentation attributes (no style
attributes: the Content-Security-Policy forbids inline styles). Every chart has a <title> and
<desc> for screen readers, axis labels and a legend in the picture itself.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from schafkopfrennen.formats import number as format_number

WIDTH = 480
FONT = 24
SMALL = 21
COLOURS = ("#1f5f3a", "#b5452a", "#2b5f9e", "#8a6d00", "#6b3f8f", "#2f7f7f", "#7a4a2a")
DASHES = ("", "10 6", "3 5", "14 5 3 5", "2 3", "", "10 6")
_ids = itertools.count(1)


def _text(
    x: float,
    y: float,
    text: str,
    *,
    size: int = FONT,
    anchor: str = "start",
    weight: str = "normal",
    fill: str = "#1b1b1b",
) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
        f'fill="{fill}">{escape(text)}</text>'
    )


def _short(text: str, length: int) -> str:
    return text if len(text) <= length else text[: length - 1] + "…"


def _ticks(low: int, high: int, count: int = 4) -> list[int]:
    """Round tick values covering low..high (0 included)."""
    low, high = min(low, 0), max(high, 0)
    span = max(high - low, 1)
    raw = span / count
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000) if s >= raw)
    start = (low // step) * step
    ticks = []
    value = start
    while value <= high + step - 1:
        ticks.append(value)
        value += step
    return ticks


def line_chart(
    *,
    title: str,
    x_label: str,
    y_label: str,
    steps: Sequence[str],
    lines: Sequence[tuple[str, Sequence[int]]],
    testid: str = "line-chart",
) -> SafeString:
    """One line per player over the steps (rounds or tournaments); the legend lists the players below."""
    uid = next(_ids)
    values = [v for _name, line in lines for v in line] or [0]
    ticks = _ticks(min(values), max(values))
    left, right, top = 70, WIDTH - 16, 16
    plot_h = 220
    bottom = top + plot_h
    legend_top = bottom + 84
    height = legend_top + 32 * len(lines) + 8
    low, high = ticks[0], ticks[-1]

    def y(value: float) -> float:
        return bottom - (value - low) / max(high - low, 1) * plot_h

    count = max(len(steps), 1)

    def x(index: int) -> float:
        return left + (index + 0.5) * (right - left) / count

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" aria-labelledby="chart{uid}-t chart{uid}-d" '
        f'data-testid="{escape(testid)}" preserveAspectRatio="xMinYMin meet">',
        f'<title id="chart{uid}-t">{escape(title)}</title>',
        f'<desc id="chart{uid}-d">{escape(_describe_lines(steps, lines))}</desc>',
    ]
    for tick in ticks:
        parts.append(
            f'<line x1="{left}" x2="{right}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            f'stroke="{"#1b1b1b" if tick == 0 else "#d8d4c8"}" stroke-width="{2 if tick == 0 else 1}"/>'
        )
        parts.append(_text(left - 8, y(tick) + 7, _number(tick), size=SMALL, anchor="end"))
    for index, step in enumerate(steps):
        parts.append(
            _text(
                x(index),
                bottom + 28,
                _short(step, max(3, int((right - left) / count / (SMALL * 0.7)))),
                size=SMALL,
                anchor="middle",
            )
        )
    parts.append(_text((left + right) / 2, bottom + 60, x_label, size=SMALL, anchor="middle", fill="#5a5a5a"))
    parts.append(
        f'<text x="18" y="{(top + bottom) / 2:.1f}" font-size="{SMALL}" text-anchor="middle" fill="#5a5a5a" '
        f'transform="rotate(-90 18 {(top + bottom) / 2:.1f})">{escape(y_label)}</text>'
    )
    for number, (name, line) in enumerate(lines):
        colour, dash = COLOURS[number % len(COLOURS)], DASHES[number % len(DASHES)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(line))
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="4"{dash_attr} '
            f'stroke-linejoin="round"><title>{escape(name)}</title></polyline>'
        )
        for i, v in enumerate(line):
            parts.append(
                f'<circle cx="{x(i):.1f}" cy="{y(v):.1f}" r="6" fill="{colour}">'
                f"<title>{escape(name)}: {_number(v)}</title></circle>"
            )
        ly = legend_top + 32 * number
        parts.append(
            f'<line x1="{left}" x2="{left + 44}" y1="{ly - 7}" y2="{ly - 7}" stroke="{colour}" '
            f'stroke-width="4"{dash_attr}/>'
        )
        final = _number(line[-1]) if line else ""
        parts.append(_text(left + 56, ly, f"{_short(name, 30)}  {final}", size=SMALL))
    parts.append("</svg>")
    return mark_safe("".join(parts))


def bar_chart(*, title: str, bars: Sequence[tuple[str, int]], testid: str = "bar-chart") -> SafeString:
    """Horizontal bars, one per label, with the count and its share written beside the bar."""
    uid = next(_ids)
    total = sum(v for _l, v in bars) or 1
    top, row = 8, 46
    label_w = 130
    left, right = label_w, WIDTH - 120
    height = top + row * max(len(bars), 1) + 10
    biggest = max((v for _l, v in bars), default=1) or 1
    desc = ", ".join(f"{label}: {value}" for label, value in bars)
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" role="img" aria-labelledby="chart{uid}-t chart{uid}-d" '
        f'data-testid="{escape(testid)}" preserveAspectRatio="xMinYMin meet">',
        f'<title id="chart{uid}-t">{escape(title)}</title>',
        f'<desc id="chart{uid}-d">{escape(desc)}</desc>',
    ]
    for index, (label, value) in enumerate(bars):
        y = top + row * index
        width = (right - left) * value / biggest
        colour = COLOURS[index % len(COLOURS)]
        parts.append(_text(label_w - 10, y + 29, _short(label, 10), anchor="end"))
        parts.append(
            f'<rect x="{left}" y="{y + 6}" width="{max(width, 2):.1f}" height="32" rx="4" fill="{colour}">'
            f"<title>{escape(label)}: {value}</title></rect>"
        )
        share = round(100 * value / total)
        parts.append(_text(left + width + 10, y + 29, f"{value} ({share} %)", size=SMALL))
    parts.append("</svg>")
    return mark_safe("".join(parts))


def _number(value: int) -> str:
    return format_number(value)


def _describe_lines(steps: Sequence[str], lines: Sequence[tuple[str, Sequence[int]]]) -> str:
    return "; ".join(
        f"{name}: " + ", ".join(f"{step} {_number(v)}" for step, v in zip(steps, line, strict=False))
        for name, line in lines
    )
