"""Scoring per rules.md sections 5-7: the worked examples and every option."""

import pytest

from scoring.rules import (
    HandRecord,
    HandScore,
    RuleError,
    ruleset_from_dict,
    score_hand,
    score_to_dict,
)

DEFAULT = ruleset_from_dict()


def points(hand, rules=DEFAULT, table_size=4):
    score = score_hand(hand, rules, table_size)
    return tuple(score.points[seat] for seat in range(1, table_size + 1))


# rules.md 5.3, "Worked examples (seats 1-4, DEFAULT ruleset)", row by row.
WORKED_EXAMPLES = [
    (
        "Rufspiel 1 with 3, 72 Augen, no Laufende",
        {"contract": "rufspiel", "declarer": 1, "partner": 3, "augen": 72},
        (1, -1, 1, -1),
    ),
    (
        "Rufspiel 2 with 4, 95 Augen, 3 Laufende",
        {"contract": "rufspiel", "declarer": 2, "partner": 4, "augen": 95, "laufende": 3},
        (-5, 5, -5, 5),
    ),
    (
        "Rufspiel 4 with 2, 30 Augen (Schneider)",
        {"contract": "rufspiel", "declarer": 4, "partner": 2, "augen": 30},
        (2, -2, 2, -2),
    ),
    (
        "Muss 2 with 4 (Renonce), 60 Augen",
        {"contract": "rufspiel", "muss": True, "renonce": True, "declarer": 2, "partner": 4, "augen": 60},
        (-1, 1, -1, 1),
    ),
    (
        "Farbsolo by 3, 91 Augen, 2 Laufende (below the minimum)",
        {"contract": "solo", "trump": "eichel", "declarer": 3, "augen": 91, "laufende": 2},
        (-6, -6, 18, -6),
    ),
    (
        "Farbsolo by 4, 58 Augen, 3 Laufende (lost)",
        {"contract": "solo", "trump": "herz", "declarer": 4, "augen": 58, "laufende": 3},
        (8, 8, 8, -24),
    ),
    (
        "Wenz by 1, 75 Augen, 2 Laufende",
        {"contract": "wenz", "declarer": 1, "augen": 75, "laufende": 2},
        (21, -7, -7, -7),
    ),
    (
        "Farbsolo by 2, all tricks (120, Schwarz), 4 Laufende",
        {"contract": "solo", "trump": "gras", "declarer": 2, "augen": 120, "schwarz": True, "laufende": 4},
        (-11, 33, -11, -11),
    ),
    (
        "Solo-Tout by 3, won, 5 Laufende (capped at 4)",
        {"contract": "solo", "trump": "schellen", "declarer": 3, "tout": True, "won": True, "laufende": 5},
        (-18, -18, 54, -18),
    ),
    ("Sie by 4", {"contract": "solo", "trump": "herz", "declarer": 4, "sie": True}, (-36, -36, -36, 108)),
]


@pytest.mark.parametrize(
    "hand, expected", [row[1:] for row in WORKED_EXAMPLES], ids=[row[0] for row in WORKED_EXAMPLES]
)
def test_worked_example(hand, expected):
    assert points(hand) == expected


def test_score_of_a_hand_object_and_of_a_dict_agree():
    record = {"contract": "wenz", "declarer": 1, "augen": 75, "laufende": 2}

    assert score_hand(HandRecord(**record), DEFAULT) == score_hand(record, DEFAULT)


def test_hand_score_fields():
    score = score_hand({"contract": "wenz", "declarer": 2, "augen": 28}, DEFAULT)

    assert score == HandScore(
        points={1: 6, 2: -18, 3: 6, 4: 6},
        value=6,
        declarer_won=False,
        schneider=True,
        schwarz=False,
        laufende=0,
        reuegeld={2: 50},
        contract="wenz",
        declarer=2,
    )
    assert score.lost_solo and not score.won_solo
    assert not score.thrown_in and score.weitergeld == {}


