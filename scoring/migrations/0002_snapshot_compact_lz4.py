"""The snapshot is written after every burst of games: send it compact, and on PostgreSQL compress it
with lz4 instead of pglz (lz4 writes it faster)."""

from django.db import migrations, models, transaction

import scoring.models


def lz4_on_postgresql(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    try:
        with transaction.atomic(using=schema_editor.connection.alias):
            schema_editor.execute("ALTER TABLE scoring_standingssnapshot ALTER COLUMN data SET COMPRESSION lz4")
    except Exception:  # a server built without lz4 keeps its default compression
        pass


class Migration(migrations.Migration):
    dependencies = [("scoring", "0001_initial")]

    operations = [
        migrations.AlterField(
            model_name="standingssnapshot",
            name="data",
            field=models.JSONField(encoder=scoring.models.CompactJSONEncoder, verbose_name="standings"),
        ),
        migrations.RunPython(lz4_on_postgresql, migrations.RunPython.noop),
    ]
