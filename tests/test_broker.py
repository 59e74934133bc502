"""Celery's transport to Redis (schafkopfrennen.broker): one Redis client per channel, messages
sent and received as with kombu's own. Against a real Redis at TEST_CELERY_BROKER_URL (CI has one)."""

import os
import uuid

import pytest
from kombu import Connection

from schafkopfrennen.broker import Transport, transport_for

URL = os.environ.get("TEST_CELERY_BROKER_URL", "redis://127.0.0.1:6379/10")


def test_redis_brokers_get_this_transport_others_kombus_own():
    assert transport_for("redis://127.0.0.1:6379/0") == "schafkopfrennen.broker:Transport"
    assert transport_for("rediss://redis.example:6380/0") == "schafkopfrennen.broker:Transport"
    assert transport_for("memory://localhost/") is None
    assert transport_for("amqp://guest@localhost//") is None


def test_messages_go_through_and_the_client_is_made_once():
    queue = f"test-broker-{uuid.uuid4().hex}"
    with Connection(URL, transport=transport_for(URL), connect_timeout=1) as conn:
        try:
            conn.ensure_connection(max_retries=1)
        except Exception:
            pytest.skip(f"no Redis at {URL}")
        assert isinstance(conn.transport, Transport)
        simple = conn.SimpleQueue(queue)
        try:
            for number in range(3):
                simple.put({"number": number})
            channel = simple.channel
            kept = channel._kept_client
            assert kept is not None
            simple.put({"number": 3})
            assert channel._kept_client is kept  # not a new client per message
            got = []
            for _ in range(4):
                message = simple.get(timeout=2)
                got.append(message.payload["number"])
                message.ack()
            assert sorted(got) == [0, 1, 2, 3]
        finally:
            simple.queue.delete()
            simple.close()