@pytest.mark.parametrize(
    "hand, won_solo, lost_solo",
    [
        ({"contract": "wenz", "declarer": 1, "augen": 61}, True, False),
        ({"contract": "solo", "trump": "gras", "declarer": 1, "augen": 60}, False, True),
        ({"contract": "solo", "trump": "gras", "declarer": 1, "tout": True, "won": True}, True, False),
        ({"contract": "wenz", "declarer": 1, "tout": True, "won": False}, False, True),
        ({"contract": "solo", "trump": "gras", "declarer": 1, "sie": True}, True, False),
        ({"contract": "rufspiel", "declarer": 1, "partner": 2, "augen": 90}, False, False),
        ({"contract": "rufspiel", "declarer": 1, "partner": 2, "augen": 9}, False, False),
    ],
)
def test_won_and_lost_solos(hand, won_solo, lost_solo):
    score = score_hand(hand, DEFAULT)

    assert (score.won_solo, score.lost_solo) == (won_solo, lost_solo)


class TestLaufende:
    def test_no_cap(self):
        rules = ruleset_from_dict({"laufende_max": None})
        hand = {"contract": "rufspiel", "declarer": 1, "partner": 2, "augen": 70, "laufende": 7}

        assert score_hand(hand, rules).laufende == 7
        assert score_hand(hand, rules).value == 8

    def test_sie_without_cap_counts_eight(self):
        rules = ruleset_from_dict({"laufende_max": None})
        score = score_hand({"contract": "solo", "trump": "herz", "declarer": 4, "sie": True}, rules)

        assert (score.laufende, score.value) == (8, 4 * (5 + 8))

    def test_wenz_ab_3(self):
        rules = ruleset_from_dict({"laufende_min": {"wenz": 3}})
        hand = {"contract": "wenz", "declarer": 1, "augen": 75, "laufende": 2}

        assert score_hand(hand, rules).laufende == 0
        assert score_hand({**hand, "laufende": 3}, rules).value == 8

    def test_laufende_bonus(self):
        rules = ruleset_from_dict({"laufende_bonus": 2})
        hand = {"contract": "solo", "trump": "gras", "declarer": 1, "augen": 70, "laufende": 3}

        assert score_hand(hand, rules).value == 5 + 3 * 2

    def test_ohne_counts_for_a_lost_game(self):
        hand = {"contract": "rufspiel", "declarer": 3, "partner": 1, "augen": 58, "laufende": 4}

        assert points(hand) == (-5, 5, -5, 5)


class TestWinLine:
    @pytest.mark.parametrize(
        "augen, won, schneider",
        [
            (0, False, True),
            (30, False, True),
            (31, False, False),
            (60, False, False),
            (61, True, False),
            (90, True, False),
            (91, True, True),
            (120, True, True),
        ],
    )
    def test_normal_game(self, augen, won, schneider):
        score = score_hand({"contract": "wenz", "declarer": 1, "augen": augen}, DEFAULT)

        assert (score.declarer_won, score.schneider, score.schwarz) == (won, schneider, False)

    @pytest.mark.parametrize(
        "augen, won, schneider",
        [
            (29, False, True),
            (30, False, False),
            (59, False, False),
            (60, True, False),
            (89, True, False),
            (90, True, True),
        ],
    )
    def test_muss(self, augen, won, schneider):
        hand = {"contract": "rufspiel", "muss": True, "declarer": 1, "partner": 2, "augen": augen}
        score = score_hand(hand, DEFAULT)

        assert (score.declarer_won, score.schneider) == (won, schneider)

    @pytest.mark.parametrize(
        "augen, won, schneider",
        [
            (30, False, True),
            (31, False, False),
            (60, False, False),
            (61, True, False),
            (90, True, False),
            (91, True, True),
        ],
    )
    def test_muss_win_61_scores_like_a_rufspiel(self, augen, won, schneider):
        rules = ruleset_from_dict({"muss_win": 61})
        hand = {"contract": "rufspiel", "muss": True, "declarer": 1, "partner": 2, "augen": augen}
        score = score_hand(hand, rules)

        assert (score.declarer_won, score.schneider) == (won, schneider)


