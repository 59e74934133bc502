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

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.urls import Resolver404, get_urlconf, resolve
from django.utils.cache import parse_etags, patch_cache_control, patch_vary_headers
from django.utils.translation import get_language, get_language_from_request
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import condition

State = tuple[str, datetime | None] | tuple[str, datetime | None, object] | None  # (token, last change[, what the view may reuse])
VARY = ("HX-Request", "Accept-Language", "Cookie")


def _tag(token: str, request: HttpRequest, language: str, who: int) -> str:
    parts = "|".join((token, request.GET.urlencode(), language or "",
                      "hx" if request.headers.get("HX-Request") else "page", str(who)))
    return hashlib.blake2b(parts.encode(), digest_size=12).hexdigest()


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
            return _tag(found[0], request, get_language(), who)

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
            patch_vary_headers(response, VARY)
            return response

        wrapped = gzip_page(polled)
        wrapped.polled_state = state  # for EarlyNotModifiedMiddleware
        return wrapped

    return decorator


class EarlyNotModifiedMiddleware:
    """An unchanged poll by a phone without a session answers 304 here, before the rest of the stack.

    Near the top of ``MIDDLEWARE``: sessions, locale, CSRF, authentication, messages, CSP and the
    rest cost more CPU than the poll itself. Only a GET or HEAD with ``If-None-Match`` to a view made
    with ``polled_page``, from a client sending neither a session nor a messages cookie (so: nobody
    logged in, no message waiting) is answered here; its tag is computed exactly as the view would
    (the language as LocaleMiddleware picks it), from the same state read. Everything else goes on.
    """

    def __init__(self, get_response) -> None:
        self.get_response = get_response
        self.skip_cookies = (settings.SESSION_COOKIE_NAME, getattr(settings, "MESSAGE_COOKIE_NAME", "messages"))

    def __call__(self, request: HttpRequest) -> HttpResponse:
        sent = request.META.get("HTTP_IF_NONE_MATCH")
        if sent and request.method in ("GET", "HEAD") and not any(c in request.COOKIES for c in self.skip_cookies):
            response = self._not_modified(request, sent)
            if response is not None:
                return response
        return self.get_response(request)

    @staticmethod
    def _not_modified(request: HttpRequest, sent: str) -> HttpResponse | None:
        polled = _polled(request.path_info, get_urlconf() or settings.ROOT_URLCONF)
        if polled is None:
            return None
        state, args, kwargs = polled
        found = request._polled_state = state(request, *args, **kwargs)  # the view reads it again
        if found is None:
            return None
        tag = _tag(found[0], request, get_language_from_request(request), 0)
        wanted = {t.removeprefix("W/") for t in parse_etags(sent)}
        if f'"{tag}"' not in wanted and "*" not in wanted:
            return None
        response = HttpResponseNotModified()
        response["ETag"] = f'"{tag}"'
        patch_cache_control(response, private=True, no_cache=True)
        patch_vary_headers(response, VARY)
        return response


@functools.lru_cache(maxsize=4096)
def _polled(path: str, urlconf: str) -> tuple[Callable, tuple, dict] | None:
    """The ``polled_page`` state of the view at ``path`` with its arguments, None for any other path;
    kept per process and URLconf (a phone asks the same path all evening, and matching it against
    every URL pattern again was an eighth of an unchanged poll's CPU)."""
    try:
        match = resolve(path, urlconf)
    except Resolver404:
        return None
    state = getattr(match.func, "polled_state", None)
    return None if state is None else (state, match.args, match.kwargs)
