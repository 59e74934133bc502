"""The audit log of organiser actions: one call per action, inside the action's own transaction."""
from typing import Any

from ..models import AuditEntry, Club, Tournament


def audit_record(
    *, action: str, by=None, tournament: Tournament | None = None, club: Club | None = None,
    subject: str = "", before: Any = None, after: Any = None, reason: str = "",
) -> AuditEntry:
    """Log one organiser action (who, what, before → after, why). Call it inside the service's transaction,
    so the entry is written exactly when the action is. ``club`` defaults to the tournament's club."""
    if club is None:
        if tournament is None:
            raise ValueError("audit_record needs a tournament or a club")
        club = tournament.club
    user = by if getattr(by, "is_authenticated", False) else None
    return AuditEntry.objects.create(
        club=club, tournament=tournament, action=action, subject=str(subject)[:300], before=before, after=after,
        reason=str(reason)[:300], by=user,
    )
