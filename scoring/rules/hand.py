"""The hand record a table enters per game (rules.md section 4), and its dict form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from .errors import RuleError, wrong_type

RUFSPIEL = "rufspiel"
WENZ = "wenz"
SOLO = "solo"
WEITER = "weiter"
KREUZ = "kreuz"

#: Contracts a solo player plays alone against three (Tout and Sie are variants of these).
SOLO_CONTRACTS = frozenset({WENZ, SOLO})

_TEXT = "text"
_NUMBER = "a whole number"
_FLAG = "true or false"

#: What each kind of key holds: its type (``type(value) is ...``, so that true/false is never a
#: number) and how an error names it.
KINDS: dict[str, tuple[type, str]] = {"text": (str, _TEXT), "number": (int, _NUMBER), "flag": (bool, _FLAG)}


def entry(kind: str, help: str = "", required: bool = False) -> Any:
    """A key of the hand record: its kind (``text``, ``number``, ``flag``) and a line of help for the API."""
    metadata = {"kind": kind, "help": help}
    if required:
        return field(metadata=metadata)
    return field(default=None, metadata=metadata)


@dataclass(frozen=True, slots=True, kw_only=True)
class HandRecord:
    """One game as the table entered it (rules.md section 4, in its order). ``None`` means "not entered".

    This is the record's one declaration: its keys (``HAND_FIELDS``), their types, the API's fields
    (``tournaments.api.serializers.HandRecordSerializer``) and the stored columns
    (``scoring.storage.RECORD_COLUMNS``) come from these fields and their metadata.
    Unset fields read as their natural default when scoring (no muss, no tout, 0 Laufende ...);
    keeping ``None`` apart from ``False``/``0`` lets ``hand_to_dict`` give back exactly what was
    entered. Build it with ``hand_from_dict`` or with values of the annotated types.
    """

    contract: str = entry(
        "text",
        "rufspiel, wenz, solo; when all passed: weiter (thrown in, all_pass = redeal) "
        "or kreuz (über Kreuz, all_pass = kreuz).",
        required=True,
    )
    declarer: int | None = entry("number", "An active seat.")
    partner: int | None = entry(
        "number", "Rufspiel: the called Sau's holder. Kreuz: may be left out; if given, the seat opposite the declarer."
    )
    called: str | None = entry("text", "Rufspiel: eichel, gras, schellen.")
    muss: bool | None = entry("flag")
    called_card: str | None = entry("text", "Muss: sau, zehn, koenig.")
    renonce: bool | None = entry("flag")
    trump: str | None = entry(
        "text", "Farbsolo: eichel, gras, herz, schellen; a Sie needs none (it is not played out)."
    )
    tout: bool | None = entry("flag")
    sie: bool | None = entry("flag")
    augen: int | None = entry("number", "The declaring party's Augen, 0–120.")
    schwarz: bool | None = entry("flag")
    won: bool | None = entry("flag", "Tout only.")
    laufende: int | None = entry("number")
    kontra: int | None = entry("number")
    dealer: int | None = entry("number", "At a table of five: the dealer, who sits out.")


#: The record's keys, in the order of rules.md section 4.
HAND_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(HandRecord))

#: What type each key holds, and its name in an error.
_FIELD_TYPES: dict[str, tuple[type, str]] = {f.name: KINDS[f.metadata["kind"]] for f in fields(HandRecord)}


def hand_from_dict(data: Mapping[str, Any]) -> HandRecord:
    """A HandRecord from a JSON-like record: shape and types only, the rules are ``validate_hand``'s.

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
    return HandRecord(**data)


def hand_to_dict(hand: HandRecord) -> dict[str, Any]:
    """The record as entered: every key that was set, in section-4 order, nothing else."""
    return {name: value for name in HAND_FIELDS if (value := getattr(hand, name)) is not None}


def _shape_error(key: Any, value: Any) -> RuleError:
    if key not in _FIELD_TYPES:
        return RuleError(str(key), "unknown_key", "is not a field of a hand record", {"key": str(key)})
    return wrong_type(key, value, _FIELD_TYPES[key][1])


_TYPES: dict[str, type] = {key: expected for key, (expected, _) in _FIELD_TYPES.items()}
