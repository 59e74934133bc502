"""Rate limits of the key-based API and pages: per table key, reads and writes apart, not per address (a
whole hall shares one address); keys that open nothing per address."""

import hashlib
import itertools
import logging
import os

from rest_framework.permissions import SAFE_METHODS
from rest_framework.throttling import SimpleRateThrottle

from schafkopfrennen.auth import client_address
from schafkopfrennen.cache import CacheScript

log = logging.getLogger(__name__)

# DRF's sliding log of request times, kept in a sorted set and checked in one round trip to Redis (DRF's
# own throttle reads the pickled list and writes it back: two). Same rule: requests older than the
# window drop out; a full window refuses without counting the refused request.
_SLIDING_LOG = CacheScript("""
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
local n = redis.call('ZCARD', KEYS[1])
if n >= tonumber(ARGV[3]) then
  return {n, redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]}
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return {n + 1, '0'}
""")
_ids = itertools.count()


class _SlidingLogThrottle(SimpleRateThrottle):
    """DRF's throttle with the sliding log above on Redis (DRF's own on any other cache). When the cache
    (Redis) is unreachable the request goes through: a table must never stop entering games for a rate
    limit. A request is counted once per scope, however often it is asked about: the verdict is kept
    on the request."""

    _oldest: float | None = None
    _count = 0

    def __init__(self) -> None:
        pass  # the scope, and so the rate, is known only with the request (``scope_for``)

    def scope_for(self, request, view) -> str:
        raise NotImplementedError

    def ident_for(self, request, view) -> str | None:
        raise NotImplementedError

    def get_cache_key(self, request, view) -> str | None:
        ident = self.ident_for(request, view)
        if not ident:
            return None
        digest = hashlib.sha256(ident.encode()).hexdigest()[:32]  # a key or an address never goes into the cache
        return self.cache_format % {"scope": self.scope, "ident": digest}

    def allow_request(self, request, view) -> bool:
        self.scope = self.scope_for(request, view)
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        plain = getattr(request, "_request", request)  # DRF's Request wraps Django's
        ident = self.ident_for(request, view)
        kept = plain.__dict__.setdefault("_throttle_verdicts", {})
        asked = kept.get(self.scope)
        if asked is not None and asked[0] == ident:
            _ident, allowed, self._count, self._oldest, self.now = asked
            return allowed
        try:
            allowed = self._allow(request, view)
        except Exception:  # the cache is down: count nothing, let the table play (like the standings)
            log.warning("rate limit skipped: the cache is unreachable", exc_info=True)
            allowed, self._oldest = True, None
        kept[self.scope] = (ident, allowed, self._count, self._oldest, getattr(self, "now", 0.0))
        return allowed

    def _allow(self, request, view) -> bool:
        if not _SLIDING_LOG.applies(self.cache) or self.rate is None:
            allowed = super().allow_request(request, view)
            if not allowed:
                self._count, self._oldest = len(self.history), self.history[-1]
            return allowed
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        count, oldest = _SLIDING_LOG(
            self.cache,
            [self.key + ":log"],
            [repr(self.now), self.duration, self.num_requests, f"{self.now!r}:{os.getpid()}:{next(_ids)}"],
        )
        if float(oldest):
            self._count, self._oldest = int(count), float(oldest)
            return False
        return True

    def wait(self) -> float | None:
        """DRF's estimate, from the window's oldest request and how many it holds."""
        if self._oldest is None:
            return None
        available = self.num_requests - self._count + 1
        if available <= 0:
            return None
        return (self.duration - (self.now - self._oldest)) / available


class TableKeyThrottle(_SlidingLogThrottle):
    """Two budgets per table key, the one home of the table's rate limit (the API's views and the
    key-based pages' posts, ``tournaments/ratelimit.py``, all count here):

    - ``DEFAULT_THROTTLE_RATES["table_read"]``: what writes nothing (GET, HEAD, and a view that says
      ``throttle_reads``, the points preview). Generous: two phones polling and a reloading player fit.
    - ``DEFAULT_THROTTLE_RATES["table_write"]``: saves, corrections, deletions, conflicts, confirmations.
      Only writes count against it, so no amount of reading ever refuses a save; a game takes a minute
      or more, and the rate fits a whole offline round sent at once.
    """

    READ, WRITE = "table_read", "table_write"
    key_kwarg = "entry_key"

    def scope_for(self, request, view) -> str:
        reads = request.method in SAFE_METHODS or getattr(view, "throttle_reads", False)
        return self.READ if reads else self.WRITE

    def ident_for(self, request, view) -> str | None:
        return view.kwargs.get(self.key_kwarg)


class WrongKeyThrottle(_SlidingLogThrottle):
    """``DEFAULT_THROTTLE_RATES["wrong_key"]`` requests with a key that opens nothing, per client address
    (``schafkopfrennen.auth.client_address``): guessing keys is slow, and a wrong key counts against no
    table. A right key is never held up by it (a whole hall shares one address)."""

    def scope_for(self, request, view) -> str:
        return "wrong_key"

    def ident_for(self, request, view) -> str | None:
        return client_address(getattr(request, "_request", request)) or "-"


def wrong_key_wait(request) -> int | None:
    """A key in ``request`` opened nothing: None when this address may still be told so (a 404), else the
    seconds it must wait (a 429). Counted once per request."""
    throttle = WrongKeyThrottle()
    if throttle.allow_request(request, None):
        return None
    return max(1, int(throttle.wait() or 1))
