import json
from collections.abc import Iterator, Sequence
from operator import itemgetter
from typing import Any

import orjson
from django.db import models
from django.utils.translation import gettext_lazy as _


class CompactJSONEncoder(json.JSONEncoder):
    """No blanks after separators (kept for the migrations that name it)."""

    def __init__(self, *args, **kwargs):
        kwargs["separators"] = (",", ":")
        super().__init__(*args, **kwargs)


class PackedJSONField(models.BinaryField):
    """A JSON document stored as orjson's bytes and decoded in Python; the database keeps it as it is.

    The standings snapshot's documents (megabytes at 4,000 players) are written after every burst of
    games and only ever read whole: PostgreSQL parsing them into ``jsonb`` cost more than computing the
    standings, and nothing queries inside them. Any database stores bytes alike (``bytea``, ``BLOB``).
    """

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("editable", False)
        super().__init__(*args, **kwargs)

    @staticmethod
    def _loads(value):
        return orjson.loads(bytes(value) if isinstance(value, memoryview) else value)

    def from_db_value(self, value, expression, connection):
        return None if value is None else self._loads(value)

    def to_python(self, value):
        return self._loads(value) if isinstance(value, (bytes, bytearray, memoryview, str)) else value

    def get_prep_value(self, value):
        if isinstance(value, Packed):
            return bytes(value)
        return None if value is None else orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)

    def value_to_string(self, obj):
        return orjson.dumps(self.value_from_object(obj), option=orjson.OPT_NON_STR_KEYS).decode()


class Packed(bytes):
    """A document already encoded as ``PackedJSONField`` stores it: written as it is."""


def pack_rows(rows: list[dict[str, Any]], number: str = "start_number") -> tuple[Packed, dict[str, list[int]]]:
    """A list of rows as ``PackedJSONField`` stores it (the same bytes), and where each row starts in them
    with its ``number``: what ``PackedRows`` needs to decode one row or one page without the rest."""
    numbers = list(map(itemgetter(number), rows))
    try:  # rows have text keys: orjson's plain call gives the same bytes, a third cheaper than with the option
        raw = orjson.dumps(rows)
    except TypeError:
        raw = None
    starts = _row_starts(raw, rows) if raw is not None else None
    if starts is not None:
        return Packed(raw), {"starts": starts, "numbers": numbers}
    try:  # each row on its own, its start from the lengths before it
        parts = list(map(orjson.dumps, rows))
    except TypeError:
        parts = [orjson.dumps(row, option=orjson.OPT_NON_STR_KEYS) for row in rows]
    starts, at = [], 1
    for part in parts:
        starts.append(at)
        at += len(part) + 1
    return Packed(b"[" + b",".join(parts) + b"]"), {"starts": starts, "numbers": numbers}


def _row_starts(raw: bytes, rows: list[dict[str, Any]]) -> list[int] | None:
    """Where each row starts in the whole list's bytes, or None if that cannot be told from them alone.

    Every row begins with the same first key, so its bytes begin with ``{"key":``; found everywhere it
    occurs (overlapping too), exactly one occurrence per row means every occurrence is a row's start
    (a text holding it would show its quote escaped; a nested object starting with that key makes one
    more, and then the rows are encoded one by one instead). One encoding of the list and one scan of
    its bytes instead of 4,000 encodings at 4,000 players.
    """
    if not rows or not all(rows):
        return [] if not rows else None
    keys = set(map(next, map(iter, rows)))  # every row's first key
    if len(keys) != 1:
        return None
    (first,) = keys
    if not isinstance(first, str):
        return None
    marker = b"{" + orjson.dumps(first) + b":"
    starts: list[int] = []
    find, add = raw.find, starts.append
    at = find(marker)
    while at >= 0:  # (a regex with a lookahead for the overlapping ones would try every byte)
        add(at)
        at = find(marker, at + 1)
    return starts if len(starts) == len(rows) else None


