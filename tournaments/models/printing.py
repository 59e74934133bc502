from django.db import models
from django.utils.translation import gettext_lazy as _

from .play import Round


def pack_upload_to(pack: "PrintPack", filename: str) -> str:
    return f"packs/{filename}"


class PrintPack(models.Model):
    """A round's print pack (seat lists, table cards, score sheets in one PDF), built by a background task.

    One row per round: the fingerprint of the data it is (being) built from, its state and progress,
    and the file once built. A pack built from other data than the round's current data is outdated.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("waiting for a worker")
        RUNNING = "running", _("being built")
        READY = "ready", _("ready")
        FAILED = "failed", _("failed")

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="print_pack", verbose_name=_("round"))
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    fingerprint = models.CharField(_("data fingerprint"), max_length=64)
    done = models.PositiveIntegerField(_("score sheets done"), default=0)
    total = models.PositiveIntegerField(_("score sheets"), default=0)
    error = models.CharField(_("error"), max_length=300, blank=True)
    file = models.FileField(_("file"), upload_to=pack_upload_to, blank=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("print pack")
        verbose_name_plural = _("print packs")

    def __str__(self) -> str:
        return f"{self.round} · {self.status}"
