"""CSV for spreadsheets that must not run what a player typed (OWASP, "CSV Injection").

A text cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is read by Excel and
LibreOffice as a formula (``=HYPERLINK(...)`` in a player's name). Such a cell gets a leading ``'``, which
spreadsheets show as text and do not print. Numbers stay numbers (a ``-3`` of points is written as it is);
the ``csv`` module quotes separators and quotes inside a cell.
"""

import csv
from collections.abc import Iterable
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_writer(stream, *, delimiter: str = ";"):
    """A ``csv.writer`` whose rows are neutralised cell by cell."""
    return _SafeWriter(csv.writer(stream, delimiter=delimiter))


class _SafeWriter:
    def __init__(self, writer) -> None:
        self._writer = writer

    def writerow(self, row: Iterable[Any]) -> None:
        self._writer.writerow([csv_cell(value) for value in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)
