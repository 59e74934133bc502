"""The one exception the rules engine raises, and helpers that phrase it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class RuleError(ValueError):
    """A rule was broken: which field, a stable code, its parameters and an English sentence.

    ``str(err)`` is ``"<field>: <message>"``; callers that translate use ``code`` and ``params``.
    """

    field: str
    code: str
    message: str
    params: dict[str, Any]

    def __init__(self, field: str, code: str, message: str, params: dict[str, Any] | None = None) -> None:
        params = {} if params is None else params
        super().__init__(field, code, message, params)
        self.field = field
        self.code = code
        self.message = message
        self.params = params

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"

    def __repr__(self) -> str:
        return f"RuleError({self.field!r}, {self.code!r}, {self.message!r}, {self.params!r})"

    def with_prefix(self, prefix: str) -> RuleError:
        """The same error with its field nested under ``prefix`` (``rules`` -> ``rules.rounds``)."""
        return RuleError(f"{prefix}.{self.field}", self.code, self.message, dict(self.params))


def type_name(value: Any) -> str:
    """A JSON-ish name for the type of ``value``, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a decimal number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, (list, tuple)):
        return "a list"
    return type(value).__name__


def wrong_type(field: str, value: Any, expected: str) -> RuleError:
    """The error for a value of the wrong type; ``expected`` reads like "a whole number"."""
    got = type_name(value)
    return RuleError(field, "wrong_type", f"must be {expected}, not {got}", {"expected": expected, "got": got})