class PackedRows(Sequence):
    """A list of rows read as ``pack_rows`` wrote it, decoded only as far as it is read.

    The standings pages show one page of the list and the viewer's own row. Every phone poll after
    a merge meets a new snapshot, and decoding the whole list in every web process for that (a large
    share of the web CPU of an evening) bought nothing. Indexing decodes one row, a slice
    one run of rows, ``by_number`` one player's row; iterating decodes the whole list once. Rows are
    shared between readers: callers must not change them.
    """

    def __init__(
        self, raw: bytes | None, starts: list[int], numbers: list[int], rows: list[dict[str, Any]] | None = None
    ) -> None:
        self._raw, self._starts, self._numbers = raw, starts, numbers
        self._all = rows
        self._one: dict[int, dict[str, Any]] = {}
        self._where: dict[int, int] | None = None

    @classmethod
    def of(cls, rows: list[dict[str, Any]], number: str = "start_number") -> "PackedRows":
        """Rows already decoded (a snapshot written before the index, a round's list ranked when read)."""
        return cls(None, [], [row[number] for row in rows], rows)

    @classmethod
    def read(cls, raw: bytes, index: dict[str, list[int]] | None) -> "PackedRows":
        if index is None:
            return cls.of(PackedJSONField._loads(raw))
        return cls(bytes(raw), index["starts"], index["numbers"])

    def __len__(self) -> int:
        return len(self._numbers)

    def _end(self, i: int) -> int:
        return self._starts[i + 1] - 1 if i + 1 < len(self._starts) else len(self._raw) - 1

    def __getitem__(self, index):
        if self._all is not None:
            return self._all[index]
        if isinstance(index, slice):
            first, stop, step = index.indices(len(self))
            if step != 1:
                return list(self)[index]
            if first >= stop:
                return []
            return orjson.loads(b"[" + self._raw[self._starts[first] : self._end(stop - 1)] + b"]")
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        row = self._one.get(index)
        if row is None:
            row = self._one[index] = orjson.loads(self._raw[self._starts[index] : self._end(index)])
        return row

    def __iter__(self) -> Iterator[dict[str, Any]]:
        if self._all is None:
            self._all = orjson.loads(self._raw)
        return iter(self._all)

    def __eq__(self, other) -> bool:
        return isinstance(other, Sequence) and not isinstance(other, (str, bytes)) and list(self) == list(other)

    __hash__ = None  # equal to a list, and unhashable like one

    def __repr__(self) -> str:
        return f"PackedRows({len(self)} rows)"

    def by_number(self, number: int | None) -> dict[str, Any] | None:
        """The row whose number (start number) is ``number``, or None."""
        if self._where is None:
            self._where = {n: i for i, n in enumerate(self._numbers)}
        i = self._where.get(number)
        return None if i is None else self[i]


class StandingsSnapshot(models.Model):
    """The standings, Tischbeste and ledger of a tournament, recomputed from the games.

    Written in one transaction by the recompute or the merge of changed tables; ``revision`` is the
    newest game revision it reflects (pages tell from it whether newer games are still being counted),
    ``version`` counts the writes (the pages' ETag), ``parts`` keeps every table's result so that a
    change merges in one table's work. ``overall`` is the overall list (what the pages poll), ``data``
    the rest (Tischbeste, ledger, pot); each round's list is ranked from ``overall`` when read
    (``selectors.standings``), so a write ranks the players once, not once per round.
    """

    tournament = models.OneToOneField(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        related_name="standings_snapshot",
        verbose_name=_("tournament"),
    )
    marker = models.CharField(_("state of the games"), max_length=100)
    revision = models.BigIntegerField(_("newest game revision counted"), default=0)
    version = models.PositiveBigIntegerField(_("version"), default=0)
    parts = PackedJSONField(_("results per table"), default=dict)
    computed_at = models.DateTimeField(_("computed"))
    duration_ms = models.PositiveIntegerField(_("computing time (ms)"), default=0)
    overall = PackedJSONField(_("standings"), default=list)
    # Where each row of ``overall`` starts, and its start number (``pack_rows``): pages read one page and
    # one row of the list (``PackedRows``). None for a snapshot written before it: read whole.
    overall_index = PackedJSONField(_("index of the standings"), null=True, default=None)
    data = PackedJSONField(_("Tischbeste and money"), default=dict)

    class Meta:
        verbose_name = _("standings snapshot")
        verbose_name_plural = _("standings snapshots")

    def __str__(self) -> str:
        return f"{self.tournament} @ {self.computed_at:%H:%M:%S}"
