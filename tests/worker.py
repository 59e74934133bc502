"""A real Celery worker process on Redis, sharing the test database (used under CI)."""

import contextlib
import os
import shutil
import socket
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
def celery_worker(queue: str | None = None, broker_url: str = BROKER_URL, env: dict | None = None) -> Iterator[str]:
    """Start `celery -A schafkopfrennen worker` on its own queue; yield the queue name.

    The worker also loads the tests' own task (``tests/worker_tasks.py``); ``env`` is added to its
    environment (the browser tests give it production's settings).
    """
    if not redis_reachable(broker_url):
        skip_or_fail(f"Redis is not reachable at {broker_url}: start redis-server (apt install redis-server)")
    queue = queue or f"test-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "CELERY_BROKER_URL": broker_url,
        "DATABASE_URL": test_database_url(),
        "DJANGO_SETTINGS_MODULE": "schafkopfrennen.settings",
        **(env or {}),
    }
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "schafkopfrennen",
            "worker",
            "--pool=solo",
            "--concurrency=1",
            "-Q",
            queue,
            "--include",
            "tests.worker_tasks",
            "-n",
            f"celery@test-{uuid.uuid4().hex[:8]}",
            "--without-gossip",
            "--without-mingle",
            "--loglevel=WARNING",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
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
def real_broker(queue: str | None = None, url: str = BROKER_URL) -> Iterator[object]:
    """Make the project's Celery app send through Redis (at ``url``) instead of running tasks in-process.

    With ``queue``, every task goes to that queue (the one a test's worker listens on).
    """
    from schafkopfrennen.broker import transport_for
    from schafkopfrennen.celery import app

    keys = ("task_always_eager", "broker_url", "broker_transport", "task_default_queue")
    old = {key: app.conf.get(key) for key in keys}
    app.conf.update(
        task_always_eager=False,
        broker_url=url,
        broker_transport=transport_for(url),
        **({"task_default_queue": queue} if queue else {}),
    )
    _forget_pools(app)  # a pool made for another broker must not be reused
    try:
        with app.connection_for_write(url) as conn:
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


# A test's own Redis, which it may stop and start again (the shared one on 6379 serves everybody else).
OWN_REDIS_PORTS = range(int(os.environ.get("TEST_OWN_REDIS_PORT", "8390")), 8400)


class OwnRedis:
    """A redis-server of the test's own on a free port of OWN_REDIS_PORTS, without persistence: stopped
    (``stop``: killed, as a crash or a restart takes Redis away) and started again empty (``start``)."""

    def __init__(self, tmp_path: Path) -> None:
        if shutil.which("redis-server") is None:
            skip_or_fail("redis-server is not installed (apt install redis-server)")
        self.dir = tmp_path
        self.port = next((p for p in OWN_REDIS_PORTS if _port_free(p)), None)
        if self.port is None:
            skip_or_fail(f"no free port in {OWN_REDIS_PORTS} for a test's own Redis")
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if not wait_for(lambda: redis_reachable(self.url), timeout=20, interval=0.05):
            self.stop()
            raise AssertionError(f"the test's own redis-server did not come up on port {self.port}")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def __enter__(self) -> "OwnRedis":
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def _port_free(port: int) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True
