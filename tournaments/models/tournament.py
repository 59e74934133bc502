import random
import secrets

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.messages import rule_error_message
from scoring.rules import RuleError, Ruleset, ruleset_from_dict, ruleset_to_dict

from .club import Club, Player


def new_lot_seed() -> int:
    return random.SystemRandom().randrange(1, 2**31)


def new_player_key() -> str:
    """An unguessable key for a player's private page (link and QR code on his start card)."""
    return secrets.token_urlsafe(18)


def default_rules() -> dict:
    """Every ruleset key with its DEFAULT value (rules.md section 10)."""
    return ruleset_to_dict(ruleset_from_dict(None))


def club_label(said: str, player_club: str | None) -> str:
    """The club shown with a registered player: the club he named for this tournament when it is not the
    tournament's (``Registration.club_name``, a text: no other club's records are written), else his own."""
    return said or player_club or ""


_RULESETS: dict[str, Ruleset] = {}  # parsed rulesets by their stored document (Tournament.ruleset)


class Tournament(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="tournaments", verbose_name=_("club"))
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name (URL)"), max_length=100, unique=True)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    postcode = models.CharField(
        _("postcode of the venue"), max_length=5, blank=True, help_text=_("Five digits; empty: the club's postcode.")
    )
    listed = models.BooleanField(
        _("in the public calendar"),
        default=False,
        help_text=_("Shown at /kalender/ and in its iCal feeds until the day has passed."),
    )
    entry_fee_cents = models.PositiveIntegerField(_("entry fee (cents)"), default=1000)
    payout_percent = models.PositiveSmallIntegerField(
        _("payout of entry fees (%)"), default=100, help_text=_("Share of the entry fees that goes to the prize pool.")
    )
    sponsored_cents = models.PositiveIntegerField(_("sponsored amount (cents)"), default=0)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.PLANNED)
    rules = models.JSONField(_("ruleset"), default=default_rules, blank=True)
    standings_public = models.BooleanField(_("standings visible to the public"), default=False)
    # The blackout: publishing the last round hides the standings again (standings_public, the one rule every
    # public surface asks) until the organiser reveals them with one tap at the prize-giving.
    blackout_last_round = models.BooleanField(
        _("hide the standings during the last round"),
        default=False,
        help_text=_(
            "Publishing the last round hides the standings from the public (page, projector, downloads, "
            "players' pages) until you show them again at the prize-giving."
        ),
    )
    last_start_number = models.PositiveIntegerField(
        _("last start number given"),
        default=0,
        editable=False,
        help_text=_("Start numbers are given in order and never reused."),
    )
    lot_seed = models.BigIntegerField(
        _("seed of the lot"),
        default=new_lot_seed,
        help_text=_("Decides ties the other tie-breaks leave open; stored so the order can be explained and repeated."),
    )
    table_cards_generation = models.PositiveIntegerField(
        _("table cards' generation"),
        default=0,
        editable=False,
        help_text=_('Raised by "New table cards": the table cards printed before stop working.'),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-date", "name"]
        constraints = [
            models.CheckConstraint(condition=models.Q(payout_percent__lte=100), name="payout_percent_at_most_100"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%d.%m.%Y})"

    @property
    def ruleset(self) -> Ruleset:
        """The stored rules parsed, once per process while the stored document stays the same.

        Parsing merges and checks the document; a save, a standings page's progress (every table of
        the round asks it) and the standings' writers read it again and again. The parsed ``Ruleset``
        is frozen, so one is shared. Keyed by the document itself (its ``repr``): a changed ruleset is
        a new key, never a stale answer; a ``RuleError`` is raised every time, never kept.
        """
        key = repr(self.rules)
        rules = _RULESETS.get(key)
        if rules is None:
            rules = ruleset_from_dict(self.rules)
            if len(_RULESETS) >= 64:
                _RULESETS.clear()
            _RULESETS[key] = rules
        return rules

    def clean(self) -> None:
        super().clean()
        try:
            self.rules = ruleset_to_dict(ruleset_from_dict(self.rules))
        except RuleError as err:
            raise ValidationError({"rules": rule_error_message(err, with_key=True)}) from err


class Registration(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations", verbose_name=_("tournament")
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="registrations", verbose_name=_("player"))
    start_number = models.PositiveIntegerField(_("start number"))
    paid = models.BooleanField(_("paid"), default=False)
    checked_in = models.BooleanField(_("checked in"), default=False)
    withdrawn_after_round = models.PositiveSmallIntegerField(
        _("withdrawn after round"),
        null=True,
        blank=True,
        help_text=_("Empty while the player plays; 0 = withdrawn before the first round."),
    )
    substitute_for = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="substituted_by",
        verbose_name=_("substitute for"),
    )
    # False: no entry fee is due (a substitute who takes over a seat that was paid, the desk's default).
    fee_due = models.BooleanField(_("owes an entry fee"), default=True)
    # He left while round ``withdrawn_after_round`` was under way ("ausgeschieden in Runde 2"), not after it.
    left_during_round = models.BooleanField(_("left during the round"), default=False)
    prize_handed_over = models.BooleanField(
        _("prize handed over"),
        default=False,
        help_text=_("Ticked at the prize-giving when the desk handed him his prize (money or goods)."),
    )
    prize_chosen = models.CharField(
        _("prize chosen"),
        max_length=200,
        blank=True,
        help_text=_("What he took from the prize table when his place was called."),
    )
    club_name = models.CharField(
        _("club (as said)"),
        max_length=200,
        blank=True,
        help_text=_("A club not the tournament's, as the player named it: shown with his name, never a club record."),
    )
    # Asked only when a category prize needs them, with the player's consent; empty: not given.
    birth_year = models.PositiveSmallIntegerField(_("year of birth"), null=True, blank=True)
    gender = models.CharField(
        _("gender"), max_length=1, blank=True, choices=[("f", _("female")), ("m", _("male")), ("d", _("diverse"))]
    )
    local = models.BooleanField(_("local player"), null=True, blank=True, help_text=_("Empty: not asked."))
    # The venue he plays in (an evening in several inns): where he checked in, then where the draw seated him.
    venue = models.ForeignKey(
        "tournaments.Venue",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="registrations",
        verbose_name=_("venue"),
    )
    # The player's private key: opens his own page (and through it his current table), nothing else.
    key = models.CharField(_("personal key"), max_length=64, unique=True, default=new_player_key, editable=False)
    created_at = models.DateTimeField(_("registered"), auto_now_add=True)

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["tournament", "start_number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "start_number"], name="unique_start_number_per_tournament"),
            models.UniqueConstraint(fields=["tournament", "player"], name="unique_player_per_tournament"),
            models.CheckConstraint(condition=models.Q(start_number__gte=1), name="start_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.start_number}: {self.player}"

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_after_round is not None

    @property
    def club_label(self) -> str:
        return club_label(self.club_name, self.player.club.name if self.player.club_id else "")


class Prize(models.Model):
    """A prize the organiser set for a place (or for the last place: the consolation prize)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="prizes", verbose_name=_("tournament")
    )
    place = models.PositiveSmallIntegerField(
        _("place"), null=True, blank=True, help_text=_("Empty for the last place.")
    )
    amount_cents = models.PositiveIntegerField(_("amount (cents)"), null=True, blank=True)
    goods = models.CharField(_("goods"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("prize")
        verbose_name_plural = _("prizes")
        ordering = ["tournament", models.F("place").asc(nulls_last=True)]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "place"], name="unique_prize_per_place"),
            models.UniqueConstraint(
                fields=["tournament"], condition=models.Q(place__isnull=True), name="one_consolation_prize"
            ),
            models.CheckConstraint(
                condition=models.Q(place__isnull=True) | models.Q(place__gte=1), name="prize_place_positive"
            ),
        ]

    def __str__(self) -> str:
        where = _("last place") if self.place is None else f"{self.place}."
        return f"{where}: {self.goods or self.amount_cents}"
