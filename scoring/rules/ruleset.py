"""The tournament ruleset: defaults (rules.md section 10), options, validation, presets.

One declaration: each key is a field of ``Ruleset`` whose ``metadata`` says what it accepts (``min``,
``max``, ``choices``, ``null``, ``multiple_of``), its label and help for a form (English message ids,
translated by the Django layer), and ``extra`` for an option that section 10 does not list. The
defaults (``DEFAULT_RULES``, ``EXTRA_RULE_KEYS``), the checks of ``ruleset_from_dict``, the document
``ruleset_to_dict`` writes and the organiser's form (``tournaments.forms_setup.RulesForm``) all come
from it.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

from .errors import RuleError, wrong_type

SCORING_CHOICES = ("plus_minus", "plus_only")
ALL_PASS_CHOICES = ("muss", "redeal", "kreuz")
KREUZ_TIE_CHOICES = ("lost", "replay")
MUSS_WIN_CHOICES = (60, 61)
DRAW_MODE_CHOICES = ("each_round", "all_in_advance", "keep_first_round")
TIEBREAK_CHOICES = ("won_solos", "lost_solos", "last_round", "shared", "lot")
CLOSED_TABLE_CHOICES = ("as_played", "scaled")
SUBSTITUTE_CHOICES = ("take_over", "frozen")
FINAL_TIEBREAKS = ("shared", "lot")


def gettext_noop(message: str) -> str:
    """Marks a label as a message id for the catalogues (makemessages finds it); the Django layer translates it."""
    return message


def rule(default: Any, label: str = "", **meta: Any) -> Any:
    """A ruleset key: its DEFAULT, its form label and what it accepts (``min``, ``max``, ``choices``,
    ``choice_labels``, ``null``, ``multiple_of``, ``help``, ``extra``)."""
    return field(default=default, metadata={"label": label, **meta})


@dataclass(frozen=True, slots=True)
class LaufendeMin:
    """The shortest run of top trumps that counts, per contract."""

    rufspiel: int = rule(3, gettext_noop("Laufende count from (Rufspiel)"), min=1, max=14)
    solo: int = rule(3, gettext_noop("Laufende count from (Farbsolo)"), min=1, max=14)
    wenz: int = rule(2, gettext_noop("Laufende count from (Wenz)"), min=1, max=4)


@dataclass(frozen=True, slots=True)
class ReuegeldCents:
    """What a declarer who lost pays into the pot, per kind of game."""

    rufspiel: int = rule(0, gettext_noop("Reuegeld lost Rufspiel (cents)"), min=0, max=100_000)
    solo: int = rule(50, gettext_noop("Reuegeld lost solo (cents)"), min=0, max=100_000)
    tout: int = rule(100, gettext_noop("Reuegeld lost Tout (cents)"), min=0, max=100_000)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One attribute per ruleset key; ``Ruleset()`` is the DEFAULT tournament.

    The fields in the order of the organiser's form; ``ruleset_to_dict`` lists the section-10 keys
    first, in the order of rules.md, then the ``extra`` ones.
    """

    scoring: str = rule(
        "plus_minus",
        gettext_noop("scoring"),
        choices=SCORING_CHOICES,
        choice_labels={"plus_minus": gettext_noop("plus/minus points"), "plus_only": gettext_noop("plus points only")},
    )
    unit_cents: int = rule(10, gettext_noop("one point is worth (cents)"), min=0, max=100_000)
    rufspiel_base: int = rule(1, gettext_noop("Rufspiel base value"), min=1, max=1000)
    solo_base: int = rule(5, gettext_noop("Wenz and Farbsolo base value"), min=1, max=1000)
    schneider_bonus: int = rule(1, gettext_noop("Schneider"), min=0, max=1000)
    schwarz_bonus: int = rule(1, gettext_noop("Schwarz"), min=0, max=1000)
    laufende_bonus: int = rule(1, gettext_noop("each Laufender"), min=0, max=1000)
    laufende_min: LaufendeMin = rule(LaufendeMin())
    laufende_max: int | None = rule(
        4, gettext_noop("Laufende cap"), min=1, max=14, null=True, help=gettext_noop("Empty: no cap.")
    )
    tout_allowed: bool = rule(True, gettext_noop("Tout allowed"))
    sie_allowed: bool = rule(True, gettext_noop("Sie allowed"))
    tout_factor: int = rule(2, gettext_noop("Tout factor"), min=1, max=100)
    sie_factor: int = rule(4, gettext_noop("Sie factor"), min=1, max=100)
    kontra_allowed: bool = rule(False, gettext_noop("Kontra allowed"))
    all_pass: str = rule(
        "muss",
        gettext_noop("when all pass"),
        choices=ALL_PASS_CHOICES,
        choice_labels={
            "muss": gettext_noop("Muss"),
            "redeal": gettext_noop("throw in (Weitergeld)"),
            "kreuz": gettext_noop("play über Kreuz (1+3 against 2+4)"),
        },
    )
    kreuz_tie: str = rule(
        "lost",
        gettext_noop("a Kreuz ending 60:60"),
        choices=KREUZ_TIE_CHOICES,
        choice_labels={
            "lost": gettext_noop("is lost by the declaring pair"),
            "replay": gettext_noop("is thrown in and dealt again"),
        },
    )
    muss_win: int = rule(
        60,
        gettext_noop("a Muss wins with"),
        choices=MUSS_WIN_CHOICES,
        choice_labels={60: gettext_noop("60 Augen"), 61: gettext_noop("61 Augen")},
    )
    reuegeld_cents: ReuegeldCents = rule(ReuegeldCents())
    reuegeld_free_solos: int = rule(0, gettext_noop("free lost solos per round"), min=0, max=64, extra=True)
    weitergeld_cents: int = rule(10, gettext_noop("Weitergeld per player (cents)"), min=0, max=100_000)
    reuegeld_tischbester_percent: int = rule(50, gettext_noop("share for the Tischbester (%)"), min=0, max=100)
    rounds: int = rule(2, gettext_noop("rounds"), min=1, max=6)
    games_per_round: int = rule(
        32,
        gettext_noop("games per round (table of four)"),
        min=8,
        max=64,
        multiple_of=4,
        help=gettext_noop("A multiple of 4."),
    )
    tiebreaks: tuple[str, ...] = rule(("won_solos", "lot"), gettext_noop("ties on points"), choices=TIEBREAK_CHOICES)
    # rules.md section 2: a table the organiser closed early keeps the games it played
    closed_table_points: str = rule(
        "as_played",
        gettext_noop("a table closed early"),
        choices=CLOSED_TABLE_CHOICES,
        extra=True,
        choice_labels={
            "as_played": gettext_noop("its points count as played"),
            "scaled": gettext_noop("its points are scaled to the full round"),
        },
    )
    # rules.md section 2: a player who leaves and his substitute
    substitute_points: str = rule(
        "take_over",
        gettext_noop("a substitute"),
        choices=SUBSTITUTE_CHOICES,
        extra=True,
        choice_labels={
            "take_over": gettext_noop("takes over the seat and the points"),
            "frozen": gettext_noop("plays for the table only; the leaving player's points are frozen"),
        },
    )
    keep_clubs_apart: bool = rule(False, gettext_noop("keep members of a club apart"), extra=True)
    draw_mode: str = rule(
        "each_round",
        gettext_noop("seat draw"),
        choices=DRAW_MODE_CHOICES,
        extra=True,
        choice_labels={
            "each_round": gettext_noop("draw every round anew"),
            "all_in_advance": gettext_noop("draw all rounds in advance"),
            "keep_first_round": gettext_noop("keep the tables of round 1"),
        },
    )

    @property
    def plus_only(self) -> bool:
        return self.scoring == "plus_only"


