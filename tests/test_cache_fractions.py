"""The project's Redis cache keeps timeouts under a second (the standings' coalescing window), on a real Redis."""

import time
import uuid

from schafkopfrennen.cache import RedisCache
from tests.conftest import skip_or_fail
from tests.worker import BROKER_URL, redis_reachable


def _cache() -> RedisCache:
    if not redis_reachable():
        skip_or_fail(f"Redis is not reachable at {BROKER_URL}: start redis-server (apt install redis-server)")
    return RedisCache(BROKER_URL, {"KEY_PREFIX": f"test-{uuid.uuid4().hex[:8]}"})


def test_a_quarter_second_is_kept_in_milliseconds_not_rounded_to_zero_or_one():
    cache = _cache()
    assert cache.add("window", 1, timeout=0.25)
    assert not cache.add("window", 1, timeout=0.25)  # the window is open
    key = cache.make_and_validate_key("window")
    ttl = cache._cache.get_client(key).pttl(key)
    assert 0 < ttl <= 250  # milliseconds; Django alone would have sent EX 0 (rounded down): no key at all
    time.sleep(0.4)
    assert cache.add("window", 1, timeout=0.25)  # closed by itself
    cache.set("other", 2, timeout=0.25)
    assert cache.get("other") == 2 and cache.touch("other", timeout=0.5)
    cache.set_many({"a": 1, "b": 2}, timeout=0.25)
    assert cache.get_many(["a", "b"]) == {"a": 1, "b": 2}
    time.sleep(0.4)
    assert cache.get_many(["a", "b"]) == {}


def test_whole_seconds_still_go_as_seconds():
    cache = _cache()
    assert cache.add("whole", 1, timeout=2)
    key = cache.make_and_validate_key("whole")
    assert 1000 < cache._cache.get_client(key).pttl(key) <= 2000
    cache.delete("whole")
