"""The archive's shape, declared once: a DRF serializer per object of docs/archive.md.

The schema says what each value is (an object, a list, a whole number in a range, a text of at most
so many characters, one of some words) and which keys may be left out with which default. What
values must agree on with each other and with the rules (a seat's player exists, the points are
what the rules give, a ledger entry names a real game) is checked by ``load.py`` after it.

Values are taken as JSON gives them, never coerced: a number in quotes is not a number and
``true`` is not 1 (the fields below are strict where DRF's own would convert). A broken archive is
refused with the path of its first bad value, ``rounds[1].tables[3].hands[7].augen``
(``first_error``); the messages stay in English, like the archive's keys.
"""

import datetime
import re
from collections.abc import Mapping
from typing import Any

from django.utils.dateparse import parse_datetime
from rest_framework import serializers
from rest_framework.settings import api_settings

from scoring.rules import RuleError, ruleset_from_dict

from ..models import Round, Table, Tournament
from .version import FORMAT, READABLE

SLUG_RE = re.compile(r"^[-a-zA-Z0-9_]+$")
KEY_RE = re.compile(r"^[-a-zA-Z0-9_]+$")  # entry and personal keys: URL-safe characters only
# The database's limits, declared here so that a value too large is refused with its path, not a DataError.
INT_MAX = 2**31 - 1  # PositiveIntegerField
SMALL_MAX = 2**15 - 1  # PositiveSmallIntegerField
BIG_MAX = 2**63 - 1  # BigIntegerField
INT_MIN = -(2**31)  # IntegerField, and the bound of every number the archive gives without its own
NESTING_MAX = 20  # the audit log's before and after: a few levels in practice; deeper is no archive of ours
HAND_KEYS = ("number", "dealer", "points")  # a game's keys besides its record (the record is the engine's to check)

_MISSING = {"required": "is missing"}


# --- Strict fields ---------------------------------------------------------------------------


class WholeNumber(serializers.Field):
    default_error_messages = {**_MISSING, "null": "must be a whole number", "invalid": "must be a whole number"}

    def __init__(self, lo: int = INT_MIN, hi: int = INT_MAX, **kwargs: Any) -> None:
        self.lo, self.hi = lo, hi  # no number is unbounded: 10**30 fits no column (nor the standings' JSON)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        if type(data) is not int:
            self.fail("invalid")
        if not self.lo <= data <= self.hi:
            shown = (
                data if abs(data) <= BIG_MAX else f"{'-' if data < 0 else ''}a number of {len(str(abs(data)))} digits"
            )
            raise serializers.ValidationError(f"must be from {self.lo} to {self.hi}, not {shown}")
        return data

    def to_representation(self, value: int) -> int:
        return value


class Text(serializers.Field):
    """A text; ``blank``: it may be empty (or only spaces). Kept as written (no trimming)."""

    default_error_messages = {
        **_MISSING,
        "null": "must be a non-empty text",
        "invalid": "must be a non-empty text",
        "invalid_blank": "must be a text",
    }

    def __init__(
        self,
        *,
        blank: bool = False,
        max_length: int | None = None,
        pattern: re.Pattern | None = None,
        pattern_message: str = "",
        **kwargs: Any,
    ) -> None:
        self.blank, self.max_length, self.pattern, self.pattern_message = blank, max_length, pattern, pattern_message
        super().__init__(**kwargs)
        if blank:
            self.error_messages["null"] = self.error_messages["invalid_blank"]

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str) or (not self.blank and not data.strip()):
            self.fail("invalid_blank" if self.blank else "invalid")
        if "\x00" in data:  # PostgreSQL keeps no NUL in text
            raise serializers.ValidationError("must not contain a NUL character")
        if self.max_length is not None and len(data) > self.max_length:
            raise serializers.ValidationError(f"must be at most {self.max_length} characters, not {len(data)}")
        if self.pattern is not None and not self.pattern.match(data):
            raise serializers.ValidationError(self.pattern_message)
        return data

    def to_representation(self, value: str) -> str:
        return value


def Key(**kwargs: Any) -> Text:
    """An entry or personal key (optional: an archive without keys gets new ones on import)."""
    return Text(
        max_length=64,
        pattern=KEY_RE,
        pattern_message="may hold only letters, digits, '-' and '_'",
        required=False,
        allow_null=True,
        default=None,
        **kwargs,
    )


