"""QR codes of the private links, from one generator (segno) for the pages' SVG and the PDFs.

Error correction M (15 % of a code may be smudged or torn), never boosted, so a link's symbol has
the size its length asks for; a quiet zone of four modules around it, as the standard asks.
"""

from __future__ import annotations

import io
from decimal import Decimal
from functools import lru_cache

import segno
import segno.helpers

QUIET_ZONE = 4  # modules of white around a QR code
ERROR = "m"


def _make(value: str) -> segno.QRCode:
    return segno.make_qr(value, error=ERROR, boost_error=False)


@lru_cache(maxsize=2048)
def qr_matrix(value: str) -> tuple[tuple[bool, ...], ...]:
    """The modules of the QR code of ``value``, rows from the top, without the quiet zone (True: dark).

    Cached: a table's score sheet and its table card show the same link, and a rebuilt pack the same
    links again.
    """
    return tuple(tuple(bool(cell) for cell in row) for row in _make(value).matrix)


@lru_cache(maxsize=512)
def qr_svg(value: str) -> str:
    """A standalone SVG document of the QR code for ``value``, one unit per module, with its quiet zone.

    It scales to whatever size the page gives it (``width``/``height`` on the ``img``).
    """
    buffer = io.BytesIO()
    _make(value).save(
        buffer,
        kind="svg",
        border=QUIET_ZONE,
        scale=1,
        xmldecl=False,
        unit=None,
        omitsize=True,
        title=None,
        dark="#000",
        light="#fff",
    )
    return buffer.getvalue().decode("ascii")


def epc_qr(*, name: str, iban: str, amount_cents: int, reference: str) -> segno.QRCode:
    """The GiroCode (EPC-QR, European Payments Council's SEPA credit transfer): a banking app scans it and fills
    in the transfer (recipient, IBAN, amount, purpose)."""
    return segno.helpers.make_epc_qr(
        name=name[:70], iban=iban, amount=Decimal(amount_cents) / 100, text=reference[:140], encoding="utf-8"
    )


def epc_qr_svg(*, name: str, iban: str, amount_cents: int, reference: str) -> str:
    buffer = io.BytesIO()
    epc_qr(name=name, iban=iban, amount_cents=amount_cents, reference=reference).save(
        buffer,
        kind="svg",
        border=QUIET_ZONE,
        scale=1,
        xmldecl=False,
        unit=None,
        omitsize=True,
        title=None,
        dark="#000",
        light="#fff",
    )
    return buffer.getvalue().decode("ascii")


def epc_qr_png(*, name: str, iban: str, amount_cents: int, reference: str) -> bytes:
    buffer = io.BytesIO()
    epc_qr(name=name, iban=iban, amount_cents=amount_cents, reference=reference).save(
        buffer, kind="png", border=QUIET_ZONE, scale=6
    )
    return buffer.getvalue()
