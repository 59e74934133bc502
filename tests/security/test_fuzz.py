"""No input gives a 5xx: every URL of the site, every form field and query parameter it reads, hostile values.

The walk reuses the permission table's world (tests/test_permissions.py: the demo's played tournament, a
second club, the users) and its URL walk, so a new URL pattern is fuzzed as soon as it exists, and one
without a row in the permission table or a fixture value for its parameters fails here too.

For each URL and method, as the role that gets in (anonymous for public pages and keys: a table key, a
table card's link, a player's link, a sign-up's key; the desk helper for desk pages; the organiser else):

1. the fields: what the site's own pages post there (the forms of every page, harvested once) and every
   key the view reads from request.GET / request.POST (recorded during one plain request);
2. each field in turn gets each hostile value (``²``: ``str.isdigit()`` is true and ``int()`` fails; NUL,
   which PostgreSQL refuses in text; 10**30; -1; a very long string; garbage), the others keep the form's
   own values; JSON bodies (10,000 levels deep, malformed) go to every URL that takes a body;
3. no answer may be a 5xx, and a refusal (4xx) of a change leaves every table's row count as it was.

Each request runs in a savepoint that is rolled back, as in the permission walk.
"""

from __future__ import annotations

from html.parser import HTMLParser
from urllib.parse import urlencode, urlsplit

import pytest
from django.apps import apps
from django.db import connection, transaction
from django.forms import BaseForm
from django.http import QueryDict
from django.test import Client
from django.urls import reverse
from django.utils.datastructures import MultiValueDict

from tests.test_permissions import (  # noqa: F401 (world and _isolated are fixtures used by name)
    DESK,
    KEY,
    LOGIN,
    OPERATOR,
    ORG_ANY,
    ORGANISER,
    PERMISSIONS,
    PUBLIC,
    VIEWER,
    _isolated,
    _ready_pack,
    kwargs_for,
    site_urls,
    world,
)

pytestmark = pytest.mark.django_db

HOSTILE = {
    "superscript two": "²",
    "NUL": "a\x00b",
    "10**30": str(10**30),
    "minus one": "-1",
    "very long": "9" * 5000,
    "garbage": "'\"><script>%00%s{{x}}\\",
}
DEEP_JSON = ("[" * 10_000 + "]" * 10_000).encode()
JSON_BODIES = {
    "deep JSON": DEEP_JSON,
    "malformed JSON": b'{"a": ',
    "NUL in JSON": b'{"reason": "a\\u0000b"}',
    "not UTF-8": b"\xff\xfe{\x00",
}

ONE_BY_ONE = ("superscript two", "NUL", "10**30")  # what int() and PostgreSQL refuse: each field alone
ONE_BY_ONE_FIELDS = 12  # a longer form is a Django form, which cleans every field whatever the others hold

# The role that gets in at each level (tests/test_permissions.py's table).
ROLE = {
    PUBLIC: "anonymous",
    KEY: "anonymous",
    LOGIN: "organiser",
    ORG_ANY: "organiser",
    VIEWER: "organiser",
    DESK: "desk",
    ORGANISER: "organiser",
    OPERATOR: "superuser",
}
WRITES = ("POST", "PUT", "PATCH", "DELETE")


