from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    class Status(models.TextChoices):
        # A club that registered itself waits here (after confirming its mail) for the operator's approval.
        PENDING = "pending", _("awaiting approval")
        ACTIVE = "active", _("active")
        # Its pages and logins stop; its data stays.
        SUSPENDED = "suspended", _("suspended")

    name = models.CharField(_("name"), max_length=200, unique=True)
    town = models.CharField(_("town"), max_length=200, blank=True)
    postcode = models.CharField(
        _("postcode"),
        max_length=5,
        blank=True,
        help_text=_("Five digits; places the club's tournaments in the calendar's distance search."),
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    email = models.EmailField(
        _("e-mail"), blank=True, help_text=_("The first organiser's address, from the club's registration.")
    )
    email_confirmed_at = models.DateTimeField(_("e-mail confirmed"), null=True, blank=True)
    registered_at = models.DateTimeField(_("registered"), null=True, blank=True, editable=False)
    # For the GiroCode on a sign-up's confirmation (a bank transfer of the entry fee, no payment provider).
    iban = models.CharField(
        _("IBAN"),
        max_length=34,
        blank=True,
        help_text=_("The club's account for entry fees paid in advance (GiroCode)."),
    )
    account_holder = models.CharField(_("account holder"), max_length=70, blank=True)
    logo = models.ImageField(
        _("logo"), upload_to="logos/", blank=True, help_text=_("Printed on certificates and lists; PNG or JPEG.")
    )

    class Meta:
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class ClubMembership(models.Model):
    """A user's role in a club: what they may do with the club's tournaments."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", _("organiser")
        DESK = "desk", _("desk helper")
        VIEWER = "viewer", _("viewer")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="club_memberships",
        verbose_name=_("user"),
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("club"))
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, default=Role.ORGANISER)

    class Meta:
        verbose_name = _("club membership")
        verbose_name_plural = _("club memberships")
        ordering = ["club__name", "user__username"]
        constraints = [models.UniqueConstraint(fields=["user", "club"], name="unique_membership_per_club")]

    def __str__(self) -> str:
        return f"{self.user} – {self.club} ({self.get_role_display()})"


class Player(models.Model):
    """A person, kept across tournaments."""

    first_name = models.CharField(_("first name"), max_length=100)
    last_name = models.CharField(_("last name"), max_length=100)
    club = models.ForeignKey(
        Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="players", verbose_name=_("club")
    )
    contact = models.CharField(_("contact"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["last_name", "first_name", "id"]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def sort_name(self) -> str:
        return f"{self.last_name}, {self.first_name}" if self.first_name else self.last_name
