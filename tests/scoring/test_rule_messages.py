"""Every rule error the engine can raise reaches people as a German and an English sentence.

``scoring.messages`` maps the engine's codes (and a few field/code pairs) to sentences through
Django's i18n. These tests read the codes out of the engine's source, so a new code without a
sentence fails here, and they raise every code for real and read the result in both languages.
"""

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.translation import trans_real

from scoring import messages
from scoring.messages import FIELD_LABELS, FIELD_MESSAGES, MESSAGES, TYPE_NAMES, rule_error_message, rule_error_text
from scoring.rules import (
    HAND_FIELDS,
    RuleError,
    hand_from_dict,
    ruleset_from_dict,
    ruleset_to_dict,
    score_document,
    validate_hand,
)
from scoring.rules.series import SeriesRules, validate_series_rules
from tests.scoring.test_rules_validation import VIOLATIONS

RULES_DIR = Path(__file__).resolve().parents[2] / "scoring" / "rules"


def engine_codes() -> set[str]:
    """Every code in ``RuleError(field, code, ...)`` or implied by ``wrong_type(...)`` in scoring/rules."""
    codes: set[str] = set()
    for path in RULES_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            if node.func.id == "wrong_type":
                codes.add("wrong_type")
            elif node.func.id == "RuleError" and len(node.args) >= 2:
                code = node.args[1]
                if isinstance(code, ast.Attribute) and code.attr == "code":
                    continue  # an existing error passed on (``with_prefix``)
                assert isinstance(code, ast.Constant), f"{path.name}:{node.lineno}: a code must be a literal"
                codes.add(code.value)
    return codes


def raise_for(call, *args) -> RuleError:
    with pytest.raises(RuleError) as raised:
        call(*args)
    return raised.value


def _hand(record, rules, table_size):
    validate_hand(hand_from_dict(record), ruleset_from_dict(rules), table_size)


# Errors of every kind the engine raises: the hand rules, record shapes, rulesets, documents.
ERRORS = [
    *(raise_for(_hand, hand, rules, size) for _id, hand, rules, size, _field, _code in VIOLATIONS),
    raise_for(hand_from_dict, "rufspiel"),
    raise_for(hand_from_dict, {"contract": "solo", "augen": "70"}),
    raise_for(hand_from_dict, {"contract": "solo", "tout": 1}),
    raise_for(hand_from_dict, {"contract": "solo", "stiche": 3}),
    raise_for(hand_from_dict, {"declarer": 1}),
    raise_for(ruleset_from_dict, {"rounds": 7}),
    raise_for(ruleset_from_dict, {"rounds": "2"}),
    raise_for(ruleset_from_dict, {"games_per_round": 30}),
    raise_for(ruleset_from_dict, {"games_per_round": 68}),
    raise_for(ruleset_from_dict, {"scoring": "plus"}),
    raise_for(ruleset_from_dict, {"muss_win": 62}),
    raise_for(ruleset_from_dict, {"sie_allowed": "yes"}),
    raise_for(ruleset_from_dict, {"laufende_min": {"wenz": 5}}),
    raise_for(ruleset_from_dict, {"laufende_min": {"ober": 2}}),
    raise_for(ruleset_from_dict, {"laufende_min": 3}),
    raise_for(ruleset_from_dict, {"tiebreaks": ["won_solos", "won_solos", "lot"]}),
    raise_for(ruleset_from_dict, {"tiebreaks": ["won_solos"]}),
    raise_for(ruleset_from_dict, {"tiebreaks": "lot"}),
    raise_for(ruleset_from_dict, {"bockrunden": True}),
    raise_for(ruleset_from_dict, [1, 2]),
    raise_for(score_document, []),
    raise_for(score_document, {"hands": [], "spieler": 4}),
    raise_for(score_document, {"rules": {}}),
    raise_for(score_document, {"hands": {}}),
    raise_for(score_document, {"hands": [], "table_size": 6}),
    raise_for(score_document, {"hands": [], "rules": {"rounds": 9}}),
    raise_for(score_document, {"hands": [], "rules": "default"}),
    raise_for(validate_series_rules, SeriesRules(best=2)),  # a season's setting its scoring does not use
]


