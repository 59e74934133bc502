"""Pages that a hall full of phones polls: an unchanged poll costs one or two small queries.

``polled_page(state)`` decorates a GET view whose content follows from ``state(request, *args, **kwargs)``:
a short token read cheaply (a snapshot's version, a round's status) and, optionally, when it last
changed. The ETag joins the token with everything else the page depends on (the query string, the
language, htmx fragment or whole page, who is looking), so a poll sending ``If-None-Match`` with an
unchanged tag gets 304 before the view renders anything. Responses say ``Cache-Control: private,
no-cache``: browsers (and htmx's requests through them) keep the page and ask again each time, sending
the tag. HTML is gzipped (Django's GZipMiddleware, with its BREACH mitigation).

Usage (the player page, the seat list, the standings)::

    def player_state(request, key):
        return selectors.player_page_state(key)  # -> ("v17-3", computed_at) or None for a 404

    @polled_page(player_state)
    def player(request, key): ...
"""
import functools
import hashlib
from collections.abc import Callable
from datetime import datetime

from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import condition

State = tuple[str, datetime | None] | None


def polled_page(state: Callable[..., State]):
    def decorator(view):
        def read(request, *args, **kwargs) -> State:
            if not hasattr(request, "_polled_state"):
                request._polled_state = state(request, *args, **kwargs)
            return request._polled_state

        def etag(request, *args, **kwargs) -> str | None:
            found = read(request, *args, **kwargs)
            if found is None:
                return None
            user = getattr(request, "user", None)
            who = user.pk if user is not None and user.is_authenticated else 0
            parts = "|".join((found[0], request.GET.urlencode(), get_language() or "",
                              "hx" if request.headers.get("HX-Request") else "page", str(who)))
            return hashlib.blake2b(parts.encode(), digest_size=12).hexdigest()

        def last_modified(request, *args, **kwargs) -> datetime | None:
            found = read(request, *args, **kwargs)
            return found[1] if found else None

        conditional = condition(etag_func=etag, last_modified_func=last_modified)(view)

        @functools.wraps(view)
        def polled(request, *args, **kwargs):
            messages = getattr(request, "_messages", None)
            # a page with a message waiting (after a redirect) is always rendered: a 304 would lose it;
            # the view may still read the state (request._polled_state), so it is read first
            if messages is not None and len(messages):
                read(request, *args, **kwargs)
                response = view(request, *args, **kwargs)
            else:
                response = conditional(request, *args, **kwargs)
            patch_cache_control(response, private=True, no_cache=True)
            patch_vary_headers(response, ("HX-Request", "Accept-Language", "Cookie"))
            return response

        return gzip_page(polled)

    return decorator
