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
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
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
        # Two devices entered the same game differently; the table kept one. ``old``: the version
        # set aside, ``new``: the one kept (now the game).
        CONFLICT = "conflict", _("other version set aside")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="hand_revisions", verbose_name=_("table"))
    hand = models.ForeignKey(
        Hand, on_delete=models.SET_NULL, null=True, blank=True, related_name="revisions", verbose_name=_("game")
    )
    number = models.PositiveSmallIntegerField(_("game"))
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
    old = models.JSONField(_("old values"), null=True, blank=True)
    new = models.JSONField(_("new values"), null=True, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
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
                condition=(
                    models.Q(action="totals", number=0, hand__isnull=True)
                    | (~models.Q(action="totals") & models.Q(number__gte=1))
                ),
                name="hand_revision_totals_number_0",
            ),
        ]
        # Each table's newest revision (the standings' recompute notes it per table): one index probe a table.
        indexes = [models.Index(fields=["table", "id"], name="revision_newest_per_table")]

    def __str__(self) -> str:
        if self.action == self.Action.TOTALS:
            return f"{self.table}: {self.get_action_display()}"
        return f"{self.table} – {_('game')} {self.number}: {self.get_action_display()}"


class AuditEntry(models.Model):
    """One organiser action at a club or tournament: who, when, what, and the values before and after.

    Written only through ``tournaments.services.audit.audit_record``; never edited. ``action`` is a
    short dotted code (``registration.paid``, ``round.publish``, ``table.close`` ...), ``subject`` a
    readable label of what it concerns ("Runde 2", "17: Huber, Sepp").
    """

    club = models.ForeignKey(
        "tournaments.Club", on_delete=models.CASCADE, related_name="audit_entries", verbose_name=_("club")
    )
    tournament = models.ForeignKey(
        "tournaments.Tournament",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="audit_entries",
        verbose_name=_("tournament"),
    )
    action = models.CharField(_("action"), max_length=60)
    subject = models.CharField(_("concerns"), max_length=300, blank=True)
    before = models.JSONField(_("before"), null=True, blank=True)
    after = models.JSONField(_("after"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    # The user's name as it was: stays when the account is deleted, travels in the archive.
    by_name = models.CharField(_("by (name)"), max_length=150, blank=True)
    at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["tournament", "-at"]), models.Index(fields=["club", "-at"])]

    def __str__(self) -> str:
        return f"{self.at:%d.%m.%Y %H:%M} {self.action} {self.subject}"
