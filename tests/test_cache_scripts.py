"""The hot path's Redis calls, one round trip each (schafkopfrennen.cache.CacheScript), against a real Redis.

The table rate limit (DRF's sliding log, as a Lua script) and the standings chain's lease (taken or
asked about in one script, then remembered in the process until it expires; a chain's run reads it
before merging and extends it after). Without a Redis at TEST_CELERY_BROKER_URL or 127.0.0.1:6379/10
these skip, except under CI=true, where they fail.
"""

import os
import threading
import time
import uuid

import pytest
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import ConnectionError as RedisConnectionError

from schafkopfrennen.cache import CacheScript, _script_connection
from tests.conftest import skip_or_fail
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
        skip_or_fail(f"no Redis at {URL}: start redis-server (apt install redis-server)")
    yield cache
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


class _View:
    def __init__(self, key: str) -> None:
        self.kwargs = {"entry_key": key}


class _Request:
    method = "POST"  # a write: counted against the key's writes


def test_the_table_rate_limit_on_redis_allows_the_rate_and_refuses_the_next_without_counting_it(
    redis_cache, monkeypatch
):
    monkeypatch.setattr(TableKeyThrottle, "cache", redis_cache)
    monkeypatch.setattr(TableKeyThrottle, "THROTTLE_RATES", {**TableKeyThrottle.THROTTLE_RATES, "table_write": "3/min"})
    verdicts = []
    for _ in range(5):
        throttle = TableKeyThrottle()
        verdicts.append((throttle.allow_request(_Request(), _View("tisch-a")), throttle.wait()))
    assert [allowed for allowed, _wait in verdicts] == [True, True, True, False, False]
    assert all(0 < wait <= 60 for allowed, wait in verdicts if not allowed)
    assert TableKeyThrottle().allow_request(_Request(), _View("tisch-b"))  # another table is not held up
    # refused requests were not counted: the window still holds three
    throttle = TableKeyThrottle()
    throttle.allow_request(_Request(), _View("tisch-a"))
    key = redis_cache.make_key(throttle.key + ":log")
    assert redis_cache._cache.get_client(write=True).zcard(key) == 3


def test_a_request_asked_twice_is_counted_once(redis_cache, monkeypatch):
    monkeypatch.setattr(TableKeyThrottle, "cache", redis_cache)
    monkeypatch.setattr(TableKeyThrottle, "THROTTLE_RATES", {**TableKeyThrottle.THROTTLE_RATES, "table_write": "2/min"})
    request = _Request()
    assert all(TableKeyThrottle().allow_request(request, _View("tisch-c")) for _ in range(3))
    assert TableKeyThrottle().allow_request(_Request(), _View("tisch-c"))
    assert not TableKeyThrottle().allow_request(_Request(), _View("tisch-c"))


def test_a_burst_on_redis_starts_one_chain_and_then_stops_asking_redis(redis_cache, monkeypatch):
    """Fifty changes in a row: the first takes the lease and sends the chain's first run at once; the
    second learns how long the lease holds; the other 48 ask nobody. After the lease, a change starts a
    new chain."""
    from tournaments.services.standings_tasks import standings_update_task

    sent, asked = [], []
    monkeypatch.setattr(schedule, "cache", redis_cache)
    monkeypatch.setattr(schedule, "_held_until", {})
    monkeypatch.setattr(schedule, "LEASE_SECONDS", 0.3)
    monkeypatch.setitem(standings_update_task.app.conf, "task_always_eager", False)
    monkeypatch.setattr(
        schedule.standings_chain_task, "apply_async", lambda args, **options: sent.append((args, options))
    )
    monkeypatch.setattr(standings_update_task, "apply_async", lambda *a, **k: pytest.fail("a chain was running"))
    real = type(schedule._JOIN).__call__
    monkeypatch.setattr(type(schedule._JOIN), "__call__", lambda self, *a: asked.append(1) or real(self, *a))
    for table in range(50):
        assert schedule.standings_schedule(42, [table]) is (table == 0)
    ((args, options),) = sent
    assert args[0] == 42 and args[2] == [0] and options == {}
    assert len(asked) == 2
    client = redis_cache._cache.get_client(write=True)
    assert client.get(redis_cache.make_key(schedule.lease_key(42))) == args[1].encode()  # the lease names its chain
    time.sleep(0.35)  # the lease expires by itself
    assert schedule.standings_schedule(42, [7]) is True
    assert sent[-1][0][2] == [7] and sent[-1][0][1] != args[1] and len(sent) == 2