def _keys() -> tuple[str, ...]:
    """The ruleset's keys as a document lists them: section 10 in its order, then the extra keys."""
    declared = fields(Ruleset)
    return tuple(f.name for f in declared if not f.metadata.get("extra")) + tuple(
        f.name for f in declared if f.metadata.get("extra")
    )


def _plain(value: Any) -> Any:
    """A field's value as JSON: a nested group as an object, a tuple as a list."""
    if is_dataclass(value):
        return {f.name: getattr(value, f.name) for f in fields(value)}
    if isinstance(value, tuple):
        return list(value)
    return value


_FIELDS = {f.name: f for f in fields(Ruleset)}
_NESTED = tuple(name for name, f in _FIELDS.items() if is_dataclass(f.default))

#: rules.md section 10, verbatim. Never mutate; ``ruleset_from_dict`` deep-copies it.
DEFAULT_RULES: dict[str, Any] = {
    name: _plain(_FIELDS[name].default) for name in _keys() if not _FIELDS[name].metadata.get("extra")
}

#: Options rules.md describes in prose but section 10 does not list, with their defaults.
EXTRA_RULE_KEYS: dict[str, Any] = {
    name: _plain(_FIELDS[name].default) for name in _keys() if _FIELDS[name].metadata.get("extra")
}

PRESETS: dict[str, dict[str, Any]] = {
    "default": {},
    "sechs_zwei": {"solo_base": 2},
    "nur_pluspunkte": {"scoring": "plus_only"},
    "wenz_ab_3": {"laufende_min": {"wenz": 3}},
    "kreuz_statt_muss": {"all_pass": "kreuz"},
}

#: Each preset's name in the organiser's form (an English message id; the Django layer translates it).
PRESET_LABELS: dict[str, str] = {
    "default": gettext_noop("Tournament default (rules book)"),
    "sechs_zwei": gettext_noop("6/2 (solo base 2)"),
    "nur_pluspunkte": gettext_noop("Plus points only"),
    "wenz_ab_3": gettext_noop("Wenz Laufende from 3"),
    "kreuz_statt_muss": gettext_noop("Kreuz instead of Muss"),
}


