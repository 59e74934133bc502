from django.db import transaction
from django.utils.translation import gettext as _

from scoring.rules import table as table_rules

from ..models import Club, Player, Registration, Round, Seat, Tournament
from .audit import audit_record, registration_label
from .errors import ServiceError, StateConflict
from .hooks import tournament_changed


@transaction.atomic
def start_number_next(*, tournament: Tournament) -> int:
    """Take the tournament's next start number: given in order and never reused, also after a deletion.

    Locks the tournament row until the caller's transaction ends, so two registrations never get one number.
    """
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    locked.last_start_number += 1
    locked.save(update_fields=["last_start_number"])
    tournament.last_start_number = locked.last_start_number
    return locked.last_start_number


@transaction.atomic
def registration_create(
    *,
    tournament: Tournament,
    player: Player,
    paid: bool = False,
    checked_in: bool = False,
    substitute_for: Registration | None = None,
    fee_due: bool = True,
    club_name: str = "",
    by=None,
) -> Registration:
    """Register a player; start numbers are given in order and never reused.

    Logged when a person does it (``by``: the desk, an organiser); the system's own registrations (demo,
    simulation) are not organiser actions."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if Registration.objects.filter(tournament=locked, player=player).exists():
        raise StateConflict("player", _("%(name)s is registered already.") % {"name": player.name})
    start_number = start_number_next(tournament=locked)
    tournament.last_start_number = start_number
    reg = Registration.objects.create(
        tournament=locked,
        player=player,
        start_number=start_number,
        paid=paid,
        checked_in=checked_in,
        substitute_for=substitute_for,
        fee_due=fee_due,
        club_name=club_name,
    )
    if by is not None:
        audit_record(
            action="registration.create",
            by=by,
            tournament=locked,
            subject=registration_label(reg),
            after={"paid": paid, "checked_in": checked_in},
        )
    return reg


def registration_club(
    *, tournament: Tournament, name: str, may_name_new: bool = True, field: str = "club_name"
) -> tuple[Club | None, str]:
    """The club a player named when he registered: (the tournament's club, "") when he named it, else
    (None, the name as text for the registration). Another club's records are never written: a player
    of another club is a player of this club's database with his club as text (``Registration.club_name``).

    A name of the club list is taken in its own spelling. One that is not in the list is refused for those
    who may not name new clubs (desk helpers pick from the list, so the lists stay free of typing errors).
    """
    name = " ".join(name.split())
    if not name:
        return None, ""
    if name.casefold() == tournament.club.name.casefold():
        return tournament.club, ""
    listed = Club.objects.filter(name__iexact=name).values_list("name", flat=True).first()
    if listed is not None:
        return None, listed
    if not may_name_new:
        raise ServiceError(
            field,
            _("There is no club %(name)s. Pick one of the list; an organiser can add a new club.") % {"name": name},
        )
    return None, name[:200]


@transaction.atomic
def player_create(*, first_name: str, last_name: str, club: Club | None = None, contact: str = "") -> Player:
    first_name, last_name = first_name.strip(), last_name.strip()
    if not last_name:
        raise ServiceError("last_name", _("Please enter a last name."))
    return Player.objects.create(first_name=first_name, last_name=last_name, club=club, contact=contact.strip())


@transaction.atomic
def registration_update(
    *, registration: Registration, paid: bool | None = None, checked_in: bool | None = None, by=None
) -> Registration:
    reg = Registration.objects.select_for_update().select_related("player", "tournament__club").get(pk=registration.pk)
    before = {"paid": reg.paid, "checked_in": reg.checked_in}
    if paid is not None:
        reg.paid = paid
    if checked_in is not None:
        if not checked_in and reg.seats.exists():
            raise StateConflict(
                "checked_in",
                _("%(name)s already has a seat; withdraw the player instead.") % {"name": reg.player.name},
            )
        reg.checked_in = checked_in
    reg.save(update_fields=["paid", "checked_in"])
    for field in ("paid", "checked_in"):
        if before[field] != getattr(reg, field):
            audit_record(
                action=f"registration.{field}",
                by=by,
                tournament=reg.tournament,
                subject=registration_label(reg),
                before=before[field],
                after=getattr(reg, field),
            )
    return reg


def _last_played_round(reg: Registration) -> int:
    """The last round the player plays: seated in a round already published (or closed).

    A round that is only drawn does not count: he will not play it (the organiser redraws it or
    names a substitute), and neither do rounds drawn in advance.
    """
    numbers = (
        Seat.objects.filter(registration=reg)
        .exclude(round__status=Round.Status.DRAWN)
        .values_list("round__number", flat=True)
    )
    return max(numbers, default=0)


@transaction.atomic
def registration_withdraw(*, registration: Registration, by=None) -> Registration:
    """The player leaves: from the next draw on he has no seat; his points so far stay."""
    reg = Registration.objects.select_for_update().select_related("player", "tournament__club").get(pk=registration.pk)
    if reg.withdrawn:
        raise StateConflict("withdrawn", _("%(name)s is withdrawn already.") % {"name": reg.player.name})
    _leave(reg)
    audit_record(
        action="registration.withdraw",
        by=by,
        tournament=reg.tournament,
        subject=registration_label(reg),
        before=None,
        after={"withdrawn_after_round": reg.withdrawn_after_round},
    )
    return reg


def _leave(reg: Registration) -> None:
    """The player leaves after the last round he was seated in, or during it while it is under way."""
    reg.withdrawn_after_round = _last_played_round(reg)
    reg.left_during_round = Round.objects.filter(
        tournament_id=reg.tournament_id, number=reg.withdrawn_after_round, status=Round.Status.PUBLISHED
    ).exists()
    reg.save(update_fields=["withdrawn_after_round", "left_during_round"])


@transaction.atomic
def registration_substitute(
    *, withdrawn: Registration, player: Player, pays_fee: bool = False, club_name: str = "", by=None
) -> Registration:
    """A substitute takes over a withdrawn player's seat (in the round under way) and points.

    ``pays_fee``: the desk asked whether he pays an entry fee. DEFAULT no: he takes over a seat that was
    paid, and no fee is due. Yes: his fee is owed until the desk marks it paid (never marked paid unasked).
    """
    reg = Registration.objects.select_for_update().select_related("tournament__club", "player").get(pk=withdrawn.pk)
    if not reg.withdrawn:
        _leave(reg)
    if Registration.objects.filter(substitute_for=reg).exists():
        raise StateConflict("substitute_for", _("%(name)s has a substitute already.") % {"name": reg.player.name})
    substitute = registration_create(
        tournament=reg.tournament,
        player=player,
        paid=False,
        checked_in=True,
        substitute_for=reg,
        fee_due=pays_fee,
        club_name=club_name,
    )
    # The substitute sits down in the withdrawn player's seat of every round not yet closed; at a table that
    # has played games already he plays from the next one, and the games before stay the leaver's (who
    # played which games: ``Seat.since_game``, ``Seat.earlier``).
    for seat in (
        Seat.objects.filter(registration=reg).exclude(round__status=Round.Status.CLOSED).select_related("table")
    ):
        since = table_rules.first_free_number(seat.table.hands.order_by().values_list("number", flat=True))
        seat.registration = substitute
        seat.since_game, seat.earlier = (since, reg) if since > 1 else (None, None)
        seat.save(update_fields=["registration", "since_game", "earlier"])
    tournament_changed(reg.tournament_id)
    audit_record(
        action="registration.substitute",
        by=by,
        tournament=reg.tournament,
        subject=registration_label(reg),
        before={"player": registration_label(reg)},
        after={"substitute": registration_label(substitute), "pays_fee": pays_fee},
    )
    return substitute


@transaction.atomic
def registration_quick_add(
    *,
    tournament: Tournament,
    first_name: str,
    last_name: str,
    club_name: str = "",
    paid: bool = False,
    checked_in: bool = False,
    may_create_club: bool = False,
    club_field: str = "club_name",
    by=None,
) -> Registration:
    """A new player registered at the desk in one step, into the tournament's club's database. The club he
    names is the tournament's, or a text on the registration (``registration_club``); a name not in the
    club list only from those who may add clubs (organisers), desk helpers pick from the list."""
    tournament = Tournament.objects.select_related("club").get(pk=tournament.pk)
    club, said = registration_club(
        tournament=tournament, name=club_name, may_name_new=may_create_club, field=club_field
    )
    player = player_create(first_name=first_name, last_name=last_name, club=club)
    return registration_create(
        tournament=tournament, player=player, paid=paid, checked_in=checked_in, club_name=said, by=by
    )


@transaction.atomic
def registration_substitute_new(
    *,
    withdrawn: Registration,
    first_name: str,
    last_name: str,
    club_name: str = "",
    may_create_club: bool = False,
    pays_fee: bool = False,
    by=None,
) -> Registration:
    """A person not yet in the database substitutes for a withdrawn player (created in the same step)."""
    tournament = Tournament.objects.select_related("club").get(pk=withdrawn.tournament_id)
    club, said = registration_club(tournament=tournament, name=club_name, may_name_new=may_create_club)
    player = player_create(first_name=first_name, last_name=last_name, club=club)
    return registration_substitute(withdrawn=withdrawn, player=player, pays_fee=pays_fee, club_name=said, by=by)