def test_every_code_of_the_engine_has_a_sentence_and_no_sentence_is_stale():
    codes = engine_codes()
    assert codes, "no codes found: has scoring/rules moved?"
    assert set(MESSAGES) == codes
    assert {code for _field, code in FIELD_MESSAGES} <= codes


def test_the_examples_raise_every_code():
    assert {err.code for err in ERRORS} == engine_codes()


def test_every_sentence_label_and_type_name_is_in_the_german_catalogue():
    catalog = trans_real.translation("de")._catalog
    texts = [
        *MESSAGES.values(),
        *FIELD_MESSAGES.values(),
        *FIELD_LABELS.values(),
        *TYPE_NAMES.values(),
        messages._AT_LEAST,
        messages._LAUFENDE_NEGATIVE,
        messages._LAUFENDE_TOO_MANY,
    ]
    untranslated = [text._args[0] for text in texts if text._args[0] not in catalog]
    assert untranslated == []


def test_every_field_of_a_hand_and_a_ruleset_has_a_label():
    keys = set(HAND_FIELDS)
    for key, value in ruleset_to_dict(ruleset_from_dict({})).items():
        keys.add(key)
        if isinstance(value, dict):
            keys.update(f"{key}.{sub}" for sub in value)
    assert keys - set(FIELD_LABELS) == set()


@pytest.mark.parametrize("err", ERRORS, ids=lambda err: f"{err.field}-{err.code}")
def test_each_error_reads_as_a_sentence_in_german_and_english(err):
    with translation.override("en"):
        english = rule_error_text(err)
        english_message = rule_error_message(err)
    with translation.override("de"):
        german = rule_error_text(err)
        german_message = rule_error_message(err)

    for text in (english, german):
        assert text and (text[0].isupper() or text[0] in "„“") and text.endswith((".", "?")), text
        assert "%(" not in text and not re.search(r"'\w+'", text), text  # parameters filled in, no Python repr
    assert german != english
    assert english != err.message  # the interface's own sentence, not the engine's fallback
    assert german_message.endswith(german) and english_message.endswith(english)
    if err.code != "unknown_key":  # an unknown key is named as it was written
        assert messages.field_label(err.field) != err.field


def test_the_field_is_named_as_the_player_knows_it():
    err = raise_for(_hand, {"contract": "rufspiel", "declarer": 1, "partner": 1, "augen": 70}, {}, 4)
    with translation.override("de"):
        assert rule_error_message(err) == "Partner: Der Partner kann nicht der Spieler selbst sein."
    with translation.override("en"):
        assert rule_error_message(err) == "Partner: The partner must be another player than the player."

    err = raise_for(_hand, {"contract": "wenz", "declarer": 1, "augen": 70, "laufende": 5}, {}, 4)
    with translation.override("de"):
        assert rule_error_message(err) == "Laufende: Ein Wenz hat 4 Trümpfe; 5 Laufende sind unmöglich."

    err = raise_for(ruleset_from_dict, {"laufende_min": {"wenz": 5}})
    with translation.override("de"):
        assert rule_error_message(err) == "Laufende zählen ab (Wenz): Muss zwischen 1 und 4 liegen, nicht 5."

    err = raise_for(_hand, {"contract": "rufspiel", "declarer": 1, "partner": 2, "called": "blatt", "augen": 70}, {}, 4)
    with translation.override("de"):
        assert rule_error_text(err) == "Gerufen wird die Eichel-, Gras- oder Schellen-Sau, nicht „blatt“."


def test_an_unknown_code_falls_back_to_the_engines_sentence():
    err = RuleError("augen", "brand_new_code", "something new is wrong")
    with translation.override("de"):
        assert rule_error_text(err) == "something new is wrong"
        assert rule_error_message(err) == "Augen: something new is wrong"


def test_the_key_is_added_for_people_who_edit_the_ruleset_as_json():
    err = raise_for(ruleset_from_dict, {"rounds": 9})
    with translation.override("de"):
        assert rule_error_message(err, with_key=True) == "Runden [rounds]: Muss zwischen 1 und 6 liegen, nicht 9."
    err = raise_for(ruleset_from_dict, {"solo_bsae": 2})
    with translation.override("en"):
        assert rule_error_message(err, with_key=True) == "solo_bsae: “solo_bsae” is not a known field."
