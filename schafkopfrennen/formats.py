"""Numbers as the pages and the PDFs show them: the one home of their format.

German first: ``10,0``, ``1.250,00 €``; in English ``10.0``, ``1,250.00 €`` (the active language's
separators, through Django's localisation: a page and its PDF always agree). Negative numbers get
one minus sign, "−" (U+2212: as wide as the plus, easy to see on paper and on a phone), never a
hyphen. Templates use these through the filters of ``tournaments/templatetags/numbers.py`` (and
``standings``), the PDFs call them directly. CSV and JSON downloads keep plain machine numbers.
"""

from __future__ import annotations

from decimal import Decimal

from django.utils.formats import number_format

__all__ = ["MINUS", "euro", "number", "signed"]

MINUS = "\u2212"


def number(value, decimals: int | None = None, *, sign: bool = False, grouping: bool = False) -> str:
    """``value`` in the active language's format: ``−3``, ``10,0`` (``decimals=1``), ``+3`` (``sign``).

    ``None`` and ``""`` give ``""``. A value that rounds to zero has no sign. ``grouping``: thousands
    separated (``1.250``).
    """
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        value = Decimal(value)
    text = number_format(abs(value), decimal_pos=decimals, use_l10n=True, force_grouping=grouping)
    if not any(digit in text for digit in "123456789"):
        return text
    if value < 0:
        return MINUS + text
    return f"+{text}" if sign else text


def signed(value) -> str:
    """Points as players write them: ``+3``, ``−3``, ``0``."""
    return number(int(value), sign=True)


def euro(cents) -> str:
    """Cents as euros: ``12,50 €``, ``1.250,00 €``, ``−2,50 €``; ``None`` and ``""`` give ``""``."""
    if cents is None or cents == "":
        return ""
    return f"{number(Decimal(int(cents)) / 100, 2, grouping=True)} \u20ac"
