"""When standings are recomputed: after a committed change, coalesced, and never at the cost of entry.

A change opens a one-second window in the cache and enqueues one recompute for when the window
closes; further changes inside the window only ride along (they are committed before that recompute
reads the games). The window expires by itself, so it needs no cooperation from the worker and
works with a per-process cache too (each web process then coalesces its own changes).
If the broker is down the change is still stored (the tables keep playing), the page shows that the standings lag, and the next change, a
page view or a starting worker schedules the catch-up.
"""
import contextlib
import logging
import threading
from collections.abc import Iterator

from django.core.cache import cache
from django.db import transaction

log = logging.getLogger(__name__)

COALESCE_SECONDS = 1  # a burst of saves within this window leads to one recompute (whole seconds: Redis)


def pending_key(tournament_id: int) -> str:
    return f"standings:pending:{tournament_id}"


def standings_schedule(tournament_id: int) -> bool:
    """Enqueue one recompute unless one is scheduled already; returns whether it enqueued."""
    from .tasks import standings_recompute_task

    in_process = standings_recompute_task.app.conf.task_always_eager
    try:
        if not in_process and not cache.add(pending_key(tournament_id), 1, timeout=COALESCE_SECONDS):
            return False
        standings_recompute_task.apply_async(args=[tournament_id], countdown=COALESCE_SECONDS)
    except Exception:  # Redis (cache or broker) unreachable, or in-process the recompute failed: entry
        # goes on, the standings page says they are not current, and a later change catches up.
        with contextlib.suppress(Exception):
            cache.delete(pending_key(tournament_id))
        log.warning("standings recompute for tournament %s did not go through", tournament_id, exc_info=True)
        return False
    return True


_deferred = threading.local()


@contextlib.contextmanager
def standings_deferred() -> Iterator[None]:
    """Within this block changes only collect tournament ids; one recompute each is scheduled at the end.

    For bulk work (a whole rehearsal tournament) that would otherwise recompute after every table.
    """
    outer = getattr(_deferred, "ids", None)
    _deferred.ids = set() if outer is None else outer
    try:
        yield
    finally:
        if outer is None:
            ids, _deferred.ids = _deferred.ids, None
            for tournament_id in sorted(ids):
                standings_schedule_on_commit(tournament_id)


def standings_schedule_on_commit(tournament_id: int) -> None:
    ids = getattr(_deferred, "ids", None)
    if ids is not None:
        ids.add(tournament_id)
        return
    transaction.on_commit(lambda: standings_schedule(tournament_id))


def standings_is_current(tournament) -> bool:
    from .standings import games_marker

    snapshot = getattr(tournament, "standings_snapshot", None)
    return snapshot is not None and snapshot.marker == games_marker(tournament)


def standings_catch_up() -> int:
    from tournaments.models import Tournament

    count = 0
    for tournament in Tournament.objects.exclude(status=Tournament.Status.PLANNED).select_related("standings_snapshot"):
        if not standings_is_current(tournament) and standings_schedule(tournament.pk):
            count += 1
    return count
