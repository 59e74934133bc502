"""A club on a hosted instance: it registers itself ("Verein anlegen"), confirms its mail, waits for the
operator's approval (setting ``CLUB_REGISTRATION``), and the operator approves or suspends it. A suspended
club's pages and logins stop (``access``, ``schafkopfrennen.auth.ClubBackend``, the public selectors); its
data stays."""

import datetime
import logging
import re
import smtplib

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.db.models.functions import Lower
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Club, ClubMembership
from ..postcodes import centroid
from .audit import audit_record
from .errors import ServiceError, StateConflict

log = logging.getLogger(__name__)
CONFIRM_SALT = "tournaments.club-confirm"
CONFIRM_MAX_AGE = datetime.timedelta(days=7)
POSTCODE = re.compile(r"\d{5}")


def postcode_clean(value: str, field: str = "postcode") -> str:
    """A German postcode the calendar can place (five digits, in the shipped list), or "" for none."""
    value = (value or "").strip()
    if not value:
        return ""
    if not POSTCODE.fullmatch(value):
        raise ServiceError(field, _("A postcode has five digits, e.g. 93047."))
    if centroid(value) is None:
        raise ServiceError(field, _("The postcode %(plz)s is not known.") % {"plz": value})
    return value


def confirm_token(club: Club) -> str:
    return signing.dumps({"club": club.pk}, salt=CONFIRM_SALT)


@transaction.atomic
def club_register(
    *, name: str, town: str, postcode: str, username: str, email: str, password: str, url_base: str
) -> Club:
    """A new club with its first organiser's account, both waiting for the mail's confirmation."""
    if settings.CLUB_REGISTRATION == "off":
        raise StateConflict("name", _("This instance takes no new clubs."))
    name, town, username, email = name.strip(), town.strip(), username.strip(), email.strip()
    if not name:
        raise ServiceError("name", _("Say the club's name."))
    if Club.objects.annotate(lower=Lower("name")).filter(lower=name.lower()).exists():
        raise ServiceError("name", _("A club of this name exists already."))
    postcode = postcode_clean(postcode)
    User = get_user_model()
    if not username:
        raise ServiceError("username", _("Choose a user name."))
    if User.objects.filter(username__iexact=username).exists():
        raise ServiceError("username", _("This user name is taken."))
    if not email:
        raise ServiceError("email", _("The confirmation is sent to this address."))
    user = User(username=username, email=email, is_active=False)
    try:
        validate_password(password, user)
    except ValidationError as err:
        raise ServiceError("password", " ".join(err.messages)) from err
    user.set_password(password)
    user.save()
    club = Club.objects.create(
        name=name, town=town, postcode=postcode, email=email, status=Club.Status.PENDING, registered_at=timezone.now()
    )
    ClubMembership.objects.create(user=user, club=club, role=ClubMembership.Role.ORGANISER)
    link = url_base.rstrip("/") + reverse("tournaments:club_confirm", args=[confirm_token(club)])
    transaction.on_commit(lambda: club_mail(club=club, user=user, link=link))
    return club


def club_mail(*, club: Club, user, link: str) -> bool:
    """The confirmation mail (a mail server that fails is logged: the club can ask the operator)."""
    body = render_to_string(
        "clubs/confirm_mail.txt",
        {"club": club, "user": user, "link": link, "approval": settings.CLUB_REGISTRATION == "approved"},
    )
    try:
        send_mail(_("Confirm the club %(club)s") % {"club": club.name}, body, None, [user.email])
    except (smtplib.SMTPException, OSError):
        log.warning("the confirmation mail of club %s could not be sent", club.pk, exc_info=True)
        return False
    return True


@transaction.atomic
def club_confirm(*, token: str) -> Club:
    """The link of the mail: the organiser's account opens; the club is active at once only when registration
    is "open", else it waits for the operator."""
    try:
        data = signing.loads(token, salt=CONFIRM_SALT, max_age=CONFIRM_MAX_AGE)
    except signing.SignatureExpired as err:
        raise ServiceError("token", _("This link has expired: register the club again.")) from err
    except signing.BadSignature as err:
        raise ServiceError("token", _("This link is not valid.")) from err
    club = Club.objects.select_for_update().filter(pk=data.get("club")).first()
    if club is None:
        raise ServiceError("token", _("This link is not valid."))
    if club.email_confirmed_at is None:
        club.email_confirmed_at = timezone.now()
        if club.status == Club.Status.PENDING and settings.CLUB_REGISTRATION == "open":
            club.status = Club.Status.ACTIVE
        club.save(update_fields=["email_confirmed_at", "status"])
        get_user_model().objects.filter(club_memberships__club=club, email__iexact=club.email).update(is_active=True)
    return club


@transaction.atomic
def club_status_set(*, club: Club, status: str, by) -> Club:
    """The operator approves (active), suspends or lets a suspended club in again."""
    if status not in Club.Status.values:
        raise ServiceError("status", _("Unknown status."))
    club = Club.objects.select_for_update().get(pk=club.pk)
    if status == Club.Status.PENDING:
        raise ServiceError("status", _("A club cannot be sent back to waiting."))
    if club.status == status:
        return club
    before = club.status
    club.status = status
    club.save(update_fields=["status"])
    if status == Club.Status.ACTIVE and club.email_confirmed_at is None:
        # The operator vouches for the club: its organiser's account opens without the mail's link.
        club.email_confirmed_at = timezone.now()
        club.save(update_fields=["email_confirmed_at"])
        get_user_model().objects.filter(club_memberships__club=club, email__iexact=club.email).update(is_active=True)
    audit_record(
        action="club.status", by=by, club=club, subject=club.name, before={"status": before}, after={"status": status}
    )
    return club
