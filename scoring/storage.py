"""How a game is stored: a rules record and its HandScore to and from the Hand model's columns (and back, never scored again)."""

from collections.abc import Mapping
from typing import Any

from scoring.rules import HAND_FIELDS, HandRecord, HandScore, Ruleset, hand_to_dict, score_hand
from scoring.rules.outcome import outcome_from_dict, outcome_to_dict
from scoring.rules.scoring import SEATS

# The Hand model's columns that hold the record of rules.md section 4 (dealer is always stored).
RECORD_COLUMNS: tuple[str, ...] = tuple(name for name in HAND_FIELDS if name != "dealer")


def stored_record(hand: Any, table_size: int) -> dict[str, Any]:
    """The record of a stored hand exactly as entered (the dealer only where he sits out)."""
    record = hand_to_dict(HandRecord(**{name: getattr(hand, name) for name in RECORD_COLUMNS}))
    if table_size == 5:
        record["dealer"] = hand.dealer
    return record


def hand_columns(record: dict[str, Any]) -> dict[str, Any]:
    """Model column values for a record (left-out keys become NULL)."""
    return {name: record.get(name) for name in RECORD_COLUMNS}


def hand_score(record: dict[str, Any], *, dealer: int, rules: Ruleset, table_size: int) -> HandScore:
    """Score a record at a table; the dealer comes from the game number, not from the tablet."""
    return score_hand({**record, "dealer": dealer}, rules, table_size)


# The Hand model's integer columns of a game's points, one per seat ("points_1" .. "points_5"): any
# database sums them per table with a plain ``SUM … GROUP BY`` (the full recompute of the standings).
POINTS_COLUMNS: dict[int, str] = {seat: f"points_{seat}" for seat in SEATS[5]}


def points_json(score: HandScore) -> dict[str, int]:
    return {str(seat): points for seat, points in sorted(score.points.items())}


def points_columns(points: Mapping[Any, int]) -> dict[str, int | None]:
    """Column values for points per seat (int or "1".."5" keys): NULL where the map has no such seat."""
    by_seat = {int(seat): value for seat, value in points.items()}
    return {column: by_seat.get(seat) for seat, column in POINTS_COLUMNS.items()}


def columns_points(values: Mapping[str, int | None]) -> dict[str, int]:
    """The points per seat ({"1": 1, "2": -1, ...}, seat order) from the columns ``points_columns`` wrote;
    ``values``: the columns by name (a Hand, through ``vars``, or a row of ``values()``)."""
    return {str(seat): values[column] for seat, column in POINTS_COLUMNS.items() if values[column] is not None}


def outcome_columns(score: HandScore) -> dict[str, Any]:
    """The stored outcome of a game: the engine's whole HandScore (lossless), and the points per seat
    the sheet, the archive, the admin and the standings' sums read (no points for a thrown-in game),
    and the solo and money columns the full recompute counts. The only writer of these columns."""
    return {
        **points_columns(score.points if not score.thrown_in else {}),
        "thrown_in": score.thrown_in,
        **solo_columns(score),
        "outcome": outcome_to_dict(score),
    }


def solo_columns(score: HandScore) -> dict[str, Any]:
    """Who won or lost a solo (the declarer's seat, else NULL) and whether the game costs money."""
    return {
        "solo_won": score.declarer if score.won_solo else None,
        "solo_lost": score.declarer if score.lost_solo else None,
        "pays": bool(score.reuegeld or score.weitergeld),
    }


def stored_score(hand: Any) -> HandScore:
    """The HandScore stored with a game (never scored again)."""
    return outcome_from_dict(hand.outcome)
