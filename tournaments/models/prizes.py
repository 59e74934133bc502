"""The prize plan: how a tournament's pool becomes its per-place prizes."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.rules.categories import Category
from scoring.rules.prize_plan import PrizePlanSpec
from scoring.rules.prizes import PrizeSpec

from .tournament import Tournament


class PrizePlan(models.Model):
    """One per tournament: the curve, rounding and goods places; ``prize_plan_apply`` writes its output as the
    tournament's ``Prize`` rows, which stay editable by hand until the tournament is finished."""

    class Curve(models.TextChoices):
        THIRD = "third", _("the top third")
        NTH = "nth", _("every n-th player")
        TABLE = "table", _("a fixed table of shares")
        GEOMETRIC = "geometric", _("1st gets x, each next y % less")

    class Rounding(models.IntegerChoices):
        CENT = 1, _("to the cent")
        EURO = 100, _("whole euros")
        FIVE = 500, _("5 euros")

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="prize_plan", verbose_name=_("tournament")
    )
    curve = models.CharField(_("curve"), max_length=20, choices=Curve.choices, default=Curve.THIRD)
    every_n = models.PositiveSmallIntegerField(_("every n-th player"), default=4)
    decay_percent = models.PositiveSmallIntegerField(
        _("each next place less (%)"), default=10, help_text=_("0: every money place gets the same.")
    )
    first_cents = models.PositiveIntegerField(_("first prize (cents)"), default=0)
    table_bp = models.JSONField(
        _("shares of the pool"),
        default=list,
        blank=True,
        help_text=_("Each place's share in hundredths of a per cent (2150 = 21.5 %)."),
    )
    rounding_cents = models.PositiveIntegerField(_("rounding"), choices=Rounding.choices, default=Rounding.EURO)
    costs_cents = models.PositiveIntegerField(
        _("costs (cents)"), default=0, help_text=_("Taken from the pool before the prizes (hall, goods bought).")
    )
    goods_places = models.PositiveSmallIntegerField(_("goods places"), default=0)
    goods_label = models.CharField(_("goods places receive"), max_length=200, blank=True)
    last_place_goods = models.CharField(_("consolation prize for the last place"), max_length=200, blank=True)
    goods_list = models.TextField(
        _("goods on the prize table"),
        blank=True,
        help_text=_("One per line: the desk picks from them when a place is called."),
    )
    categories_allow_both = models.BooleanField(
        _("a player may win an overall and a category prize"),
        default=False,
        help_text=_("Off: one prize per player, the first in the order of the list (overall, then the categories)."),
    )

    class Meta:
        verbose_name = _("prize plan")
        verbose_name_plural = _("prize plans")
        constraints = [
            models.CheckConstraint(condition=models.Q(decay_percent__lt=100), name="prize_plan_decay_below_100"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.get_curve_display()}"

    @property
    def spec(self) -> PrizePlanSpec:
        return PrizePlanSpec(
            curve=self.curve,
            every_n=self.every_n,
            decay_percent=self.decay_percent,
            first_cents=self.first_cents,
            table_bp=tuple(self.table_bp or ()),
            rounding_cents=self.rounding_cents,
            goods_places=self.goods_places,
            goods_label=self.goods_label,
            last_place_goods=self.last_place_goods,
        )


class PrizeCategory(models.Model):
    """A category prize (U30, Damen, bester Lokalmatador …): who belongs and its places' prizes, in the
    organiser's order (``position``), which says which prize is the better one."""

    class Gender(models.TextChoices):
        ANY = "", _("anyone")
        FEMALE = "f", _("female")
        MALE = "m", _("male")
        DIVERSE = "d", _("diverse")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="prize_categories", verbose_name=_("tournament")
    )
    position = models.PositiveSmallIntegerField(_("order"), default=0)
    name = models.CharField(_("name"), max_length=100)
    min_age = models.PositiveSmallIntegerField(_("age from"), null=True, blank=True)
    max_age = models.PositiveSmallIntegerField(_("age up to"), null=True, blank=True)
    gender = models.CharField(_("gender"), max_length=1, blank=True, choices=Gender.choices)
    local = models.BooleanField(
        _("locals or guests"), null=True, blank=True, help_text=_("Yes: locals only; no: guests only; empty: anyone.")
    )
    prizes = models.JSONField(
        _("prizes"), default=list, blank=True, help_text=_("Per place of the category: {place, amount_cents, goods}.")
    )

    class Meta:
        verbose_name = _("category prize")
        verbose_name_plural = _("category prizes")
        ordering = ["tournament", "position", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="unique_category_name_per_tournament"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.name}"

    @property
    def rule(self) -> Category:
        return Category(
            key=str(self.pk),
            min_age=self.min_age,
            max_age=self.max_age,
            gender=self.gender,
            local=self.local,
            prizes=tuple(PrizeSpec(p.get("place"), p.get("amount_cents"), p.get("goods") or "") for p in self.prizes),
        )
