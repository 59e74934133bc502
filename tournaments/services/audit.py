"""The audit log of organiser actions: one call per action, inside the action's own transaction."""

from typing import Any

from ..models import AuditEntry, Club, Tournament


def audit_record(
    *,
    action: str,
    by=None,
    tournament: Tournament | None = None,
    club: Club | None = None,
    subject: str = "",
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> AuditEntry:
    """Log one organiser action (who, what, before → after, why). Call it inside the service's transaction,
    so the entry is written exactly when the action is. ``club`` defaults to the tournament's club."""
    if club is None:
        if tournament is None:
            raise ValueError("audit_record needs a tournament or a club")
        club = tournament.club
    user = by if getattr(by, "is_authenticated", False) else None
    return AuditEntry.objects.create(
        club=club,
        tournament=tournament,
        action=action,
        subject=str(subject)[:300],
        before=before,
        after=after,
        reason=str(reason)[:300],
        by=user,
        by_name=user.get_username()[:150] if user else "",
    )


def registration_label(registration) -> str:
    """How the log names a registration: start number and name ("17: Huber, Sepp")."""
    return f"{registration.start_number}: {registration.player.sort_name}"


def round_label(number: int) -> str:
    """A round is logged by its number alone; the pages say "Runde 2" / "Round 2" in the reader's language."""
    return str(number)


def changed(before: dict, after: dict) -> tuple[dict, dict]:
    """Only what changed: the keys whose values differ, before and after."""
    keys = [k for k in sorted(set(before) | set(after)) if before.get(k) != after.get(k)]
    return {k: before.get(k) for k in keys}, {k: after.get(k) for k in keys}