class Flag(serializers.Field):
    default_error_messages = {**_MISSING, "null": "must be true or false", "invalid": "must be true or false"}

    def to_internal_value(self, data: Any) -> bool:
        if type(data) is not bool:
            self.fail("invalid")
        return data

    def to_representation(self, value: bool) -> bool:
        return value


class OneOf(serializers.Field):
    """One of some words (a status, a kind); ``message`` names them."""

    default_error_messages = {**_MISSING}

    def __init__(self, choices: Any, message: str, **kwargs: Any) -> None:
        self.choices, self.message = tuple(choices), message
        super().__init__(**kwargs)
        self.error_messages["null"] = message

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str) or data not in self.choices:
            raise serializers.ValidationError(self.message)
        return data

    def to_representation(self, value: str) -> str:
        return value


class Exactly(serializers.Field):
    """The one value the key must have (the format's name, its version)."""

    default_error_messages = {**_MISSING}

    def __init__(self, value: Any, **kwargs: Any) -> None:
        self.value = value
        super().__init__(**kwargs)
        self.message = f"must be {value!r}"
        self.error_messages["null"] = self.message

    def to_internal_value(self, data: Any) -> Any:
        if type(data) is not type(self.value) or data != self.value:
            raise serializers.ValidationError(self.message)
        return data

    def to_representation(self, value: Any) -> Any:
        return value


class Version(serializers.Field):
    """The archive's version: one the importer reads (``version.READABLE``)."""

    default_error_messages = {**_MISSING}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.message = f"must be one of {', '.join(map(str, READABLE))} (the versions this server reads)"
        self.error_messages["null"] = self.message

    def to_internal_value(self, data: Any) -> int:
        if type(data) is not int or data not in READABLE:
            raise serializers.ValidationError(self.message)
        return data

    def to_representation(self, value: int) -> int:
        return value


class Anything(serializers.Field):
    """Any JSON value, kept as it is (the audit log's before and after), that PostgreSQL's jsonb can keep:
    no NUL in a text or a key, nested at most NESTING_MAX levels."""

    default_error_messages = {**_MISSING}

    def to_internal_value(self, data: Any) -> Any:
        pending = [(data, 1)]
        while pending:
            value, depth = pending.pop()
            if depth > NESTING_MAX:
                raise serializers.ValidationError(f"must not be nested deeper than {NESTING_MAX} levels")
            if isinstance(value, str) and "\x00" in value:
                raise serializers.ValidationError("must not contain a NUL character")
            if isinstance(value, dict):
                pending += [(key, depth) for key in value] + [(item, depth + 1) for item in value.values()]
            elif isinstance(value, list):
                pending += [(item, depth + 1) for item in value]
        return data

    def to_representation(self, value: Any) -> Any:
        return value


class Date(serializers.Field):
    default_error_messages = {
        **_MISSING,
        "null": "must be a date like 2026-11-21",
        "invalid": "must be a date like 2026-11-21",
    }

    def to_internal_value(self, data: Any) -> datetime.date:
        try:
            return datetime.date.fromisoformat(data)
        except (TypeError, ValueError):
            self.fail("invalid")

    def to_representation(self, value: datetime.date) -> str:
        return value.isoformat()


class Moment(serializers.Field):
    """A date and time with its offset (the audit log keeps when each change happened)."""

    default_error_messages = {
        **_MISSING,
        "invalid": "must be a date and time with its offset, like 2026-11-21T19:30:00+01:00",
    }
    default_error_messages["null"] = default_error_messages["invalid"]

    def to_internal_value(self, data: Any) -> datetime.datetime:
        try:
            moment = parse_datetime(data) if isinstance(data, str) else None
        except ValueError:
            moment = None
        if moment is None or moment.tzinfo is None:
            self.fail("invalid")
        return moment

    def to_representation(self, value: datetime.datetime) -> str:
        return value.isoformat()


class Items(serializers.ListField):
    default_error_messages = {**_MISSING, "null": "must be a list", "not_a_list": "must be a list"}


class Object(serializers.DictField):
    """An object whose keys are data (seats), each value checked by ``child``."""

    default_error_messages = {**_MISSING, "null": "must be an object", "not_a_dict": "must be an object"}


