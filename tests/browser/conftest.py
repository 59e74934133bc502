"""Headless Debian Chromium driven by Playwright against Django's live test server, as production runs it.

The live server serves with production's settings (issue 33; ``tests/production.py``): settings.py evaluated
with ``DJANGO_DEBUG=false``, the static files collected once per run into a temporary STATIC_ROOT by the
manifest storage and served by WhiteNoise under their hashed names, the WSGI entry gunicorn runs
(``UnchangedPolls`` in front of Django), on the suite's database (PostgreSQL under CI=true). A test marked
``worker`` also has its tasks (the standings) sent through Redis to a real Celery worker (``tests/worker.py``,
one for the run), with the cache on Redis as a deployment with workers has it. Every test that uses
``live_server`` (or ``page``) gets this without asking; ``settings`` and ``monkeypatch`` still reach the
server, which runs in the test's process.

Screenshots go to test-artifacts/ (kept by CI as artifacts of the run).
"""

import os
import time
from pathlib import Path

import pytest
from django.test.utils import override_settings

from tests.conftest import skip_or_fail

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
TABLET_PORTRAIT = {"width": 800, "height": 1280}  # a 10-inch tablet held upright

# Playwright's sync API runs an event loop in the test thread; the ORM calls the tests make are
# still synchronous and safe there.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip_or_fail("Playwright is not installed: make test installs requirements-dev.txt")
    if not os.path.exists(CHROMIUM):
        skip_or_fail(f"{CHROMIUM} is missing: install Debian's chromium package (apt install chromium)")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


OFFLINE_COOKIE = "skr-test-offline"


class OfflineGate:
    """The live server's WSGI app, wrapped: a write (POST and the like) from a browser context that a test took
    offline, which then carries the cookie OFFLINE_COOKIE=1, is answered 503 and never reaches Django.

    Chromium's offline emulation and Playwright's routes are set per target, and a request that the table
    page's service worker passes on can slip past them (on CI a queued game was once stored during the
    "offline" reload). A cookie belongs to the whole browser context, so it rides on every request of that
    context, the service worker's included. A 503 is what the page takes a dead network for too: the game
    stays queued and is sent again later. Reads pass: a test that needs a read cut relies on the context's
    offline mode and its routes as before.
    """

    def __init__(self, app):
        self.app = app
        self.refused: list[str] = []  # paths of the writes held back, for a failing test's curious reader

    def __call__(self, environ, start_response):
        if environ["REQUEST_METHOD"] not in ("GET", "HEAD", "OPTIONS") and f"{OFFLINE_COOKIE}=1" in environ.get(
            "HTTP_COOKIE", ""
        ):
            self.refused.append(environ.get("PATH_INFO", ""))
            start_response("503 Service Unavailable", [("Content-Type", "text/plain"), ("Retry-After", "5")])
            return [b"offline (test)"]
        return self.app(environ, start_response)


def production_app():
    """The WSGI app as schafkopfrennen/wsgi.py composes it for gunicorn (without its gc.freeze, which is the
    process's business), made now: WhiteNoise reads the collected files and its settings when it is made.
    Media files are served beside it, as the reverse proxy serves them in a deployment."""
    from django.conf import settings
    from django.core.handlers.wsgi import WSGIHandler
    from django.test.testcases import _MediaFilesHandler

    from schafkopfrennen.polling import UnchangedPolls  # it reads the settings when imported: at first use

    return _MediaFilesHandler(UnchangedPolls(WSGIHandler(), listen=settings.POLLS_LISTEN))


@pytest.fixture(scope="session")
def live_server(live_server, collected_static, django_db_setup):
    """pytest-django's live server serving production's WSGI app (see above), wrapped in an OfflineGate
    (once per session). pytest-django's own static files handler (files found in the source tree, under
    their plain names) is left out: the collected, hashed files are served as in production."""
    httpd = live_server.thread.httpd
    if not isinstance(httpd.get_app(), OfflineGate):
        with override_settings(**collected_static):
            httpd.set_app(OfflineGate(production_app()))
    yield live_server
    from schafkopfrennen.changes import stop_listener  # beside its use, as UnchangedPolls above

    stop_listener()  # UnchangedPolls' listening connection would keep the test database from being dropped


