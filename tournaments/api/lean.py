"""The tablet's new game without DRF's machinery: the hot path of a tournament evening (issue 14).

``HandCreateView`` (tournaments/api/table.py) stays the endpoint and its documentation; its ``dispatch``
first offers a POST to ``hand_create``, which serves the common case itself and hands everything else
back (returns None) to the DRF view, which then answers as it always has. Served here: a JSON body
whose every key has the type the serializer declares, from a client that accepts JSON. Handed back:
a body DRF would refuse or coerce (its errors name the field, so they stay DRF's), a table card's key
that opens no table, a rate-limited key (the verdict is kept on the request: DRF answers 429 without
counting the request twice), a client asking for HTML.

What is checked and what is answered is read from the serializers' own declarations
(``HandEntrySerializer``'s fields in, ``HandSerializer``'s fields out, each field's
``to_representation``), never written out a second time; tests hold the two paths to the same bytes.
"""
import uuid
from typing import Any

import orjson
from django.core.exceptions import RequestDataTooBig
from django.core.validators import (MaxLengthValidator, MaxValueValidator, MinLengthValidator, MinValueValidator,
                                    ProhibitNullCharactersValidator)
from django.http import HttpRequest, HttpResponse
from rest_framework import fields as f
from rest_framework.validators import ProhibitSurrogateCharactersValidator
from rest_framework.renderers import JSONRenderer

from ..selectors.links import table_link_resolve
from ..http import error_status
from ..services.errors import ServiceError
from ..services.hands import hand_record, hand_record_at_key
from . import serializers as s
from .throttles import TableKeyThrottle

_HANDED_BACK = object()  # a value the lean check does not take: DRF decides (and names the field)
_BIG = 10**15  # integers beyond this are DRF's to judge (its string-length limit), never the fast path's


def _checker(field: f.Field):
    """A check of one key of the body that answers exactly as ``field.run_validation`` for the inputs it
    takes, and hands back every other input; None when the field is of a kind not known here."""
    kind = type(field)
    nullable = field.allow_null

    if kind is f.CharField:
        if field.allow_blank or not field.trim_whitespace:
            return None
        longest, shortest = field.max_length, field.min_length

        def text(value):
            if value is None and nullable:
                return None
            if (type(value) is not str or not value or value != value.strip() or "\x00" in value
                    or (not value.isascii() and any(0xD800 <= ord(c) <= 0xDFFF for c in value))
                    or (longest is not None and len(value) > longest)
                    or (shortest is not None and len(value) < shortest)):
                return _HANDED_BACK
            return value
        return text
    if kind is f.IntegerField:
        low = field.min_value if field.min_value is not None else -_BIG
        high = field.max_value if field.max_value is not None else _BIG

        def number(value):
            if value is None and nullable:
                return None
            if type(value) is not int or not low <= value <= high:
                return _HANDED_BACK
            return value
        return number
    if kind is f.BooleanField:
        def flag(value):
            if value is None and nullable:
                return None
            return value if type(value) is bool else _HANDED_BACK
        return flag
    if kind is f.UUIDField:
        def uid(value):
            if value is None and nullable:
                return None
            if type(value) is not str:
                return _HANDED_BACK
            try:
                return uuid.UUID(hex=value)
            except ValueError:
                return _HANDED_BACK
        return uid
    return None


_UNDERSTOOD = (MaxLengthValidator, MinLengthValidator, ProhibitNullCharactersValidator,
               ProhibitSurrogateCharactersValidator, MaxValueValidator, MinValueValidator)  # DRF's own, checked above


def _entry_checks() -> tuple[dict[str, Any], frozenset[str]] | None:
    """The checks of ``HandEntrySerializer``'s declared fields; None (every body to DRF) as soon as one
    field has a kind, a default or a validator the checks above do not reproduce."""
    declared = s.HandEntrySerializer._declared_fields
    checks = {name: _checker(field) for name, field in declared.items() if not field.read_only}
    if any(check is None for check in checks.values()) or any(
            field.default is not f.empty or not all(isinstance(v, _UNDERSTOOD) for v in field.validators)
            for field in declared.values()):
        return None
    required = frozenset(name for name, field in declared.items() if field.required)
    return checks, required


