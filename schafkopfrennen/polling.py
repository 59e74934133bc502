"""Pages that a hall full of phones polls: an unchanged poll costs one small query and almost nothing else.

``polled_page(state)`` decorates a GET view whose content follows from ``state(*args, **kwargs)`` (the
view's URL arguments): a short token read cheaply (a snapshot's version, a round's status) and,
optionally, when it last changed. The ETag joins the token with everything else the page depends on
(the query string, the language, htmx fragment or whole page, who is looking), so a poll sending
``If-None-Match`` with an unchanged tag gets 304 before the view renders anything. Responses say
``Cache-Control: private, no-cache``: browsers (and htmx's requests through them) keep the page and ask
again each time, sending the tag. HTML is gzipped (Django's GZipMiddleware, with its BREACH mitigation).

Most polls come from phones without a session; ``UnchangedPolls`` (in front of Django, in
``schafkopfrennen/wsgi.py``) answers theirs before Django makes a request of them, and on PostgreSQL
without asking the database while no change has committed since it read the page's state.

Usage (the player page, the seat list, the standings)::

    @polled_page(selectors.player_page_state)  # player_page_state(key) -> ("v17-3", computed_at) or None: a 404
    def player(request, key): ...
"""

import functools
import hashlib
from collections.abc import Callable
from datetime import datetime
from types import SimpleNamespace

from django.conf import settings
from django.core.exceptions import DisallowedHost, SuspiciousOperation
from django.core.handlers.wsgi import WSGIRequest, get_bytes_from_wsgi, get_path_info
from django.db import DatabaseError, close_old_connections, connection, reset_queries
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, QueryDict
from django.http.cookie import parse_cookie
from django.urls import Resolver404, resolve
from django.utils import timezone
from django.utils.cache import parse_etags, patch_cache_control, patch_vary_headers
from django.utils.module_loading import import_string
from django.utils.translation import get_language, get_language_from_request
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import condition

from . import forget
from .changes import listener

State = (
    tuple[str, datetime | None] | tuple[str, datetime | None, object] | None
)  # (token, last change[, what the view may reuse])
VARY = ("HX-Request", "Accept-Language", "Cookie")
CACHE_CONTROL = {"private": True, "no_cache": True}  # kept by the browser, asked again every time
# the middleware (of settings.MIDDLEWARE) whose headers the 304s before Django carry too
HEADER_MIDDLEWARE = (
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
)
_STATE = "schafkopfrennen.polled_state"  # the environ's (request.META's) key of the state read for this request
_UNREAD = object()


def _tag(token: str, query: str, language: str, hx: bool, who: int) -> str:
    # with the names' generation: after an erase no page a phone kept (naming him) is "unchanged" (forget.py)
    parts = "|".join((token, query, language or "", "hx" if hx else "page", str(who), forget.generation()))
    return hashlib.blake2b(parts.encode(), digest_size=12).hexdigest()


def page_etag(request: HttpRequest, token: str) -> str:
    """The ETag a ``polled_page`` answers a plain poll (no query string, no htmx) with for ``token``: a write
    that sends the page's new parts along (a saved game) sends it too, and the next poll is a 304."""
    user = getattr(request, "user", None)
    who = user.pk if user is not None and user.is_authenticated else 0
    return f'"{_tag(token, "", get_language(), False, who)}"'


def _polled_headers(response: HttpResponse) -> HttpResponse:
    """A polled page's caching headers on ``response``."""
    patch_cache_control(response, **CACHE_CONTROL)
    patch_vary_headers(response, VARY)
    return response


def polled_state(request: HttpRequest) -> State:
    """The state read for this request (by ``UnchangedPolls`` or the view's ETag), if it was read."""
    found = request.META.get(_STATE, _UNREAD)
    return None if found is _UNREAD else found


def polled_page(state: Callable[..., State]):
    def decorator(view):
        def read(request, *args, **kwargs) -> State:
            found = request.META.get(_STATE, _UNREAD)
            if found is _UNREAD:
                found = request.META[_STATE] = state(*args, **kwargs)
            return found

        def etag(request, *args, **kwargs) -> str | None:
            found = read(request, *args, **kwargs)
            if found is None:
                return None
            user = getattr(request, "user", None)
            who = user.pk if user is not None and user.is_authenticated else 0
            return _tag(found[0], request.GET.urlencode(), get_language(), bool(request.headers.get("HX-Request")), who)

        def last_modified(request, *args, **kwargs) -> datetime | None:
            found = read(request, *args, **kwargs)
            return found[1] if found else None

        conditional = condition(etag_func=etag, last_modified_func=last_modified)(view)

        @functools.wraps(view)
        def polled(request, *args, **kwargs):
            messages = getattr(request, "_messages", None)
            # a page with a message waiting (after a redirect) is always rendered: a 304 would lose it;
            # the view may still read the state (polled_state), so it is read first
            if messages is not None and len(messages):
                read(request, *args, **kwargs)
                response = view(request, *args, **kwargs)
            else:
                response = conditional(request, *args, **kwargs)
            return _polled_headers(response)

        wrapped = gzip_page(polled)
        wrapped.polled_state = state  # for UnchangedPolls
        return wrapped

    return decorator