class TestOptions:
    def test_tariff(self):
        rules = ruleset_from_dict({"rufspiel_base": 2, "schneider_bonus": 3, "schwarz_bonus": 5, "solo_base": 10})
        schwarz = {"contract": "rufspiel", "declarer": 1, "partner": 2, "augen": 0, "schwarz": True}

        assert score_hand(schwarz, rules).value == 2 + 3 + 5
        assert points(schwarz, rules) == (-10, -10, 10, 10)
        solo = {"contract": "solo", "trump": "gras", "declarer": 1, "augen": 95}
        assert score_hand(solo, rules).value == 13

    def test_tout_and_sie_factors(self):
        rules = ruleset_from_dict({"tout_factor": 3, "sie_factor": 5})
        tout = {"contract": "wenz", "declarer": 1, "tout": True, "won": False, "laufende": 3}
        sie = {"contract": "solo", "trump": "gras", "declarer": 1, "sie": True}

        assert score_hand(tout, rules).value == 3 * (5 + 3)
        assert score_hand(sie, rules).value == 5 * (5 + 4)

    @pytest.mark.parametrize("kontra, value", [(0, 1), (1, 2), (2, 4)])
    def test_kontra_doubles(self, kontra, value):
        rules = ruleset_from_dict({"kontra_allowed": True})
        hand = {"contract": "rufspiel", "declarer": 1, "partner": 2, "augen": 70, "kontra": kontra}

        assert score_hand(hand, rules).value == value
        assert points(hand, rules) == (value, value, -value, -value)

    def test_kontra_on_a_solo_tout(self):
        rules = ruleset_from_dict({"kontra_allowed": True})
        hand = {
            "contract": "solo",
            "trump": "gras",
            "declarer": 3,
            "tout": True,
            "won": True,
            "laufende": 5,
            "kontra": 1,
        }

        assert points(hand, rules) == (-36, -36, 108, -36)

    def test_plus_only(self):
        rules = ruleset_from_dict({"scoring": "plus_only"})
        lost = {"contract": "solo", "trump": "gras", "declarer": 2, "augen": 50}
        ruf = {"contract": "rufspiel", "declarer": 1, "partner": 2, "augen": 50}

        assert points(lost, rules) == (5, 0, 5, 5)
        assert points(ruf, rules) == (0, 0, 1, 1)
        assert score_hand(lost, rules).value == 5


class TestTableOfFive:
    def test_dealer_scores_zero_in_a_rufspiel(self):
        hand = {"contract": "rufspiel", "declarer": 5, "partner": 1, "augen": 40, "dealer": 4}

        assert points(hand, table_size=5) == (-1, 1, 1, 0, -1)

    def test_dealer_scores_zero_in_a_solo(self):
        hand = {"contract": "wenz", "declarer": 1, "augen": 100, "dealer": 2}

        assert points(hand, table_size=5) == (18, 0, -6, -6, -6)

    def test_dealer_named_at_a_table_of_four_plays(self):
        hand = {"contract": "wenz", "declarer": 1, "augen": 100, "dealer": 1}

        assert points(hand) == (18, -6, -6, -6)


