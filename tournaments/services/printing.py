"""The print pack of a round: built by a Celery task, kept as a model's file, rebuilt only when its data changed.

The pack's job is a ``PrintPack`` row per round: its status ``pending`` (asked for, waiting for a
worker), ``running`` (with progress: score sheets done of the round's tables), ``ready`` or
``failed``, the fingerprint of the data it was built from (``selectors.printing.print_pack_fingerprint``)
and, once built, its file (under MEDIA_ROOT/packs/). A pack whose fingerprint is the round's current
one is current; when the data changes the fingerprint changes and the pack is outdated.

When real workers are configured and their broker (Redis) cannot be reached, the state is
``unavailable``: the print page says so and offers the single documents, which are rendered in the
request and need no worker.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path

from celery import shared_task
from django.conf import settings
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone, translation

from schafkopfrennen.celery import AfterCommitTask, app

from ..models import PrintPack, Round
from ..pdf.pack import render_pack
from ..selectors.printing import DEFAULT_URL_BASE, print_pack_data, print_pack_fingerprint

logger = logging.getLogger(__name__)

PACK_DIR = "packs"
PENDING, RUNNING, READY, FAILED = (
    PrintPack.Status.PENDING.value,
    PrintPack.Status.RUNNING.value,
    PrintPack.Status.READY.value,
    PrintPack.Status.FAILED.value,
)
NONE = "none"
UNAVAILABLE = "unavailable"  # the broker cannot be reached: no pack now, the single documents still work
PROGRESS_EVERY = 0.5  # seconds between progress writes
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


def _language(language: str | None) -> str:
    return language or translation.get_language() or settings.LANGUAGE_CODE


def pack_directory() -> Path:
    return Path(settings.MEDIA_ROOT) / PACK_DIR


def _file_name(rnd: Round, fingerprint: str) -> str:
    return f"{rnd.tournament.slug}-runde-{rnd.number}-{fingerprint}.pdf"


def _stored(pack: PrintPack) -> tuple[Path, int] | None:
    """The pack's file and its size, if it has one that is there."""
    if not pack.file:
        return None
    try:
        return Path(pack.file.path), pack.file.size
    except (FileNotFoundError, OSError):
        return None


def _broker_reachable() -> bool:
    """Without a broker every task runs in-process; with one, whether it answers now."""
    if app.conf.task_always_eager:
        return True
    try:
        with app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=1, interval_start=0, timeout=1)
    except Exception:  # whichever error the transport raises for a server that is not there
        logger.warning("print pack: the broker cannot be reached", exc_info=True)
        return False
    return True


def _state(pack: PrintPack | None, fingerprint: str) -> PackState:
    if pack is None:
        return PackState(NONE, fingerprint)
    stored = _stored(pack)
    if pack.fingerprint == fingerprint:
        if pack.status == READY and stored is not None:
            return PackState(READY, fingerprint, path=stored[0], size=stored[1])
        stuck = pack.status in (PENDING, RUNNING) and (timezone.now() - pack.updated_at).total_seconds() > STUCK_AFTER
        if pack.status in (PENDING, RUNNING, FAILED) and not stuck:
            return PackState(
                pack.status,
                fingerprint,
                done=pack.done,
                total=pack.total,
                error=pack.error,
                outdated=stored is not None and pack.status == FAILED,
            )
    return PackState(NONE, fingerprint, outdated=stored is not None)


def round_print_pack_state(*, round: Round, url_base: str = DEFAULT_URL_BASE, language: str | None = None) -> PackState:
    """The pack of the round's current data: ready, being built, failed, not built (maybe outdated), or
    unavailable while the broker cannot be reached (a pack built before is still offered)."""
    with translation.override(_language(language)):
        fingerprint = print_pack_fingerprint(round, url_base=url_base)
    state = _state(PrintPack.objects.filter(round=round).first(), fingerprint)
    if state.status in (NONE, FAILED) and not _broker_reachable():
        return PackState(UNAVAILABLE, fingerprint)
    return state


@transaction.atomic
def round_print_pack_request(
    *, round: Round, url_base: str = DEFAULT_URL_BASE, language: str | None = None
) -> PackState:
    """Ask for the pack: enqueue a build after commit, unless it is ready or under way for the same data."""
    language = _language(language)
    Round.objects.select_for_update().filter(pk=round.pk).first()  # one request per round at a time
    state = round_print_pack_state(round=round, url_base=url_base, language=language)
    if state.status in (READY, UNAVAILABLE) or state.busy:
        return state
    total = round.tables.count()
    pack, _created = PrintPack.objects.get_or_create(round=round, defaults={"fingerprint": state.fingerprint})
    PrintPack.objects.filter(pk=pack.pk).update(
        status=PENDING, fingerprint=state.fingerprint, done=0, total=total, error="", updated_at=timezone.now()
    )
    round_print_pack_task.delay(round.pk, url_base=url_base, language=language)  # sent when the request commits
    return PackState(PENDING, state.fingerprint, total=total, outdated=state.outdated)


def round_print_pack_build(*, round: Round, url_base: str = DEFAULT_URL_BASE, language: str | None = None) -> Path:
    """Render the pack and store it, unless a pack of the same data exists already; returns the file.

    Running it twice gives the same file (rendering is deterministic); the file of the round's earlier
    data is removed once the new one is in place, and the row points to a file only once it is whole.
    """
    rnd = Round.objects.select_related("tournament").get(pk=round.pk)
    with translation.override(_language(language)):
        fingerprint = print_pack_fingerprint(rnd, url_base=url_base)
        pack, _created = PrintPack.objects.get_or_create(round=rnd, defaults={"fingerprint": fingerprint})
        ready = _state(pack, fingerprint)
        if ready.status == READY:
            return ready.path
        total = rnd.tables.count()
        rows = PrintPack.objects.filter(pk=pack.pk)
        rows.update(status=RUNNING, fingerprint=fingerprint, done=0, total=total, error="", updated_at=timezone.now())
        last_write = time.monotonic()

        def progress(done: int, tables: int) -> None:
            nonlocal last_write
            now = time.monotonic()
            if done == tables or now - last_write >= PROGRESS_EVERY:
                last_write = now
                rows.update(done=done, total=tables, updated_at=timezone.now())

        try:
            pdf = render_pack(print_pack_data(rnd, url_base=url_base), progress=progress)
            old = pack.file.name if pack.file else ""
            pack.file.save(_file_name(rnd, fingerprint), ContentFile(pdf), save=False)
        except Exception as err:
            logger.exception("print pack of round %s failed", rnd.pk)
            rows.update(status=FAILED, error=str(err)[:300], updated_at=timezone.now())
            raise
    rows.update(status=READY, file=pack.file.name, done=total, total=total, updated_at=timezone.now())
    if old and old != pack.file.name:
        pack.file.storage.delete(old)
    return Path(pack.file.path)


def _pack_not_sent(task, err: Exception, args, kwargs) -> None:
    """No broker to reach, or (without one) the build itself failed: a pack still pending is marked failed."""
    PrintPack.objects.filter(round_id=args[0], status=PENDING).update(
        status=FAILED, error=str(err)[:300], updated_at=timezone.now()
    )


@shared_task(base=AfterCommitTask, acks_late=True, send_failed=_pack_not_sent)
def round_print_pack_task(round_id: int, url_base: str | None = None, language: str | None = None) -> str:
    """Build a round's print pack (seat lists, table cards, score sheets) unless it is current already."""
    rnd = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if rnd is None:  # the round was drawn again or deleted meanwhile
        return ""
    return str(round_print_pack_build(round=rnd, url_base=url_base or DEFAULT_URL_BASE, language=language))
