"""Online sign-up, the waiting list, check-in at the door and closing it.

Every function locks the tournament row first, so two sign-ups never take the last place twice, a
withdrawal and a sign-up never both give the freed place away, and two desks scanning the same code
check the player in once (the registration row is locked as well).
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Player, Registration, SignUp, SignUpOptions, Tournament
from ..params import parse_int
from ..selectors.desk import club_players
from ..selectors.signup import (
    consent_text,
    places_taken,
    signup_mail_withheld,
    signup_options_for,
    signup_refusal,
    started,
    waiting,
    waiting_position,
)
from .audit import audit_record, registration_label
from .errors import NotFound, ServiceError, StateConflict
from .players import players_merge
from .registration import registration_club, registration_create, registration_update, registration_withdraw
from .signup_mail import signup_mail_task

KEY_IN_CODE = re.compile(r"(?:/(?:s|anmeldung)/)?([A-Za-z0-9_-]{16,64})/?$")
# A USB scanner set to another keyboard layout than the computer's types some characters wrong: a US
# scanner on a German computer swaps y and z and types "/" as "-", "-" as "ß", "_" as "?", ":" as "Ö";
# a German scanner on a US computer the other way round. What it typed, read back both ways.
LAYOUT_MIXUPS = (
    str.maketrans({"y": "z", "z": "y", "Y": "Z", "Z": "Y", "ß": "-", "?": "_", "-": "/", "Ö": ":"}),
    str.maketrans({"y": "z", "z": "y", "Y": "Z", "Z": "Y", "/": "-", "&": "/", ">": ":", "?": "_"}),
)


def _locked(tournament: Tournament) -> tuple[Tournament, SignUpOptions]:
    locked = Tournament.objects.select_for_update().select_related("club").get(pk=tournament.pk)
    return locked, signup_options_for(locked)


@transaction.atomic
def signup_options_update(
    *,
    tournament: Tournament,
    open: bool,
    closes_at: datetime.datetime | None,
    capacity: int | None,
    waiting_list: bool,
    consent_text: str,
    start_time: datetime.time | None,
    pay_until: datetime.datetime | None = None,
    by=None,
) -> SignUpOptions:
    locked, options = _locked(tournament)
    before = {"open": options.open, "capacity": options.capacity, "waiting_list": options.waiting_list}
    options.open, options.closes_at, options.capacity = open, closes_at, capacity
    options.waiting_list, options.consent_text, options.start_time = waiting_list, consent_text.strip(), start_time
    options.pay_until = pay_until
    options.save()
    after = {"open": open, "capacity": capacity, "waiting_list": waiting_list}
    if before != after or options._state.adding:
        audit_record(action="signup.options", by=by, tournament=locked, before=before, after=after)
    # More places (or a list switched off and on) may let waiting players move up at once.
    signups_advance(tournament=locked)
    return options


def _match_for(signup: SignUp, player: Player) -> Player | None:
    """A player of the tournament's club database with the same name (the club's members first): maybe the
    same person. Another club's players are never suggested (their contact would be shown to this desk)."""
    club_id = signup.tournament.club_id
    candidates = (
        club_players(club_id)
        .filter(first_name__iexact=signup.first_name, last_name__iexact=signup.last_name)
        .exclude(pk=player.pk)
        .order_by("id")
    )
    same_club = [p for p in candidates if p.club_id == club_id]
    return (same_club or list(candidates[:1]) or [None])[0]


def _give_place(signup: SignUp, *, checked_in: bool = False, by=None) -> Registration:
    """A new player record of the tournament's club database and a registration with the next start number;
    the sign-up's key opens it. A club not the tournament's stays a text on the registration."""
    home = signup.club if signup.club_id == signup.tournament.club_id else None
    player = Player.objects.create(
        first_name=signup.first_name, last_name=signup.last_name, club=home, contact=signup.contact
    )
    reg = registration_create(
        tournament=signup.tournament,
        player=player,
        checked_in=checked_in,
        club_name="" if home else signup.club_label,
        by=by,
    )
    Registration.objects.filter(pk=reg.pk).update(key=signup.key)
    reg.key = signup.key
    signup.registration, signup.status = reg, SignUp.Status.PLACE
    match = _match_for(signup, player)
    if match is not None:  # never merged here: the desk says whether it is the same person
        signup.match, signup.match_state = match, SignUp.Match.PENDING
    signup.save(update_fields=["registration", "status", "match", "match_state"])
    return reg


def _mail_on_commit(signup: SignUp, kind: str, url_base: str) -> None:
    if not signup.email or not url_base or (kind == "confirmation" and signup_mail_withheld(signup)):
        return
    signup_mail_task.delay(signup.pk, kind, url_base)  # sent when the transaction commits


