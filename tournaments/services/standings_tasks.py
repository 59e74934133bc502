"""Thin Celery wrappers: merge changed tables into the standings, or recompute them from the games.

``schedule`` sends them after the commit (with the cache on Redis its chain's runs do the merges,
coalesced); the catch-up after an outage is there too.
"""

from celery import shared_task

from .standings import standings_recompute, standings_update


@shared_task(acks_late=True, autoretry_for=(ConnectionError,), retry_backoff=True, max_retries=5)
def standings_update_task(tournament_id: int, table_ids: list[int] | None = None) -> int | None:
    snapshot = standings_update(tournament_id=tournament_id, table_ids=table_ids or ())
    return snapshot.version if snapshot else None


@shared_task(acks_late=True, autoretry_for=(ConnectionError,), retry_backoff=True, max_retries=5)
def standings_recompute_task(tournament_id: int) -> int:
    return standings_recompute(tournament_id=tournament_id).version
