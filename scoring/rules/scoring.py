"""Points, Reuegeld and Weitergeld of one game (rules.md sections 5-7)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .hand import KREUZ, RUFSPIEL, SOLO_CONTRACTS, WEITER, WENZ, HandRecord, hand_from_dict
from .ruleset import Ruleset
from .seats import active_seats, kreuz_partner
from .table import sits_out
from .validation import SIE_LAUFENDE, validate_hand

#: Seats of a table of four and of five.
SEATS: dict[int, tuple[int, ...]] = {4: (1, 2, 3, 4), 5: (1, 2, 3, 4, 5)}
SEAT_KEYS: dict[int, str] = {seat: str(seat) for seat in SEATS[5]}

WIN_LINE = 61
SCHNEIDER_MARGIN = 30  # Schneider at W + 30 or more, or at W - 31 or less


@dataclass(frozen=True, slots=True)
class HandScore:
    """The outcome of one game. Seats are ints; ``points`` holds every seat of the table.

    ``value`` is the game value after Kontra; ``laufende`` the Laufende that counted (after
    minimum and cap); ``reuegeld`` the cents each seat owes for this game alone (the free
    allowance of ``reuegeld_free_solos`` is the ledger's business). A thrown-in game has
    ``thrown_in`` and the ``weitergeld`` each seat that took part in the deal pays (none for a
    Kreuz replayed after 60:60). ``partner`` is the declarer's partner in a Rufspiel or Kreuz
    (über Kreuz derived from the seats when the table did not enter it).
    """

    points: dict[int, int]
    value: int
    declarer_won: bool
    schneider: bool
    schwarz: bool
    laufende: int
    reuegeld: dict[int, int]
    thrown_in: bool = False
    weitergeld: dict[int, int] = field(default_factory=dict)
    contract: str = ""
    declarer: int | None = None
    partner: int | None = None

    @property
    def won_solo(self) -> bool:
        """The declarer won a Wenz, Farbsolo, Tout or Sie (the DEFAULT tiebreak counts these)."""
        return self.declarer_won and self.contract in SOLO_CONTRACTS

    @property
    def lost_solo(self) -> bool:
        """The declarer lost a Wenz, Farbsolo or Tout."""
        return not self.declarer_won and self.contract in SOLO_CONTRACTS


def score_hand(hand: HandRecord | Mapping[str, Any], rules: Ruleset, table_size: int = 4) -> HandScore:
    """Validate one game and score it; raises RuleError naming the field if it is invalid."""
    if not isinstance(hand, HandRecord):
        hand = hand_from_dict(hand)
    validate_hand(hand, rules, table_size)
    return score_validated(hand, rules, table_size)


def score_validated(hand: HandRecord, rules: Ruleset, table_size: int = 4) -> HandScore:
    """Score a hand that ``validate_hand`` accepted under the same rules and table size."""
    contract = hand.contract
    if contract == WEITER:
        cents = rules.weitergeld_cents
        # Everyone who took part in the deal pays; at a table of five not the dealer (section 6).
        payers = active_seats(table_size, hand.dealer)
        return _thrown_in(table_size, WEITER, None, None, dict.fromkeys(payers, cents) if cents else {})

    declarer = hand.declarer
    partner = hand.partner
    if contract == KREUZ:
        if partner is None:
            partner = kreuz_partner(declarer, table_size, sits_out(hand.dealer, table_size))
        if hand.augen == 60 and rules.kreuz_tie == "replay":
            # 60:60 is thrown in without Weitergeld, the same dealer deals again (section 6).
            return _thrown_in(table_size, KREUZ, declarer, partner, {})
    muss = hand.muss
    sie = hand.sie
    tout = hand.tout
    if contract == RUFSPIEL or contract == KREUZ:
        base = rules.rufspiel_base
        minimum = rules.laufende_min.rufspiel
    elif contract == WENZ:
        base = rules.solo_base
        minimum = rules.laufende_min.wenz
    else:
        base = rules.solo_base
        minimum = rules.laufende_min.solo

    laufende = SIE_LAUFENDE if sie else (hand.laufende or 0)
    if laufende < minimum:
        laufende = 0
    else:
        cap = rules.laufende_max
        if cap is not None and laufende > cap:
            laufende = cap
    core = base + laufende * rules.laufende_bonus

    schneider = schwarz = False
    if sie:
        won = True
        value = rules.sie_factor * core
    elif tout:
        won = hand.won
        value = rules.tout_factor * core
    else:
        augen = hand.augen
        win = rules.muss_win if muss else WIN_LINE
        won = augen >= win
        if hand.schwarz:
            schneider = schwarz = True
            value = core + rules.schneider_bonus + rules.schwarz_bonus
        elif augen >= win + SCHNEIDER_MARGIN or augen < win - SCHNEIDER_MARGIN:
            schneider = True
            value = core + rules.schneider_bonus
        else:
            value = core
    kontra = hand.kontra
    if kontra:
        value <<= kontra

    gain = value if won else -value
    points = dict.fromkeys(SEATS[table_size], -gain)
    if contract == RUFSPIEL or contract == KREUZ:
        points[declarer] = gain
        points[partner] = gain
    else:
        points[declarer] = 3 * gain
    if table_size == 5:
        points[hand.dealer] = 0
    if rules.scoring == "plus_only":
        points = {seat: p if p > 0 else 0 for seat, p in points.items()}

    reuegeld: dict[int, int] = {}
    if not won and not muss and contract != KREUZ:
        cents = rules.reuegeld_cents
        owed = cents.tout if tout else cents.rufspiel if contract == RUFSPIEL else cents.solo
        if owed:
            reuegeld[declarer] = owed

    return HandScore(
        points,
        value,
        won,
        schneider,
        schwarz,
        laufende,
        reuegeld,
        False,
        {},
        contract,
        declarer,
        partner,
    )


def _thrown_in(
    table_size: int,
    contract: str,
    declarer: int | None,
    partner: int | None,
    weitergeld: dict[int, int],
) -> HandScore:
    return HandScore(
        points=dict.fromkeys(SEATS[table_size], 0),
        value=0,
        declarer_won=False,
        schneider=False,
        schwarz=False,
        laufende=0,
        reuegeld={},
        thrown_in=True,
        weitergeld=weitergeld,
        contract=contract,
        declarer=declarer,
        partner=partner,
    )


def score_to_dict(score: HandScore) -> dict[str, Any]:
    """The JSON entry of score-cli.md for one game (seats as strings "1".."5")."""
    if score.thrown_in:
        return {
            "points": {SEAT_KEYS[seat]: 0 for seat in score.points},
            "value": 0,
            "thrown_in": True,
            "weitergeld": {SEAT_KEYS[seat]: c for seat, c in score.weitergeld.items()},
        }
    return {
        "points": {SEAT_KEYS[seat]: p for seat, p in score.points.items()},
        "value": score.value,
        "declarer_won": score.declarer_won,
        "schneider": score.schneider,
        "schwarz": score.schwarz,
        "laufende": score.laufende,
        "reuegeld": {SEAT_KEYS[seat]: c for seat, c in score.reuegeld.items()},
    }
