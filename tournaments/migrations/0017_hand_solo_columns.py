"""Who won or lost a solo, and whether a game costs money, as columns beside the points: the full
recompute of the standings counted solos and found the paying games by looking inside every game's
JSON outcome, which cost PostgreSQL more than summing the points. Existing games are filled in from
their stored outcome (never scored again), a few statements per seat and chunk. Two indexes for the
same recompute: the paying games per table, and each table's newest revision."""

from django.db import migrations, models

CHUNK = 5000


def columns_from_outcome(apps, schema_editor):
    from scoring.rules.hand import SOLO_CONTRACTS as solos  # the rules' own list, as it is now

    Hand = apps.get_model("tournaments", "Hand")
    won, lost, pays = {}, {}, []
    for pk, outcome in Hand.objects.order_by("pk").values_list("pk", "outcome").iterator(chunk_size=CHUNK):
        outcome = outcome or {}
        declarer = outcome.get("declarer")
        if outcome.get("contract") in solos and declarer is not None:
            (won if outcome.get("declarer_won") else lost).setdefault(declarer, []).append(pk)
        if outcome.get("reuegeld") or outcome.get("weitergeld"):
            pays.append(pk)
    for column, by_seat in (("solo_won", won), ("solo_lost", lost)):
        for seat, pks in by_seat.items():
            for start in range(0, len(pks), CHUNK):
                Hand.objects.filter(pk__in=pks[start : start + CHUNK]).update(**{column: seat})
    for start in range(0, len(pays), CHUNK):
        Hand.objects.filter(pk__in=pays[start : start + CHUNK]).update(pays=True)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0016_hand_points_columns")]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="solo_won",
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="solo won by seat"),
        ),
        migrations.AddField(
            model_name="hand",
            name="solo_lost",
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="solo lost by seat"),
        ),
        migrations.AddField(
            model_name="hand",
            name="pays",
            field=models.BooleanField(default=False, verbose_name="costs money"),
        ),
        migrations.AddIndex(
            model_name="hand",
            index=models.Index(condition=models.Q(pays=True), fields=["table"], name="paying_games_per_table"),
        ),
        migrations.AddIndex(
            model_name="handrevision",
            index=models.Index(fields=["table", "id"], name="revision_newest_per_table"),
        ),
        # after the indexes: PostgreSQL creates no index on a table with updates pending in the transaction
        migrations.RunPython(columns_from_outcome, migrations.RunPython.noop),
    ]
