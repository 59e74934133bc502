"""The venues of an evening in several inns: set them up, name their desk helpers, check players in there."""

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Registration, Tournament, Venue
from .audit import audit_record, registration_label
from .errors import ServiceError, StateConflict


def _validated(venue: Venue) -> Venue:
    try:
        venue.full_clean()
    except ValidationError as err:
        field, messages = next(iter(err.message_dict.items()))
        raise ServiceError(field if field != "__all__" else "name", messages[0]) from err
    return venue


@transaction.atomic
def venue_create(
    *,
    tournament: Tournament,
    name: str,
    first_table: int,
    last_table: int,
    address: str = "",
    contact: str = "",
    by=None,
) -> Venue:
    """A venue with the tables numbered ``first_table`` … ``last_table`` (no other venue's numbers)."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if locked.status == Tournament.Status.FINISHED:
        raise StateConflict("tournament", _("The tournament is finished."))
    venue = _validated(
        Venue(
            tournament=locked,
            name=" ".join(name.split()),
            address=address.strip(),
            contact=contact.strip(),
            first_table=first_table,
            last_table=last_table,
        )
    )
    venue.save()
    audit_record(
        action="venue.create",
        by=by,
        tournament=locked,
        subject=venue.name,
        after={"tables": f"{first_table}–{last_table}", "address": venue.address, "contact": venue.contact},
    )
    return venue


@transaction.atomic
def venue_helper_add(*, venue: Venue, username: str, by=None):
    """Give a user the desk of this venue (and of no other): check-in, paper totals, seat list, projector there."""
    user = get_user_model().objects.filter(username=username.strip()).first()
    if user is None:
        raise ServiceError("username", _("There is no user %(name)s.") % {"name": username.strip()})
    venue.helpers.add(user)
    audit_record(
        action="venue.helper",
        by=by,
        tournament=venue.tournament,
        subject=user.get_username(),
        before=None,
        after=venue.name,
    )
    return user


@transaction.atomic
def venue_helper_remove(*, venue: Venue, user, by=None) -> None:
    venue.helpers.remove(user)
    audit_record(
        action="venue.helper",
        by=by,
        tournament=venue.tournament,
        subject=user.get_username(),
        before=venue.name,
        after=None,
    )


@transaction.atomic
def venue_checkin(*, venue: Venue, start_number: int, by=None) -> Registration:
    """The player with this start number is here, in this venue: checked in, and drawn here."""
    registration = (
        Registration.objects.select_for_update()
        .select_related("player")
        .filter(tournament_id=venue.tournament_id, start_number=start_number)
        .first()
    )
    if registration is None:
        raise ServiceError(
            "start_number", _("No player has start number %(n)d.") % {"n": start_number}, code="not_found"
        )
    if registration.withdrawn:
        raise StateConflict("start_number", _("%(name)s has withdrawn.") % {"name": registration.player.name})
    if registration.checked_in and registration.venue_id not in (None, venue.pk):
        raise StateConflict(
            "start_number",
            _("%(name)s is checked in at %(venue)s already.")
            % {"name": registration.player.name, "venue": registration.venue.name},
            code="other_venue",
        )
    if registration.checked_in and registration.venue_id == venue.pk:
        return registration
    registration.checked_in = True
    registration.venue = venue
    registration.save(update_fields=["checked_in", "venue"])
    audit_record(
        action="venue.checkin",
        by=by,
        tournament=venue.tournament,
        subject=registration_label(registration),
        after=venue.name,
    )
    return registration