class SeatMap(Object):
    """A table's seats: "1" to "4" (or "5") to start numbers."""

    child = WholeNumber(lo=1)

    def to_internal_value(self, data: Any) -> dict[int, int]:
        if isinstance(data, Mapping) and (
            sorted(data) != [str(s) for s in range(1, len(data) + 1)] or len(data) not in (4, 5)
        ):
            raise serializers.ValidationError('must map seats "1" to "4" (or "5") to start numbers')
        return {int(seat): number for seat, number in super().to_internal_value(data).items()}


class Schema(serializers.Serializer):
    """An object of the archive: its keys are the serializer's fields; keys it does not declare are ignored."""

    default_error_messages = {**_MISSING, "null": "must be an object", "invalid": "must be an object"}


class Rules(serializers.Field):
    """The tournament's ruleset, checked by the rules engine itself (``rules.<key>`` names a bad key)."""

    default_error_messages = {**_MISSING, "null": "must be an object", "invalid": "must be an object"}

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, dict):
            self.fail("invalid")
        try:
            return ruleset_from_dict(data)
        except RuleError as err:
            raise serializers.ValidationError({err.field: [err.message]}) from None

    def to_representation(self, value: Any) -> Any:
        return value


# --- The archive's objects -------------------------------------------------------------------


class TournamentSchema(Schema):
    slug = Text(max_length=100, pattern=SLUG_RE, pattern_message="may hold only letters, digits, '-' and '_'")
    name = Text(max_length=200)
    club = Text(max_length=200)
    entry_fee_cents = WholeNumber(0, INT_MAX)
    venue = Text(blank=True, max_length=200, default="")
    status = OneOf(
        Tournament.Status.values,
        f"must be one of {', '.join(Tournament.Status.values)}",
        default=Tournament.Status.PLANNED,
    )
    payout_percent = WholeNumber(0, 100, default=100)
    sponsored_cents = WholeNumber(0, INT_MAX, default=0)
    standings_public = Flag(default=False)
    last_start_number = WholeNumber(0, INT_MAX, default=0)
    lot_seed = WholeNumber(0, BIG_MAX, required=False)
    date = Date()


class PlayerSchema(Schema):
    """A player; an archive may give only ``name`` ("first last"), which is then split at its last space."""

    name = Text()
    first_name = Text(blank=True, max_length=100, required=False, allow_null=True)
    last_name = Text(max_length=100, required=False, allow_null=True)
    start_number = WholeNumber(1, INT_MAX)
    club = Text(max_length=200, allow_null=True)
    paid = Flag()
    checked_in = Flag(default=False)
    withdrawn_after_round = WholeNumber(0, SMALL_MAX, allow_null=True)
    substitute_for = WholeNumber(1, INT_MAX, allow_null=True, default=None)
    fee_due = Flag(default=True)  # false: no entry fee due (a substitute who took over a paid seat)
    left_during_round = Flag(default=False)  # he left while round withdrawn_after_round was under way
    prize_handed_over = Flag(default=False)
    prize_chosen = Text(blank=True, max_length=200, default="")  # what he took from the prize table
    birth_year = WholeNumber(1900, 2100, allow_null=True, default=None)  # asked for a category prize only
    gender = OneOf(("", "f", "m", "d"), "must be f, m, d or empty", default="")
    local = Flag(allow_null=True, default=None)
    venue = Text(max_length=200, allow_null=True, default=None)  # the venue he played in (its name)
    key = Key()

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        first, last = attrs.get("first_name"), attrs.get("last_name")
        if first is None or last is None:  # the name's parts, checked like given ones
            first, _, last = attrs["name"].strip().rpartition(" ")
            for key, value in (("first_name", first), ("last_name", last)):
                try:
                    self.fields[key].run_validation(value)
                except serializers.ValidationError as err:
                    raise serializers.ValidationError({key: err.detail}) from None
        return {**attrs, "first_name": first, "last_name": last}


class HandSchema(Schema):
    """A game: its number, dealer and points, and the record as entered (every other key, the engine's to check)."""

    number = WholeNumber(1, SMALL_MAX)
    dealer = WholeNumber(1)  # at most the table's size: checked with the table
    points = Object(child=WholeNumber(), required=False)  # a thrown-in game has none

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        value = super().to_internal_value(data)
        return {**value, "record": {key: v for key, v in data.items() if key not in HAND_KEYS}}


class SharedSeatSchema(Schema):
    """Version 2: a seat a substitute took over mid-round: he played it from game ``from_game``, the games
    before were ``before``'s (a start number)."""

    from_game = WholeNumber(2, SMALL_MAX)
    before = WholeNumber(1, INT_MAX)


