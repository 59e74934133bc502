from django.db import models
from django.utils.translation import gettext_lazy as _


class WorkerPing(models.Model):
    """A row a background worker wrote: proof that tasks go through the broker and a worker."""

    token = models.CharField(_("token"), max_length=64, unique=True)
    hostname = models.CharField(_("worker"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("worker ping")
        verbose_name_plural = _("worker pings")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.token} @ {self.hostname}"
