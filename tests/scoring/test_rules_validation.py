"""Every violation of rules.md section 4 is a RuleError naming the field; nothing is scored."""

import pytest

from scoring.rules import (
    HandRecord,
    RuleError,
    hand_from_dict,
    ruleset_from_dict,
    score_hand,
    validate_hand,
)

RUF = {"contract": "rufspiel", "declarer": 1, "partner": 3, "called": "gras", "augen": 70}
MUSS = {**RUF, "muss": True}
SOLO = {"contract": "solo", "declarer": 2, "trump": "herz", "augen": 70}
WENZ = {"contract": "wenz", "declarer": 2, "augen": 70}
TOUT = {"contract": "solo", "declarer": 2, "trump": "herz", "tout": True, "won": True}
WENZ_TOUT = {"contract": "wenz", "declarer": 1, "tout": True, "won": True}
SIE = {"contract": "solo", "declarer": 2, "trump": "herz", "sie": True}

KONTRA = {"kontra_allowed": True}
REDEAL = {"all_pass": "redeal"}
KREUZ = {"contract": "kreuz", "declarer": 2, "augen": 70}
KREUZ_RULES = {"all_pass": "kreuz"}


def with_(base, **changes):
    """A copy of ``base`` with ``changes``; a change to None leaves the key out."""
    hand = {**base, **changes}
    return {key: value for key, value in hand.items() if value is not None}


