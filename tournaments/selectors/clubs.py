"""Reads of the operator's page of clubs."""

from django.db.models import Case, Count, IntegerField, QuerySet, Value, When

from ..models import Club


def operator_clubs() -> QuerySet[Club]:
    """Every club, those waiting for approval first, with its counts."""
    order = {Club.Status.PENDING: 0, Club.Status.ACTIVE: 1, Club.Status.SUSPENDED: 2}
    return Club.objects.annotate(
        tournament_count=Count("tournaments", distinct=True),
        member_count=Count("memberships", distinct=True),
        rank=Case(*(When(status=s, then=Value(n)) for s, n in order.items()), output_field=IntegerField()),
    ).order_by("rank", "-registered_at", "name")
