"""A smoke walk of every page as production serves it (issue 33): every GET of every URL pattern of the site
(public, player, table, organiser, API), against the live server with production's settings
(tests/browser/conftest.py: DEBUG off, the manifest storage's hashed static files, gunicorn's WSGI entry,
a real Celery worker on Redis), over the demo's half-played tournament that tests/test_permissions.py walks
in-process: the same URLs, parameters and expected answers (its permission table), here over HTTP.

No answer is a 5xx; each is 200, a redirect (to the login page) or 403/404 as the permission table expects;
a page with an ETag answers 304 to it; every static file a page links is served (200).
"""

import re
from dataclasses import dataclass
from urllib.parse import urljoin

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.test_permissions import EXPECTED, PERMISSIONS, _build, _ready_pack, accepted, kwargs_for, outcome, site_urls
from tests.worker import wait_for
from tournaments.selectors.standings import standings_is_current

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

ROLES = ("anonymous", "organiser", "superuser")
STATIC_LINK = re.compile(r'(?:src|href)="(/static/[^"]+)"')


def own_pages() -> dict[str, set[int]]:
    """Django's own pages, which the permission table leaves out, and their answers: the page itself or a
    redirect (to log in); resetting a password by mail is not there (404) without a mail server."""
    reset = {200} if settings.PASSWORD_RESET_BY_EMAIL else {404}
    return {
        "login": {200, 302},
        "admin:index": {200, 302},
        "admin:login": {200, 302},
        "set_language": {302},
        "password_reset": reset,
        "password_reset_done": reset,
    }


@dataclass
class Answer:
    """A response over HTTP in the shape ``test_permissions.outcome`` reads (a Django test response's)."""

    status_code: int
    headers: dict
    request: dict

    def __getitem__(self, name: str) -> str:
        return self.headers[name.lower()]


def session_of(user) -> list[dict]:
    if user is None:
        return []
    client = Client()
    client.force_login(user)
    return [{"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value}]


def test_every_page_answers_under_production_settings(browser, live_server, settings, monkeypatch, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    _ready_pack(monkeypatch, tmp_path)  # the built print pack the download serves
    world = _build()
    # The demo's games went through the worker; the recompute made the standings current.
    assert wait_for(lambda: standings_is_current(world.tournament), timeout=60)
    urls = site_urls()
    gets = sorted(name for name, methods in PERMISSIONS.items() if "GET" in methods)
    assert len(gets) > 50
    problems, statics, walked = [], set(), 0
    for role in ROLES:
        context = browser.new_context(base_url=live_server.url, locale="de-DE")
        context.add_cookies([{**cookie, "url": live_server.url} for cookie in session_of(world.users[role])])
        try:
            for name in gets:
                url = urls[name]
                api = name.startswith("api:")
                expected = EXPECTED[PERMISSIONS[name]["GET"]][role]
                for kwargs in kwargs_for(url, world):
                    path = reverse(name, kwargs=kwargs)
                    response = context.request.get(path, max_redirects=0, fail_on_status_code=False)
                    walked += 1
                    answer = Answer(response.status, response.headers, {"REQUEST_METHOD": "GET"})
                    got = outcome(answer)
                    if response.status >= 500 or got not in accepted(expected, role, api):
                        problems.append(f"GET {path} as {role}: expected {expected}, got {response.status} ({got})")
                        continue
                    if response.status == 200 and response.headers.get("etag"):
                        again = context.request.get(
                            path,
                            max_redirects=0,
                            fail_on_status_code=False,
                            headers={"If-None-Match": response.headers["etag"]},
                        )
                        if again.status not in (200, 304):
                            problems.append(f"GET {path} as {role} with its ETag: {again.status}")
                    if response.headers.get("content-type", "").startswith("text/html"):
                        statics.update(STATIC_LINK.findall(response.text()))
            for name, expected_statuses in own_pages().items():
                path = reverse(name)
                response = context.request.get(path, max_redirects=0, fail_on_status_code=False)
                walked += 1
                if response.status not in expected_statuses:
                    problems.append(
                        f"GET {path} as {role}: expected {sorted(expected_statuses)}, got {response.status}"
                    )
            for link in sorted(statics):
                response = context.request.get(urljoin(live_server.url, link), fail_on_status_code=False)
                if response.status != 200:
                    problems.append(f"GET {link} (static file linked by a page): {response.status}")
            statics.clear()
        finally:
            context.close()
    assert not problems, "\n".join(problems)
    assert walked >= (len(gets) + len(own_pages())) * len(ROLES)
