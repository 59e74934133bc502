"""The foundation: settings refuse to start unsafely, CI runs on PostgreSQL and a real worker."""

import os
import subprocess
import sys
import uuid

import pytest
from celery.result import EagerResult
from django.db import connection

from tests.conftest import IN_CI
from tests.worker import celery_worker, real_broker, wait_for
from tests.worker_tasks import worker_ping
from tournaments.models import Club


def test_debug_off_without_secret_key_refuses_to_start():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SECRET_KEY"}
    env.update(DJANGO_DEBUG="false", DJANGO_SETTINGS_MODULE="schafkopfrennen.settings")
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"], env=env, capture_output=True, text=True
    )
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_debug_off_with_secret_key_starts():
    env = {
        **os.environ,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": "x" * 50,
        "DJANGO_SETTINGS_MODULE": "schafkopfrennen.settings",
    }
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)",
        ],
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


@pytest.mark.django_db
def test_database_vendor():
    if IN_CI:
        assert connection.vendor == "postgresql", "CI=true must run the database tests on PostgreSQL"
    else:
        assert connection.vendor in {"sqlite", "postgresql"}


def test_celery_is_eager_without_broker(settings):
    from schafkopfrennen.celery import app

    assert settings.CELERY_TASK_ALWAYS_EAGER is (not settings.CELERY_BROKER_URL)
    assert app.conf.task_always_eager is settings.CELERY_TASK_ALWAYS_EAGER


@pytest.mark.django_db
def test_task_runs_in_process_by_default(tmp_path):
    Club.objects.create(name="Eager")
    result = worker_ping.delay(str(tmp_path / "ping"), "Eager")
    assert isinstance(result, EagerResult)
    hostname, answer = (tmp_path / "ping").read_text().split(" ", 1)
    assert answer == "sees Eager\n" and not hostname.startswith("celery@")  # in-process: no worker's node name


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_task_goes_through_redis_and_a_real_worker(tmp_path):
    club = f"Worker {uuid.uuid4().hex[:8]}"
    Club.objects.create(name=club)
    ping = tmp_path / "ping"
    with celery_worker() as queue, real_broker() as conn:
        result = worker_ping.apply_async(args=[str(ping), club], queue=queue, connection=conn)
        assert not isinstance(result, EagerResult)
        assert wait_for(ping.exists, timeout=60), "the worker did not answer within 60 s"
    # Only a worker process has a node name; it saw the test's club in the shared database.
    hostname, seen, name = ping.read_text().strip().split(" ", 2)
    assert hostname.startswith("celery@") and (seen, name) == ("sees", club)


def test_real_workers_without_a_shared_cache_are_warned_about(settings):
    from django.core.checks import run_checks

    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6379/0"
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    assert "schafkopfrennen.W001" in [m.id for m in run_checks()]
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:6379/1"}
    }
    assert "schafkopfrennen.W001" not in [m.id for m in run_checks()]


@pytest.mark.parametrize(
    "env",
    [
        {"DATABASE_URL": "postgres://u:p@127.0.0.1:5432/x"},
        {"POSTGRES_DB": "x", "POSTGRES_HOST": "127.0.0.1"},
    ],
)
def test_database_connections_are_health_checked(env):
    """Persistent connections are checked before reuse (issue 13, fix 5), however the database is configured;
    PostgreSQL binds on the server and prepares a statement run five times (issue 14: the polls' tokens)."""
    clean = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "POSTGRES_DB", "POSTGRES_HOST")}
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django; django.setup(); from django.conf import settings; "
            "d = settings.DATABASES['default']; print(d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'], "
            "d['OPTIONS']['server_side_binding'], d['OPTIONS']['prepare_threshold'])",
        ],
        env={**clean, **env, "DJANGO_SETTINGS_MODULE": "schafkopfrennen.settings"},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["60", "True", "True", "5"]


@pytest.mark.django_db
def test_statements_are_prepared_on_postgresql():
    """A statement run five times on a connection is a prepared one: PostgreSQL plans it once."""
    if connection.vendor != "postgresql":
        if IN_CI:
            pytest.fail("CI runs the suite on PostgreSQL")
        pytest.skip("prepared statements are PostgreSQL's (CI runs this there)")
    from tournaments.selectors.standings import standings_state

    for _ in range(7):
        standings_state("nobody-has-this-slug")
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s", ["%standingssnapshot%"])
        assert cursor.fetchone()[0] >= 1


@pytest.mark.django_db(transaction=True)
def test_a_killed_database_connection_is_replaced_at_the_next_request():
    """A PostgreSQL restart kills the web workers' connections: the next request reconnects, no 500."""
    if connection.vendor != "postgresql":
        assert not IN_CI
        pytest.skip("killing a server connection needs PostgreSQL (CI runs it there)")
    from django.core.signals import request_started
    from django.db import connections

    connection.ensure_connection()
    victim = connection.connection.info.backend_pid
    killer = connections.create_connection("default")
    try:
        with killer.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [victim])
    finally:
        killer.close()
    request_started.send(sender=None)  # what a web worker does at the start of each request
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
    assert connection.connection.info.backend_pid != victim
