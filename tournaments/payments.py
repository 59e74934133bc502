"""Entry fees paid by bank transfer before the evening: the IBAN check, the transfer's reference ("GiroCode"
text) and reading a bank statement exported as CSV. Plain functions over strings: no database here."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

# Columns a German bank's CSV export names (lower case, compared without spaces, dots and slashes).
PURPOSE_COLUMNS = (
    "verwendungszweck",
    "buchungstext",
    "vorgang/verwendungszweck",
    "purpose",
    "reference",
    "referenz",
    "zweck",
)
AMOUNT_COLUMNS = ("betrag", "umsatz", "betrag(eur)", "betrageur", "amount")
NAME_COLUMNS = (
    "auftraggeber/empfänger",
    "auftraggeber",
    "zahlungspflichtiger",
    "name",
    "beguenstigter/zahlungspflichtiger",
    "begünstigter/zahlungspflichtiger",
    "gegenkonto",
    "payer",
)


def iban_normalise(value: str) -> str:
    return re.sub(r"\s+", "", value or "").upper()


def iban_valid(value: str) -> bool:
    """ISO 13616: two letters, two check digits, up to 30 letters or digits; the number mod 97 is 1
    (a German IBAN has 22 characters)."""
    iban = iban_normalise(value)
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{11,30}", iban):
        return False
    if iban.startswith("DE") and len(iban) != 22:
        return False
    digits = "".join(str(int(ch, 36)) for ch in iban[4:] + iban[:4])
    return int(digits) % 97 == 1


def iban_display(value: str) -> str:
    iban = iban_normalise(value)
    return " ".join(iban[i : i + 4] for i in range(0, len(iban), 4))


def transfer_reference(slug: str, start_number: int) -> str:
    """What the player writes as the transfer's purpose (and the GiroCode carries): the tournament's short
    name and his start number, e.g. ``sommerrennen-2099 Nr 17``."""
    return f"{slug} Nr {start_number}"


def reference_pattern(slug: str) -> re.Pattern:
    """Finds a start number of ``slug`` in a purpose text as banks pass it on (upper case, spaces and line
    breaks inserted or removed): ``SOMMERRENNEN-2099NR17``."""
    return re.compile(re.escape(re.sub(r"\s+", "", slug).upper()) + r"NR\.?0*(\d{1,5})(?!\d)")


def start_number_in(purpose: str, pattern: re.Pattern) -> int | None:
    found = pattern.search(re.sub(r"\s+", "", purpose or "").upper())
    return int(found.group(1)) if found else None


@dataclass(frozen=True)
class StatementRow:
    line: int  # the line in the file (the header is line 1)
    name: str
    purpose: str
    amount_cents: int | None  # None: not a number


class StatementError(ValueError):
    """The file is no bank statement this reader knows: no purpose or amount column."""


def _key(header: str) -> str:
    return re.sub(r"[\s.]", "", (header or "").strip().lower())


def _cents(text: str) -> int | None:
    value = (text or "").strip().replace("€", "").replace("EUR", "").strip()
    if "," in value:  # German: 1.234,56
        value = value.replace(".", "").replace(",", ".")
    try:
        return int((Decimal(value) * 100).to_integral_value())
    except (InvalidOperation, ValueError):
        return None


def statement_rows(text: str) -> list[StatementRow]:
    """The credit rows of a CSV bank statement (``;`` or ``,`` separated; a preamble before the header row is
    skipped). Debits (negative amounts) are left out."""
    lines = text.lstrip("\ufeff").splitlines()
    for start, line in enumerate(lines):  # noqa: B007 - the header row's index is read after the loop
        delimiter = ";" if line.count(";") >= line.count(",") else ","
        headers = [_key(h) for h in next(csv.reader([line], delimiter=delimiter))]
        purpose = next((headers.index(c) for c in PURPOSE_COLUMNS if c in headers), None)
        amount = next((headers.index(c) for c in AMOUNT_COLUMNS if c in headers), None)
        if purpose is not None and amount is not None:
            break
    else:
        raise StatementError("no purpose and amount columns")
    name = next((headers.index(c) for c in NAME_COLUMNS if c in headers), None)
    rows = []
    reader = csv.reader(io.StringIO("\n".join(lines[start + 1 :])), delimiter=delimiter)
    for offset, cells in enumerate(reader, start=start + 2):
        if not any(c.strip() for c in cells):
            continue
        cell = lambda i, cells=cells: cells[i].strip() if i is not None and i < len(cells) else ""  # noqa: E731
        cents = _cents(cell(amount))
        if cents is not None and cents <= 0:
            continue
        rows.append(StatementRow(line=offset, name=cell(name), purpose=cell(purpose), amount_cents=cents))
    return rows
