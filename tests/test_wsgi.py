"""gunicorn's entry (schafkopfrennen/wsgi.py): the project loaded, its URLconf imported and the heap frozen
out of the garbage collector's sight before the first request (issue 14: collections walked it for every save)."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import gc, sys
import schafkopfrennen.wsgi as wsgi
from django.urls import get_resolver
print(gc.get_freeze_count(), 'tournaments.api.urls' in sys.modules, callable(wsgi.application))
"""


def test_the_wsgi_entry_freezes_the_loaded_project():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120, check=True).stdout.split()
    frozen, urlconf, app = int(out[0]), out[1], out[2]
    assert frozen > 10_000, frozen  # the project's modules, models and URLconf: tens of thousands of objects
    assert urlconf == "True" and app == "True"
