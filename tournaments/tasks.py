"""The Celery tasks, for the worker to find (Celery imports each app's ``tasks`` module).

A task is a thin wrapper that takes ids and calls one service. The tasks a service sends are defined
beside it (services/printing.py, services/signup_mail.py, services/standings_tasks.py,
services/schedule.py), so a service never imports this module and this module never imports a
service that imports it back.
"""
from celery import shared_task

from .models import WorkerPing
from .services import printing, schedule, signup_mail, standings_tasks  # noqa: F401  (registers their tasks)


@shared_task(bind=True, acks_late=True)
def worker_ping_task(self, token: str) -> str:
    """Write a row to prove that a task went through the broker and a worker (node name kept)."""
    WorkerPing.objects.get_or_create(token=token, defaults={"hostname": self.request.hostname or ""})
    return token
