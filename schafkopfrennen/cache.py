"""Django's Redis cache, with one client object per connection pool instead of one per command, and
timeouts in fractions of a second; and ``CacheScript``, a Lua script on that Redis in one round trip.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` for every cache call, and building
one (its table of response callbacks) is work on the scale of the round trip itself. A save and a
poll make several cache calls (the rate limit, the standings schedule, the fragment cache), so the
client is kept: ``redis.Redis`` is thread-safe and takes its connections from the same pool as before.

Django rounds a timeout down to whole seconds (Redis ``EX``); the standings' coalescing window is a
fraction of one, so a timeout that is not a whole number is kept in milliseconds (``PX``).
"""

import hashlib
import os
import threading

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient
from django.utils.connection import ConnectionProxy
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError
from redis.exceptions import TimeoutError as RedisTimeoutError


def _fraction(timeout) -> bool:
    return isinstance(timeout, float) and not timeout.is_integer()


def _milliseconds(timeout: float) -> int:
    return max(1, round(timeout * 1000))


class RedisCacheClient(DjangoRedisCacheClient):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client

    def add(self, key, value, timeout):
        if not _fraction(timeout):
            return super().add(key, value, timeout)
        client = self.get_client(key, write=True)
        return bool(client.set(key, self._serializer.dumps(value), px=_milliseconds(timeout), nx=True))

    def set(self, key, value, timeout):
        if not _fraction(timeout):
            return super().set(key, value, timeout)
        self.get_client(key, write=True).set(key, self._serializer.dumps(value), px=_milliseconds(timeout))

    def touch(self, key, timeout):
        if not _fraction(timeout):
            return super().touch(key, timeout)
        return bool(self.get_client(key, write=True).pexpire(key, _milliseconds(timeout)))

    def set_many(self, data, timeout):
        if not _fraction(timeout):
            return super().set_many(data, timeout)
        pipeline = self.get_client(None, write=True).pipeline()
        pipeline.mset({k: self._serializer.dumps(v) for k, v in data.items()})
        for key in data:
            pipeline.pexpire(key, _milliseconds(timeout))
        pipeline.execute()


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient

    def get_backend_timeout(self, timeout=DEFAULT_TIMEOUT):
        """As Django's, except that a fraction of a second is kept (and sent as milliseconds)."""
        if timeout == DEFAULT_TIMEOUT:
            timeout = self.default_timeout
        if _fraction(timeout) and timeout > 0:
            return float(timeout)
        return super().get_backend_timeout(timeout)


def _backend(cache):
    """The backend itself: Django's ``cache`` is a proxy that looks the backend up (in a context-local
    registry) on every attribute read, and a script's call reads several."""
    return cache._connections[cache._alias] if isinstance(cache, ConnectionProxy) else cache


def _script_connection(client: DjangoRedisCacheClient):
    """This thread's own connection for scripts on ``client``'s Redis, taken from its pool once and kept.

    Django keeps a cache backend, and so its ``client``, per thread; the connection is still checked
    against the process and thread (a connection carries one conversation): a forked worker, or another
    thread handed the same client, takes a connection of its own."""
    mine = (os.getpid(), threading.get_ident())
    held = client.__dict__.get("_script_connection")
    if held is None or held[0] != mine:
        held = client.__dict__["_script_connection"] = (mine, client._get_connection_pool(True).get_connection())
    return held[1]


class CacheScript:
    """A Lua script run on the Django cache's Redis: several commands in one round trip (``EVALSHA``; the
    script is loaded again if Redis forgot it). ``applies(cache)``: only on a Redis cache; callers keep
    their plain cache calls for the others (the in-process cache of the embedded default).

    Every save and every change of an evening runs one (the table's rate limit, the standings' lease), so
    the command goes straight over a connection of this thread's (``_script_connection``): through
    ``redis.Redis`` each call also took a connection from the pool and gave it back, behind its retry and
    metrics wrappers: work the straight way skips. Same protocol, same replies; a connection that broke
    (Redis restarted) is opened again and the call tried once more, as ``redis.Redis`` retries it; a second
    failure reaches the caller, who treats Redis as away."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.sha = hashlib.sha1(source.encode()).hexdigest()

    @staticmethod
    def applies(cache) -> bool:
        """Whether ``cache`` (a backend, or Django's ``cache`` proxy of one) keeps its data in Redis."""
        return isinstance(getattr(_backend(cache), "_cache", None), DjangoRedisCacheClient)

    def __call__(self, cache, keys: list[str], args: list):
        backend = _backend(cache)
        command = ("EVALSHA", self.sha, len(keys), *(backend.make_key(key) for key in keys), *args)
        connection = _script_connection(backend._cache)
        try:
            return self._run(connection, command)
        except (RedisConnectionError, RedisTimeoutError):
            connection.disconnect()  # broke (Redis restarted, say): the next command connects again
            return self._run(connection, command)

    def _run(self, connection, command: tuple):
        try:
            connection.send_command(*command)
            return connection.read_response()
        except NoScriptError:  # Redis restarted (or another server): load it, as redis-py's Script does
            connection.send_command("SCRIPT", "LOAD", self.source)
            connection.read_response()
            connection.send_command(*command)
            return connection.read_response()
