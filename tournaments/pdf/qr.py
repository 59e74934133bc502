"""QR codes of the tables' entry links, drawn into the PDF as one filled vector path (a form per link).

The modules come from the one QR generator (``tournaments.qr``, segno); here they become PDF path
operators, one rectangle per horizontal run of dark modules: sharp at any print size.
"""

from __future__ import annotations

import hashlib
import itertools
from functools import lru_cache

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import Canvas

from ..qr import QUIET_ZONE, qr_matrix

__all__ = ["QUIET_ZONE", "draw_qr", "qr_code"]


@lru_cache(maxsize=2048)
def qr_code(value: str) -> tuple[int, str]:
    """The QR code of ``value``: its module count and its dark modules as PDF path operators.

    The path is in module units, one rectangle per horizontal run of dark modules, rows counted from
    the top, the quiet zone included in the coordinates.
    """
    modules = qr_matrix(value)
    operators = []
    for row_index, row in enumerate(modules):
        column = 0
        for dark, group in itertools.groupby(row):
            length = sum(1 for _ in group)
            if dark:
                # 1.04 high: closes hairline gaps between rows in some viewers
                operators.append(f"{column + QUIET_ZONE} {row_index + QUIET_ZONE} {length} 1.04 re")
            column += length
    return len(modules), " ".join(operators)


def draw_qr(canv: Canvas, value: str, x: float, y: float, size: float) -> None:
    """A QR code with its quiet zone in the square (x, y, size), black on white.

    The code is a PDF form, made once per document and link: a table's score sheet and its table
    card place the same one.
    """
    count, operators = qr_code(value)
    modules = count + 2 * QUIET_ZONE
    name = "qr" + hashlib.sha1(value.encode()).hexdigest()[:20]
    if not canv.hasForm(name):
        canv.beginForm(name, 0, 0, modules, modules + 1)
        canv.addLiteral(f"0 g {operators} f")
        canv.endForm()
    box = size / modules
    # Scale modules to the square with y running down from its top edge, place the form, restore.
    canv.addLiteral(f"q {fp_str(box, 0, 0, -box, x, y + size)} cm")
    canv.doForm(name)
    canv.addLiteral("Q")
