"""Thin Celery wrappers: recompute standings from the games."""
import logging

from celery import shared_task
from celery.signals import worker_ready

from . import schedule
from .standings import standings_recompute

log = logging.getLogger(__name__)


@shared_task(acks_late=True, autoretry_for=(ConnectionError,), retry_backoff=True, max_retries=5)
def standings_recompute_task(tournament_id: int) -> str:
    snapshot = standings_recompute(tournament_id=tournament_id)
    return snapshot.marker


@shared_task(acks_late=True)
def standings_catch_up_task() -> int:
    """Recompute every tournament whose snapshot lags behind its games (after an outage)."""
    return schedule.standings_catch_up()


@worker_ready.connect
def _catch_up_when_a_worker_starts(sender=None, **kwargs) -> None:
    try:
        standings_catch_up_task.delay()
    except Exception:  # the broker may still be coming up; the next change schedules anyway
        log.exception("could not schedule the standings catch-up")
