"""The QR codes: one generator (segno) for the pages' SVG and the PDFs, and what a phone reads from them."""

import io
import os
import random
import re
import shutil
import string
import subprocess

import pytest
import zxingcpp
from PIL import Image, ImageDraw
from reportlab.lib.pagesizes import A6
from reportlab.pdfgen.canvas import Canvas

from tournaments.pdf.qr import QUIET_ZONE, draw_qr, qr_code
from tournaments.qr import qr_matrix, qr_svg


def links(n: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    hosts = ["https://rennen.example.org", "http://192.168.178.20:8000", "http://127.0.0.1:8000", "https://x.de"]
    alphabet = string.ascii_letters + string.digits + "-_"
    return [f"{rng.choice(hosts)}/tisch/{''.join(rng.choice(alphabet) for _ in range(24))}/" for _ in range(n)]


def decoded(image: Image.Image) -> list[str]:
    return [code.text for code in zxingcpp.read_barcodes(image) if code.format == zxingcpp.BarcodeFormat.QRCode]


def path_image(link: str, scale: int = 6) -> Image.Image:
    """The PDF path of ``link``'s code painted rectangle by rectangle, as the printer does."""
    count, operators = qr_code(link)
    side = (count + 2 * QUIET_ZONE) * scale
    image = Image.new("L", (side, side), 255)
    draw = ImageDraw.Draw(image)
    for column, row, length, _height in re.findall(r"(\S+) (\S+) (\S+) (\S+) re", operators):
        x, y = float(column) * scale, float(row) * scale
        draw.rectangle([x, y, x + float(length) * scale - 1, y + scale - 1], fill=0)
    return image


def test_the_pdf_path_reads_back_as_the_link():
    versions = set()
    for link in [*links(25), "T", "https://example.org/" + "x" * 60, "https://example.org/" + "Ab1-" * 60]:
        assert decoded(path_image(link)) == [link]
        versions.add(len(qr_matrix(link)))
    assert len(versions) >= 3  # short and long links, several symbol sizes


def test_the_path_covers_exactly_the_dark_modules():
    link = links(1, seed=7)[0]
    modules = qr_matrix(link)
    count, operators = qr_code(link)
    assert count == len(modules)
    dark = set()
    for rect in operators.split(" re"):
        if rect.strip():
            column, row, length, _height = (float(v) for v in rect.split())
            dark |= {(int(row) - QUIET_ZONE, int(column) - QUIET_ZONE + i) for i in range(int(length))}
    assert dark == {(r, c) for r, row in enumerate(modules) for c, cell in enumerate(row) if cell}


def test_error_correction_m_and_the_size_the_link_asks_for():
    link = "https://rennen.example.org/tisch/" + "a" * 24 + "/"  # 58 characters: version 4 at level M
    assert len(qr_matrix(link)) == 33


def test_the_svg_is_the_same_code_with_its_quiet_zone():
    link = links(1, seed=3)[0]
    svg = qr_svg(link)
    side = len(qr_matrix(link)) + 2 * QUIET_ZONE
    assert svg.startswith("<svg") and f'viewBox="0 0 {side} {side}"' in svg
    assert "<?xml" not in svg and 'width="' not in svg  # the page sizes it
    # the SVG's runs of dark modules, one horizontal line per run, are the matrix's
    dark = set()
    x = y = 0.0
    for command, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?", svg.split('class="qrline"')[1]):
        if command == "M":
            x, y = float(a), float(b)
        elif command == "m":
            x, y = x + float(a), y + float(b)
        else:
            dark |= {(int(y - 0.5) - QUIET_ZONE, int(x) - QUIET_ZONE + i) for i in range(int(float(a)))}
            x += float(a)
    modules = qr_matrix(link)
    assert dark == {(r, c) for r, row in enumerate(modules) for c, cell in enumerate(row) if cell}


@pytest.mark.skipif(
    shutil.which("pdftoppm") is None and os.environ.get("CI") != "true",
    reason="needs pdftoppm (apt install poppler-utils)",
)
def test_a_printed_code_reads_back_from_the_rendered_pdf(tmp_path):
    """The code as a PDF viewer draws it at 150 dpi, 3 cm wide, as on a table card: a phone reads the link."""
    link = links(1, seed=11)[0]
    buffer = io.BytesIO()
    canv = Canvas(buffer, pagesize=A6)
    draw_qr(canv, link, 40, 150, 85)  # 85 pt = 3 cm
    canv.showPage()
    canv.save()
    (tmp_path / "qr.pdf").write_bytes(buffer.getvalue())
    subprocess.run(
        ["pdftoppm", "-r", "150", "-png", "-singlefile", str(tmp_path / "qr.pdf"), str(tmp_path / "qr")], check=True
    )
    assert decoded(Image.open(tmp_path / "qr.png")) == [link]