class UnchangedPolls:
    """WSGI: an unchanged poll by a phone without a session is answered 304 here, before Django.

    Only a GET or HEAD with ``If-None-Match`` to a view made with ``polled_page``, from a client sending
    neither a session nor a messages cookie (so: nobody logged in, no message waiting), is answered
    here; its tag is computed exactly as the view's (the language as LocaleMiddleware picks it), from
    the same state read, which the view reuses if the tag has changed. Everything else goes on to
    ``application``, as does a poll while the database fails (Django answers it as it answers any).

    Why in front of Django and not as its first middleware (as until 2026-11-25): at the rate of a hall
    of phones (50 polls a second over the web workers) a process meets each poll with cold caches, and
    a request costs two to three times its CPU back to back. Through Django's handler an unchanged
    poll cost 1.88 ms of web CPU in ``bench/evening.py``'s phones phase, and the bare Django 304 view
    costs 1.23 ms spread out against 0.43 ms back to back (``bench/poll_rate.py``); in front of Django
    the poll costs its query, the tag and the headers: 1.0 ms spread out (docs/performance.md). What Django's
    request signals do for the database connection (forget a debug query log, close a connection
    that is too old or broken) is done here too.

    ``listen`` (gunicorn's entry, on PostgreSQL): each path's state is kept with the generation of
    committed changes it was read at (``schafkopfrennen/changes.py``) and read again only once that has
    moved on. Between rounds nothing changes for minutes, and the query was half of a poll's cost: on
    a 2-core machine where the bare Django 304 view alone took 12.5 % of a core for 1,000 phones, the
    poll took 16.7 % with its query and 7.8 % without (``bench/poll_rate.py``, docs/performance.md).
    """

    def __init__(self, application, *, listen: bool = False) -> None:
        self.application = application
        # listen: remember each path's state while PostgreSQL announces no committed change (changes.py)
        self.listen = listen
        self.known: dict[str, tuple[int, State]] = {}  # path -> (the changes' generation it was read at, its state)
        # (path, query, language cookie, Accept-Language, htmx, tag sent) -> (generation, the 304's headers,
        # when to read the state again all the same)
        self.unchanged: dict[tuple, tuple[int, list[tuple[str, str]]]] = {}
        self.skip_cookies = (settings.SESSION_COOKIE_NAME, getattr(settings, "MESSAGE_COOKIE_NAME", "messages"))
        # the view's own caching headers, made once
        made = _polled_headers(HttpResponseNotModified())
        self.headers = [(name, made[name]) for name in ("Cache-Control", "Vary")]
        # Django's middleware that add the security headers (CSP, nosniff, Referrer-Policy, HSTS ...) to every
        # answer, made as Django makes them (reading the settings now): the 304s here get the same headers.
        self.header_middleware = [
            import_string(name)(lambda request: None) for name in settings.MIDDLEWARE if name in HEADER_MIDDLEWARE
        ]
        self.security: dict[tuple[str, bool], list[tuple[str, str]]] = {}  # (path, https) -> those headers

    def __call__(self, environ, start_response):
        sent = environ.get("HTTP_IF_NONE_MATCH")
        if sent and environ.get("REQUEST_METHOD") in ("GET", "HEAD"):
            headers = self.not_modified(environ, sent)
            if headers is not None:
                start_response("304 Not Modified", headers)
                return []
        return self.application(environ, start_response)

    def not_modified(self, environ, sent: str) -> list[tuple[str, str]] | None:
        """The 304's headers if the tag sent is the page's, None to let Django answer."""
        cookies = parse_cookie(environ["HTTP_COOKIE"]) if environ.get("HTTP_COOKIE") else {}
        secure = _secure(environ)
        if any(name in cookies for name in self.skip_cookies) or (settings.SECURE_SSL_REDIRECT and not secure):
            return None
        if not _host_allowed(environ):  # Django answers it: 400, as every request naming a host not allowed
            return None
        path = get_path_info(environ) or "/"
        generation, key = self.generation(), None
        if generation is not None:  # the same phone's same poll, while nothing committed: the same answer
            key = (
                path,
                environ.get("QUERY_STRING", ""),
                cookies.get(settings.LANGUAGE_COOKIE_NAME),
                environ.get("HTTP_ACCEPT_LANGUAGE"),
                bool(environ.get("HTTP_HX_REQUEST")),
                sent,
                secure,
            )
            decided = self.unchanged.get(key)
            if decided is not None and decided[0] == generation and not _due(decided[2]):
                return decided[1]
        polled = _polled(path, settings.ROOT_URLCONF)
        if polled is None:
            return None
        found = environ[_STATE] = self.state(path, generation, *polled)  # the view reuses it
        if found is _UNREAD:
            del environ[_STATE]
            return None
        if found is None:
            return None
        try:
            query = _query(get_bytes_from_wsgi(environ, "QUERY_STRING", ""), settings.DEFAULT_CHARSET)
        except SuspiciousOperation:  # too many fields: Django answers it (400)
            return None
        language = _language(cookies.get(settings.LANGUAGE_COOKIE_NAME), environ.get("HTTP_ACCEPT_LANGUAGE"))
        tag = f'"{_tag(found[0], query, language, bool(environ.get("HTTP_HX_REQUEST")), 0)}"'
        wanted = {t.removeprefix("W/") for t in parse_etags(sent)}
        if tag not in wanted and "*" not in wanted:
            return None
        headers = [("ETag", tag), *self.headers, *self.security_headers(environ, path, secure)]
        if key is not None:
            _kept(self.unchanged)[key] = (generation, headers, _recheck_after(found))
        return headers

    def security_headers(self, environ, path: str, secure: bool) -> list[tuple[str, str]]:
        """What Django's header middleware add to an answer to ``path`` (over https or not), worked out
        once per path by those very middleware on a 304."""
        found = self.security.get((path, secure))
        if found is None:
            request, response = WSGIRequest(environ), HttpResponseNotModified()
            own = set(response.headers)
            for middleware in self.header_middleware:
                response = middleware.process_response(request, response)
            found = _kept(self.security)[path, secure] = [(k, v) for k, v in response.items() if k not in own]
        return found

    def generation(self) -> int | None:
        """The generation of committed changes (``listen``), None if nothing may be taken as unchanged."""
        if not self.listen or connection.in_atomic_block:  # (inside a transaction: changes nobody announces)
            return None
        changes = listener()
        return None if changes is None else changes.generation()

    def state(self, path: str, generation: int | None, state: Callable[..., State], args: tuple, kwargs: dict) -> State:
        """The page's state: as read before if no change has committed since ``generation`` (taken
        before; None: read it), else read now; ``_UNREAD`` if the database failed."""
        known = self.known.get(path) if generation is not None else None
        if known is not None and known[0] == generation and not _due(_recheck_after(known[1])):
            return known[1]
        reset_queries()  # what Django does for the database at a request's start and end
        close_old_connections()
        try:
            found = state(*args, **kwargs)
        except DatabaseError:
            return _UNREAD
        finally:
            close_old_connections()
        if generation is not None:  # taken before the read: a change committed since moved it on
            _kept(self.known)[path] = (generation, found)
        return found


