"""Reads of the online sign-up and the check-in at the door."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.rules.collation import name_sort_key

from ..models import Registration, Round, SignUp, SignUpOptions, Tournament
from .desk import club_players

DEFAULT_CONSENT = gettext_lazy(
    "I agree that the organising club stores my name, club and the contact details I give, to run this "
    "tournament (start list, results) and to invite me to its next tournaments. I can withdraw my consent at "
    "any time through my personal link; then my contact details are deleted."
)


def consent_text(options: SignUpOptions) -> str:
    return options.consent_text.strip() or str(DEFAULT_CONSENT)


def signup_options_for(tournament: Tournament) -> SignUpOptions:
    """The tournament's options; an unsaved closed default when the organiser never set any."""
    try:
        return tournament.signup_options
    except SignUpOptions.DoesNotExist:
        return SignUpOptions(tournament=tournament)


def places_taken(tournament: Tournament) -> int:
    """Registrations not withdrawn (from the sign-up and from the desk alike)."""
    return Registration.objects.filter(tournament=tournament, withdrawn_after_round__isnull=True).count()


def started(tournament: Tournament) -> bool:
    return Round.objects.filter(tournament=tournament).exists()


@dataclass(frozen=True)
class SignUpRefusal:
    """Why nobody can sign up now: the page shows ``message``, the service raises it as a StateConflict."""

    message: str
    code: str
    field: str = "tournament"


def signup_refusal(
    tournament: Tournament, options: SignUpOptions, *, now: datetime.datetime | None = None
) -> SignUpRefusal | None:
    """Why nobody can sign up now (None: the form is open). Full-without-waiting-list is told at sending."""
    now = now or timezone.now()
    if not options.open:
        return SignUpRefusal(_("The online sign-up of this tournament is not open."), "not_open")
    if options.closes_at is not None and now >= options.closes_at:
        when = date_format(timezone.localtime(options.closes_at), "SHORT_DATETIME_FORMAT")
        return SignUpRefusal(_("The sign-up closed on %(when)s.") % {"when": when}, "closed")
    if options.checkin_closed_at is not None or started(tournament) or tournament.status != Tournament.Status.PLANNED:
        return SignUpRefusal(_("The sign-up is closed: the tournament has begun."), "closed")
    return None


def waiting(tournament: Tournament) -> QuerySet[SignUp]:
    """The waiting list in its order."""
    return SignUp.objects.filter(tournament=tournament, status=SignUp.Status.WAITING).order_by("created_at", "id")


def waiting_position(signup: SignUp) -> int | None:
    if signup.status != SignUp.Status.WAITING:
        return None
    earlier = waiting(signup.tournament).filter(
        Q(created_at__lt=signup.created_at) | Q(created_at=signup.created_at, id__lt=signup.id)
    )
    return earlier.count() + 1


# An address nobody has confirmed gets one confirmation mail a day at most: whoever types someone else's
# address into the form again and again sends him one mail, not a flood.
MAIL_ONCE_PER = datetime.timedelta(hours=24)


def signup_mail_withheld(signup: SignUp) -> bool:
    """Whether the sign-up's confirmation mail is not sent: the same address signed up (anywhere) in the
    ``MAIL_ONCE_PER`` before it, and got its confirmation then."""
    if not signup.email:
        return False
    return SignUp.objects.filter(
        email__iexact=signup.email, pk__lt=signup.pk, created_at__gt=signup.created_at - MAIL_ONCE_PER
    ).exists()


def signup_for_key(key: str) -> SignUp | None:
    return SignUp.objects.select_related("tournament__club", "registration__player", "club").filter(key=key).first()


@dataclass(frozen=True)
class SignUpPage:
    """What the confirmation page and mail say."""

    signup: SignUp
    tournament: Tournament
    options: SignUpOptions
    start_number: int | None
    position: int | None
    entry_fee_cents: int
    withdrawn: bool
    can_withdraw: bool
    consent_withdrawn: bool
    checked_in: bool
    mail_withheld: bool = False  # no confirmation mail: one went to the same address a moment ago

    @property
    def when(self) -> datetime.date:
        return self.tournament.date


def signup_page_data(signup: SignUp) -> SignUpPage:
    tournament = signup.tournament
    reg = signup.registration
    withdrawn = signup.status == SignUp.Status.WITHDRAWN
    return SignUpPage(
        signup=signup,
        tournament=tournament,
        options=signup_options_for(tournament),
        start_number=reg.start_number if reg is not None and not withdrawn else None,
        position=waiting_position(signup),
        entry_fee_cents=tournament.entry_fee_cents,
        withdrawn=withdrawn,
        can_withdraw=not withdrawn and not tournament.rounds.exists(),
        consent_withdrawn=signup.consent_withdrawn_at is not None,
        checked_in=bool(reg is not None and reg.checked_in),
        mail_withheld=signup_mail_withheld(signup),
    )


