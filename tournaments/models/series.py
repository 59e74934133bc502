"""A series (Saison or Cup): tournaments ranked together, owned by one club."""
import random

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.messages import rule_error_text
from scoring.rules.errors import RuleError
from scoring.rules.series import DEFAULT_TIEBREAKS, SeriesRules, validate_series_rules

from .club import Club
from .tournament import Tournament


def new_series_seed() -> int:
    return random.SystemRandom().randrange(1, 2**31)


def default_series_tiebreaks() -> list[str]:
    return list(DEFAULT_TIEBREAKS)


class Series(models.Model):
    class Kind(models.TextChoices):
        SEASON = "season", _("season")
        CUP = "cup", _("cup")

    class Scoring(models.TextChoices):
        SUM = "sum", _("sum of tournament points")
        BEST_N = "best_n", _("best N of M tournaments")
        PLACEMENT = "placement", _("placement points")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="series", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name (URL)"), max_length=100, unique=True)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, default=Kind.SEASON)
    scoring = models.CharField(_("scoring"), max_length=20, choices=Scoring.choices, default=Scoring.SUM)
    best = models.PositiveSmallIntegerField(
        _("best results that count"), null=True, blank=True,
        help_text=_("Best N of M: only a player's N best results count."))
    placement_points = models.JSONField(
        _("placement points"), null=True, blank=True,
        help_text=_("Points for 1st, 2nd, 3rd ... place, e.g. 25, 20, 16; places beyond get 0."))
    per_player_beaten = models.BooleanField(
        _("one point per player beaten"), default=False,
        help_text=_("Placement points: instead of a table, one point for every player placed below."))
    min_participations = models.PositiveSmallIntegerField(
        _("minimum participations"), default=1, help_text=_("Fewer tournaments and a player is listed, not ranked."))
    tiebreaks = models.JSONField(_("tie-breaks"), default=default_series_tiebreaks)
    public = models.BooleanField(_("standings visible to the public"), default=False)
    lot_seed = models.BigIntegerField(_("seed of the lot"), default=new_series_seed)
    tournaments = models.ManyToManyField(
        Tournament, through="SeriesTournament", related_name="series", verbose_name=_("tournaments"))
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("series")
        verbose_name_plural = _("series")
        ordering = ["-created_at", "name"]
        constraints = [
            models.CheckConstraint(condition=models.Q(best__isnull=True) | models.Q(best__gte=1),
                                   name="series_best_positive"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rules(self) -> SeriesRules:
        return SeriesRules(
            scoring=self.scoring, best=self.best,
            placement_points=tuple(self.placement_points) if self.placement_points else None,
            per_player_beaten=self.per_player_beaten, min_participations=self.min_participations,
            tiebreaks=tuple(self.tiebreaks or ()),
        )

    def clean(self) -> None:
        super().clean()
        points = self.placement_points
        if points is not None and (not isinstance(points, list)
                                   or not all(type(p) is int for p in points)):
            raise ValidationError({"placement_points": _("Whole numbers, separated by commas.")})
        try:
            validate_series_rules(self.rules)
        except RuleError as err:
            raise ValidationError({err.field: rule_error_text(err)}) from err


class SeriesTournament(models.Model):
    """A tournament counted in a series; added by an organiser of the tournament's club."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="entries", verbose_name=_("series"))
    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="series_entries", verbose_name=_("tournament"))
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("added by"))
    added_at = models.DateTimeField(_("added"), auto_now_add=True)

    class Meta:
        verbose_name = _("tournament of a series")
        verbose_name_plural = _("tournaments of a series")
        ordering = ["series", "tournament__date", "tournament__name"]
        constraints = [
            models.UniqueConstraint(fields=["series", "tournament"], name="unique_tournament_per_series"),
        ]

    def __str__(self) -> str:
        return f"{self.series} – {self.tournament}"
