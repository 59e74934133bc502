"""Every printable document in one registry: the print views and both print commands find them here.

A document has a key (the commands' name: ``print_standings --document cash``), a slug (the name in
its URL and file: ``kassenliste``), a scope (a round's documents or the tournament's end) and a
``render`` that reads its data through ``selectors.printing`` and draws it with its ``pdf/`` module.

    document = PRINTABLES["cash"]
    pdf = document.render(tournament)                       # tournament scope
    pdf = ROUND_DOCUMENTS["sitzplan"].render(rnd, url_base=...)  # round scope, by URL slug
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .pdf.cash_list import render_cash_list
from .pdf.certificates import render_certificates
from .pdf.pack import render_pack
from .pdf.prize_list import render_prize_list
from .pdf.score_sheet import render_score_sheets
from .pdf.seat_list import render_seat_list
from .pdf.standings import render_standings
from .pdf.table_cards import render_table_cards
from .selectors.printing import (
    DEFAULT_URL_BASE,
    cash_list_data,
    certificates_data,
    print_pack_data,
    prize_list_data,
    score_sheets_data,
    seat_list_data,
    standings_data,
    table_cards_data,
)

ROUND, TOURNAMENT = "round", "tournament"


@dataclass(frozen=True)
class Printable:
    key: str  # the print commands' name
    slug: str  # the name in the URL (German, as the organiser reads it) and in the file name
    scope: str  # ROUND (of one round: render(rnd, ...)) or TOURNAMENT (its end: render(tournament, ...))
    render: Callable[..., bytes]
    per_table: bool = False  # a round's document that can also be printed for one table (tables=[table])

    def filename(self, slug: str, *, round: int | None = None, table: int | None = None) -> str:
        parts = [self.slug, slug] + ([f"runde-{round}"] if round else []) + ([f"tisch-{table}"] if table else [])
        return "-".join(parts) + ".pdf"


def _standings(tournament, *, round: int | None = None, **_: Any) -> bytes:
    return render_standings(standings_data(tournament, round=round))


def _prizes(tournament, **_: Any) -> bytes:
    return render_prize_list(prize_list_data(tournament))


def _cash(tournament, **_: Any) -> bytes:
    return render_cash_list(cash_list_data(tournament))


def _certificates(tournament, *, places: int | None = None, **_: Any) -> bytes:
    return render_certificates(certificates_data(tournament, places=places))


def _score_sheets(filled: bool) -> Callable[..., bytes]:
    def render(rnd, *, url_base: str = DEFAULT_URL_BASE, tables=None, **_: Any) -> bytes:
        return render_score_sheets(score_sheets_data(rnd, filled=filled, url_base=url_base, tables=tables))

    return render


def _seat_list(rnd, **_: Any) -> bytes:
    return render_seat_list(seat_list_data(rnd))


def _table_cards(rnd, *, url_base: str = DEFAULT_URL_BASE, **_: Any) -> bytes:
    return render_table_cards(table_cards_data(rnd, url_base=url_base))


def _pack(rnd, *, url_base: str = DEFAULT_URL_BASE, blank: bool = False, progress=None, **_: Any) -> bytes:
    return render_pack(print_pack_data(rnd, url_base=url_base, blank=blank), progress=progress)


PRINTABLES: dict[str, Printable] = {
    p.key: p
    for p in (
        Printable("standings", "rangliste", TOURNAMENT, _standings),
        Printable("prizes", "preisliste", TOURNAMENT, _prizes),
        Printable("cash", "kassenliste", TOURNAMENT, _cash),
        Printable("certificates", "urkunden", TOURNAMENT, _certificates),
        Printable("score-sheets-blank", "spielliste-leer", ROUND, _score_sheets(filled=False), per_table=True),
        Printable("score-sheets", "spielliste", ROUND, _score_sheets(filled=True), per_table=True),
        Printable("seat-list", "sitzplan", ROUND, _seat_list),
        Printable("table-cards", "tischkarten", ROUND, _table_cards),
        Printable("pack", "druckpaket", ROUND, _pack),
    )
}

# A round's single documents by their URL slug (o/<slug>/runde/<n>/druck/<doc>.pdf); the pack is built apart.
ROUND_DOCUMENTS: dict[str, Printable] = {p.slug: p for p in PRINTABLES.values() if p.scope == ROUND and p.key != "pack"}
TABLE_DOCUMENTS: dict[str, Printable] = {slug: p for slug, p in ROUND_DOCUMENTS.items() if p.per_table}
TOURNAMENT_DOCUMENTS: dict[str, Printable] = {k: p for k, p in PRINTABLES.items() if p.scope == TOURNAMENT}
