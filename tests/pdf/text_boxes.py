"""Where and how big each string of a PDF is printed (pypdf's text visitor): for the ≥ 8 pt rule and for
columns a long name must not cross (issue 35).

A run's size is the font size times the vertical scale of the text matrix and the current transformation
matrix, so text drawn in a scaled form or with ``setFont(size)`` inside ``scale()`` is measured as printed.
Its width comes from the font's metrics (ReportLab's ``stringWidth``, the same as it laid the text out with).
"""

import io
import math
from dataclasses import dataclass

import pypdf
from reportlab.pdfbase.pdfmetrics import stringWidth

from tournaments.pdf.fonts import BOLD, REGULAR, register_fonts


@dataclass(frozen=True)
class Run:
    page: int
    text: str
    size: float  # points, as printed
    x: float  # left end, points from the page's left edge
    y: float  # baseline, points from the page's foot
    width: float  # points

    @property
    def right(self) -> float:
        return self.x + self.width


def _multiply(a, b):
    return [
        a[0] * b[0] + a[1] * b[2],
        a[0] * b[1] + a[1] * b[3],
        a[2] * b[0] + a[3] * b[2],
        a[2] * b[1] + a[3] * b[3],
        a[4] * b[0] + a[5] * b[2] + b[4],
        a[4] * b[1] + a[5] * b[3] + b[5],
    ]


def _reportlab_font(font_dict) -> str:
    """The face a PDF font dict names: every document prints DejaVu Sans, regular or bold (tournaments/pdf/fonts)."""
    base = str((font_dict or {}).get("/BaseFont", ""))
    return BOLD if "Bold" in base else REGULAR


def text_runs(content: bytes) -> list[Run]:
    """Every non-blank string each page prints, with its printed size, position and width."""
    register_fonts()
    runs: list[Run] = []
    reader = pypdf.PdfReader(io.BytesIO(content))
    for number, page in enumerate(reader.pages, start=1):

        def visit(text, cm, tm, font_dict, font_size, number=number):
            if not text.strip():
                return
            m = _multiply(tm, cm)
            scale = math.hypot(m[2], m[3])
            size = font_size * scale
            font = _reportlab_font(font_dict)
            width = stringWidth(text.strip(), font, size)
            lead = len(text) - len(text.lstrip())  # leading blanks move the visible text right
            x = m[4] + (stringWidth(text[:lead], font, size) if lead else 0.0)
            runs.append(Run(number, text.strip(), round(size, 2), x, m[5], width))

        page.extract_text(visitor_text=visit)
    return runs
