"""The ruleset: section-10 defaults, merging, validation, presets, round trip."""

import copy

import pytest

from scoring.rules import (
    DEFAULT_RULES,
    EXTRA_RULE_KEYS,
    PRESET_LABELS,
    PRESETS,
    LaufendeMin,
    ReuegeldCents,
    RuleError,
    Ruleset,
    ruleset_from_dict,
    ruleset_to_dict,
)

# rules.md section 10, copied verbatim.
SECTION_10 = {
    "scoring": "plus_minus",
    "unit_cents": 10,
    "rufspiel_base": 1,
    "solo_base": 5,
    "schneider_bonus": 1,
    "schwarz_bonus": 1,
    "laufende_bonus": 1,
    "laufende_min": {"rufspiel": 3, "solo": 3, "wenz": 2},
    "laufende_max": 4,
    "tout_allowed": True,
    "sie_allowed": True,
    "tout_factor": 2,
    "sie_factor": 4,
    "kontra_allowed": False,
    "all_pass": "muss",
    "kreuz_tie": "lost",
    "muss_win": 60,
    "reuegeld_cents": {"rufspiel": 0, "solo": 50, "tout": 100},
    "weitergeld_cents": 10,
    "reuegeld_tischbester_percent": 50,
    "rounds": 2,
    "games_per_round": 32,
    "tiebreaks": ["won_solos", "lot"],
}


def test_default_rules_are_section_10():
    assert DEFAULT_RULES == SECTION_10
    assert list(DEFAULT_RULES) == list(SECTION_10)


def test_extra_keys_and_their_defaults():
    assert EXTRA_RULE_KEYS == {
        "reuegeld_free_solos": 0,
        "closed_table_points": "as_played",
        "substitute_points": "take_over",
        "keep_clubs_apart": False,
        "draw_mode": "each_round",
    }


def test_empty_and_none_give_the_default_ruleset():
    assert ruleset_from_dict() == ruleset_from_dict({}) == ruleset_from_dict(None) == Ruleset()


def test_to_dict_lists_section_10_then_the_extra_keys():
    data = ruleset_to_dict(Ruleset())

    assert data == {**SECTION_10, **EXTRA_RULE_KEYS}
    assert list(data) == list(SECTION_10) + list(EXTRA_RULE_KEYS)


def test_default_ruleset_attributes():
    rules = Ruleset()

    assert rules.laufende_min == LaufendeMin(rufspiel=3, solo=3, wenz=2)
    assert rules.reuegeld_cents == ReuegeldCents(rufspiel=0, solo=50, tout=100)
    assert rules.tiebreaks == ("won_solos", "lot")
    assert rules.laufende_max == 4
    assert not rules.plus_only


def test_partial_dict_overrides_only_its_keys():
    rules = ruleset_from_dict({"solo_base": 2, "laufende_max": None, "all_pass": "redeal"})

    assert rules.solo_base == 2
    assert rules.laufende_max is None
    assert rules.all_pass == "redeal"
    assert rules.rufspiel_base == 1
    assert rules.muss_win == 60


def test_nested_objects_merge_key_by_key():
    rules = ruleset_from_dict({"laufende_min": {"wenz": 3}, "reuegeld_cents": {"tout": 200}})

    assert rules.laufende_min == LaufendeMin(rufspiel=3, solo=3, wenz=3)
    assert rules.reuegeld_cents == ReuegeldCents(rufspiel=0, solo=50, tout=200)


def test_input_and_default_rules_are_not_mutated():
    data = {"laufende_min": {"wenz": 3}, "tiebreaks": ["lost_solos", "shared"]}
    before = copy.deepcopy(data)
    default_before = copy.deepcopy(DEFAULT_RULES)

    rules = ruleset_from_dict(data)
    ruleset_to_dict(rules)["laufende_min"]["wenz"] = 4

    assert data == before
    assert default_before == DEFAULT_RULES
    assert ruleset_from_dict({}).laufende_min.wenz == 2


