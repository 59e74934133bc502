"""The snapshot's four documents compressed with lz4 on PostgreSQL, ``overall_index`` too.

Every write of the standings (each merge of the worker, each full recompute) replaces the four
``bytea`` documents, and PostgreSQL compresses each of them on the way into TOAST: with pglz unless
the column says otherwise. 0004 set lz4 on ``overall``, ``data`` and ``parts``; ``overall_index``
(0005) was left with the server's default, pglz. lz4 on all four writes the documents fastest; pglz
on all four is several times slower.

Set on all four, so that a server that had no lz4 when 0004 ran gets it now. Only on PostgreSQL
(SQLite stores the bytes as they are), and only where the server can (PostgreSQL 14 or later,
built with lz4: ``default_toast_compression`` then offers it); anywhere else nothing changes and
the migration still applies. The way back gives ``overall_index`` the server's default again and
leaves the three columns as 0004 set them. Values already stored keep their compression until
they are next written (the next change of the games).
"""

from django.db import migrations

COLUMNS = ("overall", "data", "parts", "overall_index")


def _lz4_available(schema_editor) -> bool:
    if schema_editor.connection.vendor != "postgresql":
        return False
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'")
        row = cursor.fetchone()  # no row before PostgreSQL 14
    return bool(row and row[0])


def _compression(schema_editor, columns, method: str) -> None:
    table = schema_editor.quote_name("scoring_standingssnapshot")
    for column in columns:
        schema_editor.execute(
            f"ALTER TABLE {table} ALTER COLUMN {schema_editor.quote_name(column)} SET COMPRESSION {method}"
        )


def lz4(apps, schema_editor):
    if _lz4_available(schema_editor):
        _compression(schema_editor, COLUMNS, "lz4")


def index_default(apps, schema_editor):
    if _lz4_available(schema_editor):
        _compression(schema_editor, ["overall_index"], "default")


class Migration(migrations.Migration):
    dependencies = [("scoring", "0005_snapshot_overall_index")]

    operations = [migrations.RunPython(lz4, index_default, elidable=False)]
