"""Headless Debian Chromium driven by Playwright against Django's live test server.

Screenshots go to test-artifacts/ (kept by CI as artifacts of the run).
"""
import os
import time
from pathlib import Path

import pytest

from tests.conftest import skip_or_fail

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run",
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
        if environ["REQUEST_METHOD"] not in ("GET", "HEAD", "OPTIONS") and \
                f"{OFFLINE_COOKIE}=1" in environ.get("HTTP_COOKIE", ""):
            self.refused.append(environ.get("PATH_INFO", ""))
            start_response("503 Service Unavailable", [("Content-Type", "text/plain"), ("Retry-After", "5")])
            return [b"offline (test)"]
        return self.app(environ, start_response)


@pytest.fixture(scope="session")
def live_server(live_server):
    """pytest-django's live server, its app wrapped in an OfflineGate (once per session)."""
    httpd = live_server.thread.httpd
    if not isinstance(httpd.get_app(), OfflineGate):
        httpd.set_app(OfflineGate(httpd.get_app()))
    return live_server


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
