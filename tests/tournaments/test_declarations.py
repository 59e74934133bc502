"""One declaration each for the hand record and the ruleset: the API's fields, the stored columns, the
organiser's form, the defaults and the range checks all come from the dataclasses' fields and metadata."""

import dataclasses

import pytest

from scoring.rules import DEFAULT_RULES, EXTRA_RULE_KEYS, HAND_FIELDS, PRESETS, RuleError, ruleset_from_dict
from scoring.rules.hand import HandRecord
from scoring.rules.ruleset import Ruleset, ruleset_fields
from scoring.storage import RECORD_COLUMNS
from tournaments.api.serializers import HandRecordSerializer
from tournaments.forms_setup import PRESET_CHOICES, RulesForm
from tournaments.models import Hand


def test_the_hand_record_is_declared_once():
    declared = [f.name for f in dataclasses.fields(HandRecord)]
    assert list(HAND_FIELDS) == declared
    assert list(HandRecordSerializer().fields) == declared  # the API's body, in the same order
    assert tuple(name for name in declared if name != "dealer") == RECORD_COLUMNS
    columns = {f.name for f in Hand._meta.get_fields()}
    assert set(declared) <= columns  # the model stores every key (the dealer from the game number)
    fields = HandRecordSerializer().fields
    assert fields["contract"].required and not fields["augen"].required
    assert fields["augen"].help_text == "The declaring party's Augen, 0–120."


def _form_key(name: str) -> tuple[str, str]:
    key, _sep, sub = name.partition("__")
    return key, sub


def test_the_rules_form_has_a_field_per_declared_key_with_its_range():
    form = RulesForm()
    keys = {_form_key(name)[0] for name in form.fields}
    assert keys == set(DEFAULT_RULES) | set(EXTRA_RULE_KEYS) == {f.name for f in ruleset_fields()}
    for name, field in form.fields.items():
        key, sub = _form_key(name)
        declared = next(f for f in ruleset_fields() if f.name == key)
        if sub:
            declared = next(f for f in dataclasses.fields(declared.default) if f.name == sub)
        meta = declared.metadata
        if "min" in meta:
            assert (field.min_value, field.max_value) == (meta["min"], meta.get("max")), name
        if "choices" in meta and key != "tiebreaks":
            assert [value for value, _label in field.choices] == list(meta["choices"]), name


@pytest.mark.parametrize(
    "declared", [f for f in dataclasses.fields(Ruleset) if "max" in f.metadata], ids=lambda f: f.name
)
def test_the_engine_refuses_one_above_the_declared_maximum(declared):
    with pytest.raises(RuleError) as raised:
        ruleset_from_dict({declared.name: declared.metadata["max"] + 1})
    assert (raised.value.field, raised.value.code) == (declared.name, "out_of_range")
    assert RulesForm(data={}).fields[declared.name].max_value == declared.metadata["max"]


def test_the_presets_have_one_label_each():
    assert [key for key, _label in PRESET_CHOICES] == list(PRESETS)
