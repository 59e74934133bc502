"""The mails of the online sign-up, through Django's mail framework (the console on the embedded default)."""

import logging
import smtplib

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMessage
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from schafkopfrennen.celery import AfterCommitTask

from ..models import SignUp
from ..qr import epc_qr_png
from ..selectors.payments import payment_details
from ..selectors.signup import signup_options_for, waiting_position

log = logging.getLogger(__name__)
KINDS = ("confirmation", "moved_up")


def signup_links(signup: SignUp, url_base: str) -> dict:
    base = url_base.rstrip("/")
    return {
        "personal_url": base + reverse("tournaments:signup_page", args=[signup.key]),
        "rules_url": base + reverse("tournaments:rules_pdf", args=[signup.tournament.slug]),
    }


def signup_mail_send(*, signup_id: int, kind: str, url_base: str) -> bool:
    """Sends one mail; a mail server that fails is logged, never fails the sign-up (it is committed)."""
    signup = SignUp.objects.select_related("tournament__club", "registration", "club").filter(pk=signup_id).first()
    if signup is None or not signup.email or kind not in KINDS:
        return False
    with translation.override(signup.language or settings.LANGUAGE_CODE):
        context = {
            "signup": signup,
            "tournament": signup.tournament,
            "options": signup_options_for(signup.tournament),
            "kind": kind,
            "position": waiting_position(signup),
            **signup_links(signup, url_base),
            "start_number": signup.registration.start_number if signup.registration_id else None,
            "payment": payment_details(signup),
        }
        if kind == "moved_up":
            subject = _("%(tournament)s: you have a place now") % {"tournament": signup.tournament.name}
        elif signup.status == SignUp.Status.WAITING:
            subject = _("%(tournament)s: you are on the waiting list") % {"tournament": signup.tournament.name}
        else:
            subject = _("%(tournament)s: your sign-up") % {"tournament": signup.tournament.name}
        body = render_to_string("signup/mail.txt", context)
    message = EmailMessage(subject, body, None, [signup.email])
    if context["payment"]:
        details = context["payment"]
        message.attach(
            "girocode.png",
            epc_qr_png(
                name=details["name"],
                iban=details["iban"],
                amount_cents=details["amount_cents"],
                reference=details["reference"],
            ),
            "image/png",
        )
    try:
        message.send()
    except (smtplib.SMTPException, OSError):
        log.warning("the sign-up mail to sign-up %s could not be sent", signup_id, exc_info=True)
        return False
    return True


@shared_task(base=AfterCommitTask, acks_late=True)
def signup_mail_task(signup_id: int, kind: str, url_base: str) -> bool:
    """The confirmation of an online sign-up (or the news that a waiting player moved up) by e-mail."""
    return signup_mail_send(signup_id=signup_id, kind=kind, url_base=url_base)
