"""Worked examples that show an organiser what a ruleset makes of typical games. Pure."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RuleError
from .ruleset import Ruleset
from .scoring import score_hand


@dataclass(frozen=True, slots=True)
class WorkedExample:
    code: str  # stable name the interface translates
    points: tuple[int, ...] | None  # seats 1-4, or None when this ruleset does not allow the game
    declarer_points: int | None
    other_points: int | None


EXAMPLES: tuple[tuple[str, dict], ...] = (
    ("rufspiel_won", {"contract": "rufspiel", "declarer": 1, "partner": 2, "called": "eichel", "augen": 72}),
    (
        "rufspiel_schneider_3_laufende",
        {"contract": "rufspiel", "declarer": 1, "partner": 2, "called": "eichel", "augen": 95, "laufende": 3},
    ),
    ("solo_won_3_laufende_schneider", {"contract": "solo", "declarer": 1, "trump": "herz", "augen": 95, "laufende": 3}),
    ("wenz_won_2_laufende", {"contract": "wenz", "declarer": 1, "augen": 75, "laufende": 2}),
    ("solo_lost", {"contract": "solo", "declarer": 1, "trump": "gras", "augen": 58}),
    (
        "solo_tout_won_4_laufende",
        {"contract": "solo", "declarer": 1, "trump": "eichel", "tout": True, "won": True, "laufende": 4},
    ),
)

#: Shown only when all-pass games are played über Kreuz (1+3 against 2+4).
KREUZ_EXAMPLES: tuple[tuple[str, dict], ...] = (
    ("kreuz_won", {"contract": "kreuz", "declarer": 1, "augen": 72}),
    ("kreuz_60_60", {"contract": "kreuz", "declarer": 1, "augen": 60}),
)


def worked_examples(rules: Ruleset) -> list[WorkedExample]:
    """Typical games scored at a table of four with seat 1 declaring (über Kreuz with seat 3).

    A Kreuz that is thrown in (60:60 under ``kreuz_tie = replay``) shows as all zeros.
    """
    result = []
    examples = EXAMPLES + KREUZ_EXAMPLES if rules.all_pass == "kreuz" else EXAMPLES
    for code, hand in examples:
        try:
            score = score_hand(hand, rules, 4)
        except RuleError:
            result.append(WorkedExample(code, None, None, None))
            continue
        points = tuple(score.points[s] for s in (1, 2, 3, 4))
        result.append(WorkedExample(code, points, points[0], points[3]))
    return result
