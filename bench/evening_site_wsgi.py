"""WSGI entry of bench/evening.py's gunicorn: the project's own entry (schafkopfrennen/wsgi.py) with the
bench's settings (the project's plus the floor views)."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.evening_settings")

from schafkopfrennen.wsgi import application  # noqa: F401
