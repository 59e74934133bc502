"""The hand record a table enters per game (rules.md section 4), and its dict form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import RuleError, wrong_type

RUFSPIEL = "rufspiel"
WENZ = "wenz"
SOLO = "solo"
WEITER = "weiter"
KREUZ = "kreuz"

#: Contracts a solo player plays alone against three (Tout and Sie are variants of these).
SOLO_CONTRACTS = frozenset({WENZ, SOLO})

#: The record's keys, in the order of rules.md section 4.
HAND_FIELDS: tuple[str, ...] = (
    "contract",
    "declarer",
    "partner",
    "called",
    "muss",
    "called_card",
    "renonce",
    "trump",
    "tout",
    "sie",
    "augen",
    "schwarz",
    "won",
    "laufende",
    "kontra",
    "dealer",
)

_TEXT = "text"
_NUMBER = "a whole number"
_FLAG = "true or false"

#: What type each key holds; ``type(value) is ...`` so that true/false is never a number.
_FIELD_TYPES: dict[str, tuple[type, str]] = {
    "contract": (str, _TEXT),
    "declarer": (int, _NUMBER),
    "partner": (int, _NUMBER),
    "called": (str, _TEXT),
    "muss": (bool, _FLAG),
    "called_card": (str, _TEXT),
    "renonce": (bool, _FLAG),
    "trump": (str, _TEXT),
    "tout": (bool, _FLAG),
    "sie": (bool, _FLAG),
    "augen": (int, _NUMBER),
    "schwarz": (bool, _FLAG),
    "won": (bool, _FLAG),
    "laufende": (int, _NUMBER),
    "kontra": (int, _NUMBER),
    "dealer": (int, _NUMBER),
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Hand:
    """One game as the table entered it. ``None`` means "not entered".

    Unset fields read as their natural default when scoring (no muss, no tout, 0 Laufende ...);
    keeping ``None`` apart from ``False``/``0`` lets ``hand_to_dict`` give back exactly what was
    entered. Build it with ``hand_from_dict`` or with values of the annotated types.
    """

    contract: str
    declarer: int | None = None
    partner: int | None = None
    called: str | None = None
    muss: bool | None = None
    called_card: str | None = None
    renonce: bool | None = None
    trump: str | None = None
    tout: bool | None = None
    sie: bool | None = None
    augen: int | None = None
    schwarz: bool | None = None
    won: bool | None = None
    laufende: int | None = None
    kontra: int | None = None
    dealer: int | None = None


def hand_from_dict(data: Mapping[str, Any]) -> Hand:
    """A Hand from a JSON-like record: shape and types only, the rules are ``validate_hand``'s.

    ``null`` is the same as a left-out key. Raises RuleError for a record that is not an
    object, an unknown key, a missing contract or a value of the wrong type.
    """
    if type(data) is not dict and not isinstance(data, Mapping):  # the ABC check is slow
        raise wrong_type("hand", data, "an object")
    has_null = False
    for key, value in data.items():
        if type(value) is not _TYPES.get(key):
            if value is None and key in _TYPES:
                has_null = True
            else:
                raise _shape_error(key, value)
    if has_null:
        data = {key: value for key, value in data.items() if value is not None}
    if "contract" not in data:
        raise RuleError("contract", "missing", "every game needs a contract")
    return Hand(**data)


def hand_to_dict(hand: Hand) -> dict[str, Any]:
    """The record as entered: every key that was set, in section-4 order, nothing else."""
    return {
        name: value
        for name in HAND_FIELDS
        if (value := getattr(hand, name)) is not None
    }


def _shape_error(key: Any, value: Any) -> RuleError:
    if key not in _FIELD_TYPES:
        return RuleError(
            str(key), "unknown_key", "is not a field of a hand record", {"key": str(key)}
        )
    return wrong_type(key, value, _FIELD_TYPES[key][1])


_TYPES: dict[str, type] = {key: expected for key, (expected, _) in _FIELD_TYPES.items()}
