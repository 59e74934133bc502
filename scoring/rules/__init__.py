"""The pure Schafkopf scoring engine: rulesets, hand records, scores. Standard library only.

Nothing here touches Django, the database, files, the clock or unseeded randomness; the same
input always gives the same output, and every error is a ``RuleError`` with a field and a code.
"""

from .document import score_document
from .errors import RuleError
from .hand import HAND_FIELDS, HandRecord, hand_from_dict, hand_to_dict
from .ruleset import (
    DEFAULT_RULES,
    EXTRA_RULE_KEYS,
    PRESET_LABELS,
    PRESETS,
    LaufendeMin,
    ReuegeldCents,
    Ruleset,
    ruleset_from_dict,
    ruleset_to_dict,
)
from .scoring import HandScore, score_hand, score_to_dict
from .validation import validate_hand

__all__ = [
    "DEFAULT_RULES",
    "EXTRA_RULE_KEYS",
    "HAND_FIELDS",
    "PRESETS",
    "PRESET_LABELS",
    "HandRecord",
    "HandScore",
    "LaufendeMin",
    "ReuegeldCents",
    "RuleError",
    "Ruleset",
    "hand_from_dict",
    "hand_to_dict",
    "ruleset_from_dict",
    "ruleset_to_dict",
    "score_document",
    "score_hand",
    "score_to_dict",
    "validate_hand",
]
