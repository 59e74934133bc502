"""Every rule a hand record must obey before it is scored or stored (rules.md sections 3, 4, 6)."""

from __future__ import annotations

from typing import Any

from .errors import RuleError
from .hand import KREUZ, RUFSPIEL, SOLO, WEITER, WENZ, HandRecord
from .ruleset import Ruleset
from .seats import kreuz_partner
from .table import sits_out

TABLE_SIZES = (4, 5)
CALLABLE_SUITS = ("eichel", "gras", "schellen")
TRUMP_SUITS = ("eichel", "gras", "herz", "schellen")
CALLED_CARDS = ("sau", "zehn", "koenig")
MAX_LAUFENDE = {RUFSPIEL: 14, SOLO: 14, WENZ: 4, KREUZ: 14}
SIE_LAUFENDE = 8

_THREE_CONTRACTS = "the tournament plays three contracts only (Rufspiel, Wenz, Farbsolo)"

#: Contracts of other Schafkopf variants, refused by name.
REFUSED_CONTRACTS = {
    "geier": "Geier",
    "farbgeier": "Farbgeier",
    "farbwenz": "Farbwenz",
    "bettel": "Bettel",
    "ramsch": "Ramsch",
    "hochzeit": "Hochzeit",
    "kreuzbock": "Kreuzbock",
}

_CONTRACT_NAMES = {RUFSPIEL: "Rufspiel", WENZ: "Wenz", SOLO: "Farbsolo", KREUZ: "Kreuz"}
_KNOWN_CONTRACTS = frozenset({RUFSPIEL, WENZ, SOLO, WEITER, KREUZ})
#: What a game über Kreuz never has (rules.md section 6): entered, each is an error.
_NOT_IN_KREUZ_VALUES = ("called", "called_card", "trump", "won")
_NOT_IN_KREUZ_FLAGS = ("muss", "renonce", "tout", "sie", "kontra")


def check_table_size(table_size: Any) -> int:
    """``table_size`` if it is 4 or 5, else a RuleError on ``table_size``."""
    if type(table_size) is not int or table_size not in TABLE_SIZES:
        raise RuleError(
            "table_size",
            "invalid_choice",
            f"a table has 4 or 5 players, not {table_size!r}",
            {"choices": list(TABLE_SIZES), "value": table_size},
        )
    return table_size


def validate_hand(hand: HandRecord, rules: Ruleset, table_size: int = 4) -> None:
    """Raise RuleError naming the field for the first rule ``hand`` breaks; return if valid."""
    if type(table_size) is not int or (table_size != 4 and table_size != 5):
        check_table_size(table_size)
    contract = hand.contract
    if contract not in _KNOWN_CONTRACTS:
        _refuse_contract(contract)
    if contract == KREUZ and rules.all_pass != "kreuz":
        raise RuleError(
            "contract",
            "kreuz_not_allowed",
            "Kreuz is played only when the ruleset plays all-pass games über Kreuz "
            f"(all_pass = kreuz), not under all_pass = {rules.all_pass}",
            {"all_pass": rules.all_pass},
        )

    dealer = hand.dealer
    if dealer is None:
        if table_size == 5:
            raise RuleError("dealer", "missing", "a table of five names the dealer, who sits out the game")
        sitting_out = None
    else:
        _check_seat("dealer", dealer, table_size)
        sitting_out = sits_out(dealer, table_size)

    if contract == WEITER:
        _validate_weiter(hand, rules)
        return

    declarer = hand.declarer
    if declarer is None:
        raise RuleError("declarer", "missing", "every game needs a declarer")
    _check_seat("declarer", declarer, table_size)
    if declarer == sitting_out:
        raise RuleError(
            "declarer",
            "declarer_sits_out",
            f"seat {declarer} deals and sits out this game, so cannot declare it",
            {"seat": declarer},
        )

    if contract == RUFSPIEL:
        _validate_rufspiel(hand, rules, table_size, sitting_out)
        played_out = True
    elif contract == KREUZ:
        _validate_kreuz(hand, rules, table_size, sitting_out)
        played_out = True
    else:
        played_out = _validate_solo(hand, rules, contract)

    if played_out:
        augen = hand.augen
        if augen is None:
            raise RuleError("augen", "missing", "give the declaring party's Augen (0 to 120)")
        if augen < 0 or augen > 120:
            raise RuleError(
                "augen",
                "out_of_range",
                f"there are 120 Augen in a game, {augen} are impossible",
                {"min": 0, "max": 120, "value": augen},
            )
        if hand.schwarz and augen != 0 and augen != 120:
            raise RuleError(
                "schwarz",
                "schwarz_augen",
                f"a game is Schwarz only with 0 or 120 Augen, not {augen}",
                {"augen": augen},
            )

    laufende = hand.laufende
    if laufende is not None:
        if hand.sie:
            if laufende != SIE_LAUFENDE:
                raise RuleError(
                    "laufende",
                    "sie_laufende",
                    f"a Sie has all four Ober and Unter, 8 Laufende, not {laufende}",
                    {"value": laufende},
                )
        elif laufende < 0:
            raise RuleError(
                "laufende",
                "out_of_range",
                f"Laufende cannot be negative ({laufende})",
                {"min": 0, "max": MAX_LAUFENDE[contract], "value": laufende, "contract": contract},
            )
        elif laufende > MAX_LAUFENDE[contract]:
            maximum = MAX_LAUFENDE[contract]
            raise RuleError(
                "laufende",
                "out_of_range",
                f"a {_CONTRACT_NAMES[contract]} has {maximum} trumps, {laufende} Laufende are impossible",
                {"min": 0, "max": maximum, "value": laufende, "contract": contract},
            )

    kontra = hand.kontra
    if kontra:
        if kontra < 0 or kontra > 2:
            raise RuleError(
                "kontra",
                "out_of_range",
                f"must be 0, 1 (Kontra) or 2 (Kontra and Re), not {kontra}",
                {"min": 0, "max": 2, "value": kontra},
            )
        if not rules.kontra_allowed:
            raise RuleError("kontra", "kontra_not_allowed", "Kontra is not allowed in this tournament")
        if hand.muss:
            raise RuleError("kontra", "kontra_in_muss", "there is no Kontra in a Muss")
        if hand.sie:
            raise RuleError("kontra", "kontra_in_sie", "a Sie is not played out, so there is no Kontra")


