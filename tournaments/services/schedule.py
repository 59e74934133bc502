"""When standings are brought up to date: right after a committed change, coalesced, never at the cost of entry.

A change at a table merges that table into the snapshot (``standings.standings_update``); a change of
the players (a substitute) recomputes the whole tournament. With a worker, the first change after a
quiet moment is sent at once (no countdown) and opens a window of WINDOW_SECONDS; changes inside the window
send one more task between them, due when the window has closed, so it reads them all (the merge finds
their tables in the revision log). Every window expires by itself: no cooperation from the worker is
needed, and a per-process cache works too (each web process then coalesces its own changes).
Without a broker (the embedded default) the merge runs in-process after the commit, in one table's
work, never a whole-tournament recompute.
If the broker is down the change is still stored (the tables keep playing), the page shows that the
standings lag, and the next change, a starting worker or an organiser (a POST: "count every game
again") schedules the catch-up; a page view only reads.
"""
import contextlib
import logging
import threading
import time
from collections.abc import Iterable, Iterator

from celery import shared_task
from celery.signals import worker_ready
from django.core.cache import cache
from django.db import transaction

from schafkopfrennen.cache import CacheScript

from ..models import Tournament
from ..selectors.standings import games_marker
from .standings_tasks import standings_recompute_task, standings_update_task

log = logging.getLogger(__name__)

# Changes within this of the first one share one trailing task. The Redis cache keeps it in milliseconds
# (schafkopfrennen.cache); at 1,000 players a merge costs a few tens of milliseconds, so a quarter of a
# second keeps the standings a quarter of a second behind at most, with four merges a second at most.
WINDOW_SECONDS = 0.25


def pending_key(tournament_id: int, kind: str = "merge") -> str:
    return f"standings:pending:{kind}:{tournament_id}"


def trailing_key(tournament_id: int, kind: str = "merge") -> str:
    return f"standings:trailing:{kind}:{tournament_id}"


# The two claims of a window in one round trip to Redis: the first change's, else the trailing task's;
# when both are taken, how long the trailing one still holds (ms).
_CLAIM = CacheScript("""
if redis.call('SET', KEYS[1], 1, 'NX', 'PX', ARGV[1]) then return {1, 0} end
if redis.call('SET', KEYS[2], 1, 'NX', 'PX', ARGV[1]) then return {2, 0} end
return {0, redis.call('PTTL', KEYS[2])}
""")
_taken_until: dict[tuple[int, str], float] = {}  # per process: the window's trailing task is claimed until then
_MARGIN = 0.02  # seconds: this process's clock and Redis's expiry need not agree to the millisecond


def _window_slot(tournament_id: int, kind: str) -> str | None:
    """"first" (no change in the window yet), "trailing" (the window's one trailing task), None (taken).

    When both are taken, the trailing task runs when its claim expires, and it reads every change
    committed before: until then (less a margin) this process answers None without asking Redis, so
    a burst of saves costs one round trip per process and window, not one per save.
    """
    slot = (tournament_id, kind)
    if time.monotonic() < _taken_until.get(slot, 0.0):
        return None
    first, trailing = pending_key(tournament_id, kind), trailing_key(tournament_id, kind)
    if _CLAIM.applies(cache):
        claimed, holds_ms = _CLAIM(cache, [first, trailing], [max(1, round(WINDOW_SECONDS * 1000))])
        if claimed == 0:
            if holds_ms > 0:  # (-1: a claim without expiry, not ours: ask again next time)
                _taken_until[slot] = time.monotonic() + holds_ms / 1000 - _MARGIN
            return None
        return "first" if claimed == 1 else "trailing"
    if cache.add(first, 1, timeout=WINDOW_SECONDS):
        return "first"
    return "trailing" if cache.add(trailing, 1, timeout=WINDOW_SECONDS) else None


def standings_schedule(tournament_id: int, table_ids: Iterable[int] | None = None) -> bool:
    """Bring the snapshot up to date: merge ``table_ids`` (None: recompute all). Returns whether it sent work."""
    task = standings_recompute_task if table_ids is None else standings_update_task
    args = [tournament_id] if table_ids is None else [tournament_id, sorted(table_ids)]
    in_process = task.app.conf.task_always_eager
    kind = "full" if table_ids is None else "merge"
    keys = [pending_key(tournament_id, kind)]
    try:
        if in_process:
            task.apply_async(args=args)
        elif (slot := _window_slot(tournament_id, kind)) == "first":  # the first change after a quiet moment: at once
            task.apply_async(args=args)
        else:
            keys = [trailing_key(tournament_id, kind)]
            if slot is None:
                return False  # the window's trailing task is due later and will read this change
            task.apply_async(args=args, countdown=WINDOW_SECONDS)
    except Exception:  # Redis (cache or broker) unreachable, or in-process the update failed: entry
        # goes on, the standings page says they are not current, and a later change catches up.
        with contextlib.suppress(Exception):
            cache.delete_many(keys)
        log.warning("standings update for tournament %s did not go through", tournament_id, exc_info=True)
        return False
    return True


_deferred = threading.local()


@contextlib.contextmanager
def standings_deferred() -> Iterator[None]:
    """Within this block changes only collect tournament ids; one update each is scheduled at the end.

    For bulk work (a whole rehearsal tournament) that would otherwise update after every table.
    """
    outer = getattr(_deferred, "changes", None)
    _deferred.changes = {} if outer is None else outer
    try:
        yield
    finally:
        if outer is None:
            changes, _deferred.changes = _deferred.changes, None
            for tournament_id in sorted(changes):
                tables = changes[tournament_id]
                standings_schedule_on_commit(tournament_id, None if tables is None else tables)


def standings_schedule_on_commit(tournament_id: int, table_ids: Iterable[int] | None = None) -> None:
    changes = getattr(_deferred, "changes", None)
    if changes is not None:
        if table_ids is None or changes.get(tournament_id, set()) is None:
            changes[tournament_id] = None
        else:
            changes.setdefault(tournament_id, set()).update(table_ids)
        return
    tables = None if table_ids is None else set(table_ids)
    transaction.on_commit(lambda: standings_schedule(tournament_id, tables))


def standings_catch_up() -> int:
    """Recompute every started tournament whose snapshot misses games or substitutes (after an outage)."""
    count = 0
    for tournament in Tournament.objects.exclude(status=Tournament.Status.PLANNED).select_related("standings_snapshot"):
        snapshot = getattr(tournament, "standings_snapshot", None)
        if (snapshot is None or snapshot.marker != games_marker(tournament)) and standings_schedule(tournament.pk):
            count += 1
    return count


@shared_task(acks_late=True)
def standings_catch_up_task() -> int:
    """Recompute every tournament whose snapshot lags behind its games (after an outage)."""
    return standings_catch_up()


@worker_ready.connect
def _catch_up_when_a_worker_starts(sender=None, **kwargs) -> None:
    try:
        standings_catch_up_task.delay()
    except Exception:  # the broker may still be coming up; the next change schedules anyway
        log.exception("could not schedule the standings catch-up")