def _recheck_after(state: State) -> datetime | None:
    """When a state must be read again though nothing committed: its reusable read says so as
    ``recheck_after`` (standings whose waiting games turn stale after a minute); None: at the next commit."""
    reused = state[2] if state is not None and len(state) > 2 else None
    return getattr(reused, "recheck_after", None)


def _due(moment: datetime | None) -> bool:
    return moment is not None and timezone.now() >= moment


def _kept(known: dict) -> dict:
    """``known``, emptied once it holds ``_KNOWN_KEPT`` entries (a thousand players' pages fit many times)."""
    if len(known) >= _KNOWN_KEPT:
        known.clear()
    return known


_KNOWN_KEPT = 8192


# A phone sends the same query and the same language all evening: each is worked out once per process.
@functools.lru_cache(maxsize=4096)
def _query(raw: bytes, charset: str) -> str:
    """The query string as the view's tag has it (``request.GET.urlencode()``)."""
    return QueryDict(raw, encoding=charset).urlencode()


@functools.lru_cache(maxsize=1024)
def _language(cookie: str | None, accept: str | None) -> str:
    """The language LocaleMiddleware picks for this language cookie and Accept-Language header."""
    return get_language_from_request(
        SimpleNamespace(
            COOKIES={} if cookie is None else {settings.LANGUAGE_COOKIE_NAME: cookie},
            META={} if accept is None else {"HTTP_ACCEPT_LANGUAGE": accept},
        )
    )


def _host_allowed(environ) -> bool:
    """Whether Django would take the request's host (``HttpRequest.get_host`` against ``ALLOWED_HOSTS``)."""
    forwarded = environ.get("HTTP_X_FORWARDED_HOST") if settings.USE_X_FORWARDED_HOST else None
    return _allowed(
        forwarded,
        environ.get("HTTP_HOST"),
        environ.get("SERVER_NAME"),
        environ.get("SERVER_PORT"),
        tuple(settings.ALLOWED_HOSTS),
        settings.DEBUG,
    )


@functools.lru_cache(maxsize=256)
def _allowed(
    forwarded: str | None, host: str | None, server: str | None, port: str | None, allowed_hosts: tuple, debug: bool
) -> bool:
    """``_host_allowed`` once per host sent and settings: Django's own check decides."""
    request = HttpRequest()
    request.META = {
        name: value
        for name, value in (
            ("HTTP_X_FORWARDED_HOST", forwarded),
            ("HTTP_HOST", host),
            ("SERVER_NAME", server),
            ("SERVER_PORT", port),
        )
        if value
    }
    try:
        request.get_host()
    except DisallowedHost:
        return False
    return True


def _secure(environ) -> bool:
    """Whether Django would take the request for HTTPS (``HttpRequest.is_secure``)."""
    header = settings.SECURE_PROXY_SSL_HEADER
    if header:
        name, secure = header
        value = environ.get(name)
        if value is not None:
            return value.split(",", 1)[0].strip() == secure
    return environ.get("wsgi.url_scheme") == "https"


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
