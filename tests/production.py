"""The project as production runs it, for the tests (issue 33): settings.py evaluated again with a
production environment (``DJANGO_DEBUG=false`` and what a deployment sets), and its static files collected
into a temporary STATIC_ROOT by the storage those settings name (the manifest storage: hashed URLs).

The browser tests' live server (tests/browser/conftest.py) serves with these settings under CI=true, and
tests that must see the production paths (``static()`` against the manifest) take the ``production``
fixture (tests/conftest.py).
"""

from __future__ import annotations

import os
import runpy
from pathlib import Path

from django.core.management import call_command
from django.test.utils import override_settings

import schafkopfrennen.settings as settings_module

# What a deployment sets (README): the rest is settings.py's own production default.
PRODUCTION_ENV = {
    "DJANGO_DEBUG": "false",
    "DJANGO_SECRET_KEY": "production-settings-in-the-tests-only",
    # The live server's host, and the test client's (pytest-django's live server adds its own host too).
    "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
}
# Kept as the test run has them: the test database (its name is the test's), and the secret (keys and
# sessions the test made before the server started are signed with it).
KEPT = frozenset({"DATABASES", "SECRET_KEY"})


def production_settings(**env: str) -> dict:
    """Every setting (UPPERCASE name) as settings.py computes it with PRODUCTION_ENV and ``env`` added to
    this process's environment (e.g. ``CELERY_BROKER_URL`` and ``REDIS_CACHE_URL`` for a real worker)."""
    environ = {**os.environ, **PRODUCTION_ENV, **env}
    saved = os.environ.copy()
    os.environ.clear()
    os.environ.update(environ)
    try:
        namespace = runpy.run_path(settings_module.__file__)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return {name: value for name, value in namespace.items() if name.isupper()}


def production_overrides(static_root: Path, **env: str) -> dict:
    """The settings in which production differs from this test run, for ``override_settings``; STATIC_ROOT
    is ``static_root`` (where ``collect_static`` put the files)."""
    from django.conf import settings

    wanted = production_settings(**env)
    changed = {
        name: value for name, value in wanted.items() if name not in KEPT and getattr(settings, name, object()) != value
    }
    changed["STATIC_ROOT"] = str(static_root)
    return changed


def collect_static(static_root: Path) -> dict:
    """``collectstatic`` into ``static_root`` with the production settings' storage, as a deployment runs it;
    returns the overrides that serve those files (``production_overrides``)."""
    overrides = production_overrides(static_root)
    with override_settings(**overrides):
        call_command("collectstatic", interactive=False, verbosity=0)
    return overrides
