"""The prize list (Preisliste), rules.md section 8: who wins what, and where the prize pool comes from.

Place, winner (name, start number, club), points and the prize (an amount in €, goods, or both,
as the organiser entered them); then the prize pool worked out as the prize page shows it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Paragraph, Table, TableStyle

from .drawing import BOLD, mm, money, signed
from .fonts import register_fonts
from .lists import (
    BODY_SIZE,
    CELL,
    CONTENT_W,
    NOTE,
    ListHead,
    amounts_table,
    cell,
    escape,
    fitted,
    grid_style,
    heading,
    list_template,
    render_list,
)


@dataclass(frozen=True)
class PrizeLine:
    place: int | None  # None: the last place (the consolation prize)
    prize: str  # "50,00 €", "Ein Brotzeitbrettl", "20,00 € + Geschenkkorb"; "": not set yet
    winner: str  # "" while nobody holds the place
    start_number: int | None
    club: str
    points: int | None
    note: str = ""  # "Gleichstand – durch Los" when a lot decided the place


@dataclass(frozen=True)
class AwardLine:
    """What one player receives once shared places are split."""

    place: int
    winner: str
    start_number: int
    points: int
    amount_cents: int
    goods: str
    shared: str  # "" alone, else "2 share places 1–2"
    note: str = ""  # "Gleichstand – durch Los" when a lot decided his place
    handed_over: bool = False
    category: str = ""  # a category prize's name ("": the overall list)
    chosen: str = ""  # what he took from the prize table when his place was called


@dataclass(frozen=True)
class PrizeListDocument:
    head: ListHead
    prizes: tuple[PrizeLine, ...]
    prizes_set: bool  # False: the default places, amounts still to be set
    entry_fees_cents: int
    payout_percent: int
    entry_share_cents: int
    pot_share_cents: int  # Reuegeld and Weitergeld left in the pot
    sponsored_cents: int
    pool_cents: int
    assigned_cents: int  # the money prizes together
    awards: tuple[AwardLine, ...] = ()
    awarded_cents: int = 0  # the money that goes to players
    rounding_cents: int = 0  # cents of shared places that do not divide
    handed_over_cents: int = 0  # the money prizes the desk ticked as handed over
    category_awards: tuple[AwardLine, ...] = ()  # in the organiser's order of the categories
    costs_cents: int = 0  # the prize plan's costs, taken from the pool before the prizes

    @property
    def category_cents(self) -> int:
        return sum(a.amount_cents for a in self.category_awards)

    @property
    def leftover_cents(self) -> int:
        return self.pool_cents - self.awarded_cents - self.category_cents


PLACE_W = 22 * mm
NUMBER_W = 12 * mm
POINTS_W = 17 * mm
PRIZE_W = 68 * mm
WINNER_W = CONTENT_W - PLACE_W - NUMBER_W - POINTS_W - PRIZE_W
WIDTHS = (PLACE_W, WINNER_W, NUMBER_W, POINTS_W, PRIZE_W)
POOL_WIDTHS = (CONTENT_W - 40 * mm, 40 * mm)
PRIZE_CELL = ParagraphStyle("prize-cell", parent=CELL, fontName=BOLD)
WINNER_CELL = ParagraphStyle("winner-cell", parent=CELL, fontSize=BODY_SIZE + 0.5, leading=(BODY_SIZE + 0.5) * 1.2)
CLUB_CELL = ParagraphStyle("club-cell", parent=CELL, fontSize=8, leading=9.6)


def _winner(line: PrizeLine) -> list:
    if not line.winner:
        return [cell("\u2013", WINNER_CELL)]
    flowables = [cell(line.winner, WINNER_CELL)]
    if line.club:
        flowables.append(cell(line.club, CLUB_CELL))
    if line.note:
        flowables.append(cell(line.note, CLUB_CELL))
    return flowables


def _prizes_table(data: PrizeListDocument) -> Table:
    rows: list[list] = [[_("Place"), _("Winner"), _("No."), _("Points"), _("Prize")]]
    for line in data.prizes:
        place = f"{line.place}." if line.place is not None else _("last place")
        prize = cell(line.prize, PRIZE_CELL) if line.prize else Paragraph(escape(_("to be set")), CELL)
        rows.append(
            [
                place,
                _winner(line),
                str(line.start_number) if line.start_number else "",
                signed(line.points) if line.points is not None else "",
                prize,
            ]
        )
    table = Table(rows, colWidths=WIDTHS, repeatRows=1, hAlign="LEFT")
    style = grid_style(numeric=(2, 3))
    style += [
        ("FONT", (0, 1), (0, -1), BOLD, 11),
        ("TOPPADDING", (0, 0), (-1, 0), 4),
        ("BOTTOMPADDING", (0, 0), (-1, 0), 4),
        ("VALIGN", (0, 1), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 1), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 1), (-1, -1), 3),
    ]
    table.setStyle(TableStyle(style))
    fitted(table, rows, (0,), WIDTHS, size=11, font=BOLD)
    return table


def _pool_table(data: PrizeListDocument) -> Table:
    rows = [
        [_("Entry fees"), money(data.entry_fees_cents)],
        [_("of that to prizes (%(p)s %%)") % {"p": data.payout_percent}, money(data.entry_share_cents)],
        [_("Reuegeld and Weitergeld left in the pot"), money(data.pot_share_cents)],
        [_("Sponsored"), money(data.sponsored_cents)],
        *([[_("Costs taken from the prize pool"), "\u2212" + money(data.costs_cents)]] if data.costs_cents else []),
        [_("Prize pool"), money(data.pool_cents)],
        [_("Assigned as money prizes"), money(data.assigned_cents)],
        [_("Planned for the winners"), money(data.awarded_cents)],
        *([[_("Category prizes (money)"), money(data.category_cents)]] if data.category_awards else []),
        [_("Handed over to the winners so far"), money(data.handed_over_cents)],
        [_("Left in the prize pool"), money(data.leftover_cents)],
    ]
    return amounts_table(rows, POOL_WIDTHS, total_row=5 if data.costs_cents else 4)


AWARD_WIDTHS = (
    22 * mm,
    CONTENT_W - 22 * mm - 12 * mm - 17 * mm - 24 * mm - 50 * mm,
    12 * mm,
    17 * mm,
    24 * mm,
    50 * mm,
)


def _chosen(line: AwardLine) -> str:
    """The goods planned, and what he took at the prize table: "Preistisch → Schinken"."""
    if not line.chosen or line.chosen == line.goods:
        return line.goods
    return f"{line.goods} \u2192 {line.chosen}" if line.goods else line.chosen


def _awards_table(lines: tuple[AwardLine, ...]) -> Table:
    rows: list[list] = [[_("Place"), _("Winner"), _("No."), _("Points"), _("Money"), _("Goods")]]
    for line in lines:
        winner = [cell(line.winner, CELL)] + [cell(text, CLUB_CELL) for text in (line.shared, line.note) if text]
        rows.append(
            [
                f"{line.place}.",
                winner,
                str(line.start_number),
                signed(line.points),
                money(line.amount_cents) if line.amount_cents else "\u2013",
                cell(_chosen(line), CELL) if line.goods or line.chosen else "\u2013",
            ]
        )
    table = Table(rows, colWidths=AWARD_WIDTHS, repeatRows=1, hAlign="LEFT")
    table.setStyle(TableStyle(grid_style(numeric=(2, 3, 4)) + [("VALIGN", (0, 1), (-1, -1), "TOP")]))
    return table


def render_prize_list(data: PrizeListDocument) -> bytes:
    register_fonts()
    story: list = [_prizes_table(data)] if data.prizes else []
    if not data.prizes_set:
        story.append(
            Paragraph(
                escape(_("No prizes yet: the default is one per table of round 1, the last for the last place.")), NOTE
            )
        )
    if data.awards:
        story += [heading(_("Who receives what")), _awards_table(data.awards)]
    for category in dict.fromkeys(a.category for a in data.category_awards):
        story += [
            heading(_("Category prize: %(name)s") % {"name": category}),
            _awards_table(tuple(a for a in data.category_awards if a.category == category)),
        ]
    story.append(
        Paragraph(
            escape(
                _(
                    "Shared places: players on the same place share the money prizes of all the places they occupy evenly, "
                    "rounded down to the cent; the remaining cents stay in the prize pool. Goods go to them in the order of "
                    "the stored lot."
                )
            ),
            NOTE,
        )
    )
    story += [heading(_("Prize pool")), _pool_table(data)]
    templates = [list_template(data.head, "prizes", _("Prize list"))]
    return render_list(templates, story, title=_("Prize list") + f" \u2013 {data.head.tournament}")


__all__ = ["AwardLine", "PrizeLine", "PrizeListDocument", "render_prize_list"]
