"""A game's points per seat in five integer columns instead of a JSON copy: the full recompute of the
standings sums them per table with a plain ``SUM … GROUP BY`` that every database runs, where the JSON
needed a key extraction written per vendor (``->>`` on PostgreSQL, ``JSON_EXTRACT`` on SQLite).
The whole outcome stays in ``outcome``; existing games are copied over key by key (no game is scored
again), and back on reversal."""

from django.db import migrations, models

SEATS = range(1, 6)
CHUNK = 2000


def columns_from_json(apps, schema_editor):
    Hand = apps.get_model("tournaments", "Hand")
    batch = []
    for hand in Hand.objects.only("pk", "points").order_by("pk").iterator(chunk_size=CHUNK):
        points = {int(seat): value for seat, value in (hand.points or {}).items()}
        for seat in SEATS:
            setattr(hand, f"points_{seat}", points.get(seat))
        batch.append(hand)
        if len(batch) == CHUNK:
            Hand.objects.bulk_update(batch, [f"points_{seat}" for seat in SEATS])
            batch = []
    Hand.objects.bulk_update(batch, [f"points_{seat}" for seat in SEATS])


def json_from_columns(apps, schema_editor):
    Hand = apps.get_model("tournaments", "Hand")
    batch = []
    for hand in Hand.objects.order_by("pk").iterator(chunk_size=CHUNK):
        hand.points = {
            str(seat): getattr(hand, f"points_{seat}") for seat in SEATS if getattr(hand, f"points_{seat}") is not None
        }
        batch.append(hand)
        if len(batch) == CHUNK:
            Hand.objects.bulk_update(batch, ["points"])
            batch = []
    Hand.objects.bulk_update(batch, ["points"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0015_print_pack")]

    operations = [
        *(
            migrations.AddField(
                model_name="hand",
                name=f"points_{seat}",
                field=models.IntegerField(blank=True, null=True, verbose_name=f"points, seat {seat}"),
            )
            for seat in SEATS
        ),
        migrations.RunPython(columns_from_json, json_from_columns),
        migrations.RemoveField(model_name="hand", name="points"),
    ]
