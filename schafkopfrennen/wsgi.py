"""The WSGI entry of gunicorn (README's deployment).

In front of Django, ``UnchangedPolls`` answers a phone's or a table page's unchanged poll
(``schafkopfrennen/polling.py``); on PostgreSQL each worker listens for committed changes
(``schafkopfrennen/changes.py``, one more connection per worker, opened at its first poll) and answers
from what it read while none is announced.
"""

import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "schafkopfrennen.settings")

from schafkopfrennen.polling import UnchangedPolls

# unchanged polls: 304 before Django, without asking the database while no change commits (changes.py)
application = UnchangedPolls(get_wsgi_application(), listen=settings.POLLS_LISTEN)
get_resolver().url_patterns  # the URLconf imported now (before gunicorn forks its workers), not by a first request
