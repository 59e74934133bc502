"""Thin Celery wrappers: merge changed tables into the standings, or recompute them from the games."""
import logging

from celery import shared_task
from celery.signals import worker_ready

from . import schedule
from .standings import standings_recompute, standings_update

log = logging.getLogger(__name__)


@shared_task(acks_late=True, autoretry_for=(ConnectionError,), retry_backoff=True, max_retries=5)
def standings_update_task(tournament_id: int, table_ids: list[int] | None = None) -> int | None:
    snapshot = standings_update(tournament_id=tournament_id, table_ids=table_ids or ())
    return snapshot.version if snapshot else None


@shared_task(acks_late=True, autoretry_for=(ConnectionError,), retry_backoff=True, max_retries=5)
def standings_recompute_task(tournament_id: int) -> int:
    return standings_recompute(tournament_id=tournament_id).version


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