def _refuse_contract(contract: Any) -> None:
    name = REFUSED_CONTRACTS.get(contract.strip().lower()) if isinstance(contract, str) else None
    if name is not None:
        raise RuleError(
            "contract",
            "contract_not_played",
            f"{name} is not played: {_THREE_CONTRACTS}",
            {"contract": contract, "name": name},
        )
    raise RuleError(
        "contract",
        "unknown_contract",
        f"unknown contract {contract!r}: {_THREE_CONTRACTS}, written 'rufspiel', 'wenz' or 'solo'",
        {"contract": contract},
    )


def _check_seat(field: str, seat: int, table_size: int) -> None:
    if seat < 1 or seat > table_size:
        raise RuleError(
            field,
            "seat_out_of_range",
            f"there is no seat {seat} at a table of {table_size}",
            {"seat": seat, "table_size": table_size},
        )


def _validate_weiter(hand: HandRecord, rules: Ruleset) -> None:
    if rules.all_pass == "kreuz":
        raise RuleError(
            "contract",
            "weiter_under_kreuz",
            "a game is not thrown in under this ruleset: when all pass, the deal is played über Kreuz (enter 'kreuz')",
        )
    if rules.all_pass != "redeal":
        raise RuleError(
            "contract",
            "weiter_not_allowed",
            "a game is not thrown in under this ruleset: when all pass, the holder of the Eichel-Ober must play (Muss)",
        )
    for field in ("declarer", "partner", "called", "called_card", "trump", "augen", "won"):
        if getattr(hand, field) is not None:
            raise RuleError(field, "not_applicable", "does not apply to a thrown-in game", {"contract": WEITER})
    for field in ("muss", "renonce", "tout", "sie", "schwarz", "laufende", "kontra"):
        if getattr(hand, field):
            raise RuleError(field, "not_applicable", "does not apply to a thrown-in game", {"contract": WEITER})


def _validate_rufspiel(hand: HandRecord, rules: Ruleset, table_size: int, sitting_out: int | None) -> None:
    partner = hand.partner
    if partner is None:
        raise RuleError("partner", "missing", "a Rufspiel needs the partner's seat")
    _check_seat("partner", partner, table_size)
    if partner == hand.declarer:
        raise RuleError(
            "partner",
            "partner_is_declarer",
            "the partner must be another player than the declarer",
            {"seat": partner},
        )
    if partner == sitting_out:
        raise RuleError(
            "partner",
            "partner_sits_out",
            f"seat {partner} deals and sits out this game, so cannot be the partner",
            {"seat": partner},
        )
    called = hand.called
    if called is not None and called not in CALLABLE_SUITS:
        if called == "herz":
            raise RuleError("called", "called_herz", "the Herz Sau cannot be called, Herz are trumps")
        raise RuleError(
            "called",
            "invalid_choice",
            f"the called Sau is 'eichel', 'gras' or 'schellen', not {called!r}",
            {"choices": list(CALLABLE_SUITS), "value": called},
        )
    muss = hand.muss
    if muss:
        if rules.all_pass == "kreuz":
            raise RuleError(
                "muss",
                "muss_under_kreuz",
                "there is no Muss under this ruleset: when all pass, the deal is played über Kreuz",
            )
        if rules.all_pass != "muss":
            raise RuleError(
                "muss",
                "muss_not_allowed",
                "there is no Muss under this ruleset: when all pass, the game is thrown in",
            )
        called_card = hand.called_card
        if called_card is not None and called_card not in CALLED_CARDS:
            raise RuleError(
                "called_card",
                "invalid_choice",
                f"the called card is 'sau', 'zehn' or 'koenig', not {called_card!r}",
                {"choices": list(CALLED_CARDS), "value": called_card},
            )
    else:
        if hand.called_card is not None:
            raise RuleError("called_card", "called_card_not_muss", "a called card is given only in a Muss")
        if hand.renonce:
            raise RuleError("renonce", "renonce_not_muss", "Renonce is called only in a Muss")
    if hand.trump is not None:
        raise RuleError("trump", "trump_not_solo", "only a Farbsolo chooses a trump suit")
    if hand.tout:
        raise RuleError("tout", "tout_in_rufspiel", "a Rufspiel cannot be played Tout")
    if hand.sie:
        raise RuleError("sie", "sie_not_farbsolo", "a Sie is a Farbsolo, not a Rufspiel")
    if hand.won is not None:
        raise RuleError("won", "won_not_tout", "'won' is entered only for a Tout; give the Augen instead")


