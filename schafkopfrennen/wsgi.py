"""The WSGI entry of gunicorn (README's deployment).

Once the project is loaded (its apps, models and URLconf), everything it has allocated so far is moved
out of the garbage collector's sight (``gc.freeze``): those objects live as long as the process, and a
collection that walks them again and again costs every request. In one process, 400 saves through the
tablet API spent 183-246 µs each in collections before and 28-33 µs after (docs/performance.md). With
gunicorn's ``--preload`` the freeze happens before the workers are forked, which also keeps their pages
shared (Python's documentation of ``gc.freeze``).
"""
import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "schafkopfrennen.settings")


def frozen(application):
    """``application`` with the URLconf imported and the heap so far frozen (see above)."""
    get_resolver().url_patterns  # imported now, not by the first request
    gc.collect()
    gc.freeze()
    return application


application = frozen(get_wsgi_application())
