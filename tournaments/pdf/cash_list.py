"""The cash list (Kassenliste), rules.md section 7: what each player paid and owes, what each Tischbester gets.

Three parts, as the cash page shows them: per player the entry fee paid, Reuegeld and Weitergeld
owed, the Tischbester payout and what is left to pay; per round and table the Tischbester, what
the table collected, what he (or they) receive and what goes to the pot; and the balance: paid
in, less paid out, equals the pot. Every money column carries its total.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import LongTable, Paragraph, Table, TableStyle

from scoring.rules.cash import CashBalance

from .drawing import BOLD, REGULAR, mm, money, signed
from .fonts import register_fonts
from .lists import (
    BODY_SIZE,
    CONTENT_W,
    NOTE,
    ROW_H,
    ListHead,
    amounts_table,
    escape,
    fitted,
    grid_style,
    heading,
    list_template,
    render_list,
    row_height,
    text_cell,
    wrap_head,
)

DASH = "\u2013"


@dataclass(frozen=True)
class CashLine:
    start_number: int
    name: str
    entry_fee_cents: int  # his fee (0: none due)
    reuegeld_cents: int
    weitergeld_cents: int
    payout_cents: int  # what he receives as Tischbester
    fee_paid: bool = True
    club: str = ""

    @property
    def owes_cents(self) -> int:
        """Still to pay (negative: he receives): an unpaid fee, Reuegeld, Weitergeld, less his payout."""
        fee = 0 if self.fee_paid else self.entry_fee_cents
        return fee + self.reuegeld_cents + self.weitergeld_cents - self.payout_cents


@dataclass(frozen=True)
class TischbesterLine:
    round: int
    table: int
    players: tuple[str, ...]  # "Anna Huber (12)"; several when the best share the points
    points: int
    collected_cents: int  # Reuegeld and Weitergeld the table paid in that round
    payout_cents: int  # what each of them receives

    @property
    def paid_out_cents(self) -> int:
        return self.payout_cents * len(self.players)

    @property
    def to_pot_cents(self) -> int:
        return self.collected_cents - self.paid_out_cents


@dataclass(frozen=True)
class CashListDocument(CashBalance):
    head: ListHead
    lines: tuple[CashLine, ...]
    tischbeste: tuple[TischbesterLine, ...]
    entry_fees_cents: int
    reuegeld_cents: int
    weitergeld_cents: int
    payouts_cents: int
    pot_cents: int  # Reuegeld and Weitergeld paid in less the payouts
    club_share_cents: int  # entry fees not for the prize pool
    fees_owed_cents: int = 0
    sponsored_cents: int = 0
    prizes_cents: int = 0  # money prizes that go to players
    pool_left_cents: int = 0  # what the prizes leave in the pool
    costs_cents: int = 0  # the prize plan's costs paid from the pool


def _or_dash(cents: int) -> str:
    return money(cents) if cents else DASH


def _fee(line: CashLine) -> str:
    """10,00 € paid, or "10,00 € (owed)" for a fee still to collect."""
    if not line.entry_fee_cents:
        return DASH
    return money(line.entry_fee_cents) if line.fee_paid else f"{money(line.entry_fee_cents)} ({_('owed')})"


# Players: start number, name, entry fee, Reuegeld, Weitergeld, Tischbester payout, to pay.
MONEY_W = 23 * mm
PLAYER_WIDTHS = (12 * mm, CONTENT_W - 12 * mm - 5 * MONEY_W, *([MONEY_W] * 5))
# Tischbeste: round, table, who, points, collected, each, paid out, to the pot.
TB_MONEY_W = 23 * mm
HEAD_ROW_H = 10 * mm
TB_WIDTHS = (12 * mm, 12 * mm, CONTENT_W - 39 * mm - 4 * TB_MONEY_W, 15 * mm, *([TB_MONEY_W] * 4))


def _players_table(data: CashListDocument) -> Table:
    head = [
        _("No."),
        _("Name"),
        _("Entry fee"),
        _("Reuegeld"),
        _("Weitergeld"),
        _("Receives as Tischbester"),
        _("To pay (\u2212 = receives)"),
    ]
    head_cells, head_style = wrap_head(head, PLAYER_WIDTHS)
    rows: list[list] = [head_cells]
    for line in data.lines:
        notes = (line.club,) if line.club else ()  # his club in small type below the name, as the page shows it
        rows.append(
            [
                str(line.start_number),
                text_cell(line.name, PLAYER_WIDTHS[1], notes=notes),
                _fee(line),
                _or_dash(line.reuegeld_cents),
                _or_dash(line.weitergeld_cents),
                _or_dash(line.payout_cents),
                _or_dash(line.owes_cents),
            ]
        )
    rows.append(
        [
            "",
            _("Total"),
            money(data.entry_fees_cents),
            money(data.reuegeld_cents),
            money(data.weitergeld_cents),
            money(data.payouts_cents),
            money(sum(line.owes_cents for line in data.lines)),
        ]
    )
    table = LongTable(
        rows,
        colWidths=PLAYER_WIDTHS,
        rowHeights=[HEAD_ROW_H] + [row_height(r, ROW_H) for r in rows[1:]],
        repeatRows=1,
        hAlign="LEFT",
    )
    style = grid_style(numeric_from=2, total_row=True)
    style += [("ALIGN", (0, 0), (0, -1), "RIGHT"), ("FONT", (-1, 1), (-1, -1), BOLD, BODY_SIZE)]
    table.setStyle(TableStyle(style + head_style))
    fitted(table, rows, (2, 3, 4, 5, 6), PLAYER_WIDTHS, font=REGULAR)
    return table


def _players(players: tuple[str, ...]) -> str:
    """Equal best on one line if they fit, else one per line."""
    joined = ", ".join(players)
    if stringWidth(joined, REGULAR, BODY_SIZE) <= TB_WIDTHS[2] - 5.5:
        return joined
    return ",\n".join(players)


def _tischbeste_table(data: CashListDocument) -> Table:
    head = [
        _("Round"),
        _("Table"),
        _("Tischbester"),
        _("Points"),
        _("Collected"),
        _("Payout each"),
        _("Paid out"),
        _("To the pot"),
    ]
    head_cells, head_style = wrap_head(head, TB_WIDTHS)
    rows: list[list] = [head_cells]
    for line in data.tischbeste:
        rows.append(
            [
                str(line.round),
                str(line.table),
                text_cell(_players(line.players), TB_WIDTHS[2]),
                signed(line.points),
                _or_dash(line.collected_cents),
                _or_dash(line.payout_cents),
                _or_dash(line.paid_out_cents),
                _or_dash(line.to_pot_cents),
            ]
        )
    rows.append(
        [
            "",
            "",
            _("Total"),
            "",
            money(sum(t.collected_cents for t in data.tischbeste)),
            "",
            money(sum(t.paid_out_cents for t in data.tischbeste)),
            money(sum(t.to_pot_cents for t in data.tischbeste)),
        ]
    )
    table = LongTable(
        rows,
        colWidths=TB_WIDTHS,
        rowHeights=[HEAD_ROW_H] + [row_height(r, ROW_H) for r in rows[1:]],
        repeatRows=1,
        hAlign="LEFT",
    )
    style = grid_style(numeric_from=3, total_row=True)
    style += [("ALIGN", (0, 0), (1, -1), "RIGHT")]
    table.setStyle(TableStyle(style + head_style))
    fitted(table, rows, (4, 5, 6, 7), TB_WIDTHS)
    return table


def _balance_table(data: CashListDocument) -> Table:
    """In = out, as the cash page shows it: fees collected + Reuegeld/Weitergeld (+ sponsored) = Eingenommen;
    with the fees still owed = Tischbeste + prizes + club."""
    rows = [
        [_("Entry fees collected"), money(data.fees_collected_cents)],
        [_("Reuegeld"), money(data.reuegeld_cents)],
        [_("Weitergeld"), money(data.weitergeld_cents)],
    ]
    if data.sponsored_cents:
        rows.append([_("Sponsored"), money(data.sponsored_cents)])
    rows.append([_("Paid in"), money(data.paid_in_cents)])
    total_in = len(rows) - 1
    if data.fees_owed_cents:  # not in the cash box: collected at the desk still
        rows.append([_("Entry fees still owed"), money(data.fees_owed_cents)])
    rows += [
        [_("paid out to Tischbeste"), money(data.payouts_cents)],
        [_("Prizes (money)"), money(data.prizes_cents)],
        *([[_("Costs taken from the prize pool"), money(data.costs_cents)]] if data.costs_cents else []),
        [
            _("Kept by the club")
            + f" ({_('%(fees)s of the entry fees, %(pool)s left in the prize pool') % {'fees': money(data.club_share_cents), 'pool': money(data.pool_left_cents)}})",
            money(data.club_keeps_cents),
        ],
        [_("Paid out and kept"), money(data.paid_out_cents)],
    ]
    table = amounts_table(rows, (CONTENT_W - 40 * mm, 40 * mm), total_row=total_in)
    table.setStyle(
        TableStyle(
            [
                ("FONT", (0, len(rows) - 1), (-1, len(rows) - 1), BOLD, BODY_SIZE),
                ("LINEABOVE", (0, len(rows) - 1), (-1, len(rows) - 1), 1, "black"),
            ]
        )
    )
    return table


def render_cash_list(data: CashListDocument) -> bytes:
    register_fonts()
    story: list = [heading(_("Players")), _players_table(data)]
    if data.tischbeste:
        story += [heading(_("Tischbeste")), _tischbeste_table(data)]
    story += [heading(_("Balance")), _balance_table(data)]
    if data.reuegeld_cents + data.weitergeld_cents - data.payouts_cents != data.pot_cents or not data.balances:
        story.append(Paragraph(escape(_("The amounts do not balance: recompute the standings.")), NOTE))
    templates = [list_template(data.head, "cash", _("Cash list"))]
    return render_list(templates, story, title=_("Cash list") + f" \u2013 {data.head.tournament}")


__all__ = ["CashLine", "CashListDocument", "TischbesterLine", "render_cash_list"]