def _validate_kreuz(hand: HandRecord, rules: Ruleset, table_size: int, sitting_out: int | None) -> None:
    opposite = kreuz_partner(hand.declarer, table_size, sitting_out)
    partner = hand.partner
    if partner is not None:
        _check_seat("partner", partner, table_size)
        if partner != opposite:
            raise RuleError(
                "partner",
                "kreuz_partner_not_opposite",
                f"über Kreuz the partner of seat {hand.declarer} is seat {opposite}, "
                f"who sits opposite, not seat {partner}",
                {"seat": partner, "declarer": hand.declarer, "expected": opposite},
            )
    for field in _NOT_IN_KREUZ_VALUES:
        if getattr(hand, field) is not None:
            raise RuleError(field, "not_in_kreuz", "does not apply to a game über Kreuz", {"contract": KREUZ})
    for field in _NOT_IN_KREUZ_FLAGS:
        if getattr(hand, field):
            raise RuleError(field, "not_in_kreuz", "does not apply to a game über Kreuz", {"contract": KREUZ})


def _validate_solo(hand: HandRecord, rules: Ruleset, contract: str) -> bool:
    """Check a Wenz or Farbsolo; return whether it was played out (neither Tout nor Sie)."""
    name = _CONTRACT_NAMES[contract]
    if hand.partner is not None:
        raise RuleError("partner", "partner_in_solo", f"a {name} has no partner", {"contract": contract})
    if hand.called is not None:
        raise RuleError("called", "called_in_solo", f"nobody calls a Sau in a {name}", {"contract": contract})
    if hand.muss:
        raise RuleError(
            "muss",
            "muss_not_rufspiel",
            f"a Muss is always a Rufspiel, never a {name}",
            {"contract": contract},
        )
    if hand.called_card is not None:
        raise RuleError("called_card", "called_card_not_muss", "a called card is given only in a Muss")
    if hand.renonce:
        raise RuleError("renonce", "renonce_not_muss", "Renonce is called only in a Muss")
    trump = hand.trump
    if contract == SOLO:
        if trump is None:
            if not hand.sie:  # a Sie is not played out: its trump suit does not matter (rules.md section 4)
                raise RuleError("trump", "missing", "a Farbsolo needs its trump suit")
        elif trump not in TRUMP_SUITS:
            raise RuleError(
                "trump",
                "invalid_choice",
                f"the trump suit is 'eichel', 'gras', 'herz' or 'schellen', not {trump!r}",
                {"choices": list(TRUMP_SUITS), "value": trump},
            )
    elif trump is not None:
        raise RuleError("trump", "trump_in_wenz", "a Wenz has no trump suit (a Farbwenz is not played)")

    sie = hand.sie
    tout = hand.tout
    if sie:
        if contract == WENZ:
            raise RuleError("sie", "sie_in_wenz", "a Sie is a Farbsolo, not a Wenz")
        if not rules.sie_allowed:
            raise RuleError("sie", "sie_not_allowed", "a Sie is not allowed in this tournament")
        if tout:
            raise RuleError("tout", "tout_with_sie", "a Sie is entered as a Sie, not also as a Tout")
    elif tout and not rules.tout_allowed:
        raise RuleError("tout", "tout_not_allowed", "a Tout is not allowed in this tournament")

    if sie or tout:
        kind = "Sie" if sie else "Tout"
        if hand.augen is not None:
            raise RuleError(
                "augen",
                "augen_not_applicable",
                f"a {kind} is entered without Augen",
                {"kind": kind},
            )
        if hand.schwarz:
            raise RuleError(
                "schwarz",
                "schwarz_not_applicable",
                f"a {kind} has no Schneider or Schwarz",
                {"kind": kind},
            )
        if tout and hand.won is None:
            raise RuleError("won", "missing", "say whether the Tout took all eight tricks")
    if not tout and hand.won is not None:
        raise RuleError("won", "won_not_tout", "'won' is entered only for a Tout; give the Augen instead")
    return not (sie or tout)