@pytest.fixture
def chain(redis_cache, monkeypatch):
    """A chain's lease taken as a change takes it, with the merge and the next run's sending recorded."""
    from tournaments.services.standings_tasks import standings_update_task

    monkeypatch.setattr(schedule, "cache", redis_cache)
    monkeypatch.setattr(schedule, "_held_until", {})
    monkeypatch.setitem(standings_update_task.app.conf, "task_always_eager", False)
    record = {"sent": [], "merges": [], "merged": True}

    def merge(*, tournament_id, table_ids):
        record["merges"].append((tournament_id, list(table_ids)))
        if isinstance(record["merged"], Exception):
            raise record["merged"]
        if callable(record["merged"]):
            return record["merged"]()
        return object() if record["merged"] else None

    monkeypatch.setattr(schedule, "standings_update", merge)
    monkeypatch.setattr(
        schedule.standings_chain_task, "apply_async", lambda args, **options: record["sent"].append((args, options))
    )
    assert schedule.standings_schedule(42, [3])
    record["id"] = record["sent"].pop()[0][1]
    record["key"] = redis_cache.make_key(schedule.lease_key(42))
    record["redis"] = redis_cache._cache.get_client(write=True)
    return record


def test_a_run_that_merged_extends_the_lease_and_sends_the_next_run_within_the_window(chain):
    chain["redis"].pexpire(chain["key"], 100)
    assert schedule.standings_chain_task(42, chain["id"], [3]) is True
    assert chain["merges"] == [(42, [3])]
    assert chain["redis"].pttl(chain["key"]) > 100  # extended to a whole lease
    assert chain["sent"] == [([42, chain["id"]], {"countdown": schedule.WINDOW_SECONDS})]


def test_a_run_that_found_nothing_runs_again_just_after_the_lease_expires(chain):
    chain["merged"] = False
    chain["redis"].pexpire(chain["key"], 100)
    assert schedule.standings_chain_task(42, chain["id"]) is True
    assert chain["redis"].pttl(chain["key"]) <= 100  # not extended
    ((args, options),) = chain["sent"]
    assert args == [42, chain["id"]] and schedule._MARGIN < options["countdown"] <= 0.1 + schedule._MARGIN


def _last_run(chain):
    return [42, chain["id"], None, 0, True], {"countdown": schedule.LEASE_SECONDS + schedule._MARGIN}


def test_a_run_that_finds_its_lease_expired_merges_and_sends_one_last_run_a_lease_later(chain):
    """A web process counts on a lease for at most a lease after it asked, even one that vanished early
    (a flushed or restarted Redis): the last run comes after every such promise."""
    chain["redis"].delete(chain["key"])
    assert schedule.standings_chain_task(42, chain["id"]) is True
    assert chain["merges"] == [(42, [])] and chain["sent"] == [_last_run(chain)]
    assert schedule.standings_chain_task(*chain["sent"][0][0]) is False  # the last run merges and ends
    assert chain["merges"] == [(42, []), (42, [])] and len(chain["sent"]) == 1


def test_a_last_run_that_finds_its_lease_held_goes_on_as_a_chain(chain):
    assert schedule.standings_chain_task(42, chain["id"], None, 0, True) is True
    assert chain["sent"] == [([42, chain["id"]], {"countdown": schedule.WINDOW_SECONDS})]


def test_a_lease_taken_by_another_chain_ends_this_one_a_lease_later_and_is_left_alone(chain):
    chain["redis"].set(chain["key"], "another", px=1000)
    assert schedule.standings_chain_task(42, chain["id"]) is True
    assert chain["merges"] == [(42, [])] and chain["sent"] == [_last_run(chain)]
    assert schedule.standings_chain_task(*chain["sent"][0][0]) is False
    assert chain["redis"].pttl(chain["key"]) <= 1000 and chain["redis"].get(chain["key"]) == b"another"


