import json

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
        return None if value is None else orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)

    def value_to_string(self, obj):
        return orjson.dumps(self.value_from_object(obj), option=orjson.OPT_NON_STR_KEYS).decode()


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
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="standings_snapshot",
        verbose_name=_("tournament"),
    )
    marker = models.CharField(_("state of the games"), max_length=100)
    revision = models.BigIntegerField(_("newest game revision counted"), default=0)
    version = models.PositiveBigIntegerField(_("version"), default=0)
    parts = PackedJSONField(_("results per table"), default=dict)
    computed_at = models.DateTimeField(_("computed"))
    duration_ms = models.PositiveIntegerField(_("computing time (ms)"), default=0)
    overall = PackedJSONField(_("standings"), default=list)
    data = PackedJSONField(_("Tischbeste and money"), default=dict)

    class Meta:
        verbose_name = _("standings snapshot")
        verbose_name_plural = _("standings snapshots")

    def __str__(self) -> str:
        return f"{self.tournament} @ {self.computed_at:%H:%M:%S}"
