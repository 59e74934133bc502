"""A game's outcome as it is stored with the game, and a table's result as the snapshot keeps it. Pure.

``outcome_to_dict`` keeps every field of ``HandScore`` (points, value, who won, Schneider, Laufende,
Reuegeld and Weitergeld per seat, contract and declarer): nothing is summed away, so standings, score
sheets and cash lists read the stored outcome and never score a game again. Fields are taken from the
dataclass itself: a field the engine gains later is stored without a change here, and an outcome
stored before it reads back with the field's default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from .scoring import HandScore
from .standings import TableResult

_FIELDS = tuple(f.name for f in fields(HandScore))


def outcome_to_dict(score: HandScore) -> dict[str, Any]:
    """JSON-ready: seat maps get string keys ("1".."5") in seat order."""
    out: dict[str, Any] = {}
    for name in _FIELDS:
        value = getattr(score, name)
        if isinstance(value, dict):
            value = {str(seat): v for seat, v in sorted(value.items())}
        out[name] = value
    return out


def outcome_from_dict(data: Mapping[str, Any]) -> HandScore:
    """The HandScore ``outcome_to_dict`` stored (keys it does not know are left out)."""
    kwargs: dict[str, Any] = {}
    for name in _FIELDS:
        if name in data:
            value = data[name]
            if isinstance(value, dict):
                value = {int(seat): v for seat, v in value.items()}
            kwargs[name] = value
    return HandScore(**kwargs)


def _pairs(values: Mapping[int, int]) -> list[tuple[int, int]]:
    return sorted(values.items())


def table_result_to_json(result: TableResult) -> list[Any]:
    """A TableResult as the standings snapshot keeps it per table (to merge one table's change): a
    compact array, [round, table, seats, points, won solos, lost solos, money], seat maps as
    [seat, value] pairs in seat order and each Money as [hand, seat, kind, cents, lost_solo]."""
    return [
        result.round,
        result.table,
        _pairs(result.seats),
        _pairs(result.points),
        _pairs(result.won_solos),
        _pairs(result.lost_solos),
        [[m.hand, m.seat, m.kind, m.cents, m.lost_solo] for m in result.money],
    ]
