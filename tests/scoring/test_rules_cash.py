"""The cash list's balance (scoring/rules/cash.py), hand-computed: "Eingenommen" is what is in the cash box.

Fees collected + Reuegeld + Weitergeld + sponsored = paid in; paid in + fees still owed = Tischbeste payouts
+ money prizes + what the club keeps. A fee still owed (a substitute who pays one) is never counted as in.
"""

from dataclasses import dataclass

import pytest

from scoring.rules.cash import CashBalance


@dataclass
class Box(CashBalance):
    entry_fees_cents: int
    fees_owed_cents: int
    reuegeld_cents: int = 0
    weitergeld_cents: int = 0
    sponsored_cents: int = 0
    payouts_cents: int = 0
    prizes_cents: int = 0
    club_share_cents: int = 0
    pool_left_cents: int = 0


CASES = [
    # 8 paid fees of 10 €, a substitute took over a paid seat (no fee): 80 € in, all to prizes and club
    pytest.param(
        Box(8000, 0, prizes_cents=6000, club_share_cents=0, pool_left_cents=2000),
        8000,
        8000,
        True,
        id="substitute without a fee",
    ),
    # 9 fees due, the substitute's 10 € still owed: the box holds 80 €; the out side was worked out on 90 €
    pytest.param(
        Box(9000, 1000, prizes_cents=6000, club_share_cents=900, pool_left_cents=2100),
        8000,
        8000,
        True,
        id="substitute owes his fee",
    ),
    # Reuegeld 3,50 €, Weitergeld 0,40 €, half of 3,50 € to a Tischbester, sponsored 20 €
    pytest.param(
        Box(8000, 0, 350, 40, 2000, payouts_cents=175, prizes_cents=9000, club_share_cents=800, pool_left_cents=415),
        8000,
        10390,
        True,
        id="money of the games and a sponsor",
    ),
    # counting an owed fee as taken in is what the old list did: it does not balance against the box
    pytest.param(
        Box(9000, 1000, prizes_cents=6000, club_share_cents=900, pool_left_cents=3100),
        8000,
        8000,
        False,
        id="an out side that spends the owed fee twice",
    ),
]


@pytest.mark.parametrize("box, collected, paid_in, balances", CASES)
def test_paid_in_counts_only_the_fees_collected_and_the_owed_ones_close_the_balance(box, collected, paid_in, balances):
    assert box.fees_collected_cents == collected
    assert box.paid_in_cents == paid_in
    assert box.balances is balances
