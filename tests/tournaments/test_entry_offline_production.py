"""The table page's service worker as production serves it (issue 33): DEBUG off, the static files collected
by the manifest storage (``production`` fixture). It answered 500 there (``static("")`` has no manifest
entry), so no phone ever installed it."""

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.templatetags.static import static
from django.urls import reverse

from tests.tournaments.test_services_hands import make_table
from tournaments.links import table_link_key
from tournaments.views import entry_app

pytestmark = pytest.mark.django_db

STATIC_REFERENCE = re.compile(r'(?:src|href)="(/static/[^"]+)"')


def service_worker(client) -> str:
    response = client.get(reverse("tournaments:entry_service_worker"))
    assert response.status_code == 200
    return response.content.decode()


def shell_of(body: str) -> list[str]:
    return json.loads(re.search(r"^var SHELL = (\[.*\]);$", body, re.M).group(1))


def test_the_service_worker_is_served_with_debug_off_and_hashed_static_files(client, production):
    assert not settings.DEBUG and "Manifest" in settings.STORAGES["staticfiles"]["BACKEND"]
    body = service_worker(client)
    workbox_sw = static(f"{entry_app.WORKBOX}workbox-sw.js")
    assert re.fullmatch(rf"/static/{entry_app.WORKBOX}workbox-sw\.[0-9a-f]{{12}}\.js", workbox_sw)  # hashed
    assert f"importScripts({json.dumps(workbox_sw)});" in body
    assert static(f"{entry_app.WORKBOX}workbox-strategies.prod.js") in body
    assert 'var STATIC = "/static/";' in body
    # It precaches the shell under the manifest's URLs, each of them a collected file.
    shell = shell_of(body)
    assert shell == [static(name) for name in entry_app.SHELL]
    for url in shell:
        assert re.search(r"\.[0-9a-f]{12}\.\w+$", url), url
        assert (Path(settings.STATIC_ROOT) / url.removeprefix(settings.STATIC_URL)).is_file(), url


def test_every_static_file_of_the_table_pages_is_in_the_shell(client, production):
    """The shell is the whole page: the tablet's link, the table card's all-evening link, the player's way."""
    table = make_table()
    registration = table.seats.get(number=1).registration
    shell = set(shell_of(service_worker(client)))
    pages = [
        f"/tisch/{table.entry_key}/",
        f"/tk/{table_link_key(table.round.tournament_id, table.number)}/",
        f"/s/{registration.key}/tisch/",
    ]
    for page in pages:
        response = client.get(page, follow=True)
        assert response.status_code == 200, page
        html = response.content.decode()
        assert 'data-sw="/tisch/sw.js"' in html, page
        loaded = set(STATIC_REFERENCE.findall(html))
        assert loaded and loaded <= shell, f"{page} loads {sorted(loaded - shell)} outside the service worker's SHELL"
