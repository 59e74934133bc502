"""The print pack of a round: built by a Celery task, kept as a file, rebuilt only when its data changed.

The pack's state lives in the cache (key per round, no timeout): status ``pending`` (asked for,
waiting for a worker), ``running`` (with progress: score sheets done of the round's tables),
``ready`` or ``failed``, and the fingerprint of the data it was built from
(``selectors.printing.print_pack_fingerprint``). The file lives under MEDIA_ROOT/packs/ with that
fingerprint in its name, so a pack whose file exists for the current fingerprint is current even
if the cache was cleared; when the data changes the fingerprint changes and the pack is stale.

When the cache (Redis) cannot be reached, the state is ``unavailable``: the print page says so and
offers the single documents, which are rendered in the request and need neither cache nor worker.
"""
from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.utils import translation

from schafkopfrennen.celery import AfterCommitTask

from ..models import Round
from ..pdf.pack import render_pack
from ..selectors.printing import DEFAULT_URL_BASE, print_pack_data, print_pack_fingerprint

logger = logging.getLogger(__name__)

PACK_DIR = "packs"
PENDING, RUNNING, READY, FAILED, NONE = "pending", "running", "ready", "failed", "none"
UNAVAILABLE = "unavailable"  # the cache (Redis) cannot be reached: no pack now, the single documents still work
PROGRESS_EVERY = 0.5  # seconds between progress writes to the cache
STUCK_AFTER = 30 * 60  # a pending or running build older than this is offered again


@dataclass(frozen=True)
class PackState:
    """What the print page shows about a round's pack."""

    status: str  # none, pending, running, ready, failed, unavailable
    fingerprint: str
    done: int = 0
    total: int = 0
    path: Path | None = None  # the file, when ready
    size: int = 0  # bytes, when ready
    error: str = ""
    outdated: bool = False  # an earlier pack exists, but the data changed since

    @property
    def busy(self) -> bool:
        return self.status in (PENDING, RUNNING)

    @property
    def percent(self) -> int:
        return int(100 * self.done / self.total) if self.total else 0


def _cache_key(round_id: int) -> str:
    return f"print-pack:{round_id}"


def _language(language: str | None) -> str:
    return language or translation.get_language() or settings.LANGUAGE_CODE


def pack_directory() -> Path:
    return Path(settings.MEDIA_ROOT) / PACK_DIR


def _file_prefix(rnd: Round) -> str:
    return f"{rnd.tournament.slug}-runde-{rnd.number}-"


def pack_file(rnd: Round, fingerprint: str) -> Path:
    return pack_directory() / f"{_file_prefix(rnd)}{fingerprint}.pdf"


def _write_state(round_id: int, **state) -> None:
    cache.set(_cache_key(round_id), {**state, "at": time.time()}, timeout=None)


def _ready(rnd: Round, fingerprint: str) -> PackState | None:
    path = pack_file(rnd, fingerprint)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        return None
    return PackState(READY, fingerprint, path=path, size=size)


def _cache_unreachable(rnd: Round) -> None:
    logger.warning("print pack of round %s: the cache cannot be reached", rnd.pk, exc_info=True)


def round_print_pack_state(*, round: Round, url_base: str = DEFAULT_URL_BASE, language: str | None = None) -> PackState:
    """The pack of the round's current data: ready, being built, failed, not built (maybe outdated), or
    unavailable while the cache cannot be reached (a pack built before is still offered)."""
    with translation.override(_language(language)):
        fingerprint = print_pack_fingerprint(round, url_base=url_base)
    ready = _ready(round, fingerprint)
    if ready is not None:
        return ready
    try:
        state = cache.get(_cache_key(round.pk)) or {}
    except Exception:  # Redis down (a connection error of whichever client): the page must still open
        _cache_unreachable(round)
        return PackState(UNAVAILABLE, fingerprint)
    if state.get("fingerprint") == fingerprint and state.get("status") in (PENDING, RUNNING, FAILED):
        stuck = state["status"] != FAILED and time.time() - state.get("at", 0) > STUCK_AFTER
        if not stuck:
            return PackState(state["status"], fingerprint, done=state.get("done", 0), total=state.get("total", 0),
                             error=state.get("error", ""))
    outdated = any(pack_directory().glob(f"{_file_prefix(round)}*.pdf"))
    return PackState(NONE, fingerprint, outdated=outdated)


