"""The API's JSON parser: DRF's, with a bound on nesting (a deep body is a 400, not a RecursionError)."""

from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 32  # the API's deepest body is three levels; this leaves room for any honest client


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (iteratively: no recursion to exhaust)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level)
            if level > MAX_DEPTH:
                break
            stack.extend((child, level + 1) for child in item)
    return deepest


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("The JSON is nested too deeply.")) from None
        if _depth(data) > MAX_DEPTH:
            raise ParseError(_("The JSON is nested too deeply."))
        return data
