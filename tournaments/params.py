"""Whole numbers from request data: the one parser for a query parameter, a posted field or a typed code.

``str.isdigit()`` is no test for this: it is true for ``²`` (and other digit signs) that ``int()`` refuses,
and ``int()`` takes 10**30, which no integer column holds. Django's ``forms.IntegerField`` parses the
way its forms do (spaces around, ``²`` refused) and keeps the value within bounds.
"""

from django import forms
from django.core.exceptions import ValidationError

INTEGER_MAX = 2**31 - 1  # PostgreSQL's integer column


def parse_int(value: object, *, min_value: int | None = 0, max_value: int = INTEGER_MAX) -> int | None:
    """The whole number in ``value`` within [min_value, max_value], or None (empty, not a number, out of bounds)."""
    try:
        return forms.IntegerField(required=False, min_value=min_value, max_value=max_value).clean(value)
    except ValidationError:
        return None
