"""The tournament ruleset: defaults (rules.md section 10), options, validation, presets."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import RuleError, wrong_type

#: rules.md section 10, verbatim. Never mutate; ``ruleset_from_dict`` deep-copies it.
DEFAULT_RULES: dict[str, Any] = {
    "scoring": "plus_minus",
    "unit_cents": 10,
    "rufspiel_base": 1,
    "solo_base": 5,
    "schneider_bonus": 1,
    "schwarz_bonus": 1,
    "laufende_bonus": 1,
    "laufende_min": {"rufspiel": 3, "solo": 3, "wenz": 2},
    "laufende_max": 4,
    "tout_allowed": True,
    "sie_allowed": True,
    "tout_factor": 2,
    "sie_factor": 4,
    "kontra_allowed": False,
    "all_pass": "muss",
    "kreuz_tie": "lost",
    "muss_win": 60,
    "reuegeld_cents": {"rufspiel": 0, "solo": 50, "tout": 100},
    "weitergeld_cents": 10,
    "reuegeld_tischbester_percent": 50,
    "rounds": 2,
    "games_per_round": 32,
    "tiebreaks": ["won_solos", "lot"],
}

#: Options rules.md describes in prose but section 10 does not list, with their defaults.
EXTRA_RULE_KEYS: dict[str, Any] = {
    "reuegeld_free_solos": 0,
    "keep_clubs_apart": False,
    "draw_mode": "each_round",
}

SCORING_CHOICES = ("plus_minus", "plus_only")
ALL_PASS_CHOICES = ("muss", "redeal", "kreuz")
KREUZ_TIE_CHOICES = ("lost", "replay")
MUSS_WIN_CHOICES = (60, 61)
DRAW_MODE_CHOICES = ("each_round", "all_in_advance", "keep_first_round")
TIEBREAK_CHOICES = ("won_solos", "lost_solos", "last_round", "shared", "lot")
FINAL_TIEBREAKS = ("shared", "lot")


@dataclass(frozen=True, slots=True)
class LaufendeMin:
    """The shortest run of top trumps that counts, per contract."""

    rufspiel: int = 3
    solo: int = 3
    wenz: int = 2


@dataclass(frozen=True, slots=True)
class ReuegeldCents:
    """What a declarer who lost pays into the pot, per kind of game."""

    rufspiel: int = 0
    solo: int = 50
    tout: int = 100


@dataclass(frozen=True, slots=True)
class Ruleset:
    """One attribute per ruleset key; ``Ruleset()`` is the DEFAULT tournament."""

    scoring: str = "plus_minus"
    unit_cents: int = 10
    rufspiel_base: int = 1
    solo_base: int = 5
    schneider_bonus: int = 1
    schwarz_bonus: int = 1
    laufende_bonus: int = 1
    laufende_min: LaufendeMin = LaufendeMin()
    laufende_max: int | None = 4
    tout_allowed: bool = True
    sie_allowed: bool = True
    tout_factor: int = 2
    sie_factor: int = 4
    kontra_allowed: bool = False
    all_pass: str = "muss"
    kreuz_tie: str = "lost"
    muss_win: int = 60
    reuegeld_cents: ReuegeldCents = ReuegeldCents()
    weitergeld_cents: int = 10
    reuegeld_tischbester_percent: int = 50
    rounds: int = 2
    games_per_round: int = 32
    tiebreaks: tuple[str, ...] = ("won_solos", "lot")
    reuegeld_free_solos: int = 0
    keep_clubs_apart: bool = False
    draw_mode: str = "each_round"

    @property
    def plus_only(self) -> bool:
        return self.scoring == "plus_only"


PRESETS: dict[str, dict[str, Any]] = {
    "default": {},
    "sechs_zwei": {"solo_base": 2},
    "nur_pluspunkte": {"scoring": "plus_only"},
    "wenz_ab_3": {"laufende_min": {"wenz": 3}},
    "kreuz_statt_muss": {"all_pass": "kreuz"},
}

PRESET_LABELS: dict[str, str] = {
    "default": "Default tournament rules",
    "sechs_zwei": "6/2 tariff (solo base 2)",
    "nur_pluspunkte": "Plus points only",
    "wenz_ab_3": "Laufende in a Wenz count from 3",
    "kreuz_statt_muss": "Kreuz instead of Muss (all passed: played crosswise)",
}

_NESTED = ("laufende_min", "reuegeld_cents")


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
            raise RuleError(
                field, "duplicate", f"{name!r} is listed twice", {"value": name}
            )
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


def _check_laufende_max(value: Any) -> int | None:
    if value is None:
        return None
    return check_int("laufende_max", value, 1, 14)


def _check_games_per_round(value: Any) -> int:
    field = "games_per_round"
    check_int(field, value, 8, 64)
    if value % 4:
        raise RuleError(
            field,
            "out_of_range",
            f"must be a multiple of 4 from 8 to 64, not {value}",
            {"min": 8, "max": 64, "multiple_of": 4, "value": value},
        )
    return value


_CHECKS: dict[str, Any] = {
    "scoring": lambda v: check_choice("scoring", v, SCORING_CHOICES),
    "unit_cents": lambda v: check_int("unit_cents", v, 0, 100_000),
    "rufspiel_base": lambda v: check_int("rufspiel_base", v, 1, 1000),
    "solo_base": lambda v: check_int("solo_base", v, 1, 1000),
    "schneider_bonus": lambda v: check_int("schneider_bonus", v, 0, 1000),
    "schwarz_bonus": lambda v: check_int("schwarz_bonus", v, 0, 1000),
    "laufende_bonus": lambda v: check_int("laufende_bonus", v, 0, 1000),
    "laufende_min": lambda v: LaufendeMin(
        rufspiel=check_int("laufende_min.rufspiel", v["rufspiel"], 1, 14),
        solo=check_int("laufende_min.solo", v["solo"], 1, 14),
        wenz=check_int("laufende_min.wenz", v["wenz"], 1, 4),
    ),
    "laufende_max": _check_laufende_max,
    "tout_allowed": lambda v: check_bool("tout_allowed", v),
    "sie_allowed": lambda v: check_bool("sie_allowed", v),
    "tout_factor": lambda v: check_int("tout_factor", v, 1, 100),
    "sie_factor": lambda v: check_int("sie_factor", v, 1, 100),
    "kontra_allowed": lambda v: check_bool("kontra_allowed", v),
    "all_pass": lambda v: check_choice("all_pass", v, ALL_PASS_CHOICES),
    "kreuz_tie": lambda v: check_choice("kreuz_tie", v, KREUZ_TIE_CHOICES),
    "muss_win": lambda v: check_choice("muss_win", v, MUSS_WIN_CHOICES),
    "reuegeld_cents": lambda v: ReuegeldCents(
        rufspiel=check_int("reuegeld_cents.rufspiel", v["rufspiel"], 0, 100_000),
        solo=check_int("reuegeld_cents.solo", v["solo"], 0, 100_000),
        tout=check_int("reuegeld_cents.tout", v["tout"], 0, 100_000),
    ),
    "weitergeld_cents": lambda v: check_int("weitergeld_cents", v, 0, 100_000),
    "reuegeld_tischbester_percent": lambda v: check_int("reuegeld_tischbester_percent", v, 0, 100),
    "rounds": lambda v: check_int("rounds", v, 1, 6),
    "games_per_round": _check_games_per_round,
    "tiebreaks": _check_tiebreaks,
    "reuegeld_free_solos": lambda v: check_int("reuegeld_free_solos", v, 0, 64),
    "keep_clubs_apart": lambda v: check_bool("keep_clubs_apart", v),
    "draw_mode": lambda v: check_choice("draw_mode", v, DRAW_MODE_CHOICES),
}


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
    return Ruleset(**{key: _CHECKS[key](value) for key, value in merged.items()})


def ruleset_to_dict(rules: Ruleset) -> dict[str, Any]:
    """Every key with its value, JSON-able, section-10 keys first, then the extra keys."""
    return {
        "scoring": rules.scoring,
        "unit_cents": rules.unit_cents,
        "rufspiel_base": rules.rufspiel_base,
        "solo_base": rules.solo_base,
        "schneider_bonus": rules.schneider_bonus,
        "schwarz_bonus": rules.schwarz_bonus,
        "laufende_bonus": rules.laufende_bonus,
        "laufende_min": {
            "rufspiel": rules.laufende_min.rufspiel,
            "solo": rules.laufende_min.solo,
            "wenz": rules.laufende_min.wenz,
        },
        "laufende_max": rules.laufende_max,
        "tout_allowed": rules.tout_allowed,
        "sie_allowed": rules.sie_allowed,
        "tout_factor": rules.tout_factor,
        "sie_factor": rules.sie_factor,
        "kontra_allowed": rules.kontra_allowed,
        "all_pass": rules.all_pass,
        "kreuz_tie": rules.kreuz_tie,
        "muss_win": rules.muss_win,
        "reuegeld_cents": {
            "rufspiel": rules.reuegeld_cents.rufspiel,
            "solo": rules.reuegeld_cents.solo,
            "tout": rules.reuegeld_cents.tout,
        },
        "weitergeld_cents": rules.weitergeld_cents,
        "reuegeld_tischbester_percent": rules.reuegeld_tischbester_percent,
        "rounds": rules.rounds,
        "games_per_round": rules.games_per_round,
        "tiebreaks": list(rules.tiebreaks),
        "reuegeld_free_solos": rules.reuegeld_free_solos,
        "keep_clubs_apart": rules.keep_clubs_apart,
        "draw_mode": rules.draw_mode,
    }
