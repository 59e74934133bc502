"""What changed, who changed it and why: nothing at a tournament is overwritten silently."""
from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .play import Hand, Round, Table
from .tournament import Registration


class SeatSwap(models.Model):
    """The organiser swapped two players' seats before play."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seat_swaps", verbose_name=_("round"))
    first = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="+", verbose_name=_("player"))
    second = models.ForeignKey(Registration, on_delete=models.PROTECT, related_name="+", verbose_name=_("other player"))
    description = models.CharField(_("what changed"), max_length=300)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                           related_name="+", verbose_name=_("by"))
    at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = _("seat swap")
        verbose_name_plural = _("seat swaps")
        ordering = ["-at"]

    def __str__(self) -> str:
        return self.description


class HandRevision(models.Model):
    """One change to a game: the old and new record, when, from which device or user, why.

    Paper mode's round totals are a change at the table too: action ``totals``, ``number`` 0 (the
    round totals, not a game), ``old``/``new`` the totals by seat (``{"1": 12, ...}``; ``old`` None
    the first time).
    """

    TOTALS_NUMBER = 0  # ``number`` of a ``totals`` revision: the round totals, not a game

    class Action(models.TextChoices):
        CREATE = "create", _("entered")
        UPDATE = "update", _("corrected")
        DELETE = "delete", _("deleted")
        TOTALS = "totals", _("round totals entered")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hand_revisions", verbose_name=_("table"))
    hand = models.ForeignKey(Hand, on_delete=models.SET_NULL, null=True, blank=True, related_name="revisions",
                             verbose_name=_("game"))
    number = models.PositiveSmallIntegerField(_("game"))
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    old = models.JSONField(_("old values"), null=True, blank=True)
    new = models.JSONField(_("new values"), null=True, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                           related_name="+", verbose_name=_("by"))
    device = models.CharField(_("device"), max_length=200, blank=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = _("game revision")
        verbose_name_plural = _("game revisions")
        ordering = ["table", "number", "at", "id"]
        constraints = [
            # Game numbers start at 1; number 0 is the round totals, and only there.
            models.CheckConstraint(
                condition=(models.Q(action="totals", number=0, hand__isnull=True)
                           | (~models.Q(action="totals") & models.Q(number__gte=1))),
                name="hand_revision_totals_number_0",
            ),
        ]

    def __str__(self) -> str:
        if self.action == self.Action.TOTALS:
            return f"{self.table}: {self.get_action_display()}"
        return f"{self.table} – {_('game')} {self.number}: {self.get_action_display()}"
