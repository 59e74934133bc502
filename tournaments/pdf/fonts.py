"""The font every printed document uses: DejaVu Sans, embedded, with umlauts and ß.

The TTF files come from Debian's ``fonts-dejavu-core`` package (``.ci/run`` installs it). Without
them nothing is printed: ``register_fonts`` raises ``FontMissing`` naming the package.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
APT_PACKAGE = "fonts-dejavu-core"

REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"
FILES: dict[str, str] = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf"}


class FontMissing(RuntimeError):
    """A TTF file of DejaVu Sans is not installed."""


def font_files(folder: Path | None = None) -> dict[str, Path]:
    """The TTF file of each face; ``FontMissing`` (naming the Debian package) if one is not there."""
    folder = folder or FONT_DIR
    paths = {name: folder / filename for name, filename in FILES.items()}
    for path in paths.values():
        if not path.is_file():
            raise FontMissing(
                f"The PDF font {path.name} is missing (looked in {folder}). Install the Debian package "
                f"{APT_PACKAGE}: apt-get install {APT_PACKAGE}"
            )
    return paths


def register_fonts() -> None:
    """Register DejaVu Sans and DejaVu Sans Bold with ReportLab (once per process)."""
    registered = pdfmetrics.getRegisteredFontNames()
    if REGULAR in registered and BOLD in registered:
        return
    for name, path in font_files().items():
        pdfmetrics.registerFont(TTFont(name, str(path)))
    # <b> in paragraphs and table styles map to the bold face; there is no italic in our documents.
    addMapping(REGULAR, 0, 0, REGULAR)
    addMapping(REGULAR, 1, 0, BOLD)
    addMapping(REGULAR, 0, 1, REGULAR)
    addMapping(REGULAR, 1, 1, BOLD)
