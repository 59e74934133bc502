"""A real Celery worker process on Redis, sharing the test database (used under CI)."""
import contextlib
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

from django.db import connection

from tests.conftest import skip_or_fail

ROOT = Path(__file__).resolve().parent.parent
BROKER_URL = os.environ.get("TEST_CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")


def redis_reachable(url: str = BROKER_URL) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


def test_database_url() -> str:
    """A DATABASE_URL that points a subprocess at the database this test uses."""
    s = connection.settings_dict
    if connection.vendor == "postgresql":
        auth = quote(s["USER"] or "postgres") + (f":{quote(s['PASSWORD'])}" if s.get("PASSWORD") else "")
        return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"
    if connection.vendor == "sqlite" and s["NAME"] and not str(s["NAME"]).startswith(("file:", ":memory:")):
        return f"sqlite:///{Path(s['NAME']).resolve()}"
    skip_or_fail(f"the worker needs a database it can share; {connection.vendor} {s['NAME']} is in memory")
    raise AssertionError  # unreachable


@contextlib.contextmanager
def celery_worker(queue: str | None = None, env: dict | None = None) -> Iterator[str]:
    """Start `celery -A schafkopfrennen worker` on its own queue; yield the queue name.

    The worker also loads the tests' own task (``tests/worker_tasks.py``); ``env`` is added to its
    environment (the browser tests give it production's settings).
    """
    if not redis_reachable():
        skip_or_fail(f"Redis is not reachable at {BROKER_URL}: start redis-server (apt install redis-server)")
    queue = queue or f"test-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "CELERY_BROKER_URL": BROKER_URL,
        "DATABASE_URL": test_database_url(),
        "DJANGO_SETTINGS_MODULE": "schafkopfrennen.settings",
        **(env or {}),
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "schafkopfrennen", "worker", "--pool=solo", "--concurrency=1",
         "-Q", queue, "--include", "tests.worker_tasks", "-n", f"celery@test-{uuid.uuid4().hex[:8]}", "--without-gossip", "--without-mingle",
         "--loglevel=WARNING"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        yield queue
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextlib.contextmanager
def real_broker(queue: str | None = None) -> Iterator[object]:
    """Make the project's Celery app send through Redis instead of running tasks in-process.

    With ``queue``, every task goes to that queue (the one a test's worker listens on).
    """
    from schafkopfrennen.celery import app

    from schafkopfrennen.broker import transport_for

    keys = ("task_always_eager", "broker_url", "broker_transport", "task_default_queue")
    old = {key: app.conf.get(key) for key in keys}
    app.conf.update(task_always_eager=False, broker_url=BROKER_URL, broker_transport=transport_for(BROKER_URL),
                    **({"task_default_queue": queue} if queue else {}))
    _forget_pools(app)  # a pool made for another broker must not be reused
    try:
        with app.connection_for_write(BROKER_URL) as conn:
            yield conn
    finally:
        _forget_pools(app)
        app.conf.update(**old)


def _forget_pools(app) -> None:
    app._pool = None
    app.amqp._producer_pool = None


def wait_for(predicate, timeout: float = 30.0, interval: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()
