"""Celery's Redis transport, keeping its Redis client: kombu makes a new one for every message sent.

kombu's Redis channel builds a ``redis.Redis`` around its connection pool for each command it sends
outside its polling loop (``conn_or_acquire``); building one fills its table of reply callbacks anew,
a fifth of the CPU of sending a standings task, which most saves of an evening do. The client is
stateless apart from that pool, so one per channel serves every command the same way.
"""
from contextlib import contextmanager

from kombu.transport import redis


class Channel(redis.Channel):
    _kept_client = None

    @contextmanager
    def conn_or_acquire(self, client=None):
        if client:
            yield client
            return
        if self._kept_client is None:
            self._kept_client = self._create_client()
        yield self._kept_client


class Transport(redis.Transport):
    Channel = Channel


def transport_for(broker_url: str) -> str | None:
    """The transport Celery sends with to ``broker_url``: this one for Redis, kombu's own otherwise."""
    return "schafkopfrennen.broker:Transport" if broker_url.split("://", 1)[0] in ("redis", "rediss") else None
