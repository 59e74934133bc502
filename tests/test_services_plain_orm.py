"""The services (every write) read as plain ORM code: no hand-written SQL, no cursor, no Django internals.

What an import graph cannot see (``.importlinter``'s contract ``services-plain-orm`` keeps the imports):
a cursor, a raw query, ``RawSQL``/``extra()``, a model's ``_meta``, the ORM's query classes, or the
database connection itself, used in ``tournaments/services``.
"""

import ast
from pathlib import Path

import pytest

SERVICES = Path(__file__).resolve().parent.parent / "tournaments" / "services"
FORBIDDEN_ATTRIBUTES = {"cursor", "raw", "extra", "_meta", "get_compiler", "execute", "executemany"}
FORBIDDEN_NAMES = {"RawSQL", "connection", "connections", "UpdateQuery", "InsertQuery"}
FORBIDDEN_MODULES = ("django.db.models.sql", "django.db.backends", "psycopg", "gc")


def findings(source: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_ATTRIBUTES:
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module.startswith(FORBIDDEN_MODULES):
                found.append(f"line {node.lineno}: from {module}")
            found += [f"line {node.lineno}: import {a.name}" for a in node.names if a.name in FORBIDDEN_NAMES]
        elif isinstance(node, ast.Import):
            found += [
                f"line {node.lineno}: import {a.name}" for a in node.names if a.name.startswith(FORBIDDEN_MODULES)
            ]
    return found


@pytest.mark.parametrize("path", sorted(SERVICES.glob("*.py")), ids=lambda p: p.name)
def test_a_service_is_plain_orm_code(path):
    assert findings(path.read_text()) == []


def test_the_check_finds_what_it_forbids():
    source = (
        "from django.db import connection\nfrom django.db.models.sql import UpdateQuery\nimport gc\n"
        "def f(m):\n    with connection.cursor() as c:\n        c.execute('SELECT 1')\n    return m._meta\n"
    )
    assert len(findings(source)) == 7
