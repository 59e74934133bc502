"""The hot path's Redis calls, one round trip each (schafkopfrennen.cache.CacheScript), against a real Redis.

The table rate limit (DRF's sliding log, as a Lua script) and the standings window (its two claims in
one script, then remembered in the process until the trailing task's claim expires). Skipped without
a Redis at TEST_CELERY_BROKER_URL (CI has one) or 127.0.0.1:6379/10.
"""
import os
import time
import uuid

import pytest
from django.core.cache.backends.redis import RedisCache

from tournaments.api.throttles import TableKeyThrottle
from tournaments.services import schedule

URL = os.environ.get("TEST_CELERY_BROKER_URL", "redis://127.0.0.1:6379/10")


@pytest.fixture
def redis_cache():
    """A cache on that Redis under a prefix of its own (the db may be shared: only this test's keys go)."""
    prefix = f"test-cache-scripts-{uuid.uuid4().hex}"
    cache = RedisCache(URL, {"KEY_PREFIX": prefix, "OPTIONS": {"socket_connect_timeout": 0.5}})
    try:
        client = cache._cache.get_client(write=True)
        client.ping()
    except Exception:
        pytest.skip(f"no Redis at {URL}")
    yield cache
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


class _View:
    def __init__(self, key: str) -> None:
        self.kwargs = {"entry_key": key}


class _Request:
    pass


def test_the_table_rate_limit_on_redis_allows_the_rate_and_refuses_the_next_without_counting_it(redis_cache, monkeypatch):
    monkeypatch.setattr(TableKeyThrottle, "cache", redis_cache)
    monkeypatch.setattr(TableKeyThrottle, "rate", "3/min", raising=False)
    verdicts = []
    for _ in range(5):
        throttle = TableKeyThrottle()
        verdicts.append((throttle.allow_request(_Request(), _View("tisch-a")), throttle.wait()))
    assert [allowed for allowed, _wait in verdicts] == [True, True, True, False, False]
    assert all(0 < wait <= 60 for allowed, wait in verdicts if not allowed)
    assert TableKeyThrottle().allow_request(_Request(), _View("tisch-b"))  # another table is not held up
    # refused requests were not counted: the window still holds three
    key = redis_cache.make_key(TableKeyThrottle().get_cache_key(None, _View("tisch-a")) + ":log")
    assert redis_cache._cache.get_client(write=True).zcard(key) == 3


def test_a_request_asked_twice_is_counted_once(redis_cache, monkeypatch):
    monkeypatch.setattr(TableKeyThrottle, "cache", redis_cache)
    monkeypatch.setattr(TableKeyThrottle, "rate", "2/min", raising=False)
    request = _Request()
    assert all(TableKeyThrottle().allow_request(request, _View("tisch-c")) for _ in range(3))
    assert TableKeyThrottle().allow_request(_Request(), _View("tisch-c"))
    assert not TableKeyThrottle().allow_request(_Request(), _View("tisch-c"))


def test_a_burst_on_redis_sends_one_task_at_once_one_trailing_and_then_stops_asking_redis(redis_cache, monkeypatch):
    from tournaments.services.standings_tasks import standings_update_task

    sent, asked = [], []
    monkeypatch.setattr(schedule, "cache", redis_cache)
    monkeypatch.setattr(schedule, "_taken_until", {})
    monkeypatch.setitem(standings_update_task.app.conf, "task_always_eager", False)
    monkeypatch.setattr(standings_update_task, "apply_async", lambda args, **options: sent.append((args, options)))
    real = type(schedule._CLAIM).__call__
    monkeypatch.setattr(type(schedule._CLAIM), "__call__", lambda self, *a: asked.append(1) or real(self, *a))
    for table in range(50):
        schedule.standings_schedule(42, [table])
    assert sent == [([42, [0]], {}), ([42, [1]], {"countdown": schedule.WINDOW_SECONDS})]
    assert len(asked) == 3  # first, trailing, taken (and how long): the other 47 asked nobody
    time.sleep(schedule.WINDOW_SECONDS + 0.05)  # the window closes by itself
    schedule.standings_schedule(42, [7])
    assert sent[-1] == ([42, [7]], {}) and len(sent) == 3
