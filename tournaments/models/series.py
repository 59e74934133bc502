"""A series (Saison or Cup): tournaments ranked together, owned by one club."""

import random

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.messages import rule_error_text
from scoring.rules.errors import RuleError
from scoring.rules.qualification import QualificationRules
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
        QUALIFIER = "qualifier", _("qualification")

    class QualifyMode(models.TextChoices):
        TOP = "top", _("the first of each evening")
        TOP_NOT_QUALIFIED = "top_not_qualified", _("the first not qualified yet (the next one moves up)")

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
        _("best results that count"),
        null=True,
        blank=True,
        help_text=_("Best N of M: only a player's N best results count."),
    )
    placement_points = models.JSONField(
        _("placement points"),
        null=True,
        blank=True,
        help_text=_("Points for 1st, 2nd, 3rd ... place, e.g. 25, 20, 16; places beyond get 0."),
    )
    per_player_beaten = models.BooleanField(
        _("one point per player beaten"),
        default=False,
        help_text=_("Placement points: instead of a table, one point for every player placed below."),
    )
    min_participations = models.PositiveSmallIntegerField(
        _("minimum participations"), default=1, help_text=_("Fewer tournaments and a player is listed, not ranked.")
    )
    tiebreaks = models.JSONField(_("tie-breaks"), default=default_series_tiebreaks)
    public = models.BooleanField(_("standings visible to the public"), default=False)
    lot_seed = models.BigIntegerField(_("seed of the lot"), default=new_series_seed)
    tournaments = models.ManyToManyField(
        Tournament, through="SeriesTournament", related_name="series", verbose_name=_("tournaments")
    )
    # A qualifier series ("Qualifikation"): who of each evening goes to the final (scoring/rules/qualification.py).
    qualify_per_evening = models.PositiveSmallIntegerField(_("qualify per evening"), default=2)
    qualify_mode = models.CharField(
        _("who qualifies"), max_length=20, choices=QualifyMode.choices, default=QualifyMode.TOP_NOT_QUALIFIED
    )
    lottery_places = models.PositiveSmallIntegerField(
        _("final places drawn by lot"),
        default=0,
        help_text=_("Drawn among the players with at least the evenings below who did not qualify otherwise."),
    )
    lottery_min_evenings = models.PositiveSmallIntegerField(_("evenings for the lottery"), default=1)
    final = models.ForeignKey(
        Tournament,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="qualifier_of",
        verbose_name=_("final"),
    )
    invitation_deadline = models.DateField(
        _("answer by"), null=True, blank=True, help_text=_("The invited say by this day whether they play the final.")
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("series")
        verbose_name_plural = _("series")
        ordering = ["-created_at", "name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(best__isnull=True) | models.Q(best__gte=1), name="series_best_positive"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def rules(self) -> SeriesRules:
        return SeriesRules(
            scoring=self.scoring,
            best=self.best,
            placement_points=tuple(self.placement_points) if self.placement_points else None,
            per_player_beaten=self.per_player_beaten,
            min_participations=self.min_participations,
            tiebreaks=tuple(self.tiebreaks or ()),
        )

    @property
    def qualification_rules(self) -> QualificationRules:
        return QualificationRules(
            per_evening=self.qualify_per_evening,
            mode=self.qualify_mode,
            lottery_places=self.lottery_places,
            lottery_min_evenings=self.lottery_min_evenings,
        )

    def clean(self) -> None:
        super().clean()
        if self.final_id and self.club_id and self.final.club_id != self.club_id:
            raise ValidationError({"final": _("The final is a tournament of the series' own club.")})
        if self.lottery_min_evenings < 1:
            raise ValidationError({"lottery_min_evenings": _("At least one evening.")})
        points = self.placement_points
        if points is not None and (not isinstance(points, list) or not all(type(p) is int for p in points)):
            raise ValidationError({"placement_points": _("Whole numbers, separated by commas.")})
        try:
            validate_series_rules(self.rules)
        except RuleError as err:
            raise ValidationError({err.field: rule_error_text(err)}) from err


class SeriesTournament(models.Model):
    """A tournament counted in a series; added by an organiser of the tournament's club."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="entries", verbose_name=_("series"))
    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="series_entries", verbose_name=_("tournament")
    )
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("added by"),
    )
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


class Wildcard(models.Model):
    """A final place the owning club gives without an evening (the defending champion, the host's pick)."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="wildcards", verbose_name=_("series"))
    player = models.ForeignKey(
        "tournaments.Player", on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    reason = models.CharField(_("reason"), max_length=200)

    class Meta:
        verbose_name = _("wildcard")
        verbose_name_plural = _("wildcards")
        ordering = ["series", "pk"]
        constraints = [models.UniqueConstraint(fields=["series", "player"], name="one_wildcard_per_player")]

    def __str__(self) -> str:
        return f"{self.player} ({self.reason})"


class Invitation(models.Model):
    """A qualified player's invitation to the final: his registration there, and whether he declined."""

    class Status(models.TextChoices):
        INVITED = "invited", _("invited")
        DECLINED = "declined", _("declined")

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("series"))
    player = models.ForeignKey(
        "tournaments.Player", on_delete=models.PROTECT, related_name="+", verbose_name=_("player")
    )
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.INVITED)
    registration = models.OneToOneField(
        "tournaments.Registration",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="invitation",
        verbose_name=_("registration"),
    )
    how = models.CharField(_("qualified by"), max_length=20, blank=True)  # evening | wildcard | lottery
    created_at = models.DateTimeField(_("invited"), auto_now_add=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["series", "pk"]
        constraints = [models.UniqueConstraint(fields=["series", "player"], name="one_invitation_per_player")]

    def __str__(self) -> str:
        return f"{self.player}: {self.get_status_display()}"
