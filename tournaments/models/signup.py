"""Online sign-up before the evening: the organiser's options, and each person who signed up.

A sign-up with a place has a registration (start number, the personal key of ``s/<key>/``: the
sign-up's own key, so one link serves before and during the evening). A sign-up on the waiting
list has none until it moves up. Everything the desk and the draw count stays a registration.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from .club import Club, Player
from .tournament import Registration, Tournament, new_player_key


class SignUpOptions(models.Model):
    """The organiser's choices for a tournament's public sign-up (one row per tournament, made on demand)."""

    tournament = models.OneToOneField(
        Tournament,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="signup_options",
        verbose_name=_("tournament"),
    )
    open = models.BooleanField(_("public sign-up open"), default=False)
    closes_at = models.DateTimeField(
        _("sign-up closes"), null=True, blank=True, help_text=_("Empty: open until the evening.")
    )
    capacity = models.PositiveIntegerField(_("places"), null=True, blank=True, help_text=_("Empty: no limit."))
    waiting_list = models.BooleanField(_("waiting list when full"), default=True)
    consent_text = models.TextField(_("consent text"), blank=True, help_text=_("Empty: the standard text is shown."))
    start_time = models.TimeField(_("start"), null=True, blank=True)
    pay_until = models.DateTimeField(
        _("pay by"),
        null=True,
        blank=True,
        help_text=_("Empty: pay at the door. After it, places not paid by transfer can be given to the waiting list."),
    )
    checkin_closed_at = models.DateTimeField(_("check-in closed"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("sign-up options")
        verbose_name_plural = _("sign-up options")

    def __str__(self) -> str:
        return str(self.tournament)


class SignUp(models.Model):
    """One person who signed up through the public form."""

    class Status(models.TextChoices):
        PLACE = "place", _("has a place")
        WAITING = "waiting", _("on the waiting list")
        WITHDRAWN = "withdrawn", _("withdrawn")

    class Match(models.TextChoices):
        NONE = "", _("no match")
        PENDING = "pending", _("to be confirmed")
        CONFIRMED = "confirmed", _("same person")
        REJECTED = "rejected", _("another person")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="signups", verbose_name=_("tournament")
    )
    key = models.CharField(_("personal key"), max_length=64, unique=True, default=new_player_key, editable=False)
    first_name = models.CharField(_("first name"), max_length=100)
    last_name = models.CharField(_("last name"), max_length=100)
    club = models.ForeignKey(
        Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("club")
    )
    club_name = models.CharField(
        _("club (typed)"), max_length=200, blank=True, help_text=_("A club not in the list, as the player typed it.")
    )
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("phone"), max_length=50, blank=True)
    consent_text = models.TextField(_("consent given to"))
    consent_at = models.DateTimeField(_("consent given"))
    consent_withdrawn_at = models.DateTimeField(_("consent withdrawn"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices)
    registration = models.OneToOneField(
        Registration,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="signup",
        verbose_name=_("registration"),
    )
    present_at = models.DateTimeField(
        _("at the door"), null=True, blank=True, help_text=_("A player of the waiting list who came to the door.")
    )
    match = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("maybe the same as")
    )
    match_state = models.CharField(_("match"), max_length=10, choices=Match.choices, blank=True, default="")
    language = models.CharField(_("language"), max_length=10, blank=True)
    created_at = models.DateTimeField(_("signed up"), auto_now_add=True)
    withdrawn_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)

    class Meta:
        verbose_name = _("online sign-up")
        verbose_name_plural = _("online sign-ups")
        ordering = ["tournament", "created_at", "id"]
        indexes = [models.Index(fields=["tournament", "status", "created_at"])]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(status="place") | models.Q(registration__isnull=False),
                name="signup_place_has_registration",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def club_label(self) -> str:
        return self.club.name if self.club_id else self.club_name

    @property
    def contact(self) -> str:
        return ", ".join(v for v in (self.email, self.phone) if v)
