"""gunicorn's entry (schafkopfrennen/wsgi.py): the project loaded and its URLconf imported before the first
request, the unchanged polls answered in front of Django."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import sys
import schafkopfrennen.wsgi as wsgi
from schafkopfrennen.polling import UnchangedPolls
print('tournaments.api.urls' in sys.modules, isinstance(wsgi.application, UnchangedPolls))
"""


def test_the_wsgi_entry_loads_the_project_and_answers_polls_in_front_of_django():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True
    ).stdout.split()
    assert out == ["True", "True"]
