"""AfterCommitTask: a task sent inside a transaction goes out on commit, never after a rollback."""

import pytest
from celery import shared_task
from celery.app.task import Task
from django.db import transaction

from schafkopfrennen.celery import AfterCommitTask

failures = []


def _record_failure(task, exc, args, kwargs) -> None:
    failures.append((task.name, str(exc), tuple(args), kwargs))


@shared_task(base=AfterCommitTask, name="tests.after_commit_probe", send_failed=_record_failure)
def probe(value: int) -> int:
    return value


@pytest.fixture
def sent(monkeypatch):
    """What reached the broker (Celery's own apply_async, which the after-commit send calls)."""
    calls = []
    monkeypatch.setattr(
        Task,
        "apply_async",
        lambda task, args=None, kwargs=None, **options: calls.append((task.name, tuple(args or ()), kwargs or {})),
    )
    failures.clear()
    return calls


@pytest.mark.django_db
def test_inside_a_transaction_the_task_goes_out_when_it_commits(sent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        assert probe.delay(7) is None
        assert sent == []  # not before the commit: the worker would read rows that are not there yet
    assert len(callbacks) == 1
    callbacks[0]()  # the commit
    assert sent == [("tests.after_commit_probe", (7,), {})]


@pytest.mark.django_db
def test_after_a_rollback_nothing_is_sent(sent, django_capture_on_commit_callbacks):
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        probe.delay(8)
        raise RuntimeError("the service refused")
    assert callbacks == [] and sent == []


def test_outside_a_transaction_the_task_goes_out_at_once(sent):
    probe.apply_async(args=[9], countdown=1)
    assert sent == [("tests.after_commit_probe", (9,), {})]


@pytest.mark.django_db
def test_a_send_that_fails_after_the_commit_is_recorded_not_raised(monkeypatch, django_capture_on_commit_callbacks):
    def unreachable(*args, **kwargs):
        raise ConnectionError("broker unreachable")

    failures.clear()
    monkeypatch.setattr(Task, "apply_async", unreachable)
    with django_capture_on_commit_callbacks(execute=True):
        probe.delay(10)
    assert failures == [("tests.after_commit_probe", "broker unreachable", (10,), {})]