class TableSchema(Schema):
    number = WholeNumber(1, SMALL_MAX)
    seats = SeatMap()
    entry_key = Key()
    hands = Items(child=HandSchema())
    paper_totals = Object(
        child=WholeNumber(-Table.PAPER_TOTAL_MAX, Table.PAPER_TOTAL_MAX), allow_null=True, default=None
    )  # paper mode: no games
    confirmations = Items(child=WholeNumber(lo=1), default=list)  # at most the table's size: checked with it
    closed_reason = Text(blank=True, max_length=300, default="")
    # version 2: who played which games of a seat (keyed by seat, like ``seats``)
    shared_seats = Object(child=SharedSeatSchema(), default=dict)
    # version 2: a table of five that played on with four: the empty seat, from which game, the round's games
    seat_left = WholeNumber(1, 5, allow_null=True, default=None)
    seat_left_from = WholeNumber(1, SMALL_MAX, allow_null=True, default=None)
    games_with_four = WholeNumber(1, SMALL_MAX, allow_null=True, default=None)


class RoundSchema(Schema):
    number = WholeNumber(1, SMALL_MAX)
    status = OneOf(Round.Status.values, f"must be one of {', '.join(Round.Status.values)}")
    seed = WholeNumber(0, BIG_MAX)
    tables = Items(child=TableSchema())


class LedgerSchema(Schema):
    """A ledger entry names a player, a round, a table of it and (Reuegeld, Weitergeld) a game at that table."""

    start_number = WholeNumber(1)
    round = WholeNumber(1)
    table = WholeNumber(1)
    hand = WholeNumber(1, allow_null=True, default=None)
    kind = OneOf(("reuegeld", "weitergeld", "payout"), "must be reuegeld, weitergeld or payout")
    cents = WholeNumber()


class StandingsSchema(Schema):
    rank = WholeNumber(1)
    start_number = WholeNumber(1)
    points = WholeNumber()


class AuditSchema(Schema):
    at = Moment()
    action = Text(max_length=60)
    by = Text(blank=True, max_length=150, allow_null=True, default=None)
    subject = Text(blank=True, max_length=300, default="")
    before = Anything(required=False, allow_null=True, default=None)
    after = Anything(required=False, allow_null=True, default=None)
    reason = Text(blank=True, max_length=300, default="")


class VenueSchema(Schema):
    """A venue of an evening in several inns: its tables are numbered first_table … last_table."""

    name = Text(max_length=200)
    address = Text(blank=True, max_length=300, default="")
    contact = Text(blank=True, max_length=200, default="")
    first_table = WholeNumber(1, SMALL_MAX)
    last_table = WholeNumber(1, SMALL_MAX)


class ArchiveSchema(Schema):
    format = Exactly(FORMAT)
    version = Version()
    exported_at = Anything(allow_null=True)
    tournament = TournamentSchema()
    rules = Rules()
    players = Items(child=PlayerSchema())
    rounds = Items(child=RoundSchema())
    ledger = Items(child=LedgerSchema())
    standings = Items(child=StandingsSchema())
    audit = Items(child=AuditSchema(), default=list)  # archives from before the audit log have none
    # all optional (docs/archive-v2.md); checked by the prize services when written
    prizes = Items(child=Anything(), default=list)
    prize_plan = Anything(allow_null=True, default=None)
    prize_categories = Items(child=Anything(), default=list)
    venues = Items(child=VenueSchema(), default=list)  # an evening in one place has none


def first_error(detail: Any, path: str = "") -> tuple[str, str]:
    """The path and message of the first error in a serializer's nested errors, in the document's order."""
    if isinstance(detail, Mapping):
        key, inner = next(iter(detail.items()))
        if key == api_settings.NON_FIELD_ERRORS_KEY:
            return first_error(inner, path)
        step = f"[{key}]" if isinstance(key, int) else (f"{path and '.'}{key}")
        return first_error(inner, f"{path}{step}")
    if isinstance(detail, list) and detail and not isinstance(detail[0], str):
        # a ListSerializer's errors: one entry per item, empty for the good ones
        index = next(i for i, item in enumerate(detail) if item)
        return first_error(detail[index], f"{path}[{index}]")
    return path or "document", str(detail[0] if isinstance(detail, list) else detail)