VIOLATIONS = [
    # (id, hand, rules, table_size, field, code)
    ("unknown contract", with_(RUF, contract="sauspiel"), {}, 4, "contract", "unknown_contract"),
    ("capitalised contract", with_(RUF, contract="Rufspiel"), {}, 4, "contract", "unknown_contract"),
    ("geier", {"contract": "geier", "declarer": 1, "augen": 70}, {}, 4, "contract", "contract_not_played"),
    ("farbwenz", {"contract": "farbwenz", "declarer": 1}, {}, 4, "contract", "contract_not_played"),
    ("bettel", {"contract": "bettel", "declarer": 1}, {}, 4, "contract", "contract_not_played"),
    ("ramsch", {"contract": "ramsch"}, {}, 4, "contract", "contract_not_played"),
    ("hochzeit", {"contract": "hochzeit", "declarer": 1}, {}, 4, "contract", "contract_not_played"),
    ("kreuzbock", {"contract": "kreuzbock"}, {}, 4, "contract", "contract_not_played"),
    ("kreuz under muss rules", {"contract": "kreuz"}, {}, 4, "contract", "kreuz_not_allowed"),
    ("kreuz under redeal", with_(KREUZ, declarer=1), REDEAL, 4, "contract", "kreuz_not_allowed"),
    ("kreuz partner not opposite", with_(KREUZ, partner=2), KREUZ_RULES, 4, "partner", "kreuz_partner_not_opposite"),
    (
        "kreuz partner not opposite at five",
        with_(KREUZ, declarer=2, partner=3, dealer=1),
        KREUZ_RULES,
        5,
        "partner",
        "kreuz_partner_not_opposite",
    ),
    ("kreuz partner no seat", with_(KREUZ, partner=6), KREUZ_RULES, 4, "partner", "seat_out_of_range"),
    ("kreuz without declarer", with_(KREUZ, declarer=None), KREUZ_RULES, 4, "declarer", "missing"),
    ("kreuz by the sitting-out dealer", with_(KREUZ, dealer=2), KREUZ_RULES, 5, "declarer", "declarer_sits_out"),
    ("kreuz without augen", with_(KREUZ, augen=None), KREUZ_RULES, 4, "augen", "missing"),
    ("kreuz augen 121", with_(KREUZ, augen=121), KREUZ_RULES, 4, "augen", "out_of_range"),
    ("kreuz schwarz with 37", with_(KREUZ, augen=37, schwarz=True), KREUZ_RULES, 4, "schwarz", "schwarz_augen"),
    ("kreuz laufende 15", with_(KREUZ, laufende=15), KREUZ_RULES, 4, "laufende", "out_of_range"),
    ("kreuz with a called sau", with_(KREUZ, called="gras"), KREUZ_RULES, 4, "called", "not_in_kreuz"),
    ("kreuz with a trump", with_(KREUZ, trump="herz"), KREUZ_RULES, 4, "trump", "not_in_kreuz"),
    ("kreuz as muss", with_(KREUZ, muss=True), KREUZ_RULES, 4, "muss", "not_in_kreuz"),
    ("kreuz tout", with_(KREUZ, tout=True), KREUZ_RULES, 4, "tout", "not_in_kreuz"),
    ("kreuz sie", with_(KREUZ, sie=True), KREUZ_RULES, 4, "sie", "not_in_kreuz"),
    ("kreuz won", with_(KREUZ, won=True), KREUZ_RULES, 4, "won", "not_in_kreuz"),
    ("kreuz kontra", with_(KREUZ, kontra=1), {**KREUZ_RULES, **KONTRA}, 4, "kontra", "not_in_kreuz"),
    ("muss under kreuz", MUSS, KREUZ_RULES, 4, "muss", "muss_under_kreuz"),
    ("weiter under kreuz", {"contract": "weiter"}, KREUZ_RULES, 4, "contract", "weiter_under_kreuz"),
    ("no declarer", with_(RUF, declarer=None), {}, 4, "declarer", "missing"),
    ("declarer seat 0", with_(RUF, declarer=0), {}, 4, "declarer", "seat_out_of_range"),
    ("declarer seat 5 at four", with_(RUF, declarer=5), {}, 4, "declarer", "seat_out_of_range"),
    ("declarer seat 6 at five", with_(RUF, declarer=6, dealer=2), {}, 5, "declarer", "seat_out_of_range"),
    ("partner = declarer", with_(RUF, partner=1), {}, 4, "partner", "partner_is_declarer"),
    ("no partner", with_(RUF, partner=None), {}, 4, "partner", "missing"),
    ("partner seat out of range", with_(RUF, partner=5), {}, 4, "partner", "seat_out_of_range"),
    ("partner in a wenz", with_(WENZ, partner=3), {}, 4, "partner", "partner_in_solo"),
    ("partner in a farbsolo", with_(SOLO, partner=3), {}, 4, "partner", "partner_in_solo"),
    ("called sau in a solo", with_(SOLO, called="gras"), {}, 4, "called", "called_in_solo"),
    ("called herz", with_(RUF, called="herz"), {}, 4, "called", "called_herz"),
    ("called nonsense", with_(RUF, called="blatt"), {}, 4, "called", "invalid_choice"),
    ("farbsolo without trump", with_(SOLO, trump=None), {}, 4, "trump", "missing"),
    ("sie with an odd trump", with_(SIE, trump="kreuz"), {}, 4, "trump", "invalid_choice"),
    ("farbsolo odd trump", with_(SOLO, trump="kreuz"), {}, 4, "trump", "invalid_choice"),
    ("trump in a wenz", with_(WENZ, trump="gras"), {}, 4, "trump", "trump_in_wenz"),
    ("trump in a rufspiel", with_(RUF, trump="herz"), {}, 4, "trump", "trump_not_solo"),
    ("augen missing", with_(RUF, augen=None), {}, 4, "augen", "missing"),
    ("augen 121", with_(RUF, augen=121), {}, 4, "augen", "out_of_range"),
    ("augen -1", with_(SOLO, augen=-1), {}, 4, "augen", "out_of_range"),
    ("schwarz with 37 augen", with_(SOLO, augen=37, schwarz=True), {}, 4, "schwarz", "schwarz_augen"),
    ("schwarz with 119 augen", with_(RUF, augen=119, schwarz=True), {}, 4, "schwarz", "schwarz_augen"),
    ("tout in a rufspiel", with_(RUF, augen=None, tout=True, won=True), {}, 4, "tout", "tout_in_rufspiel"),
    ("sie in a rufspiel", with_(RUF, sie=True), {}, 4, "sie", "sie_not_farbsolo"),
    ("sie in a wenz", {"contract": "wenz", "declarer": 1, "sie": True}, {}, 4, "sie", "sie_in_wenz"),
    ("tout not allowed", TOUT, {"tout_allowed": False}, 4, "tout", "tout_not_allowed"),
    ("sie not allowed", SIE, {"sie_allowed": False}, 4, "sie", "sie_not_allowed"),
    ("sie and tout", with_(SIE, tout=True, won=True), {}, 4, "tout", "tout_with_sie"),
    ("augen with a tout", with_(TOUT, augen=120), {}, 4, "augen", "augen_not_applicable"),
    ("augen with a sie", with_(SIE, augen=120), {}, 4, "augen", "augen_not_applicable"),
    ("schwarz with a tout", with_(TOUT, schwarz=True), {}, 4, "schwarz", "schwarz_not_applicable"),
    ("tout without won", with_(TOUT, won=None), {}, 4, "won", "missing"),
    ("won in a normal solo", with_(SOLO, won=True), {}, 4, "won", "won_not_tout"),
    ("won in a rufspiel", with_(RUF, won=False), {}, 4, "won", "won_not_tout"),
    ("won with a sie", with_(SIE, won=True), {}, 4, "won", "won_not_tout"),
    ("laufende 15", with_(RUF, laufende=15), {}, 4, "laufende", "out_of_range"),
    ("laufende -1", with_(SOLO, laufende=-1), {}, 4, "laufende", "out_of_range"),
    ("laufende 5 in a wenz", with_(WENZ, laufende=5), {}, 4, "laufende", "out_of_range"),
    ("laufende 5 in a wenz tout", with_(WENZ_TOUT, laufende=5), {}, 4, "laufende", "out_of_range"),
    ("sie with 4 laufende", with_(SIE, laufende=4), {}, 4, "laufende", "sie_laufende"),
    ("muss with a wenz", with_(WENZ, muss=True), {}, 4, "muss", "muss_not_rufspiel"),
    ("muss with a farbsolo", with_(SOLO, muss=True), {}, 4, "muss", "muss_not_rufspiel"),
    ("muss under redeal", MUSS, REDEAL, 4, "muss", "muss_not_allowed"),
    ("called card without muss", with_(RUF, called_card="zehn"), {}, 4, "called_card", "called_card_not_muss"),
    ("odd called card", with_(MUSS, called_card="ober"), {}, 4, "called_card", "invalid_choice"),
    ("renonce without muss", with_(RUF, renonce=True), {}, 4, "renonce", "renonce_not_muss"),
    ("renonce in a solo", with_(SOLO, renonce=True), {}, 4, "renonce", "renonce_not_muss"),
    ("called card in a solo", with_(SOLO, called_card="sau"), {}, 4, "called_card", "called_card_not_muss"),
    ("kontra not allowed", with_(RUF, kontra=1), {}, 4, "kontra", "kontra_not_allowed"),
    ("kontra in a muss", with_(MUSS, kontra=1), KONTRA, 4, "kontra", "kontra_in_muss"),
    ("kontra 3", with_(RUF, kontra=3), KONTRA, 4, "kontra", "out_of_range"),
    ("kontra -1", with_(RUF, kontra=-1), KONTRA, 4, "kontra", "out_of_range"),
    ("kontra in a sie", with_(SIE, kontra=1), KONTRA, 4, "kontra", "kontra_in_sie"),
    ("weiter under muss rules", {"contract": "weiter"}, {}, 4, "contract", "weiter_not_allowed"),
    ("weiter with a declarer", {"contract": "weiter", "declarer": 1}, REDEAL, 4, "declarer", "not_applicable"),
    ("weiter with augen", {"contract": "weiter", "augen": 0}, REDEAL, 4, "augen", "not_applicable"),
    ("weiter at five without dealer", {"contract": "weiter"}, REDEAL, 5, "dealer", "missing"),
    ("five without dealer", RUF, {}, 5, "dealer", "missing"),
    ("dealer seat 6", with_(RUF, dealer=6), {}, 5, "dealer", "seat_out_of_range"),
    ("dealer seat 5 at four", with_(RUF, dealer=5), {}, 4, "dealer", "seat_out_of_range"),
    ("sitting-out dealer declares", with_(WENZ, dealer=2), {}, 5, "declarer", "declarer_sits_out"),
    ("sitting-out dealer is partner", with_(RUF, dealer=3), {}, 5, "partner", "partner_sits_out"),
    ("table of six", RUF, {}, 6, "table_size", "invalid_choice"),
    ("table of three", RUF, {}, 3, "table_size", "invalid_choice"),
]


