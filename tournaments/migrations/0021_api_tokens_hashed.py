"""The API tokens moved to django-rest-knox, which keeps only a digest of each.

DRF's own tokens were stored in plain: they are invalid from now on and their table is dropped with
them, so no usable key is left in the database. Each user makes a new token on "Mein Zugang"
(docs/security.md, section 8)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0020_registration_fee_due_left_during"),
        ("knox", "0009_extend_authtoken_field"),
    ]

    operations = [
        migrations.RunSQL('DROP TABLE IF EXISTS "authtoken_token"', reverse_sql=migrations.RunSQL.noop),
    ]
