"""A statement the database works on while this process goes on in Python.

The full standings recompute at 4,000 players is half database, half Python, one after the other, on
a machine of two cores: while the database summed the games or wrote the snapshot, the process waited,
and while the process made the figures, the database had nothing to do. On PostgreSQL a statement
sent in psycopg's pipeline mode runs while the process works on something that does not need its
result; its result is read when asked for. Elsewhere (the embedded SQLite) the statement runs at once.
"""

import contextlib
from collections.abc import Callable, Iterator, Sequence

import psycopg
from django.db import DEFAULT_DB_ALIAS, connections

_PIPELINE = psycopg.Pipeline.is_supported()  # libpq 14 or newer


@contextlib.contextmanager
def statement_meanwhile(
    sql: str, params: Sequence = (), using: str = DEFAULT_DB_ALIAS
) -> Iterator[Callable[[], object]]:
    """Send ``sql``; yields a function that waits for its result and returns the cursor (``fetchall()``
    for its rows, ``rowcount`` for what it changed). Until that function is called the caller must not
    use the connection: whatever it does meanwhile is done beside the database's work."""
    db = connections[using]
    with db.cursor() as cursor:
        if db.vendor == "postgresql" and _PIPELINE:
            with db.connection.pipeline() as pipeline:
                cursor.execute(sql, params)

                def done():
                    with db.wrap_database_errors:  # its error, if any, comes here: as Django's, as elsewhere
                        pipeline.sync()
                    return cursor

                yield done
            return
        cursor.execute(sql, params)
        yield lambda: cursor
