"""The table page as an app: its service worker (offline page shell) and its web app manifest.

The service worker is Workbox (vendored in static/vendor/), served from ``/tisch/sw.js`` so that its
scope covers every table page under ``/tisch/``. A table page is fetched network first and kept,
so that reloading it while the hall's Wi-Fi is down still opens the table with its queued games;
the static files are served from the cache and refreshed behind it.

The worker installs with the page's shell (``SHELL``) already on the device, under the URLs ``static()``
gives: in production the manifest storage's hashed names (``entry.4e0334cee899.js``), so a deploy that
changes a file changes this script, and the devices fetch the new shell. Static files are told apart by
``STATIC_URL``, not by ``static("")`` (the manifest has no entry for "", a 500 with DEBUG off).
"""

import json

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from .entry import table_or_404, tablet_mode

WORKBOX = "vendor/workbox-7.4.1/"
WORKBOX_MODULES = (
    "workbox-core",
    "workbox-routing",
    "workbox-strategies",
    "workbox-expiration",
    "workbox-cacheable-response",
)
CACHE_VERSION = "1"  # bump to drop every device's cached pages with the next visit
# Every static file a table page loads (templates/base.html, entry/table.html, entry/_follow.html; htmx through django-htmx):
# tests/tournaments/test_entry_offline_production.py fails when a page loads one that is not here.
SHELL = (
    "css/app.css",
    "js/app.js",
    "django_htmx/htmx-2.min.js",
    "css/entry.css",
    "js/theme.js",
    "js/entry.js",
    "js/follow.js",
    "icons/table-192.png",
    "icons/apple-touch-icon.png",
)


@require_GET
@never_cache  # a device always learns of a new service worker at once
def service_worker(request: HttpRequest) -> HttpResponse:
    modules = {name: static(f"{WORKBOX}{name}.prod.js") for name in WORKBOX_MODULES}
    response = render(
        request,
        "entry/sw.js",
        {
            "workbox_sw_json": json.dumps(static(f"{WORKBOX}workbox-sw.js")),
            "modules": json.dumps(modules),
            "static_prefix": json.dumps(settings.STATIC_URL),
            "cache_version": json.dumps(CACHE_VERSION),
            "shell": json.dumps([static(name) for name in SHELL]),
        },
        content_type="text/javascript; charset=utf-8",
    )
    response["Service-Worker-Allowed"] = "/"  # also the all-evening links (tk/..., s/.../tisch/)
    return response


@require_GET
def manifest(request: HttpRequest, key: str) -> JsonResponse:
    """Installing the table page puts this table on the home screen; it opens full screen."""
    table = table_or_404(key)
    return manifest_response(
        request,
        name=_("Table %(n)d") % {"n": table.number},
        tournament=table.round.tournament,
        page=tablet_mode(table).urls.page,
    )


def manifest_response(request: HttpRequest, *, name: str, tournament, page: str) -> JsonResponse:
    data = {
        "name": f"{name} · {tournament.name}",
        "short_name": name,
        "lang": request.LANGUAGE_CODE,
        "start_url": page,
        "scope": page,
        "id": page,
        "display": "standalone",
        "orientation": "portrait",
        "background_color": "#fdfcf8",
        "theme_color": "#1f5f3a",
        "icons": [
            {"src": static("icons/table-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/table-512.png"), "sizes": "512x512", "type": "image/png"},
            {
                "src": static("icons/table-maskable-512.png"),
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})