@pytest.mark.parametrize(
    "hand, rules, table_size, field, code",
    [case[1:] for case in VIOLATIONS],
    ids=[case[0] for case in VIOLATIONS],
)
def test_violation_names_the_field(hand, rules, table_size, field, code):
    ruleset = ruleset_from_dict(rules)

    with pytest.raises(RuleError) as raised:
        validate_hand(hand_from_dict(hand), ruleset, table_size)

    assert (raised.value.field, raised.value.code) == (field, code)
    assert str(raised.value) == f"{field}: {raised.value.message}"
    with pytest.raises(RuleError):
        score_hand(hand, ruleset, table_size)


VALID = [
    ("rufspiel", RUF, {}, 4),
    ("rufspiel without called", with_(RUF, called=None), {}, 4),
    ("muss with zehn and renonce", with_(MUSS, called_card="zehn", renonce=True), {}, 4),
    ("muss called koenig", with_(MUSS, called_card="koenig"), {}, 4),
    ("farbsolo", SOLO, {}, 4),
    ("wenz with 4 laufende", with_(WENZ, laufende=4), {}, 4),
    ("rufspiel with 14 laufende", with_(RUF, laufende=14), {}, 4),
    ("tout lost", with_(TOUT, won=False), {}, 4),
    ("wenz tout", with_(WENZ_TOUT, won=False), {}, 4),
    ("sie", SIE, {}, 4),
    ("sie with 8 laufende", with_(SIE, laufende=8), {}, 4),
    ("sie without a trump suit", with_(SIE, trump=None), {}, 4),  # not played out: no trump suit to choose
    ("false flags that do not apply", with_(RUF, tout=False, sie=False, renonce=False, muss=False), {}, 4),
    ("schwarz false with 37", with_(SOLO, augen=37, schwarz=False), {}, 4),
    ("schwarz with 0", with_(SOLO, augen=0, schwarz=True), {}, 4),
    ("kontra 0 without the option", with_(RUF, kontra=0), {}, 4),
    ("kontra and re", with_(RUF, kontra=2), KONTRA, 4),
    ("kontra in a tout", with_(TOUT, kontra=1), KONTRA, 4),
    ("weiter under redeal", {"contract": "weiter"}, REDEAL, 4),
    ("weiter at five", {"contract": "weiter", "dealer": 4}, REDEAL, 5),
    ("dealer named at a table of four plays", with_(RUF, dealer=1), {}, 4),
    ("table of five", with_(RUF, dealer=2), {}, 5),
    ("seat 5 at a table of five", with_(SOLO, declarer=5, dealer=1), {}, 5),
]