# --- value checks -------------------------------------------------------------------------


def check_int(field: str, value: Any, lo: int, hi: int | None = None) -> int:
    """``value`` as a whole number in ``lo..hi``; bool is not a number here."""
    if type(value) is not int:
        raise wrong_type(field, value, "a whole number")
    if value < lo or (hi is not None and value > hi):
        if hi is None:
            message = f"must be at least {lo}, not {value}"
        else:
            message = f"must be between {lo} and {hi}, not {value}"
        raise RuleError(field, "out_of_range", message, {"min": lo, "max": hi, "value": value})
    return value


def check_bool(field: str, value: Any) -> bool:
    if type(value) is not bool:
        raise wrong_type(field, value, "true or false")
    return value


def check_choice(field: str, value: Any, choices: tuple[Any, ...]) -> Any:
    if type(value) is not type(choices[0]):
        expected = "text" if isinstance(choices[0], str) else "a whole number"
        raise wrong_type(field, value, expected)
    if value not in choices:
        listed = ", ".join(repr(c) for c in choices)
        raise RuleError(
            field,
            "invalid_choice",
            f"must be one of {listed}, not {value!r}",
            {"choices": list(choices), "value": value},
        )
    return value


def _check_tiebreaks(value: Any) -> tuple[str, ...]:
    field = "tiebreaks"
    if not isinstance(value, (list, tuple)):
        raise wrong_type(field, value, "a list of tiebreak names")
    names: list[str] = []
    for name in value:
        check_choice(field, name, TIEBREAK_CHOICES)
        if name in names:
            raise RuleError(field, "duplicate", f"{name!r} is listed twice", {"value": name})
        names.append(name)
    finals = [name for name in names if name in FINAL_TIEBREAKS]
    if len(finals) != 1 or names[-1] not in FINAL_TIEBREAKS:
        raise RuleError(
            field,
            "final_tiebreak",
            "must end with exactly one of 'lot' or 'shared', and name neither elsewhere",
            {"value": names},
        )
    return tuple(names)


def check_value(path: str, declared: Any, value: Any) -> Any:
    """``value`` checked against the declaration of the field ``declared`` (``path`` names it in errors)."""
    meta = declared.metadata
    default = declared.default
    if is_dataclass(default):  # a group of keys: each checked by its own declaration
        return type(default)(**{f.name: check_value(f"{path}.{f.name}", f, value[f.name]) for f in fields(default)})
    if value is None and meta.get("null"):
        return None
    if isinstance(default, tuple):
        return _check_tiebreaks(value)
    if isinstance(default, bool):
        return check_bool(path, value)
    if "choices" in meta:
        return check_choice(path, value, meta["choices"])
    check_int(path, value, meta["min"], meta.get("max"))
    step = meta.get("multiple_of")
    if step and value % step:
        lo, hi = meta["min"], meta["max"]
        raise RuleError(
            path,
            "out_of_range",
            f"must be a multiple of {step} from {lo} to {hi}, not {value}",
            {"min": lo, "max": hi, "multiple_of": step, "value": value},
        )
    return value


# --- public functions ---------------------------------------------------------------------


def default_rules_dict() -> dict[str, Any]:
    """A fresh copy of every key with its default: section 10, then the extra keys."""
    return copy.deepcopy({**DEFAULT_RULES, **EXTRA_RULE_KEYS})


def ruleset_from_dict(data: Mapping[str, Any] | None = None) -> Ruleset:
    """Merge a partial ruleset document over the DEFAULT and validate it.

    Nested objects (``laufende_min``, ``reuegeld_cents``) merge key by key. Raises RuleError
    naming the key (``"rounds"``, ``"laufende_min.wenz"``) for an unknown key, a wrong type or a
    value out of range.
    """
    merged = default_rules_dict()
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise wrong_type("rules", data, "an object")
    for key, value in data.items():
        if key not in merged:
            raise RuleError(str(key), "unknown_key", "is not a ruleset key", {"key": str(key)})
        if key in _NESTED:
            if not isinstance(value, Mapping):
                raise wrong_type(key, value, "an object")
            for sub, sub_value in value.items():
                if sub not in merged[key]:
                    path = f"{key}.{sub}"
                    raise RuleError(path, "unknown_key", f"is not a key of {key}", {"key": path})
                merged[key][sub] = sub_value
        else:
            merged[key] = value
    return Ruleset(**{key: check_value(key, _FIELDS[key], value) for key, value in merged.items()})


def ruleset_to_dict(rules: Ruleset) -> dict[str, Any]:
    """Every key with its value, JSON-able, section-10 keys first, then the extra keys."""
    return {name: _plain(getattr(rules, name)) for name in _keys()}


def ruleset_fields() -> tuple[Any, ...]:
    """The declared keys (``dataclasses.Field``) in the order of the organiser's form."""
    return fields(Ruleset)
