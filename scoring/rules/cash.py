"""The cash list's balance (rules.md section 8). Pure: stdlib only.

Everything the evening took in equals everything it gave out: entry fees + Reuegeld + Weitergeld +
the sponsored amount = the Tischbester payouts + the money prizes + the costs the prize plan takes from the pool (hall, goods bought) +
what the club keeps (its share
of the fees and what the prizes leave in the pool). The cash page and its PDF both ask this class.

"Eingenommen" (``paid_in_cents``) is what is in the cash box: only the entry fees collected. A fee still
owed (a late player, a substitute who pays one) is not in the box; it is shown apart, and the two sides
balance when it is added: paid in + still owed = paid out and kept.
"""


class CashBalance:
    """Mixed into a dataclass with the amounts below (in cents); adds what came in, went out, and whether they balance."""

    entry_fees_cents: int
    reuegeld_cents: int
    weitergeld_cents: int
    sponsored_cents: int
    payouts_cents: int
    prizes_cents: int
    club_share_cents: int
    pool_left_cents: int
    fees_owed_cents: int  # entry fees due but not collected yet (part of entry_fees_cents)
    costs_cents: int = 0  # what the prize plan takes from the pool before the prizes

    @property
    def fees_collected_cents(self) -> int:
        return self.entry_fees_cents - self.fees_owed_cents

    @property
    def paid_in_cents(self) -> int:
        """In the cash box: the fees collected (not the ones still owed), Reuegeld, Weitergeld, sponsored."""
        return self.fees_collected_cents + self.reuegeld_cents + self.weitergeld_cents + self.sponsored_cents

    @property
    def club_keeps_cents(self) -> int:
        return self.club_share_cents + self.pool_left_cents

    @property
    def paid_out_cents(self) -> int:
        return self.payouts_cents + self.prizes_cents + self.costs_cents + self.club_keeps_cents

    @property
    def balances(self) -> bool:
        return self.paid_in_cents + self.fees_owed_cents == self.paid_out_cents
