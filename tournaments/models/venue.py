"""A venue of a tournament played in several inns at once: its name, address, contact and its tables."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _


class Venue(models.Model):
    """One inn of an evening in several: the tables numbered ``first_table`` … ``last_table`` stand here.

    Its desk helpers (``helpers``) see and change only this venue: its check-in, its tables' paper
    totals, its seat list, print pack and projector. A player's venue is ``Registration.venue``.
    """

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="venues", verbose_name=_("tournament")
    )
    name = models.CharField(_("name"), max_length=200)
    address = models.CharField(_("address"), max_length=300, blank=True)
    contact = models.CharField(
        _("contact"), max_length=200, blank=True, help_text=_("Who answers the phone there on the evening.")
    )
    first_table = models.PositiveSmallIntegerField(_("first table"))
    last_table = models.PositiveSmallIntegerField(_("last table"))
    helpers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="venue_desks", verbose_name=_("desk helpers")
    )

    class Meta:
        verbose_name = _("venue")
        verbose_name_plural = _("venues")
        ordering = ["tournament", "first_table"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="unique_venue_name_per_tournament"),
            models.CheckConstraint(condition=models.Q(first_table__gte=1), name="venue_first_table_positive"),
            models.CheckConstraint(
                condition=models.Q(last_table__gte=models.F("first_table")), name="venue_tables_in_order"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def tables(self) -> int:
        """How many tables stand here."""
        return self.last_table - self.first_table + 1

    def clean(self) -> None:
        super().clean()
        if self.first_table is not None and self.first_table < 1:
            raise ValidationError({"first_table": _("Tables are numbered from 1.")})
        if self.first_table and self.last_table and self.last_table < self.first_table:
            raise ValidationError({"last_table": _("The last table comes after the first.")})
        if self.tournament_id and self.first_table and self.last_table:
            other = (
                Venue.objects.filter(
                    tournament_id=self.tournament_id, first_table__lte=self.last_table, last_table__gte=self.first_table
                )
                .exclude(pk=self.pk)
                .first()
            )
            if other is not None:
                raise ValidationError(
                    {
                        "first_table": _("Tables %(first)d–%(last)d are %(venue)s's already.")
                        % {"first": other.first_table, "last": other.last_table, "venue": other.name}
                    }
                )
