"""What the entry page asks the rules about a deal: the Kreuz pairs, the contracts dealt again."""

import pytest

from scoring.rules.seats import kreuz_pair, kreuz_pairs, vorhand
from scoring.rules.table import redeal_contracts


@pytest.mark.parametrize(
    ("dealer", "size", "pairs"),
    [
        (1, 4, ((2, 4), (1, 3))),
        (4, 4, ((1, 3), (2, 4))),
        (2, 5, ((3, 5), (1, 4))),  # the dealer sits out at five
        (5, 5, ((1, 3), (2, 4))),
    ],
)
def test_kreuz_pairs_the_vorhands_first(dealer, size, pairs):
    assert kreuz_pairs(dealer, size) == pairs
    first, second = pairs
    assert vorhand(dealer, size) in first and kreuz_pair(second[0], size, dealer) == second


def test_the_contracts_dealt_again():
    assert redeal_contracts("muss", "lost") == (("weiter",), ())
    assert redeal_contracts("kreuz", "lost") == (("weiter",), ())
    assert redeal_contracts("kreuz", "replay") == (("weiter",), ("kreuz",))
