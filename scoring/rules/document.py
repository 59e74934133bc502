"""The ``score_hands`` command without the I/O: a document of hands in, scores and totals out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import RuleError, wrong_type
from .ruleset import Ruleset, ruleset_from_dict
from .scoring import SEAT_KEYS, SEATS, score_hand, score_to_dict
from .validation import check_table_size

DOCUMENT_KEYS = ("rules", "table_size", "hands")


def score_document(doc: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """Score every hand of a score-cli.md input document.

    Returns the output document and the exit status: 0 when every hand was valid, 1 when at
    least one hand gave an error entry. Raises RuleError (field ``document``, ``rules.<key>``,
    ``table_size`` or ``hands``) when the document or its rules are invalid (exit status 2).
    """
    if not isinstance(doc, Mapping):
        raise wrong_type("document", doc, "an object")
    for key in doc:
        if key not in DOCUMENT_KEYS:
            raise RuleError(
                "document",
                "unknown_key",
                f"unknown key {key!r}; a document has 'rules', 'table_size' and 'hands'",
                {"key": str(key)},
            )
    rules = _document_rules(doc.get("rules"))
    table_size = doc.get("table_size", 4)
    check_table_size(table_size)
    if "hands" not in doc:
        raise RuleError("hands", "missing", "the document has no list of hands")
    hands = doc["hands"]
    if not isinstance(hands, list):
        raise wrong_type("hands", hands, "a list of hand records")

    seats = SEATS[table_size]
    totals = dict.fromkeys(seats, 0)
    entries: list[dict[str, Any]] = []
    status = 0
    for record in hands:
        try:
            score = score_hand(record, rules, table_size)
        except RuleError as error:
            entries.append({"error": str(error)})
            status = 1
            continue
        for seat, points in score.points.items():
            totals[seat] += points
        entries.append(score_to_dict(score))
    return {"hands": entries, "totals": {SEAT_KEYS[s]: p for s, p in totals.items()}}, status


def _document_rules(data: Any) -> Ruleset:
    if data is None:
        return ruleset_from_dict({})
    if not isinstance(data, Mapping):
        raise wrong_type("rules", data, "an object")
    try:
        return ruleset_from_dict(data)
    except RuleError as error:
        raise error.with_prefix("rules") from None
