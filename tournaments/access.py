"""Who may do what with a tournament: the club roles of ClubMembership (superusers may do everything)."""

from django.db.models import QuerySet
from django.http import Http404

from .models import Club, ClubMembership, Tournament, Venue

ORGANISER = (ClubMembership.Role.ORGANISER,)
DESK = (ClubMembership.Role.ORGANISER, ClubMembership.Role.DESK)
ANY_ROLE = (ClubMembership.Role.ORGANISER, ClubMembership.Role.DESK, ClubMembership.Role.VIEWER)


def tournaments_for(user, roles=ANY_ROLE) -> QuerySet[Tournament]:
    """The tournaments a user may see or act on with one of ``roles``."""
    if not getattr(user, "is_authenticated", False):
        return Tournament.objects.none()
    qs = Tournament.objects.select_related("club")
    if user.is_superuser:
        return qs
    # A club waiting for approval or suspended acts on nothing (its data stays).
    return qs.filter(
        club__memberships__user=user, club__memberships__role__in=roles, club__status=Club.Status.ACTIVE
    ).distinct()


def tournament_for(user, slug: str, roles=ANY_ROLE) -> Tournament:
    """The tournament, or 404 (also when it exists but belongs to another club)."""
    tournament = tournaments_for(user, roles).filter(slug=slug).first()
    if tournament is None:
        raise Http404("No such tournament")
    return tournament


def has_role(user, tournament: Tournament, roles=ORGANISER) -> bool:
    return tournaments_for(user, roles).filter(pk=tournament.pk).exists()


def clubs_for(user, roles=ANY_ROLE):
    """The clubs a user may act for with one of ``roles``."""
    if not getattr(user, "is_authenticated", False):
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(
        memberships__user=user, memberships__role__in=roles, status=Club.Status.ACTIVE
    ).distinct()


def club_blocked(user) -> bool:
    """A login that stops: the user is in clubs, and none of them is active (waiting for approval or
    suspended). Operators (staff, superusers) and users of no club are never blocked by it."""
    if user.is_superuser or user.is_staff:
        return False
    statuses = set(ClubMembership.objects.filter(user=user).values_list("club__status", flat=True))
    return bool(statuses) and Club.Status.ACTIVE not in statuses


def club_for(user, club_id: int, roles=ANY_ROLE):
    club = clubs_for(user, roles).filter(pk=club_id).first()
    if club is None:
        raise Http404("No such club")
    return club


def venue_for(user, slug: str, venue_id: int) -> Venue:
    """A venue of the tournament, for its own desk helpers (``Venue.helpers``: this venue and no other) and the
    club's organisers and desk; 404 for anybody else, and for an id of another tournament's venue."""
    if not getattr(user, "is_authenticated", False):
        raise Http404("No such venue")
    venue = Venue.objects.select_related("tournament__club").filter(pk=venue_id, tournament__slug=slug).first()
    if venue is None or not (venue.helpers.filter(pk=user.pk).exists() or has_role(user, venue.tournament, DESK)):
        raise Http404("No such venue")
    return venue


def venues_for(user):
    """The venues whose desk a user runs as a venue helper (his way in: the organiser home lists them)."""
    if not getattr(user, "is_authenticated", False):
        return Venue.objects.none()
    return Venue.objects.filter(helpers=user).select_related("tournament").order_by("-tournament__date", "name")