class _Forms(HTMLParser):
    """The forms of a page: (action path, method, {field: value}) with the values the page fills in."""

    def __init__(self, page: str):
        super().__init__()
        self.page = page
        self.forms: list[tuple[str, str, dict[str, str]]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            action = urlsplit(attrs.get("action") or self.page).path or self.page
            self.forms.append((action, (attrs.get("method") or "get").upper(), {}))
        elif tag in ("input", "select", "textarea", "button") and self.forms and attrs.get("name"):
            fields = self.forms[-1][2]
            if tag == "input" and attrs.get("type") in ("checkbox", "radio") and "checked" not in attrs:
                fields.setdefault(attrs["name"], "")
                return
            if tag == "button" and attrs["name"] in fields:
                return
            value = attrs.get("value") or fields.get(attrs["name"]) or ""
            fields[attrs["name"]] = value


@pytest.fixture(scope="module")
def page_forms(world, django_db_blocker):
    """Every form of every page (GET) of the site, by the path it posts to, as the role that sees the page."""
    found: dict[tuple[str, str], list[dict[str, str]]] = {}
    with django_db_blocker.unblock():
        for name, url in site_urls().items():
            methods = PERMISSIONS[name]
            if "GET" not in methods or name.startswith("api:") or name == "tournaments:print_pack":
                continue
            client = _client(world, ROLE[methods["GET"]])
            for kwargs in kwargs_for(url, world):
                path = reverse(name, kwargs=kwargs)
                response = _send(client, "GET", path)
                if "html" not in response.get("Content-Type", ""):
                    continue
                parser = _Forms(path)
                parser.feed(response.content.decode())
                for action, method, fields in parser.forms:
                    if fields not in found.setdefault((action, method), []):
                        found[(action, method)].append(fields)
    return found


def _client(world, role: str) -> Client:
    client = Client(raise_request_exception=False)
    if world.users[role] is not None:
        client.force_login(world.users[role])
    return client


def _send(
    client: Client,
    method: str,
    path: str,
    data=None,
    body: bytes | None = None,
    content_type: str = "application/x-www-form-urlencoded",
    check=None,
):
    """One request in a savepoint that is rolled back; ``check(response)`` runs before the rollback."""
    with transaction.atomic():
        if method == "GET":
            response = client.get(path, data or {})
        elif body is not None:
            response = client.generic(method, path, body, content_type=content_type)
        else:
            response = client.generic(method, path, urlencode(data or {}), content_type=content_type)
        if check is not None:
            check(response)
        transaction.set_rollback(True)
    return response


def _row_counts() -> dict[str, int]:
    """Every table's row count (of both apps), in one statement: it runs after each refused change."""
    models = [m for app in ("tournaments", "scoring") for m in apps.get_app_config(app).get_models()]
    counts = ", ".join(f'(SELECT COUNT(*) FROM "{m._meta.db_table}")' for m in models)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {counts}")
        return dict(zip((m._meta.label for m in models), cursor.fetchone()))


class _Reads:
    """The keys a view reads from a QueryDict (request.GET or request.POST) during one request."""

    def __init__(self, monkeypatch):
        self.keys: set[str] = set()
        reads = self.keys
        getitem, getlist = MultiValueDict.__getitem__, MultiValueDict.getlist

        def recorded_getitem(d, key):
            if isinstance(d, QueryDict):
                reads.add(key)
            return getitem(d, key)

        def recorded_getlist(d, key, default=None):
            if isinstance(d, QueryDict):
                reads.add(key)
            return getlist(d, key, default)

        def recorded_contains(d, key):
            if isinstance(d, QueryDict):
                reads.add(key)
            return dict.__contains__(d, key)

        monkeypatch.setattr(MultiValueDict, "__getitem__", recorded_getitem)
        monkeypatch.setattr(MultiValueDict, "getlist", recorded_getlist)
        monkeypatch.setattr(MultiValueDict, "__contains__", recorded_contains, raising=False)


def _failure(method: str, path: str, what: str, response) -> str:
    cause = ""
    if getattr(response, "exc_info", None):
        cause = f" ({response.exc_info[0].__name__}: {str(response.exc_info[1])[:200]})"
    return f"{method} {path} {what} -> {response.status_code}{cause}"


@pytest.mark.parametrize("name", sorted(site_urls()))
def test_no_input_gives_a_server_error(name, world, page_forms, monkeypatch, tmp_path):
    assert name in PERMISSIONS, f"{name}: add it to tests/test_permissions.py's table (and so to this walk)"
    url = site_urls()[name]
    if name == "tournaments:print_pack":
        _ready_pack(monkeypatch, tmp_path)
    api = name.startswith("api:")
    problems: list[str] = []
    for kwargs in kwargs_for(url, world):
        path = reverse(name, kwargs=kwargs)
        for method, level in PERMISSIONS[name].items():
            client = _client(world, ROLE[level])
            problems += _fuzz(client, method, path, page_forms.get((path, method), [{}]), api, monkeypatch)
    assert not problems, "\n".join(problems)


def _fuzz(client, method: str, path: str, forms: list[dict[str, str]], api: bool, monkeypatch) -> list[str]:
    problems = []
    before = _row_counts() if method in WRITES else None

    def checked(response, what: str):
        if response.status_code >= 500:  # (the transaction may be broken: nothing more is read)
            problems.append(_failure(method, path, what, response))
            return
        if before is not None and 400 <= response.status_code < 500 and _row_counts() != before:
            changed = sorted(k for k, v in _row_counts().items() if before[k] != v)
            problems.append(f"{method} {path} {what}: refused with {response.status_code} but wrote {changed}")
        if api and response.status_code == 400 and not _documented_errors(response):
            problems.append(
                f"{method} {path} {what}: a 400 not in the shape {{field: [messages]}}: {response.content[:200]}"
            )
        if method in WRITES and response.status_code == 200 and _form_errors(response):
            problems.append(f"{method} {path} {what}: form errors answered 200, not 400: {_form_errors(response)}")

    def send(data=None, body=None, what="", content_type="application/x-www-form-urlencoded"):
        _send(
            client,
            method,
            path,
            data,
            body=body,
            content_type=content_type,
            check=lambda response: checked(response, what),
        )

    for form in forms:
        with monkeypatch.context() as m:
            reads = _Reads(m)
            send(dict(form), what="(the page's own form)")
        fields = sorted((set(form) | reads.keys) - {"csrfmiddlewaretoken"})
        for label, value in HOSTILE.items():  # every field at once: each form field is cleaned, whatever the others
            send({**form, **dict.fromkeys(fields, value)}, what=f"every field={label}")
        if len(fields) <= ONE_BY_ONE_FIELDS:  # a view that reads its fields itself may stop at the first bad one
            for field in fields:
                for label in ONE_BY_ONE:
                    send({**form, field: HOSTILE[label]}, what=f"{field}={label}")
    if method in WRITES:
        for label, body in JSON_BODIES.items():
            send(body=body, what=label, content_type="application/json")
    return problems


def _documented_errors(response) -> bool:
    """The API's 400: {field: [messages]} (tournaments/api/base.ERRORS_SCHEMA)."""
    try:
        errors = response.json()
    except ValueError:
        return False
    return (
        isinstance(errors, dict)
        and bool(errors)
        and all(
            isinstance(messages, list) and all(isinstance(m, str) for m in messages) for messages in errors.values()
        )
    )


def _form_errors(response) -> dict:
    """The errors of the bound forms the page rendered (a form with errors is a 400, not a 200)."""
    errors = {}
    for context in response.context or []:
        for value in context.flatten().values() if hasattr(context, "flatten") else []:
            if isinstance(value, BaseForm) and value.is_bound and value.errors:
                errors.update(value.errors)
    return errors