@pytest.mark.parametrize(
    "delivery, routing",
    [
        (
            {"exchange": "", "routing_key": "standings"},
            {"queue": "standings"},
        ),  # kombu's Redis transport, direct queues
        (
            {"exchange": "abend", "routing_key": "standings.merge"},
            {"exchange": "abend", "routing_key": "standings.merge"},
        ),
    ],
)
def test_the_next_run_goes_where_this_one_came_from(chain, delivery, routing):
    schedule.standings_chain_task.push_request(delivery_info=delivery)
    try:
        assert schedule.standings_chain_task(42, chain["id"]) is True
    finally:
        schedule.standings_chain_task.pop_request()
    assert chain["sent"] == [([42, chain["id"]], {"countdown": schedule.WINDOW_SECONDS, **routing})]


def test_a_run_that_cannot_send_its_successor_gives_its_lease_back(chain, monkeypatch):
    def broker_down(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(schedule.standings_chain_task, "apply_async", broker_down)
    assert schedule.standings_chain_task(42, chain["id"]) is False
    assert chain["redis"].get(chain["key"]) is None  # the next change starts a chain


def test_a_change_that_cannot_send_its_chain_gives_back_only_its_own_lease(redis_cache, monkeypatch):
    from tournaments.services.standings_tasks import standings_update_task

    monkeypatch.setattr(schedule, "cache", redis_cache)
    monkeypatch.setattr(schedule, "_held_until", {})
    monkeypatch.setitem(standings_update_task.app.conf, "task_always_eager", False)
    client, key = redis_cache._cache.get_client(write=True), redis_cache.make_key(schedule.lease_key(42))

    def slow_broker_down(args, **options):  # meanwhile the lease expired and another chain took it
        client.set(key, "another", px=1000)
        raise ConnectionError("broker down")

    monkeypatch.setattr(schedule.standings_chain_task, "apply_async", slow_broker_down)
    assert schedule.standings_schedule(42, [3]) is False
    assert client.get(key) == b"another"
    client.delete(key)
    monkeypatch.setattr(schedule.standings_chain_task, "apply_async", lambda *a, **k: (_ for _ in ()).throw(OSError()))
    assert schedule.standings_schedule(42, [3]) is False
    assert client.get(key) is None  # its own lease: given back


def test_a_lease_that_expires_while_the_run_merges_sends_the_last_run_at_once(chain):
    """The merge may have read before the lease expired: a change that counted on the lease until its
    last millisecond is read only by a run that begins after it."""
    chain["merged"] = lambda: chain["redis"].delete(chain["key"]) and None
    assert schedule.standings_chain_task(42, chain["id"]) is True
    assert chain["sent"] == [([42, chain["id"]], {"countdown": 0.0})]


def test_a_failed_run_sends_the_next_one_and_the_chain_stops_after_five(chain):
    chain["merged"] = ConnectionError("database away")
    for failed in range(4):
        assert schedule.standings_chain_task(42, chain["id"], [3], failed) is True
        assert chain["sent"][-1] == ([42, chain["id"], [3], failed + 1, False], {"countdown": schedule.WINDOW_SECONDS})
    assert schedule.standings_chain_task(42, chain["id"], [3], 4) is False
    assert len(chain["sent"]) == 4
    assert chain["redis"].get(chain["key"]) is None  # given back: the next change starts a chain


@pytest.mark.parametrize("away", ["redis down", "a cache not on Redis"])
def test_a_run_that_cannot_read_the_lease_merges_and_sends_one_last_run_after_a_whole_lease(chain, monkeypatch, away):
    """The lease is extended only by its chain, so a run that cannot see it knows it expires within a
    whole lease at the latest: one last run then reads every change that counted on it."""
    if away == "redis down":
        monkeypatch.setattr(
            schedule, "cache", RedisCache("redis://127.0.0.1:9/0", {"OPTIONS": {"socket_connect_timeout": 0.2}})
        )
    else:
        from django.core.cache.backends.locmem import LocMemCache

        monkeypatch.setattr(schedule, "cache", LocMemCache("chain", {}))
    assert schedule.standings_chain_task(42, chain["id"], [3]) is True
    assert chain["merges"] == [(42, [3])]
    assert chain["sent"] == [
        ([42, chain["id"], None, 0, True], {"countdown": schedule.LEASE_SECONDS + schedule._MARGIN})
    ]
    assert schedule.standings_chain_task(*chain["sent"][0][0]) is False  # the last run merges and stops
    assert chain["merges"] == [(42, [3]), (42, [])] and len(chain["sent"]) == 1


def test_a_change_while_redis_is_down_is_stored_and_logged(monkeypatch, caplog):
    """The cache on a Redis that does not answer: the change goes through, nothing is sent, a warning says so."""
    from tournaments.services.standings_tasks import standings_update_task

    down = RedisCache("redis://127.0.0.1:9/0", {"OPTIONS": {"socket_connect_timeout": 0.2}})
    monkeypatch.setattr(schedule, "cache", down)
    monkeypatch.setattr(schedule, "_held_until", {})
    monkeypatch.setitem(standings_update_task.app.conf, "task_always_eager", False)
    monkeypatch.setattr(schedule.standings_chain_task, "apply_async", lambda *a, **k: pytest.fail("sent"))
    assert schedule.standings_schedule(42, [3]) is False
    assert "did not go through" in caplog.text


# The scripts go straight over a connection of the thread's own (schafkopfrennen.cache._script_connection).
_ECHO = CacheScript("return {KEYS[1], ARGV[1]}")


def test_a_script_redis_forgot_is_loaded_again(redis_cache):
    client = redis_cache._cache.get_client(write=True)
    assert _ECHO(redis_cache, ["k"], ["a"]) == [redis_cache.make_key("k").encode(), b"a"]
    client.script_flush()
    assert _ECHO(redis_cache, ["k"], ["b"]) == [redis_cache.make_key("k").encode(), b"b"]


def test_a_script_call_keeps_one_connection_per_thread_and_opens_it_again_when_it_broke(redis_cache):
    client = redis_cache._cache.get_client(write=True)
    _ECHO(redis_cache, ["k"], ["a"])
    mine = _script_connection(redis_cache._cache)
    _ECHO(redis_cache, ["k"], ["a"])
    assert _script_connection(redis_cache._cache) is mine  # kept, not taken from the pool per call
    theirs = []
    thread = threading.Thread(target=lambda: theirs.append(_script_connection(redis_cache._cache)))
    thread.start()
    thread.join()
    assert theirs[0] is not mine  # one conversation per connection: another thread has its own
    # Redis drops the connection (a restart, say): the next call connects again and answers
    mine.send_command("CLIENT", "ID")
    client.client_kill_filter(_id=mine.read_response())
    assert _ECHO(redis_cache, ["k"], ["c"]) == [redis_cache.make_key("k").encode(), b"c"]


def test_a_forked_process_opens_a_connection_of_its_own(redis_cache, monkeypatch):
    _ECHO(redis_cache, ["k"], ["a"])
    parent = _script_connection(redis_cache._cache)
    monkeypatch.setattr(os, "getpid", lambda: -1)  # as after gunicorn's fork: the parent's socket is not ours
    assert _script_connection(redis_cache._cache) is not parent
    assert _ECHO(redis_cache, ["k"], ["b"]) == [redis_cache.make_key("k").encode(), b"b"]


def test_a_call_whose_connection_breaks_midway_is_tried_once_more_on_a_new_one(redis_cache, monkeypatch):
    """As ``redis.Redis`` retries: the reply lost (the socket broke after the command went out), the call
    connects again and answers; a second break reaches the caller (who treats Redis as away)."""
    _ECHO(redis_cache, ["k"], ["a"])
    connection = _script_connection(redis_cache._cache)
    read, breaks = connection.read_response, []

    def breaking(*args, **kwargs):
        if len(breaks) < breaks_left[0]:
            breaks.append(1)
            connection.disconnect()
            raise RedisConnectionError("lost")
        return read(*args, **kwargs)

    breaks_left = [1]
    monkeypatch.setattr(connection, "read_response", breaking)
    assert _ECHO(redis_cache, ["k"], ["b"]) == [redis_cache.make_key("k").encode(), b"b"]
    breaks.clear()
    breaks_left[0] = 2
    with pytest.raises(RedisConnectionError):
        _ECHO(redis_cache, ["k"], ["c"])
