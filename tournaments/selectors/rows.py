"""Model rows read by one plain statement and made into instances as the ORM makes them.

For the reads every request of an evening makes (a tablet's key, a phone's page, a look at the
standings): building the same ``select_related`` query anew for each request cost several times the
work of running it. ``columns`` is written once per process for a tuple of (model, alias); ``made``
turns a row into one instance per model with the fields' own converters and ``Model.from_db``, so the
instances are the ORM's in every respect. The caller writes the FROM and JOIN clause and links the
instances (``table.round = rnd``), as ``select_related`` would.
"""

import functools
from typing import Any

from django.db import connection
from django.db.models import Model

Spec = tuple[tuple[type[Model], str], ...]  # (model, its alias in the statement), in column order


@functools.cache
def columns(spec: Spec) -> tuple[str, list[tuple[type[Model], list[str], list[tuple[Any, list]], int]]]:
    """``SELECT`` with every concrete column of each model of ``spec``, and how ``made`` reads the row."""
    names, layout = [], []
    for model, alias in spec:
        fields = model._meta.concrete_fields
        names += [f'{alias}."{f.column}"' for f in fields]
        readers = []
        for field in fields:
            col = field.get_col(model._meta.db_table)
            readers.append((col, [*connection.ops.get_db_converters(col), *field.get_db_converters(connection)]))
        attnames = [f.attname for f in fields]
        layout.append((model, attnames, readers, attnames.index(model._meta.pk.attname)))
    return "SELECT " + ", ".join(names), layout


def made(spec: Spec, row, db=None) -> list[Model | None]:
    """One instance per model of ``spec`` from ``row`` (None where a LEFT JOIN found nothing: no primary key)."""
    db = db or connection
    instances, start = [], 0
    for model, attnames, readers, pk in columns(spec)[1]:
        values = []
        for value, (col, converters) in zip(row[start : start + len(attnames)], readers, strict=True):
            for convert in converters:
                value = convert(value, col, db)
            values.append(value)
        instances.append(None if values[pk] is None else model.from_db(db.alias, attnames, values))
        start += len(attnames)
    return instances


def first_row(sql: str, params: list, cursor=None) -> tuple[tuple | None, object]:
    """(the first row ``sql`` finds or None, the connection it was read on); on ``cursor`` when given (a
    write's own), else on a cursor of the default database."""
    if cursor is None:
        with connection.cursor() as own:
            own.execute(sql, params)
            return own.fetchone(), connection
    cursor.execute(sql, params)
    return cursor.fetchone(), cursor.db


def one(spec: Spec, sql: str, params: list, cursor=None) -> list[Model | None] | None:
    """The instances of the first row ``sql`` finds (``made``), or None (``first_row``)."""
    row, db = first_row(sql, params, cursor)
    return None if row is None else made(spec, row, db)
