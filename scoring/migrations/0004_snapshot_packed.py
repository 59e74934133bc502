"""The snapshot's documents as orjson bytes instead of ``jsonb``, the overall list in a column of its own,
no stored list per round (each is ranked from the overall list when read), and per player his
money sums instead of the whole ledger (all the cash list reads).

PostgreSQL parsed the documents into ``jsonb`` on every write of the standings, which cost more than
computing them; nothing queries inside them. Existing snapshots are carried over: each overall row
gains ``round_solos`` (per round its won and lost solos, or null where he did not play), taken from
the round lists that are dropped.
"""

from django.db import migrations, models, transaction

import scoring.models


def _round_solos(data):
    rounds = data.get("rounds") or {}
    by_round = {
        int(r): {row["registration"]: [row["won_solos"], row["lost_solos"]] for row in rows}
        for r, rows in rounds.items()
    }
    count = max(by_round, default=0)
    for row in data.get("overall") or []:
        if "round_solos" not in row:  # (rows migrated down and up again keep theirs)
            row["round_solos"] = [by_round.get(r, {}).get(row["registration"]) for r in range(1, count + 1)]
    return data.get("overall") or []


def _money(ledger):
    """Per start number: [Reuegeld, Weitergeld, payouts received] (the cash list's sums of the ledger)."""
    money = {}
    for entry in ledger:
        row = money.setdefault(entry["start_number"], [0, 0, 0])
        column = {"reuegeld": 0, "weitergeld": 1}.get(entry["kind"], 2)
        row[column] += -entry["cents"] if column == 2 else entry["cents"]
    return money


def pack(apps, schema_editor):
    Snapshot = apps.get_model("scoring", "StandingsSnapshot")
    for snapshot in Snapshot.objects.all():
        old = snapshot.data_json or {}
        snapshot.overall = _round_solos(old)
        snapshot.data = {
            **{k: v for k, v in old.items() if k not in ("overall", "rounds", "ledger")},
            "money": _money(old.get("ledger") or []),
        }
        snapshot.parts = snapshot.parts_json or {}
        snapshot.save(update_fields=["overall", "data", "parts"])


def unpack(apps, schema_editor):
    Snapshot = apps.get_model("scoring", "StandingsSnapshot")
    for snapshot in Snapshot.objects.all():  # the round lists and the ledger come back with a recompute:
        snapshot.data_json = {**snapshot.data, "overall": snapshot.overall, "rounds": {}, "ledger": []}
        snapshot.parts_json = snapshot.parts
        snapshot.revision = 0  # shown as not current until then,
        snapshot.marker = ""  # and recomputed when a worker starts (standings_catch_up)
        snapshot.save(update_fields=["data_json", "parts_json", "revision", "marker"])


def lz4_on_postgresql(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for column in ("overall", "data", "parts"):
        try:
            with transaction.atomic(using=schema_editor.connection.alias):
                schema_editor.execute(
                    f"ALTER TABLE scoring_standingssnapshot ALTER COLUMN {column} SET COMPRESSION lz4"
                )
        except Exception:  # a server built without lz4 keeps its default compression
            pass


class Migration(migrations.Migration):
    dependencies = [("scoring", "0003_snapshot_parts")]

    operations = [
        migrations.RenameField("standingssnapshot", "data", "data_json"),
        migrations.RenameField("standingssnapshot", "parts", "parts_json"),
        # nullable while both exist, so that the way back can add them again to existing rows
        migrations.AlterField("standingssnapshot", "data_json", models.JSONField(null=True)),
        migrations.AlterField("standingssnapshot", "parts_json", models.JSONField(null=True)),
        migrations.AddField(
            model_name="standingssnapshot",
            name="overall",
            field=scoring.models.PackedJSONField(default=list, verbose_name="standings"),
        ),
        migrations.AddField(
            model_name="standingssnapshot",
            name="data",
            field=scoring.models.PackedJSONField(default=dict, verbose_name="Tischbeste and money"),
        ),
        migrations.AddField(
            model_name="standingssnapshot",
            name="parts",
            field=scoring.models.PackedJSONField(default=dict, verbose_name="results per table"),
        ),
        migrations.RunPython(pack, unpack),
        migrations.RemoveField("standingssnapshot", "data_json"),
        migrations.RemoveField("standingssnapshot", "parts_json"),
        migrations.RunPython(lz4_on_postgresql, migrations.RunPython.noop),
    ]
