"""Django's Redis cache, with one client object per connection pool instead of one per command.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` for every cache call, and building
one (its table of response callbacks) costs about as much CPU as the round trip itself. A save and a
poll make several cache calls (the rate limit, the standings schedule, the fragment cache), so the
client is kept: ``redis.Redis`` is thread-safe and takes its connections from the same pool as before.
"""
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient


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


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient


class CacheScript:
    """A Lua script run on the Django cache's Redis: several commands in one round trip (``EVALSHA``; the
    script is loaded again if Redis forgot it). ``applies(cache)``: only on a Redis cache; callers keep
    their plain cache calls for the others (the in-process cache of the embedded default)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self._script = None

    @staticmethod
    def applies(cache) -> bool:
        """Whether ``cache`` (a backend, or Django's ``cache`` proxy of one) keeps its data in Redis."""
        return isinstance(getattr(cache, "_cache", None), DjangoRedisCacheClient)

    def __call__(self, cache, keys: list[str], args: list):
        client = cache._cache.get_client(write=True)
        if self._script is None:
            self._script = client.register_script(self.source)
        return self._script(keys=[cache.make_key(key) for key in keys], args=args, client=client)
