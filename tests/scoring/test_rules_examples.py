from scoring.rules import ruleset_from_dict
from scoring.rules.examples import worked_examples


def test_worked_examples_follow_the_ruleset():
    default = {e.code: e for e in worked_examples(ruleset_from_dict({}))}
    assert default["solo_won_3_laufende_schneider"].points == (27, -9, -9, -9)  # (5 + 1 + 3) × 3
    assert default["rufspiel_won"].points == (1, 1, -1, -1)
    assert default["solo_tout_won_4_laufende"].points == (54, -18, -18, -18)
    six_two = {e.code: e for e in worked_examples(ruleset_from_dict({"solo_base": 2}))}
    assert six_two["solo_won_3_laufende_schneider"].points == (18, -6, -6, -6)
    no_tout = {e.code: e for e in worked_examples(ruleset_from_dict({"tout_allowed": False}))}
    assert no_tout["solo_tout_won_4_laufende"].points is None


def test_kreuz_examples_only_when_all_pass_is_kreuz():
    assert "kreuz_won" not in {e.code for e in worked_examples(ruleset_from_dict({}))}
    lost = {e.code: e for e in worked_examples(ruleset_from_dict({"all_pass": "kreuz"}))}
    assert lost["kreuz_won"].points == (1, -1, 1, -1)
    assert lost["kreuz_60_60"].points == (-1, 1, -1, 1)
    replay = {e.code: e for e in worked_examples(ruleset_from_dict({"all_pass": "kreuz", "kreuz_tie": "replay"}))}
    assert replay["kreuz_60_60"].points == (0, 0, 0, 0)
