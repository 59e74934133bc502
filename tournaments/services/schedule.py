"""When standings are brought up to date: right after a committed change, coalesced, never at the cost of entry.

A change at a table merges that table into the snapshot (``standings.standings_update``); a change of
the players (a substitute) recomputes the whole tournament, at once.

With a worker and the cache on Redis, merges run in a **chain** (a web process should not send a task
for every game of a busy evening: each send costs it kombu's publish):
- The first change after a quiet moment starts a chain: it takes the tournament's lease in Redis
  (``SET NX``, LEASE_SECONDS) and sends the first run at once (no countdown).
- A change that finds the lease held sends nothing: the chain promises a run that reads after the
  lease has expired. The web process remembers until when the lease holds (less a margin) and asks
  Redis again only after that: a busy evening costs each web process about one round trip per lease,
  not one per game.
- A run reads how long the lease still holds, merges every change the revision log shows, and
  extends the lease if it merged something. While the lease holds, it sends the next run (due within
  WINDOW_SECONDS). A run that finds the lease gone (expired, taken by another chain, or lost early
  with a flushed Redis) or cannot read it sends one last run a whole lease later, and that one ends
  the chain. A web process counts on a lease for at most a lease after it asked, and every change
  that counted on it was committed before that: the last run reads them all.
Without a worker (the embedded default) the merge runs in-process after the commit, in one table's
work, never a whole-tournament recompute. With a cache local to each process (a warned-about set-up,
``tournaments.checks``) a chain's lease could not be seen by the worker: every change sends its
merge at once.
If the broker (or the cache's Redis) is down the change is still stored (the tables keep playing) and
the page shows that the standings lag. Every worker catches up by itself (``StandingsCatchUp``, a step
of its consumer): each time it connects to the broker -- at its start, and again once the broker is back
after an outage -- it counts every started tournament whose snapshot misses games or substitutes, and
while connected it looks every CATCH_UP_EVERY_SECONDS for a running tournament with a change older than
CATCH_UP_AFTER_SECONDS that no merge counted (a send that failed on the web's side only, a chain that
stopped). An organiser may still ask at once (a POST: "count every game again"); a page view only reads.
"""

import contextlib
import logging
import threading
import time
import uuid
from collections.abc import Iterable, Iterator
from datetime import timedelta

from celery import bootsteps, shared_task
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from schafkopfrennen.cache import CacheScript
from schafkopfrennen.celery import app

from ..models import Tournament
from ..selectors.standings import games_marker, tournaments_lagging
from .standings import standings_recompute, standings_update
from .standings_tasks import standings_recompute_task, standings_update_task

log = logging.getLogger(__name__)

# While games keep coming, a chain runs this often: a change waits at most this long for its run, and a
# merge is much shorter than the window, so the standings stay a window behind at most, with four runs a
# second at most.
WINDOW_SECONDS = 0.25
# How long a lease holds after the chain last merged something. Longer: fewer round trips from each web
# process (about one per lease); shorter: fewer empty runs (about LEASE / WINDOW) after the last game.
LEASE_SECONDS = 1.0
_MARGIN = 0.02  # seconds: a process's clock and Redis's expiry need not agree to the millisecond
_FAILED_RUNS = 5  # a chain whose merge fails this often in a row stops (the catch-up repairs later)
# A connected worker looks this often for changes that no merge counted (one small query) ...
CATCH_UP_EVERY_SECONDS = 5.0
# ... and counts those made at least this long ago: a younger one is still a chain's to merge (within a
# quarter of a second, or a busy worker's queue later), and a recompute beside it would only add work.
CATCH_UP_AFTER_SECONDS = 15.0


def lease_key(tournament_id: int) -> str:
    return f"standings:chain:{tournament_id}"


# A change: take the lease (0: this change starts the chain) or learn how long it still holds (ms). A
# key without expiry is no chain's: it is taken over.
_JOIN = CacheScript("""
if redis.call('SET', KEYS[1], ARGV[2], 'NX', 'PX', ARGV[1]) then return 0 end
local holds = redis.call('PTTL', KEYS[1])
if holds > 0 then return holds end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[1])
return 0
""")
# A run: how long its chain's lease still holds (ms; -2: expired, or another chain's), after extending
# it when ARGV[2] is '1' (the run merged something).
_HOLDS = CacheScript("""
if redis.call('GET', KEYS[1]) ~= ARGV[3] then return -2 end
if ARGV[2] == '1' then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return redis.call('PTTL', KEYS[1])
""")
# A chain that could not go on gives its lease back: only its own (another chain may hold the key now).
_RELEASE = CacheScript("""
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
""")
_held_until: dict[int, float] = {}  # per process: a chain's lease on the tournament holds until then


