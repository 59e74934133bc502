"""Settings of bench/evening.py's gunicorn: the project's own, plus the URLs of two floor views."""

from schafkopfrennen.settings import *  # noqa: F403

ROOT_URLCONF = "bench.evening_site"

# DEBUG is off as in production, without a collectstatic run: plain static file names.
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