_ENTRY = _entry_checks()
_RECORD = s.HandEntrySerializer.RECORD_FIELDS
_OUT = [(name, field) for name, field in s.HandSerializer._declared_fields.items() if not field.write_only]
_RENDER = JSONRenderer()


def entry_body(data: Any) -> dict[str, Any] | None:
    """``HandEntrySerializer``'s ``validated_data`` for ``data``, or None when DRF is to judge it."""
    if _ENTRY is None or type(data) is not dict:
        return None
    checks, required = _ENTRY
    if not required <= data.keys():
        return None
    valid = {}
    for key, value in data.items():
        check = checks.get(key)
        if check is None:
            return None  # unknown (or read-only) key: DRF names it
        value = check(value)
        if value is _HANDED_BACK:
            return None
        valid[key] = value
    return valid


def hand_data(hand) -> dict[str, Any]:
    """``HandSerializer(hand).data``, from the serializer's own fields without building the serializer."""
    data = {}
    for name, field in _OUT:
        value = getattr(hand, name)
        data[name] = None if value is None else field.to_representation(value)
    return data


def _json(data: Any, status: int, allow: str) -> HttpResponse:
    """A response as DRF's would be for this view: its JSON, ``Allow`` and ``Vary: Accept``."""
    response = HttpResponse(_RENDER.render(data), status=status, content_type="application/json")
    response["Allow"] = allow
    response["Vary"] = "Accept"
    return response


def _accepts_json(request: HttpRequest) -> bool:
    """DRF's negotiation would pick its JSON renderer (a browser asking for HTML gets DRF's page)."""
    if request.META.get("QUERY_STRING"):
        return False  # ?format= and the like: DRF's business
    accept = request.META.get("HTTP_ACCEPT", "*/*")
    return ("text/html" not in accept and ";" not in accept
            and ("application/json" in accept or "*/*" in accept or not accept.strip()))


def _body(request: HttpRequest) -> Any:
    """The JSON body as DRF's parser would read it, or None for anything it might read otherwise."""
    if request.content_type != "application/json" or request.content_params.get("charset", "utf-8").lower() not in (
            "utf-8", "utf8"):
        return None
    try:
        return orjson.loads(request.body)
    except (orjson.JSONDecodeError, RequestDataTooBig):
        # DRF answers the parse error, or the 413. orjson refuses all DRF's strict parser refuses (NaN,
        # Infinity, bytes that are not UTF-8, a byte order mark, lone surrogates) and some it takes (very
        # deep nesting); integers beyond 64 bits come out as floats, which no check takes: DRF judges both.
        return None


def hand_create(view, request: HttpRequest, entry_key: str) -> HttpResponse | None:
    """Store a tablet's new game and answer as ``HandCreateView.post`` would; None: the DRF view answers."""
    if not _accepts_json(request):
        return None
    if not TableKeyThrottle().allow_request(request, view):
        return None  # DRF answers 429 (the verdict is kept: the request is counted once)
    body = entry_body(_body(request))
    if body is None:
        return None
    record = {key: value for key, value in body.items() if key in _RECORD}
    device = request.META.get("HTTP_USER_AGENT", "")[:200]
    allow = ", ".join(view.allowed_methods)
    try:
        stored = hand_record_at_key(entry_key=entry_key, record=record, client_id=body["client_id"],
                                    number=body.get("number"), device=device)
        if stored is None:  # not a round's entry key: perhaps a table card's
            link = table_link_resolve(entry_key)
            if link is None or link.table is None:
                return None  # DRF's 404
            stored = hand_record(table=link.table, record=record, client_id=body["client_id"],
                                 number=body.get("number"), device=device)
    except ServiceError as err:  # as api_exception_handler answers it
        return _json(err.as_dict(), error_status(err), allow)
    hand, created = stored
    return _json(hand_data(hand), 201 if created else 200, allow)
