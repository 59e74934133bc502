"""The WSGI entry of gunicorn (README's deployment).

Once the project is loaded (its apps, models and URLconf), everything it has allocated so far is moved
out of the garbage collector's sight (``gc.freeze``): those objects live as long as the process, and every
full collection walks them again. In one process, 3,000 saves through the tablet API met two full
collections of 84 ms each without the freeze (83 µs per save in the collector, on average) and one of
5 ms with it (26 µs per save; docs/performance.md). With
gunicorn's ``--preload`` the freeze happens before the workers are forked, which also keeps their pages
shared (Python's documentation of ``gc.freeze``).

In front of Django, ``UnchangedPolls`` answers a phone's unchanged poll (``schafkopfrennen/polling.py``);
on PostgreSQL each worker listens for committed changes (``schafkopfrennen/changes.py``, one more
connection per worker, opened at its first poll) and answers from what it read while none is announced.
"""
import gc
import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "schafkopfrennen.settings")

from schafkopfrennen.polling import UnchangedPolls  # noqa: E402 (after the settings' name: it reads them)


def frozen(application):
    """``application`` with the URLconf imported and the heap so far frozen (see above)."""
    get_resolver().url_patterns  # imported now, not by the first request
    gc.collect()
    gc.freeze()
    return application


# unchanged polls: 304 before Django, without asking the database while no change commits (changes.py)
application = frozen(UnchangedPolls(get_wsgi_application(), listen=settings.POLLS_LISTEN))
