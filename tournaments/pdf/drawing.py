"""Small drawing helpers every document shares: numbers, money, fitted text, text runs, page numbers."""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from schafkopfrennen.formats import MINUS, euro, number, signed

from .fonts import BOLD, REGULAR, register_fonts

__all__ = [
    "BOLD",
    "MINUS",
    "MIN_PT",
    "REGULAR",
    "Canvas",
    "PageSection",
    "PagedCanvas",
    "TextRun",
    "fit_size",
    "fit_text",
    "mm",
    "money",
    "new_canvas",
    "number",
    "shorten",
    "signed",
]

# No printed text is smaller (cheap printers, old eyes); what does not fit at it is wrapped or shortened.
MIN_PT = 8.0

# Numbers and money as the pages show them (one home: schafkopfrennen/formats.py): +3, −3, 1.250,00 €.
money = euro


def fit_size(text: str, font: str, size: float, width: float, minimum: float = MIN_PT) -> float:
    """The largest font size up to ``size`` at which ``text`` fits into ``width`` points, never below MIN_PT
    (nor ``minimum``): a text that still does not fit is shortened (``fit_text``) or wrapped by the caller."""
    needed = stringWidth(text, font, size)
    if needed <= width:
        return size
    return max(minimum, MIN_PT, size * width / needed)


def shorten(text: str, font: str, size: float, width: float) -> str:
    """``text`` as it is if it fits ``width`` points at ``size``, else cut at the end with an ellipsis."""
    if stringWidth(text, font, size) <= width:
        return text
    low, high = 0, len(text)  # the longest cut that fits, found by halving
    while low < high:
        middle = (low + high + 1) // 2
        if stringWidth(text[:middle].rstrip() + "\u2026", font, size) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + "\u2026"


def fit_text(text: str, font: str, size: float, width: float, minimum: float = MIN_PT) -> tuple[str, float]:
    """``text`` and a size for one line of ``width`` points: shrunk down to ``minimum`` (at least MIN_PT),
    then shortened with an ellipsis, so it never runs past its place."""
    fitted = fit_size(text, font, size, width, minimum)
    return shorten(text, font, fitted, width), fitted


def new_canvas(buffer, *, pagesize, title: str, canvasmaker=Canvas) -> Canvas:
    register_fonts()
    canv = canvasmaker(buffer, pagesize=pagesize)
    canv.setTitle(title)
    canv.setAuthor("Schafkopfrennen")
    canv.setCreator("Schafkopfrennen")
    return canv


class TextRun:
    """Many strings in one PDF text object.

    ``canvas.drawString`` builds a text object per string; a score sheet page has some 700 strings,
    and one shared object per page costs a fraction of that. ``close()`` puts it on the page.
    """

    def __init__(self, canv: Canvas, font: str, size: float):
        self._canvas = canv
        self._text = canv.beginText()
        self._font = (font, size)
        self._text.setFont(font, size)

    def font(self, font: str, size: float) -> None:
        if (font, size) != self._font:
            self._text.setFont(font, size)
            self._font = (font, size)

    def left(self, x: float, y: float, text: str) -> None:
        self._text.setTextOrigin(x, y)
        self._text.textOut(text)

    def right(self, x: float, y: float, text: str) -> None:
        self.left(x - stringWidth(text, *self._font), y, text)

    def centre(self, x: float, y: float, text: str) -> None:
        self.left(x - stringWidth(text, *self._font) / 2, y, text)

    def close(self) -> None:
        self._canvas.drawText(self._text)


# --- "Page x of y" per section ---------------------------------------------------------------


@dataclass(frozen=True)
class PageSection:
    """A run of pages that counts its own pages; ``footer(canv, page, pages)`` draws the number."""

    key: str
    footer: Callable[[Canvas, int, int], None]


class PagedCanvas(Canvas):
    """Holds every page back until ``save`` so a footer can say "Page 3 of 7" within its section.

    A page template's ``onPage`` sets ``canv.page_section``; pages without a section get no number.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.page_section: PageSection | None = None
        self._held: list[tuple[PageSection | None, dict]] = []

    def showPage(self):
        self._held.append((self.page_section, dict(self.__dict__)))
        self.page_section = None
        self._startPage()

    def save(self):
        if len(self._code):
            self.showPage()
        totals = Counter(section.key for section, _ in self._held if section is not None)
        seen: Counter[str] = Counter()
        held, self._held = self._held, []
        for section, state in held:
            self.__dict__.update(state)
            if section is not None:
                seen[section.key] += 1
                section.footer(self, seen[section.key], totals[section.key])
            Canvas.showPage(self)
        self._held = []
        Canvas.save(self)


def logo_image(data: bytes | None) -> ImageReader | None:
    """The club's logo, or None if there is none or it cannot be read (then the page is drawn without it)."""
    if not data:
        return None
    try:
        image = ImageReader(io.BytesIO(data))
        width, height = image.getSize()
    except Exception:
        return None
    if width <= 0 or height <= 0:
        return None
    return image


def draw_logo(canv: Canvas, image: ImageReader, *, centre_x: float, top: float, max_w: float, max_h: float) -> None:
    """The logo scaled to fit ``max_w`` × ``max_h``, centred on ``centre_x`` below ``top``."""
    width, height = image.getSize()
    scale = min(max_w / width, max_h / height)
    w, h = width * scale, height * scale
    canv.drawImage(image, centre_x - w / 2, top - h, w, h, mask="auto")