def test_round_trip_of_the_full_dict():
    data = {
        **SECTION_10,
        "scoring": "plus_only",
        "laufende_min": {"rufspiel": 2, "solo": 4, "wenz": 3},
        "laufende_max": None,
        "kontra_allowed": True,
        "all_pass": "kreuz",
        "kreuz_tie": "replay",
        "muss_win": 61,
        "tiebreaks": ["won_solos", "lost_solos", "last_round", "shared"],
        "reuegeld_free_solos": 2,
        "closed_table_points": "scaled",
        "substitute_points": "frozen",
        "keep_clubs_apart": True,
        "draw_mode": "all_in_advance",
    }

    assert ruleset_to_dict(ruleset_from_dict(data)) == data
    rules = ruleset_from_dict(data)
    assert ruleset_from_dict(ruleset_to_dict(rules)) == rules


@pytest.mark.parametrize(
    "name, attribute, value",
    [
        ("default", "solo_base", 5),
        ("sechs_zwei", "solo_base", 2),
        ("nur_pluspunkte", "scoring", "plus_only"),
        ("wenz_ab_3", "laufende_min", LaufendeMin(rufspiel=3, solo=3, wenz=3)),
    ],
)
def test_presets_are_valid_and_labelled(name, attribute, value):
    rules = ruleset_from_dict(PRESETS[name])

    assert getattr(rules, attribute) == value
    assert PRESET_LABELS[name]


def test_preset_contents():
    assert PRESETS == {
        "default": {},
        "sechs_zwei": {"solo_base": 2},
        "nur_pluspunkte": {"scoring": "plus_only"},
        "wenz_ab_3": {"laufende_min": {"wenz": 3}},
        "kreuz_statt_muss": {"all_pass": "kreuz"},
    }
    assert set(PRESET_LABELS) == set(PRESETS)


def test_unknown_key_names_the_key():
    with pytest.raises(RuleError) as raised:
        ruleset_from_dict({"rounds": 3, "bock_rounds": True})

    assert raised.value.field == "bock_rounds"
    assert raised.value.code == "unknown_key"
    assert str(raised.value).startswith("bock_rounds: ")


def test_unknown_nested_key_names_the_path():
    with pytest.raises(RuleError) as raised:
        ruleset_from_dict({"laufende_min": {"geier": 2}})

    assert (raised.value.field, raised.value.code) == ("laufende_min.geier", "unknown_key")


@pytest.mark.parametrize(
    "data, field",
    [
        ({"rounds": "2"}, "rounds"),
        ({"rounds": 2.0}, "rounds"),
        ({"solo_base": None}, "solo_base"),
        ({"laufende_min": {"wenz": "3"}}, "laufende_min.wenz"),
        ({"laufende_min": 3}, "laufende_min"),
        ({"reuegeld_cents": {"solo": 0.5}}, "reuegeld_cents.solo"),
        ({"reuegeld_cents": [0, 50, 100]}, "reuegeld_cents"),
        ({"tout_allowed": "yes"}, "tout_allowed"),
        ({"tout_allowed": 1}, "tout_allowed"),
        ({"scoring": 1}, "scoring"),
        ({"tiebreaks": "lot"}, "tiebreaks"),
        ({"tiebreaks": ["won_solos", 3, "lot"]}, "tiebreaks"),
        ({"laufende_max": "4"}, "laufende_max"),
        ({"keep_clubs_apart": 0}, "keep_clubs_apart"),
    ],
)
def test_wrong_type_names_the_path(data, field):
    with pytest.raises(RuleError) as raised:
        ruleset_from_dict(data)

    assert (raised.value.field, raised.value.code) == (field, "wrong_type")


@pytest.mark.parametrize(
    "data, field",
    [
        ({"rounds": True}, "rounds"),
        ({"muss_win": True}, "muss_win"),
        ({"laufende_max": True}, "laufende_max"),
        ({"laufende_min": {"rufspiel": False}}, "laufende_min.rufspiel"),
        ({"reuegeld_cents": {"tout": True}}, "reuegeld_cents.tout"),
    ],
)
def test_bool_is_not_an_int(data, field):
    with pytest.raises(RuleError) as raised:
        ruleset_from_dict(data)

    assert (raised.value.field, raised.value.code) == (field, "wrong_type")


