"""How a game is stored: a rules record and its HandScore to and from the Hand model's columns (and back, never scored again)."""
from typing import Any

from scoring.rules import HAND_FIELDS, Hand, HandScore, Ruleset, hand_to_dict, score_hand
from scoring.rules.outcome import outcome_from_dict, outcome_to_dict

# The Hand model's columns that hold the record of rules.md section 4 (dealer is always stored).
RECORD_COLUMNS: tuple[str, ...] = tuple(name for name in HAND_FIELDS if name != "dealer")


def hand_record(hand: Any, table_size: int) -> dict[str, Any]:
    """The record of a stored hand exactly as entered (the dealer only where he sits out)."""
    record = hand_to_dict(Hand(**{name: getattr(hand, name) for name in RECORD_COLUMNS}))
    if table_size == 5:
        record["dealer"] = hand.dealer
    return record


def hand_columns(record: dict[str, Any]) -> dict[str, Any]:
    """Model column values for a record (left-out keys become NULL)."""
    return {name: record.get(name) for name in RECORD_COLUMNS}


def hand_score(record: dict[str, Any], *, dealer: int, rules: Ruleset, table_size: int) -> HandScore:
    """Score a record at a table; the dealer comes from the game number, not from the tablet."""
    return score_hand({**record, "dealer": dealer}, rules, table_size)


def points_json(score: HandScore) -> dict[str, int]:
    return {str(seat): points for seat, points in sorted(score.points.items())}


def outcome_columns(score: HandScore) -> dict[str, Any]:
    """The stored outcome of a game: the engine's whole HandScore (lossless), and the points per seat
    the sheet, the archive and the admin show (empty for a thrown-in game)."""
    return {"points": points_json(score) if not score.thrown_in else {}, "thrown_in": score.thrown_in,
            "outcome": outcome_to_dict(score)}


def stored_score(hand: Any) -> HandScore:
    """The HandScore stored with a game (never scored again)."""
    return outcome_from_dict(hand.outcome)
