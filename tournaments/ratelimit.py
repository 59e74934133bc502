"""Rate limits of the key-based table and player pages (tisch/<key>/, tk/<key>/, s/<key>/), and of the
public sign-up form (per client address).

The API's ``TableKeyThrottle`` (per key, not per address: a whole hall shares one address) also
guards what the tablet's pages post: saves, corrections, deletions, conflicts and confirmations count
against the key's write budget, which no read touches. The points preview is left out: it writes
nothing and follows every tap. The pages' reads are never limited. A key that opens nothing (a view
raised ``WrongKey``) counts against the client's address (``WrongKeyThrottle``): over that budget the
404 becomes a 429. When the cache (Redis) is down, nothing is counted and the table keeps playing.
"""

import hashlib
import logging

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from rest_framework.throttling import SimpleRateThrottle

from schafkopfrennen.auth import client_address

from .api.throttles import TableKeyThrottle, wrong_key_wait
from .http import WrongKey

log = logging.getLogger(__name__)


class _KeyView:
    """What ``TableKeyThrottle`` reads of a view: its URL's key."""

    def __init__(self, key: str) -> None:
        self.kwargs = {TableKeyThrottle.key_kwarg: key}


class KeyedPostRateLimitMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(self, request: HttpRequest, view_func, view_args, view_kwargs):
        key = view_kwargs.get("key")
        match = request.resolver_match
        if (
            request.method != "POST"
            or not key
            or match is None
            or match.namespace != "tournaments"
            or match.url_name.endswith("_preview")
        ):
            return None
        throttle = TableKeyThrottle()
        if throttle.allow_request(request, _KeyView(key)):
            return None
        wait = max(1, int(throttle.wait() or 1))
        return _too_many(
            request,
            _("Too many entries from this table in a short time: please wait %(seconds)d seconds.") % {"seconds": wait},
            wait,
        )

    def process_exception(self, request: HttpRequest, exception: Exception):
        if not isinstance(exception, WrongKey):
            return None
        wait = wrong_key_wait(request)
        if wait is None:
            return None  # Django's 404
        return _too_many(
            request,
            _("Too many unknown links from this address: please wait %(seconds)d seconds.") % {"seconds": wait},
            wait,
        )


def _too_many(request: HttpRequest, message: str, wait: int) -> HttpResponse:
    if "application/json" in request.headers.get("Accept", "") or request.content_type == "application/json":
        response = JsonResponse({"detail": message}, status=429)
    else:
        response = HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(wait)
    return response


class SignUpThrottle(SimpleRateThrottle):
    """The public sign-up form: ``settings.SIGNUP_RATE`` sendings per client address (counted in the cache;
    a cache that is down counts nothing, as for the tables)."""

    scope = "signup"

    def get_rate(self) -> str:
        return settings.SIGNUP_RATE

    def get_cache_key(self, request, view) -> str:
        digest = hashlib.sha256(client_address(request).encode()).hexdigest()[:32]
        return self.cache_format % {"scope": self.scope, "ident": digest}


def signup_allowed(request: HttpRequest) -> tuple[bool, int]:
    """(allowed, seconds to wait) for one sending of the public sign-up form."""
    throttle = SignUpThrottle()
    try:
        if throttle.allow_request(request, None):
            return True, 0
    except Exception:  # the cache is down: let the person sign up
        log.warning("sign-up rate limit skipped: the cache is unreachable", exc_info=True)
        return True, 0
    return False, max(1, int(throttle.wait() or 1))
