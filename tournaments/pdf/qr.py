"""QR codes of the tables' entry links, drawn into the PDF as one filled path (a form per link).

ReportLab's QrCodeWidget encodes (data, error correction, placement, format). Its ``make()``
tries all eight masks, each with a full ``makeImpl`` and a slow pure-Python penalty; here the
eight candidates come from one placement by flipping bits (the masks differ only in the data
modules) and are scored by ``mask_penalty``, which scores exactly as ReportLab does. The symbol
is the very one the widget makes (``tests/pdf/test_qr.py``), about three times faster: a round of
250 tables encodes its links in about a second.
"""
from __future__ import annotations

import hashlib
import itertools
import re
from functools import lru_cache

from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.barcode.qrencoder import QRUtil
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import Canvas

QUIET_ZONE = 4  # modules of white around a QR code, as the standard asks
LEVEL = "M"  # 15 % of the code may be smudged or torn

_BITS = bytes.maketrans(b"\x00\x01", b"01")
_RUN = re.compile(rb"0{5,}|1{5,}")
_FINDER = b"10111010000"


def _penalty(rows: list[bytes]) -> int:
    """ReportLab's four penalty rules on the rows of a symbol as b"0101..." strings."""
    n = len(rows)
    score = 0
    for line in itertools.chain(rows, (bytes(column) for column in zip(*rows))):
        for run in _RUN.finditer(line):  # rule 1: five or more alike in a row or column, 3 + (length - 5)
            score += len(run.group()) - 2
    for row in rows:  # rule 3: a finder-like pattern; ReportLab scans rows only, left to right, not the last place
        score += 40 * row[:-1].count(_FINDER)
    full = (1 << n) - 1
    values = [int(row, 2) for row in rows]
    for upper, lower in zip(values, values[1:]):  # rule 2: each 2x2 block of one colour
        dark = upper & lower
        light = ~upper & ~lower & full
        score += 3 * ((dark & (dark >> 1)).bit_count() + (light & (light >> 1)).bit_count())
    dark_modules = sum(row.count(b"1") for row in rows)  # rule 4: dark and light out of balance
    score += 10 * (abs(100 * dark_modules // (n * n) - 50) // 5)
    return score


def mask_penalty(modules: list[list[bool]]) -> int:
    """The penalty of a masked symbol, as ReportLab's ``QRUtil.getLostPoint`` gives it."""
    return _penalty([bytes(row).translate(_BITS) for row in modules])


_MASK_BITS: dict[int, tuple[tuple[int, ...], ...]] = {}


def _mask_bits(version: int, size: int, positions: list[tuple[int, int]]) -> tuple[tuple[int, ...], ...]:
    """Per mask, per row: the data modules the mask flips, as bits (column 0 is the highest bit)."""
    if version in _MASK_BITS:
        return _MASK_BITS[version]
    masks = []
    for pattern in range(8):
        flips = QRUtil.getMask(pattern)
        rows = [0] * size
        for column, row in positions:
            if flips(row, column):
                rows[row] |= 1 << (size - 1 - column)
        masks.append(tuple(rows))
    _MASK_BITS[version] = tuple(masks)
    return _MASK_BITS[version]


def qr_modules(value: str) -> list[list[bool]]:
    """The modules of the QR code of ``value``, exactly as ``QrCodeWidget(value, barLevel="M")`` makes them."""
    qr = QrCodeWidget(value, barLevel=LEVEL).qr
    if qr.version is None:
        qr.version = qr.calculate_version()
    qr.makeImpl(True, 0)  # function patterns, data placed under mask 0, format bits blank (as when testing)
    size = qr.moduleCount
    masks = _mask_bits(qr.version, size, qr.dataPosIterator())
    placed = [int(bytes(row).translate(_BITS), 2) for row in qr.modules]
    unmasked = [value ^ flip for value, flip in zip(placed, masks[0])]
    width = f"0{size}b"

    def penalty(pattern: int) -> int:
        return _penalty([format(v ^ f, width).encode() for v, f in zip(unmasked, masks[pattern])])

    qr.makeImpl(False, min(range(8), key=lambda pattern: (penalty(pattern), pattern)))
    return qr.modules


@lru_cache(maxsize=2048)
def qr_code(value: str) -> tuple[int, str]:
    """The QR code of ``value``: its module count and its dark modules as PDF path operators.

    Cached: a table's score sheet and its table card show the same link, and a rebuilt pack the
    same links again. The path is in module units, one rectangle per horizontal run of dark
    modules, rows counted from the top.
    """
    modules = qr_modules(value)
    operators = []
    for row_index, row in enumerate(modules):
        column = 0
        for dark, group in itertools.groupby(bool(cell) for cell in row):
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
