"""Rate limits of the key-based API: per key, not per address (a whole hall shares one address)."""
import hashlib
import itertools
import logging
import os

from rest_framework.throttling import SimpleRateThrottle

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


class TableKeyThrottle(SimpleRateThrottle):
    """``DEFAULT_THROTTLE_RATES["table"]`` requests per table key (generous: two phones polling and a
    burst of corrections fit). The counter lives in the Django cache; when the cache (Redis) is
    unreachable the request goes through: a table must never stop entering games for a rate limit.

    A request is counted once, however often it is asked about (the lean save and, when it hands a
    request on, the DRF view): the verdict is kept on the request.
    """

    scope = "table"
    key_kwarg = "entry_key"
    _oldest: float | None = None
    _count = 0

    def get_cache_key(self, request, view) -> str | None:
        key = view.kwargs.get(self.key_kwarg)
        if not key:
            return None
        digest = hashlib.sha256(key.encode()).hexdigest()[:32]  # the key itself never goes into the cache
        return self.cache_format % {"scope": self.scope, "ident": digest}

    def allow_request(self, request, view) -> bool:
        plain = getattr(request, "_request", request)  # DRF's Request wraps Django's
        key = view.kwargs.get(self.key_kwarg)
        asked = getattr(plain, "_table_throttle", None)
        if asked is not None and asked[0] == key:
            _key, allowed, self._count, self._oldest, self.now = asked
            return allowed
        try:
            allowed = self._allow(request, view)
        except Exception:  # the cache is down: count nothing, let the table play (like the standings)
            log.warning("rate limit skipped: the cache is unreachable", exc_info=True)
            allowed, self._oldest = True, None
        plain._table_throttle = (key, allowed, self._count, self._oldest, getattr(self, "now", 0.0))
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
        count, oldest = _SLIDING_LOG(self.cache, [self.key + ":log"],
                                     [repr(self.now), self.duration, self.num_requests, f"{self.now!r}:{os.getpid()}:{next(_ids)}"])
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
