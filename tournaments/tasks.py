"""Thin Celery wrappers around services."""
from celery import shared_task

from .models import Round, WorkerPing
from .selectors.printing import DEFAULT_URL_BASE
from .services.printing import round_print_pack_build


@shared_task(bind=True, acks_late=True)
def worker_ping_task(self, token: str) -> str:
    """Write a row to prove that a task went through the broker and a worker (node name kept)."""
    WorkerPing.objects.get_or_create(token=token, defaults={"hostname": self.request.hostname or ""})
    return token


@shared_task(acks_late=True)
def round_print_pack_task(round_id: int, url_base: str | None = None, language: str | None = None) -> str:
    """Build a round's print pack (seat lists, table cards, score sheets) unless it is current already."""
    rnd = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if rnd is None:  # the round was drawn again or deleted meanwhile
        return ""
    return str(round_print_pack_build(round=rnd, url_base=url_base or DEFAULT_URL_BASE, language=language))