@pytest.fixture(scope="session")
def _celery_queue(django_db_setup, django_db_blocker):
    """One real Celery worker for the run's ``worker`` browser tests, with production's settings, the test
    database, the server's secret and the cache on Redis (tests/worker.py)."""
    from django.conf import settings

    # only when a worker test runs (tests.worker needs redis-py)
    from tests.production import PRODUCTION_ENV
    from tests.worker import BROKER_URL, celery_worker

    with (
        django_db_blocker.unblock(),
        celery_worker(
            env={
                **PRODUCTION_ENV,
                "DJANGO_SECRET_KEY": settings.SECRET_KEY,
                "REDIS_CACHE_URL": BROKER_URL,
            }
        ) as queue,
    ):
        yield queue


@pytest.fixture(autouse=True)
def _as_production(request, collected_static):
    """While a test that uses the live server runs, this process has production's settings (the pages it
    renders link the hashed static files); a ``worker`` test's tasks go through Redis to the real worker."""
    if "live_server" not in request.fixturenames:
        yield
        return
    if request.node.get_closest_marker("worker") is None:
        with override_settings(**collected_static):
            yield
        return
    # only when a worker test runs, as in _celery_queue
    from tests.production import production_overrides
    from tests.worker import BROKER_URL, real_broker

    queue = request.getfixturevalue("_celery_queue")
    overrides = production_overrides(
        collected_static["STATIC_ROOT"], CELERY_BROKER_URL=BROKER_URL, REDIS_CACHE_URL=BROKER_URL
    )
    with override_settings(**overrides), real_broker(queue):
        yield


def cut(route) -> None:
    route.abort("internetdisconnected")


def go_offline(page) -> None:
    """The hall's Wi-Fi drops for this page's browser context: the context is offline, every request it would
    send fails, and (OfflineGate) no write of it reaches the server even if one slips past both."""
    page.context.add_cookies([{"name": OFFLINE_COOKIE, "value": "1", "url": page.base_url}])
    page.context.set_offline(True)
    page.context.route("**/*", cut)


def go_online(page) -> None:
    page.context.clear_cookies(name=OFFLINE_COOKIE)
    page.context.unroute("**/*", cut)
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")


@pytest.fixture
def page(browser, live_server):
    context = browser.new_context(viewport=TABLET_PORTRAIT, locale="de-DE", has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.base_url = live_server.url
    yield page
    context.close()


@pytest.fixture
def screenshot():
    """screenshot(page, "name") saves test-artifacts/name.png and returns the path."""
    ARTIFACTS.mkdir(exist_ok=True)

    def take(page, name: str, full_page: bool = True) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take


def wait_until(page, script: str, timeout: float = 15.0) -> None:
    """Poll the expression ``script`` in the page until it is true.

    ``page.wait_for_function`` evaluates its string with eval, which the pages' Content-Security-Policy
    forbids (no 'unsafe-eval'); ``page.evaluate`` is not affected.
    """
    deadline = time.monotonic() + timeout
    while not page.evaluate(script):
        assert time.monotonic() < deadline, f"still false after {timeout}s: {script}"
        page.wait_for_timeout(100)


# Every word of the visible text whose glyphs sit on more than one line: a name or a column head broken
# mid-word ("Obermeie|r", "G|e|w|o|n|n|e|n|e"). A word cut off with "…" stays on one line and passes.
BROKEN_WORDS = """(() => {
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const words = /[^\\s-]+-?/g;  // a break after a hyphen (Solo-|Gewinnquote) is a good one
    for (let m = words.exec(node.data); m; m = words.exec(node.data)) {
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].filter(r => r.width > 0 && r.height > 0)
                            .map(r => Math.round(r.bottom)));
      if (lines.size > 1) broken.push(m[0]);
    }
  }
  return broken;
})()"""


def broken_words(page) -> list[str]:
    """The visible words of the page that are broken across lines (see BROKEN_WORDS)."""
    return page.evaluate(BROKEN_WORDS)