class TestReuegeld:
    def test_lost_wenz_and_farbsolo_pay_the_solo_rate(self):
        wenz = {"contract": "wenz", "declarer": 3, "augen": 60}
        solo = {"contract": "solo", "trump": "eichel", "declarer": 1, "augen": 0, "schwarz": True}

        assert score_hand(wenz, DEFAULT).reuegeld == {3: 50}
        assert score_hand(solo, DEFAULT).reuegeld == {1: 50}

    def test_lost_tout_pays_the_tout_rate(self):
        tout = {"contract": "wenz", "declarer": 2, "tout": True, "won": False}

        assert score_hand(tout, DEFAULT).reuegeld == {2: 100}

    def test_won_games_pay_nothing(self):
        won = [
            {"contract": "wenz", "declarer": 3, "augen": 61},
            {"contract": "solo", "trump": "gras", "declarer": 3, "tout": True, "won": True},
            {"contract": "solo", "trump": "gras", "declarer": 3, "sie": True},
        ]
        for hand in won:
            assert score_hand(hand, DEFAULT).reuegeld == {}

    def test_lost_rufspiel_pays_the_rufspiel_rate_and_the_partner_nothing(self):
        rules = ruleset_from_dict({"reuegeld_cents": {"rufspiel": 20}})
        hand = {"contract": "rufspiel", "declarer": 1, "partner": 2, "augen": 50}

        assert score_hand(hand, DEFAULT).reuegeld == {}
        assert score_hand(hand, rules).reuegeld == {1: 20}

    def test_muss_never_pays(self):
        rules = ruleset_from_dict({"reuegeld_cents": {"rufspiel": 20}})
        hand = {"contract": "rufspiel", "muss": True, "declarer": 1, "partner": 2, "augen": 10}

        assert score_hand(hand, rules).reuegeld == {}

    def test_kontra_does_not_change_reuegeld(self):
        rules = ruleset_from_dict({"kontra_allowed": True})
        hand = {"contract": "wenz", "declarer": 3, "augen": 60, "kontra": 2}

        assert score_hand(hand, rules).reuegeld == {3: 50}

    def test_free_allowance_is_not_applied_per_game(self):
        rules = ruleset_from_dict({"reuegeld_free_solos": 2})
        hand = {"contract": "wenz", "declarer": 3, "augen": 60}

        assert score_hand(hand, rules).reuegeld == {3: 50}


class TestThrownIn:
    REDEAL = ruleset_from_dict({"all_pass": "redeal"})

    def test_every_player_pays_weitergeld(self):
        score = score_hand({"contract": "weiter"}, self.REDEAL)

        assert score.thrown_in
        assert score.points == {1: 0, 2: 0, 3: 0, 4: 0}
        assert score.weitergeld == {1: 10, 2: 10, 3: 10, 4: 10}
        assert score_to_dict(score) == {
            "points": {"1": 0, "2": 0, "3": 0, "4": 0},
            "value": 0,
            "thrown_in": True,
            "weitergeld": {"1": 10, "2": 10, "3": 10, "4": 10},
        }
        assert not score.won_solo and not score.lost_solo

    def test_at_a_table_of_five_only_who_took_part_in_the_deal_pays(self):
        score = score_hand({"contract": "weiter", "dealer": 3}, self.REDEAL, 5)

        assert score.weitergeld == {1: 10, 2: 10, 4: 10, 5: 10}  # the dealer sat out
        assert score.points == {1: 0, 2: 0, 3: 0, 4: 0, 5: 0}
        assert score_to_dict(score)["weitergeld"] == {"1": 10, "2": 10, "4": 10, "5": 10}

    def test_no_weitergeld_configured(self):
        rules = ruleset_from_dict({"all_pass": "redeal", "weitergeld_cents": 0})

        assert score_hand({"contract": "weiter"}, rules).weitergeld == {}

    def test_refused_under_muss(self):
        with pytest.raises(RuleError):
            score_hand({"contract": "weiter"}, DEFAULT)


def test_score_to_dict_uses_string_seats():
    score = score_hand({"contract": "solo", "trump": "herz", "declarer": 4, "augen": 58, "laufende": 3}, DEFAULT)

    assert score_to_dict(score) == {
        "points": {"1": 8, "2": 8, "3": 8, "4": -24},
        "value": 8,
        "declarer_won": False,
        "schneider": False,
        "schwarz": False,
        "laufende": 3,
        "reuegeld": {"4": 50},
    }