@transaction.atomic
def signup_create(
    *,
    tournament: Tournament,
    first_name: str,
    last_name: str,
    club_name: str = "",
    email: str = "",
    phone: str = "",
    consent: bool,
    language: str = "",
    url_base: str = "",
    now: datetime.datetime | None = None,
    another_person: bool = False,
) -> SignUp:
    """A person signs up: a place with a start number while there are places, else the waiting list
    (or a refusal with its reason when the organiser keeps no waiting list). A name signed up already is
    refused unless the person says he is another one of that name (``another_person``): a genuine namesake;
    the desk sees both at check-in, and every list tells them apart by their start numbers."""
    locked, options = _locked(tournament)
    refusal = signup_refusal(locked, options, now=now)
    if refusal is not None:
        raise StateConflict(refusal.field, refusal.message, code=refusal.code)
    first_name, last_name = " ".join(first_name.split()), " ".join(last_name.split())
    if not last_name:
        raise ServiceError("last_name", _("Please enter a last name."))
    if not consent:
        raise ServiceError("consent", _("Please agree to the storing of your data: without it we cannot register you."))
    email, phone = email.strip(), phone.strip()
    club, typed = registration_club(tournament=locked, name=club_name)  # the public creates no clubs
    duplicate = SignUp.objects.filter(
        tournament=locked,
        first_name__iexact=first_name,
        last_name__iexact=last_name,
        status__in=[SignUp.Status.PLACE, SignUp.Status.WAITING],
    ).filter(Q(club=club, club_name__iexact=typed) if club or typed else Q())
    if duplicate.exists() and not another_person:
        name = f"{first_name} {last_name}"
        message = _(
            "%(name)s is signed up already. Your personal link is in your confirmation; the desk helps if it is lost."
        ) % {"name": name}
        message += " " + _("Another person of the same name? Tick “%(label)s” and send the form again.") % {
            "label": another_person_label()
        }
        raise StateConflict("last_name", message, code="duplicate")
    full = options.capacity is not None and places_taken(locked) >= options.capacity
    if full and not options.waiting_list:
        raise StateConflict(
            "tournament",
            _("The tournament is full: all %(n)d places are taken.") % {"n": options.capacity},
            code="full",
        )
    signup = SignUp.objects.create(
        tournament=locked,
        first_name=first_name,
        last_name=last_name,
        club=club,
        club_name=typed,
        email=email,
        phone=phone,
        consent_text=consent_text(options),
        consent_at=now or timezone.now(),
        status=SignUp.Status.WAITING,  # a place comes with its registration (_give_place)
        language=language[:10],
    )
    if not full:
        _give_place(signup)
    _mail_on_commit(signup, "confirmation", url_base)
    return signup


@transaction.atomic
def signups_advance(*, tournament: Tournament, url_base: str = "") -> list[SignUp]:
    """Free places go to the waiting list in order (before check-in closes and the first draw)."""
    locked, options = _locked(tournament)
    if options.capacity is None or options.checkin_closed_at is not None or started(locked) or options._state.adding:
        return []
    free = options.capacity - places_taken(locked)
    moved = []
    for signup in waiting(locked)[: max(free, 0)]:
        _give_place(signup)
        audit_record(action="signup.move_up", tournament=locked, subject=registration_label(signup.registration))
        _mail_on_commit(signup, "moved_up", url_base)
        moved.append(signup)
    return moved


@transaction.atomic
def signup_withdraw(*, signup: SignUp, url_base: str = "") -> SignUp:
    """The player withdraws himself through his link; the first of the waiting list moves up."""
    locked, _options = _locked(signup.tournament)
    signup = SignUp.objects.select_for_update().get(pk=signup.pk)
    if signup.status == SignUp.Status.WITHDRAWN:
        raise StateConflict("withdrawn", _("You have withdrawn already."))
    if started(locked):
        raise StateConflict("withdrawn", _("The tournament has begun: please tell the desk that you leave."))
    if signup.registration_id is not None and not signup.registration.withdrawn:
        registration_withdraw(registration=signup.registration)
    signup.status, signup.withdrawn_at = SignUp.Status.WITHDRAWN, timezone.now()
    signup.save(update_fields=["status", "withdrawn_at"])
    audit_record(action="signup.withdraw", tournament=locked, subject=signup.name)
    signups_advance(tournament=locked, url_base=url_base)
    return signup


@transaction.atomic
def registration_leave(*, registration: Registration, by=None, url_base: str = "") -> Registration:
    """The desk withdraws a player: as ``registration_withdraw``, and a place given up before the evening
    goes to the waiting list."""
    locked, _options = _locked(registration.tournament)
    reg = registration_withdraw(registration=registration, by=by)
    SignUp.objects.filter(registration=reg).exclude(status=SignUp.Status.WITHDRAWN).update(
        status=SignUp.Status.WITHDRAWN, withdrawn_at=timezone.now()
    )
    signups_advance(tournament=locked, url_base=url_base)
    return reg