def round_print_pack_request(
    *, round: Round, url_base: str = DEFAULT_URL_BASE, language: str | None = None
) -> PackState:
    """Ask for the pack: enqueue a build after commit, unless it is ready or under way for the same data."""
    language = _language(language)
    state = round_print_pack_state(round=round, url_base=url_base, language=language)
    if state.status in (READY, UNAVAILABLE) or state.busy:
        return state
    total = round.tables.count()
    try:
        _write_state(round.pk, status=PENDING, fingerprint=state.fingerprint, done=0, total=total)
    except Exception:
        _cache_unreachable(round)
        return PackState(UNAVAILABLE, state.fingerprint)
    round_print_pack_task.delay(round.pk, url_base=url_base, language=language)  # sent when the request commits
    return PackState(PENDING, state.fingerprint, total=total, outdated=state.outdated)


def round_print_pack_build(*, round: Round, url_base: str = DEFAULT_URL_BASE, language: str | None = None) -> Path:
    """Render the pack and store it, unless a pack of the same data exists already; returns the file.

    Running it twice gives the same file (rendering is deterministic and the name is the data's
    fingerprint); files of the round's earlier data are removed once the new one is in place.
    """
    rnd = Round.objects.select_related("tournament").get(pk=round.pk)
    with translation.override(_language(language)):
        fingerprint = print_pack_fingerprint(rnd, url_base=url_base)
        ready = _ready(rnd, fingerprint)
        if ready is not None:
            _write_state(rnd.pk, status=READY, fingerprint=fingerprint)
            return ready.path
        total = rnd.tables.count()
        _write_state(rnd.pk, status=RUNNING, fingerprint=fingerprint, done=0, total=total)
        last_write = time.monotonic()

        def progress(done: int, tables: int) -> None:
            nonlocal last_write
            now = time.monotonic()
            if done == tables or now - last_write >= PROGRESS_EVERY:
                last_write = now
                _write_state(rnd.pk, status=RUNNING, fingerprint=fingerprint, done=done, total=tables)

        path = pack_file(rnd, fingerprint)
        try:
            pdf = render_pack(print_pack_data(rnd, url_base=url_base), progress=progress)
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(f".{os.getpid()}.part")
            partial.write_bytes(pdf)
            os.replace(partial, path)  # never a half-written pack under the final name
        except Exception as err:
            logger.exception("print pack of round %s failed", rnd.pk)
            _write_state(rnd.pk, status=FAILED, fingerprint=fingerprint, error=str(err)[:300])
            raise
    for old in pack_directory().glob(f"{_file_prefix(rnd)}*.pdf"):
        if old != path:
            old.unlink(missing_ok=True)
    _write_state(rnd.pk, status=READY, fingerprint=fingerprint)
    return path


def _pack_not_sent(task, err: Exception, args, kwargs) -> None:
    """No broker to reach, or (without one) the build itself failed: a pack still pending is marked failed."""
    round_id = args[0]
    try:
        state = cache.get(_cache_key(round_id)) or {}
        if state.get("status") == PENDING:
            _write_state(round_id, status=FAILED, fingerprint=state.get("fingerprint", ""),
                         error=str(err)[:300])
    except Exception:  # the cache went down with the broker: the page says unavailable anyway
        logger.warning("print pack of round %s: the cache cannot be reached", round_id, exc_info=True)


@shared_task(base=AfterCommitTask, acks_late=True, send_failed=_pack_not_sent)
def round_print_pack_task(round_id: int, url_base: str | None = None, language: str | None = None) -> str:
    """Build a round's print pack (seat lists, table cards, score sheets) unless it is current already."""
    rnd = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if rnd is None:  # the round was drawn again or deleted meanwhile
        return ""
    return str(round_print_pack_build(round=rnd, url_base=url_base or DEFAULT_URL_BASE, language=language))