def _lease_ms() -> int:
    return max(1, round(LEASE_SECONDS * 1000))


def _chain_join(tournament_id: int) -> str | None:
    """A new chain's id when this change starts one; None when a chain's lease covers this change."""
    asked = time.monotonic()  # before Redis answers: the lease holds at least ``holds_ms`` from here
    if asked < _held_until.get(tournament_id, 0.0):
        return None
    chain = uuid.uuid4().hex
    holds_ms = _JOIN(cache, [lease_key(tournament_id)], [_lease_ms(), chain])
    if holds_ms == 0:
        return chain
    _held_until[tournament_id] = asked + holds_ms / 1000 - _MARGIN
    return None


def standings_schedule(tournament_id: int, table_ids: Iterable[int] | None = None) -> bool:
    """Bring the snapshot up to date: merge ``table_ids`` (None: recompute all). Returns whether it sent work."""
    chain = None
    try:
        if table_ids is None:
            standings_recompute_task.apply_async(args=[tournament_id])
        elif standings_update_task.app.conf.task_always_eager or not _JOIN.applies(cache):
            standings_update_task.apply_async(args=[tournament_id, sorted(table_ids)])
        elif (chain := _chain_join(tournament_id)) is not None:
            standings_chain_task.apply_async(args=[tournament_id, chain, sorted(table_ids)])
        else:
            return False  # the chain's next run reads this change
    except Exception:  # Redis (cache or broker) unreachable, or in-process the update failed: entry
        # goes on, the standings page says they are not current, and a later change catches up.
        if chain is not None:  # a chain that never started must not hold the lease
            _release(tournament_id, chain)
        log.warning("standings update for tournament %s did not go through", tournament_id, exc_info=True)
        return False
    return True


def _release(tournament_id: int, chain: str) -> None:
    _held_until.pop(tournament_id, None)
    with contextlib.suppress(Exception):
        _RELEASE(cache, [lease_key(tournament_id)], [chain])


@shared_task(bind=True, acks_late=True)
def standings_chain_task(
    self, tournament_id: int, chain: str, table_ids: list[int] | None = None, failed: int = 0, last: bool = False
) -> bool:
    """One run of a chain (see the module): merge, then send the next run while the lease holds.

    Returns whether it sent a next run.
    - A run that finds its lease gone (expired, or lost early: a flushed or restarted Redis), or cannot
      read it (Redis away, a worker whose cache is not on Redis), merges and sends one ``last`` run a
      whole lease later: a web process counts on a lease for at most a lease after it asked.
    - A ``last`` run that finds its lease held after all goes on as a chain; otherwise it is the end.
    - A run whose merge fails sends the next one all the same, up to _FAILED_RUNS in a row.
    - A run that cannot send its successor gives its lease back, so the next change starts a chain.
    """
    held = _lease_left(tournament_id, chain)  # before the merge reads; None: cannot be read
    try:
        merged = standings_update(tournament_id=tournament_id, table_ids=table_ids or ()) is not None
    except Exception:
        if failed + 1 >= _FAILED_RUNS:
            log.exception("standings chain for tournament %s stopped after %s failed runs", tournament_id, failed + 1)
            _release(tournament_id, chain)
            return False
        log.warning(
            "a standings chain run for tournament %s failed; the next one tries again", tournament_id, exc_info=True
        )
        return _next_run(self, [tournament_id, chain, table_ids, failed + 1, last], WINDOW_SECONDS)
    holds = None if held is None or held <= 0 else _lease_left(tournament_id, chain, extend=merged)
    if holds is None:  # the lease gone, or not readable
        return False if last else _next_run(self, [tournament_id, chain, None, 0, True], LEASE_SECONDS + _MARGIN)
    # the next run within the window, and at the latest just after the lease expires (at once if it has)
    countdown = 0.0 if holds <= 0 else min(WINDOW_SECONDS, holds / 1000 + _MARGIN)
    return _next_run(self, [tournament_id, chain], countdown)