@transaction.atomic
def signup_consent_withdraw(*, signup: SignUp) -> SignUp:
    """No more invitations, and the contact details are deleted (the name stays with the results)."""
    signup = SignUp.objects.select_for_update(of=("self",)).select_related("registration__player").get(pk=signup.pk)
    if signup.consent_withdrawn_at is not None:
        raise StateConflict("consent", _("You have withdrawn your consent already."))
    contact = signup.contact
    signup.consent_withdrawn_at, signup.email, signup.phone = timezone.now(), "", ""
    signup.save(update_fields=["consent_withdrawn_at", "email", "phone"])
    player = signup.registration.player if signup.registration_id else None
    if player is not None and contact and player.contact == contact:
        player.contact = ""
        player.save(update_fields=["contact"])
    audit_record(action="signup.consent_withdraw", tournament=signup.tournament, subject=signup.name)
    return signup


@transaction.atomic
def signup_match_resolve(*, signup: SignUp, same: bool, by=None) -> SignUp:
    """The desk decides whether a returning player is the one of the club database: then the two records
    become one (his history stays together), else they stay two people."""
    locked, _options = _locked(signup.tournament)
    signup = (
        SignUp.objects.select_for_update(of=("self",)).select_related("registration__player", "match").get(pk=signup.pk)
    )
    if signup.match_state != SignUp.Match.PENDING or signup.match is None or signup.registration is None:
        raise StateConflict("match", _("There is nothing to confirm for %(name)s.") % {"name": signup.name})
    if same and not club_players(locked.club_id).filter(pk=signup.match_id).exists():
        # a suggestion made before matching stayed inside the club: never merged into another club's player
        raise NotFound("match", _("There is nothing to confirm for %(name)s.") % {"name": signup.name})
    if same:
        players_merge(keep=signup.match, remove=signup.registration.player, club=locked.club)
        signup.registration.refresh_from_db()
    signup.match_state = SignUp.Match.CONFIRMED if same else SignUp.Match.REJECTED
    signup.save(update_fields=["match_state"])
    audit_record(
        action="signup.match",
        by=by,
        tournament=locked,
        subject=registration_label(signup.registration),
        after={"same_person": same},
    )
    return signup


# --- check-in at the door ----------------------------------------------------------------------------


@dataclass
class CheckIn:
    """What one scanned code (or a tap in the name search) did."""

    CHECKED_IN = "checked_in"  # present now (and paid, when the desk collects)
    ALREADY = "already"  # was present already: nothing changed
    WAITING = "waiting"  # on the waiting list: noted at the door, no place yet
    WITHDRAWN = "withdrawn"
    UNKNOWN = "unknown"

    outcome: str
    code: str = ""
    registration: Registration | None = None
    signup: SignUp | None = None
    owed_cents: int = 0
    position: int | None = None
    extra: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.outcome in (self.CHECKED_IN, self.ALREADY)


def code_key(code: str) -> str:
    """The personal key in what a scanner typed: the whole link of the QR code, or the key alone."""
    code = code.strip().split("?")[0].split("#")[0]
    found = KEY_IN_CODE.search(code)
    return found.group(1) if found else ""


def _owed(reg: Registration) -> int:
    return 0 if reg.paid else reg.tournament.entry_fee_cents


def _check_in(locked: Tournament, reg: Registration, *, collect: bool, by, code: str) -> CheckIn:
    reg = Registration.objects.select_for_update().select_related("player", "tournament").get(pk=reg.pk)
    if reg.withdrawn:
        return CheckIn(CheckIn.WITHDRAWN, code, reg)
    if reg.checked_in:
        return CheckIn(CheckIn.ALREADY, code, reg, owed_cents=_owed(reg))
    reg = registration_update(registration=reg, checked_in=True, paid=True if collect else None, by=by)
    return CheckIn(CheckIn.CHECKED_IN, code, reg, owed_cents=_owed(reg))


def _refuse_closed(options: SignUpOptions) -> None:
    if options.checkin_closed_at is not None:
        raise StateConflict("code", _("Check-in is closed. Late players are checked in at the desk."), code="closed")


