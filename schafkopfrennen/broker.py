"""Celery's Redis transport, keeping its Redis client: kombu makes a new one for every message sent;
and its connections, asking a lost broker again every second.

kombu's Redis channel builds a ``redis.Redis`` around its connection pool for each command it sends
outside its polling loop (``conn_or_acquire``); building one fills its table of reply callbacks anew,
a large part of the work of sending a standings task, which most saves of an evening do. The client is
stateless apart from that pool, so one per channel serves every command the same way.
"""

from contextlib import contextmanager

import kombu
from celery.app.amqp import AMQP as CeleryAMQP
from kombu.transport import redis

# How long a worker waits between two tries to reach a lost broker. kombu waits 2, 4, 6 ... up to 30 s
# (Celery's consumer passes no intervals): after a Redis outage of a minute the workers came back up to
# 14 s late, and the standings' catch-up waits for them (tournaments/services/schedule.StandingsCatchUp).
# A try is one refused connect; a second apart it costs the broker nothing.
RECONNECT_SECONDS = 1.0


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


class Connection(kombu.Connection):
    """kombu's connection, whose ``ensure_connection`` tries again every RECONNECT_SECONDS unless the
    caller says otherwise (clones keep the class: kombu clones with ``self.__class__``)."""

    def ensure_connection(self, *args, **kwargs):
        kwargs.setdefault("interval_start", RECONNECT_SECONDS)
        kwargs.setdefault("interval_step", 0)
        kwargs.setdefault("interval_max", RECONNECT_SECONDS)
        return super().ensure_connection(*args, **kwargs)


class AMQP(CeleryAMQP):
    """Celery's messaging with the connection above (``Celery(amqp=...)``)."""

    Connection = Connection