@pytest.mark.parametrize("hand, rules, table_size", [case[1:] for case in VALID], ids=[case[0] for case in VALID])
def test_valid_records_pass(hand, rules, table_size):
    ruleset = ruleset_from_dict(rules)

    validate_hand(hand_from_dict(hand), ruleset, table_size)
    score_hand(hand, ruleset, table_size)


def test_refused_contract_is_named_and_three_contracts_are_mentioned():
    with pytest.raises(RuleError) as raised:
        score_hand({"contract": "geier", "declarer": 1, "augen": 70}, ruleset_from_dict())

    assert "Geier" in raised.value.message
    assert "three contracts only" in raised.value.message
    assert raised.value.params == {"contract": "geier", "name": "Geier"}


def test_wenz_laufende_message_of_the_cli_spec():
    with pytest.raises(RuleError) as raised:
        score_hand(with_(WENZ, laufende=5), ruleset_from_dict())

    assert str(raised.value) == "laufende: a Wenz has 4 trumps, 5 Laufende are impossible"


def test_validate_hand_takes_a_hand_object():
    validate_hand(HandRecord(contract="wenz", declarer=1, augen=61), ruleset_from_dict())
    with pytest.raises(RuleError):
        validate_hand(HandRecord(contract="wenz", declarer=1), ruleset_from_dict())