def _next_run(run, args: list, countdown: float) -> bool:
    """Send a chain's next run as this one was routed (a deployment may route it anywhere); True if sent."""
    delivery = run.request.delivery_info or {}
    exchange, key = delivery.get("exchange"), delivery.get("routing_key")
    # the default exchange ('') routes by queue name; kombu's Redis transport reports it for direct queues
    routing = {"queue": key} if key and not exchange else {"exchange": exchange, "routing_key": key} if key else {}
    try:
        standings_chain_task.apply_async(args=args, countdown=countdown, **routing)
    except Exception:
        log.exception("the standings chain of tournament %s could not send its next run", args[0])
        _release(args[0], args[1])
        return False
    return True


def _lease_left(tournament_id: int, chain: str, *, extend: bool = False) -> int | None:
    """How long ``chain``'s lease still holds (ms; at most 0: expired, or another chain's), extended to a
    whole lease first if ``extend``; None when it cannot be read."""
    if not _HOLDS.applies(cache):
        log.error("a standings chain runs on a worker whose cache is not on Redis: set REDIS_CACHE_URL as on the web")
        return None
    try:
        return _HOLDS(cache, [lease_key(tournament_id)], [_lease_ms(), "1" if extend else "0", chain])
    except Exception:
        log.warning("the standings chain's lease could not be read", exc_info=True)
        return None


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


def standings_catch_up(*, missed_for: float | None = None) -> int:
    """Recompute, here and now, the tournaments whose snapshot lags behind their games; returns how many.

    ``missed_for`` None: every started tournament whose snapshot misses games or substitutes (after an
    outage: a worker that (re)connects). Seconds: the running tournaments with a change at least that
    old that the snapshot does not count (a worker's periodic look; one query while none lags).
    """
    if missed_for is None:
        lagging = [
            t.pk
            for t in Tournament.objects.exclude(status=Tournament.Status.PLANNED)
            .select_related("standings_snapshot")
            .order_by("pk")
            if getattr(t, "standings_snapshot", None) is None or t.standings_snapshot.marker != games_marker(t)
        ]
    else:
        lagging = tournaments_lagging(timezone.now() - timedelta(seconds=missed_for))
    count = 0
    for tournament_id in lagging:
        try:
            standings_recompute(tournament_id=tournament_id)
        except Exception:  # one tournament's failure must not keep the others behind
            log.exception("the standings catch-up of tournament %s failed", tournament_id)
        else:
            count += 1
    if count:
        log.warning("standings caught up after missed updates: %s tournament(s)", count)
    return count


@shared_task(acks_late=True)
def standings_catch_up_task(missed_for: float | None = None) -> int:
    """Recompute every tournament whose snapshot lags behind its games (see ``standings_catch_up``)."""
    return standings_catch_up(missed_for=missed_for)


class StandingsCatchUp(bootsteps.StartStopStep):
    """A step of every worker's consumer (Celery's bootsteps): catch-ups that need neither a change nor a page.

    Celery starts a consumer's steps each time it has connected to the broker -- when the worker starts
    and again when the broker is back after an outage (the consumer reconnects by itself, and stops its
    steps while the connection is lost) -- and stops them on a lost connection. On each start the step
    sends a whole catch-up; while connected, its timer sends a look for changes older than
    CATCH_UP_AFTER_SECONDS every CATCH_UP_EVERY_SECONDS (expiring unrun if the worker is too busy).
    Both go to the first queue this worker consumes, so a worker on its own queue catches up itself.
    """

    requires = {"celery.worker.consumer.tasks:Tasks"}
    tref = None

    def start(self, c) -> None:
        queue = next(iter(c.app.amqp.queues.consume_from), None)
        _send_catch_up(queue, None)
        self.tref = c.timer.call_repeatedly(
            CATCH_UP_EVERY_SECONDS, _send_catch_up, (queue, CATCH_UP_AFTER_SECONDS), priority=10
        )

    def stop(self, c) -> None:
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None

    shutdown = stop


def _send_catch_up(queue: str | None, missed_for: float | None) -> None:
    try:
        standings_catch_up_task.apply_async(
            kwargs={"missed_for": missed_for},
            **({"queue": queue} if queue else {}),
            **({"expires": CATCH_UP_EVERY_SECONDS * 2} if missed_for is not None else {}),
        )
    except Exception:  # the broker may be going away again: the next connection sends anew
        log.warning("could not send the standings catch-up", exc_info=True)


app.steps["consumer"].add(StandingsCatchUp)