@pytest.mark.parametrize(
    "data, field, code",
    [
        ({"rounds": 0}, "rounds", "out_of_range"),
        ({"rounds": 7}, "rounds", "out_of_range"),
        ({"games_per_round": 4}, "games_per_round", "out_of_range"),
        ({"games_per_round": 68}, "games_per_round", "out_of_range"),
        ({"games_per_round": 30}, "games_per_round", "out_of_range"),
        ({"scoring": "nur_plus"}, "scoring", "invalid_choice"),
        ({"all_pass": "ramsch"}, "all_pass", "invalid_choice"),
        ({"muss_win": 62}, "muss_win", "invalid_choice"),
        ({"draw_mode": "never"}, "draw_mode", "invalid_choice"),
        ({"reuegeld_tischbester_percent": 101}, "reuegeld_tischbester_percent", "out_of_range"),
        ({"reuegeld_tischbester_percent": -1}, "reuegeld_tischbester_percent", "out_of_range"),
        ({"reuegeld_cents": {"solo": -50}}, "reuegeld_cents.solo", "out_of_range"),
        ({"weitergeld_cents": -10}, "weitergeld_cents", "out_of_range"),
        ({"unit_cents": -1}, "unit_cents", "out_of_range"),
        ({"laufende_max": 0}, "laufende_max", "out_of_range"),
        ({"laufende_min": {"wenz": 5}}, "laufende_min.wenz", "out_of_range"),
        ({"laufende_min": {"solo": 0}}, "laufende_min.solo", "out_of_range"),
        ({"solo_base": 0}, "solo_base", "out_of_range"),
        ({"tout_factor": 0}, "tout_factor", "out_of_range"),
        ({"reuegeld_free_solos": -1}, "reuegeld_free_solos", "out_of_range"),
        ({"tiebreaks": ["won_solos", "coin"]}, "tiebreaks", "invalid_choice"),
        ({"tiebreaks": ["won_solos", "won_solos", "lot"]}, "tiebreaks", "duplicate"),
        ({"tiebreaks": ["won_solos"]}, "tiebreaks", "final_tiebreak"),
        ({"tiebreaks": []}, "tiebreaks", "final_tiebreak"),
        ({"tiebreaks": ["lot", "won_solos"]}, "tiebreaks", "final_tiebreak"),
        ({"tiebreaks": ["shared", "lot"]}, "tiebreaks", "final_tiebreak"),
    ],
)
def test_values_out_of_range(data, field, code):
    with pytest.raises(RuleError) as raised:
        ruleset_from_dict(data)

    assert (raised.value.field, raised.value.code) == (field, code)


@pytest.mark.parametrize("games", [8, 12, 32, 40, 64])
def test_games_per_round_multiples_of_four(games):
    assert ruleset_from_dict({"games_per_round": games}).games_per_round == games


@pytest.mark.parametrize(
    "tiebreaks",
    [["lot"], ["shared"], ["won_solos", "lost_solos", "last_round", "lot"], ["last_round", "shared"]],
)
def test_valid_tiebreaks(tiebreaks):
    assert ruleset_from_dict({"tiebreaks": tiebreaks}).tiebreaks == tuple(tiebreaks)


def test_rules_that_are_not_an_object():
    with pytest.raises(RuleError) as raised:
        ruleset_from_dict(["solo_base", 2])

    assert (raised.value.field, raised.value.code) == ("rules", "wrong_type")


def test_ruleset_is_frozen_and_hashable():
    rules = Ruleset()

    with pytest.raises(AttributeError):
        rules.solo_base = 2  # type: ignore[misc]
    assert hash(rules) == hash(ruleset_from_dict({}))


def test_error_message_has_no_field_prefix():
    with pytest.raises(RuleError) as raised:
        ruleset_from_dict({"rounds": 9})

    error = raised.value
    assert not error.message.startswith("rounds")
    assert str(error) == f"rounds: {error.message}"
    assert error.params == {"min": 1, "max": 6, "value": 9}


def test_kreuz_options_are_checked():
    assert ruleset_from_dict({"all_pass": "kreuz", "kreuz_tie": "replay"}).kreuz_tie == "replay"
    with pytest.raises(RuleError) as raised:
        ruleset_from_dict({"kreuz_tie": "draw"})
    assert (raised.value.field, raised.value.code) == ("kreuz_tie", "invalid_choice")
    with pytest.raises(RuleError) as raised:
        ruleset_from_dict({"all_pass": "ramsch"})
    assert raised.value.params["choices"] == ["muss", "redeal", "kreuz"]
