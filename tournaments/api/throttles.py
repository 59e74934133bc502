"""Rate limits of the key-based API: per key, not per address (a whole hall shares one address)."""
import hashlib
import logging

from rest_framework.throttling import SimpleRateThrottle

log = logging.getLogger(__name__)


class TableKeyThrottle(SimpleRateThrottle):
    """``DEFAULT_THROTTLE_RATES["table"]`` requests per table key (generous: two phones polling and a
    burst of corrections fit). The counter lives in the Django cache; when the cache (Redis) is
    unreachable the request goes through: a table must never stop entering games for a rate limit."""

    scope = "table"
    key_kwarg = "entry_key"

    def get_cache_key(self, request, view) -> str | None:
        key = view.kwargs.get(self.key_kwarg)
        if not key:
            return None
        digest = hashlib.sha256(key.encode()).hexdigest()[:32]  # the key itself never goes into the cache
        return self.cache_format % {"scope": self.scope, "ident": digest}

    def allow_request(self, request, view) -> bool:
        try:
            return super().allow_request(request, view)
        except Exception:  # the cache is down: count nothing, let the table play (like the standings)
            log.warning("rate limit skipped: the cache is unreachable", exc_info=True)
            return True
