"""Club roles (organiser, desk helper, viewer): every change is logged with who and before → after."""

from django.contrib.auth import get_user_model
from django.db import transaction

from ..models import Club, ClubMembership
from .audit import audit_record


@transaction.atomic
def role_save(*, membership: ClubMembership, by=None) -> ClubMembership:
    """Give a user a role in a club, or change it (the admin's form fills ``membership``)."""
    old = None
    if membership.pk:
        old = (
            ClubMembership.objects.select_for_update()
            .filter(pk=membership.pk)
            .values("role", "club_id", "user_id")
            .first()
        )
    membership.save()
    if old and (old["club_id"], old["user_id"]) != (membership.club_id, membership.user_id):
        # the row now names another user or club: the old pair lost its role, the new one gained it
        audit_record(
            action="role.change",
            by=by,
            club=Club.objects.get(pk=old["club_id"]),
            subject=get_user_model().objects.get(pk=old["user_id"]).get_username(),
            before=old["role"],
            after=None,
        )
        old = None
    before = old["role"] if old else None
    if before != membership.role:
        audit_record(
            action="role.change",
            by=by,
            club=membership.club,
            subject=membership.user.get_username(),
            before=before,
            after=membership.role,
        )
    return membership


@transaction.atomic
def role_remove(*, membership: ClubMembership, by=None) -> None:
    audit_record(
        action="role.change",
        by=by,
        club=membership.club,
        subject=membership.user.get_username(),
        before=membership.role,
        after=None,
    )
    membership.delete()
