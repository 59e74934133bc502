"""WSGI entry of bench/evening.py's gunicorn (the project's settings plus the floor views)."""
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.evening_settings")

from django.core.wsgi import get_wsgi_application  # noqa: E402

application = get_wsgi_application()
