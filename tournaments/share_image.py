"""Share images (Open Graph, 1200 × 630 PNG) for a club's group chat: drawn with Pillow in DejaVu Sans, the
PDFs' font, from plain values (no database here)."""

import io

from PIL import Image, ImageDraw, ImageFont

from .pdf.fonts import font_files

WIDTH, HEIGHT = 1200, 630
MARGIN = 60
GREEN, INK, PAPER, MUTED = (22, 90, 50), (20, 20, 20), (255, 255, 255), (70, 70, 70)


def _font(bold: bool, size: int) -> ImageFont.FreeTypeFont:
    files = font_files()
    return ImageFont.truetype(str(files["DejaVuSans-Bold" if bold else "DejaVuSans"]), size)


def _fit(draw: ImageDraw.ImageDraw, text: str, bold: bool, size: int, width: int) -> ImageFont.FreeTypeFont:
    """The font at ``size``, smaller until the text fits ``width`` (a long name still reads whole)."""
    while size > 18:
        font = _font(bold, size)
        if draw.textlength(text, font=font) <= width:
            return font
        size -= 2
    return _font(bold, size)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def announcement_png(*, title: str, club: str, when: str, where: str, facts: list[str]) -> bytes:
    """A tournament's announcement: name, club, day and start, place, format and fee."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 110), fill=GREEN)
    draw.text((MARGIN, 30), club, fill=PAPER, font=_fit(draw, club, True, 44, WIDTH - 2 * MARGIN))
    y = 150
    draw.text((MARGIN, y), title, fill=INK, font=_fit(draw, title, True, 64, WIDTH - 2 * MARGIN))
    y += 100
    for line, bold, size in [(when, True, 44), (where, False, 36), *[(f, False, 34) for f in facts]]:
        if not line:
            continue
        draw.text((MARGIN, y), line, fill=INK if bold else MUTED, font=_fit(draw, line, bold, size, WIDTH - 2 * MARGIN))
        y += size + 22
    return _png(image)


def top_ten_png(*, title: str, heading: str, rows: list[tuple[str, str, str]]) -> bytes:
    """The top 10 of the standings: (place, name, points) per row."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 100), fill=GREEN)
    draw.text((MARGIN, 25), title, fill=PAPER, font=_fit(draw, title, True, 44, WIDTH - 2 * MARGIN))
    draw.text((MARGIN, 112), heading, fill=MUTED, font=_font(False, 28))
    bold = _font(True, 34)
    y = 158
    for place, name, points in rows[:10]:
        draw.text((MARGIN, y), place, fill=INK, font=bold)
        draw.text((MARGIN + 90, y), name, fill=INK, font=_fit(draw, name, False, 34, WIDTH - 2 * MARGIN - 300))
        draw.text((WIDTH - MARGIN, y), points, fill=INK, font=bold, anchor="ra")
        y += 45
    return _png(image)
