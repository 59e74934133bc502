"""One save path for every game: the table's change counter and its triggers (0018) go.

A new game is stored under its table's row lock (``services.hands.hand_record``), whichever page or API
sends it; nothing reads ``entry_version`` any more. Reversing recreates them (0018's statements).
"""

import importlib

from django.db import migrations

_counter = importlib.import_module("tournaments.migrations.0018_table_entry_version")


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0025_night_who_played")]

    operations = [
        migrations.RunPython(_counter._on_postgresql(_counter.BACKWARD), _counter._on_postgresql(_counter.FORWARD))
    ]