@dataclass(frozen=True)
class SignUpFormState:
    """The public form's state: open or why not, the consent to show, the clubs to pick from, places left."""

    tournament: Tournament
    options: SignUpOptions
    refusal: str
    consent: str
    places_left: int | None
    waiting: int


def signup_form_state(tournament: Tournament) -> SignUpFormState:
    options = signup_options_for(tournament)
    refusal = signup_refusal(tournament, options)
    left = None
    if options.capacity is not None:
        left = max(options.capacity - places_taken(tournament), 0)
    waiting = SignUp.objects.filter(tournament=tournament, status=SignUp.Status.WAITING).count()
    return SignUpFormState(
        tournament, options, refusal.message if refusal else "", consent_text(options), left, waiting
    )


@dataclass(frozen=True)
class CheckinCounts:
    registered: int  # places taken (not withdrawn)
    present: int
    paid: int
    waiting: int
    waiting_present: int

    @property
    def missing(self) -> int:
        return self.registered - self.present


def checkin_counts_data(tournament: Tournament) -> CheckinCounts:
    active = Q(withdrawn_after_round__isnull=True)
    counts = Registration.objects.filter(tournament=tournament).aggregate(
        registered=Count("id", filter=active),
        present=Count("id", filter=active & Q(checked_in=True)),
        paid=Count("id", filter=active & Q(paid=True)),
    )
    waiting = SignUp.objects.filter(tournament=tournament, status=SignUp.Status.WAITING).aggregate(
        waiting=Count("id"), waiting_present=Count("id", filter=Q(present_at__isnull=False))
    )
    return CheckinCounts(**counts, **waiting)


def _name_filter(words: list[str], prefix: str = "") -> Q:
    condition = Q()
    for word in words:
        condition &= Q(**{f"{prefix}first_name__icontains": word}) | Q(**{f"{prefix}last_name__icontains": word})
    return condition


@dataclass(frozen=True)
class CheckinMatches:
    registrations: list[Registration]
    waiting: list[SignUp]


def checkin_search(tournament: Tournament, query: str, limit: int = 10) -> CheckinMatches:
    """Players of this tournament (and of its waiting list) whose names hold every word typed."""
    words = query.split()
    if not words:
        return CheckinMatches([], [])
    regs = (
        Registration.objects.filter(tournament=tournament)
        .filter(_name_filter(words, "player__"))
        .select_related("player__club", "tournament")
        .order_by("player__last_name", "player__first_name")[:limit]
    )
    waiting = (
        SignUp.objects.filter(tournament=tournament, status=SignUp.Status.WAITING)
        .filter(_name_filter(words))
        .select_related("club")[:limit]
    )
    return CheckinMatches(list(regs), list(waiting))


def signups_for_desk(tournament: Tournament) -> QuerySet[SignUp]:
    return (
        SignUp.objects.filter(tournament=tournament)
        .select_related("registration__player__club", "club", "match__club")
        .order_by("created_at", "id")
    )


def signups_to_confirm(tournament: Tournament) -> list[SignUp]:
    """Returning players: the sign-up looks like a player of the club database; the desk confirms."""
    return list(
        signups_for_desk(tournament).filter(
            match_state=SignUp.Match.PENDING, registration__isnull=False, match__in=club_players(tournament.club_id)
        )
    )


@dataclass(frozen=True)
class Invitation:
    first_name: str
    last_name: str
    club: str
    email: str
    phone: str
    last_tournament: str
    last_date: datetime.date


def invitations(club) -> list[Invitation]:
    """Past participants of the club's tournaments who consented (and did not withdraw it) and left a contact:
    one line per person (the newest sign-up's details), for next year's invitations."""
    rows = (
        SignUp.objects.filter(tournament__club=club, consent_withdrawn_at__isnull=True)
        .exclude(email="", phone="")
        .select_related("tournament", "club", "registration__player")
        .order_by("-tournament__date", "-created_at")
    )
    seen: set = set()
    result = []
    for s in rows:
        person = (s.registration.player_id if s.registration_id else None) or (
            s.email.lower() or s.phone,
            s.first_name.lower(),
            s.last_name.lower(),
        )
        if person in seen or (s.email and s.email.lower() in seen):
            continue
        seen.add(person)
        if s.email:
            seen.add(s.email.lower())
        result.append(
            Invitation(s.first_name, s.last_name, s.club_label, s.email, s.phone, s.tournament.name, s.tournament.date)
        )
    return sorted(result, key=lambda i: name_sort_key(i.last_name, i.first_name))  # German order, as the seat list
