import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import tournaments.models.tournament


def fill_player_keys(apps, schema_editor):
    Registration = apps.get_model("tournaments", "Registration")
    for reg in Registration.objects.filter(key__isnull=True).only("pk"):
        reg.key = tournaments.models.tournament.new_player_key()
        reg.save(update_fields=["key"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0005_hand_revision_totals"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # Three steps, so existing registrations each get their own key (a callable default is evaluated once).
        migrations.AddField(
            model_name="registration",
            name="key",
            field=models.CharField(editable=False, max_length=64, null=True, verbose_name="personal key"),
        ),
        migrations.RunPython(fill_player_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="registration",
            name="key",
            field=models.CharField(
                default=tournaments.models.tournament.new_player_key,
                editable=False,
                max_length=64,
                unique=True,
                verbose_name="personal key",
            ),
        ),
        migrations.CreateModel(
            name="AuditEntry",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("action", models.CharField(max_length=60, verbose_name="action")),
                ("subject", models.CharField(blank=True, max_length=300, verbose_name="concerns")),
                ("before", models.JSONField(blank=True, null=True, verbose_name="before")),
                ("after", models.JSONField(blank=True, null=True, verbose_name="after")),
                ("reason", models.CharField(blank=True, max_length=300, verbose_name="reason")),
                ("at", models.DateTimeField(auto_now_add=True, verbose_name="when")),
                (
                    "by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="by",
                    ),
                ),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="audit_entries",
                        to="tournaments.club",
                        verbose_name="club",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="audit_entries",
                        to="tournaments.tournament",
                        verbose_name="tournament",
                    ),
                ),
            ],
            options={
                "verbose_name": "audit entry",
                "verbose_name_plural": "audit log",
                "ordering": ["-at", "-id"],
                "indexes": [
                    models.Index(fields=["tournament", "-at"], name="tournaments_tournam_373c18_idx"),
                    models.Index(fields=["club", "-at"], name="tournaments_club_id_642fe9_idx"),
                ],
            },
        ),
    ]