@transaction.atomic
def checkin_scan(*, tournament: Tournament, code: str, collect: bool = True, by=None) -> CheckIn:
    """One code from the scanner or the camera (or a start number typed in)."""
    locked, options = _locked(tournament)
    _refuse_closed(options)
    text = code.strip()
    reg = None
    number = parse_int(text) if text.isdigit() else None  # "²" is a digit, but no start number: a code
    if number is not None:
        reg = Registration.objects.filter(tournament=locked, start_number=number).first()
    else:
        for typed in (text, *(text.translate(mixup) for mixup in LAYOUT_MIXUPS)):
            key = code_key(typed)
            if not key:
                continue
            reg = Registration.objects.filter(tournament=locked, key=key).first()
            if reg is not None:
                break
            signup = SignUp.objects.select_for_update().filter(tournament=locked, key=key).first()
            if signup is not None:
                return _signup_at_door(signup, text)
    if reg is None:
        return CheckIn(CheckIn.UNKNOWN, text[:80])
    return _check_in(locked, reg, collect=collect, by=by, code=text)


def _signup_at_door(signup: SignUp, code: str) -> CheckIn:
    if signup.status == SignUp.Status.WITHDRAWN:
        return CheckIn(CheckIn.WITHDRAWN, code, signup=signup)
    if signup.present_at is None:
        signup.present_at = timezone.now()
        signup.save(update_fields=["present_at"])
    return CheckIn(CheckIn.WAITING, code, signup=signup, position=waiting_position(signup))


@transaction.atomic
def checkin_number(*, tournament: Tournament, start_number: int, collect: bool = True, by=None) -> CheckIn:
    """Checked in from the name search (players without their code)."""
    locked, options = _locked(tournament)
    _refuse_closed(options)
    reg = Registration.objects.filter(tournament=locked, start_number=start_number).first()
    if reg is None:
        raise NotFound("number", _("There is no start number %(n)d.") % {"n": start_number})
    return _check_in(locked, reg, collect=collect, by=by, code=str(start_number))


@transaction.atomic
def checkin_waiting_here(*, signup: SignUp) -> CheckIn:
    """A player of the waiting list found by name at the door."""
    _locked(signup.tournament)
    signup = SignUp.objects.select_for_update().get(pk=signup.pk)
    return _signup_at_door(signup, signup.name)


@dataclass(frozen=True)
class CheckinClosed:
    no_shows: list[Registration]
    moved_up: list[SignUp]


@transaction.atomic
def checkin_close(*, tournament: Tournament, fill_from_waiting_list: bool, by=None) -> CheckinClosed:
    """Check-in ends: whoever is not here is left out of the draw (he keeps his start number; the desk can
    still check in a late player by hand), and, when the organiser says so, the waiting list's players at
    the door take the free places in their order."""
    locked, options = _locked(tournament)
    if options._state.adding:
        options.save()
    if options.checkin_closed_at is not None:
        raise StateConflict("checkin", _("Check-in is closed already."))
    if started(locked):
        raise StateConflict("checkin", _("Round 1 is drawn already: check-in closes before the first draw."))
    active = Registration.objects.filter(tournament=locked, withdrawn_after_round__isnull=True)
    no_shows = list(active.filter(checked_in=False).select_related("player"))
    moved: list[SignUp] = []
    if fill_from_waiting_list:
        present = active.filter(checked_in=True).count()
        free = (options.capacity - present) if options.capacity is not None else len(no_shows)
        for signup in waiting(locked).filter(present_at__isnull=False)[: max(free, 0)]:
            _give_place(signup, checked_in=True, by=by)
            moved.append(signup)
    options.checkin_closed_at = timezone.now()
    options.save(update_fields=["checkin_closed_at"])
    audit_record(
        action="checkin.close",
        by=by,
        tournament=locked,
        after={
            "not_here": [registration_label(r) for r in no_shows],
            "moved_up": [registration_label(s.registration) for s in moved],
        },
    )
    return CheckinClosed(no_shows, moved)


@transaction.atomic
def registration_change(
    *,
    registration: Registration,
    paid: bool | None = None,
    checked_in: bool | None = None,
    withdrawn: bool | None = None,
    by=None,
    url_base: str = "",
) -> Registration:
    """Paid, checked in and withdrawn in one go (all or nothing); a withdrawal is not undone here.

    A withdrawal goes the desk's way (``registration_leave``): a place given up before the evening
    moves the first of the waiting list up, whichever interface withdrew him."""
    reg = registration
    if paid is not None or checked_in is not None:
        reg = registration_update(registration=reg, paid=paid, checked_in=checked_in, by=by)
    if withdrawn is True and not reg.withdrawn:
        reg = registration_leave(registration=reg, by=by, url_base=url_base)
    elif withdrawn is False and reg.withdrawn:
        raise StateConflict("withdrawn", _("A withdrawal cannot be undone; register a substitute instead."))
    return reg


def another_person_label() -> str:
    """The sign-up form's box for a genuine namesake, and the refusal that points to it: one wording."""
    return _("I am another person of the same name")
