"""The worker test's own task (a test fixture, not production code).

The test's worker process loads this module with ``celery worker --include tests.worker_tasks``; the
test sends the task through Redis and waits for the file it writes.
"""

from pathlib import Path

from celery import shared_task


@shared_task(name="tests.worker_ping", bind=True, acks_late=True)
def worker_ping(self, path: str, club: str) -> str:
    """Write the worker's node name and whether it sees the test's club in the database to ``path``.

    Proof that the task went through the broker to a worker (only a worker process has a node name)
    and that the worker works on the test's database.
    """
    from tournaments.models import Club  # imported when the task runs: the worker loads this before its apps

    seen = Club.objects.filter(name=club).exists()
    Path(path).write_text(f"{self.request.hostname or ''} {'sees' if seen else 'misses'} {club}\n", encoding="utf-8")
    return path
