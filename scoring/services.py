"""The bridge between the database and the pure rules engine."""
from typing import Any

from scoring.rules import HAND_FIELDS, Hand, HandScore, Ruleset, hand_to_dict, score_hand

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
    """The stored outcome of a game: points per seat, who won, the money it costs."""
    return {
        "points": points_json(score) if not score.thrown_in else {},
        "declarer_won": None if score.thrown_in else score.declarer_won,
        "thrown_in": score.thrown_in,
        "reuegeld_cents": sum(score.reuegeld.values()),  # only the declarer ever pays Reuegeld
        "weitergeld_cents": max(score.weitergeld.values(), default=0),  # every seat pays the same
    }
