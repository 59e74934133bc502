"""Reading the audit log: a club's or a tournament's entries, newest first, as readable rows."""
import json
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..models import AuditEntry, Club, ClubMembership, Round, Tournament

ACTIONS = {
    "registration.create": gettext_lazy("Registered"),
    "registration.paid": gettext_lazy("Paid"),
    "registration.checked_in": gettext_lazy("Checked in"),
    "registration.withdraw": gettext_lazy("Withdrawn"),
    "registration.substitute": gettext_lazy("Substitute named"),
    "round.draw": gettext_lazy("Round drawn"),
    "round.redraw": gettext_lazy("Round drawn again"),
    "round.publish": gettext_lazy("Round published"),
    "round.close": gettext_lazy("Round closed"),
    "round.reopen": gettext_lazy("Round reopened"),
    "round.swap": gettext_lazy("Seats swapped"),
    "tournament.rules": gettext_lazy("Rules changed"),
    "tournament.details": gettext_lazy("Tournament details changed"),
    "tournament.table_cards_renew": gettext_lazy("New table cards"),
    "prizes.set": gettext_lazy("Prizes changed"),
    "standings.publish": gettext_lazy("Standings shown to the public"),
    "role.change": gettext_lazy("Role changed"),
    "player.export": gettext_lazy("Player's data exported"),
    "player.anonymise": gettext_lazy("Player anonymised"),
    # written by the evening's table tools and the series (their own codes)
    "table_confirm_for": gettext_lazy("Confirmed for a player"),
    "table_close": gettext_lazy("Table closed with a reason"),
    "table_reopen": gettext_lazy("Table reopened"),
    "series_create": gettext_lazy("Series created"),
    "series_update": gettext_lazy("Series changed"),
    "series_tournament_add": gettext_lazy("Tournament added to a series"),
    "series_tournament_remove": gettext_lazy("Tournament taken out of a series"),
}


KEYS = {
    "status": gettext_lazy("status"),
    "seed": gettext_lazy("lot number"),
    "tables": gettext_lazy("tables"),
    "withdrawn_after_round": gettext_lazy("withdrawn after round"),
    "player": gettext_lazy("player"),
    "substitute": gettext_lazy("substitute"),
}


def _key_label(key: str) -> str:
    if key in KEYS:
        return str(KEYS[key])
    try:
        return str(Tournament._meta.get_field(key).verbose_name)
    except Exception:  # a rules key or another's: shown as it is stored
        return key


@dataclass(frozen=True)
class Change:
    label: str  # the field ("" when the value is one thing)
    before: str
    after: str


@dataclass(frozen=True)
class AuditRow:
    entry: AuditEntry
    action: str
    subject: str
    who: str
    changes: list[Change]


def audit_for_tournament(tournament: Tournament) -> QuerySet[AuditEntry]:
    return AuditEntry.objects.filter(tournament=tournament).select_related("by", "tournament")


def audit_for_club(club: Club) -> QuerySet[AuditEntry]:
    """Everything of the club: its own entries (roles, players) and those of each of its tournaments."""
    return AuditEntry.objects.filter(club=club).select_related("by", "tournament")


def audit_rows(entries) -> list[AuditRow]:
    return [AuditRow(entry=e, action=str(ACTIONS.get(e.action, e.action)), subject=_subject(e), who=_who(e),
                     changes=_changes(e)) for e in entries]


def _subject(entry: AuditEntry) -> str:
    if entry.action.startswith("round.") and entry.subject.isdigit():
        return _("Round %(n)s") % {"n": entry.subject}
    return entry.subject


def _who(entry: AuditEntry) -> str:
    if entry.by_id and entry.by is not None:
        return entry.by.get_username()
    return entry.by_name or _("the system")


def _text(value: Any, action: str, key: str = "") -> str:
    if value is None:
        return "–"
    if key == "status" and action.startswith("round.") and value in Round.Status.values:
        return str(Round.Status(value).label)
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if action.startswith("role.") and value in ClubMembership.Role.values:
        return str(ClubMembership.Role(value).label)
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return str(value)


def _changes(entry: AuditEntry) -> list[Change]:
    before, after = entry.before, entry.after
    if isinstance(before, dict) or isinstance(after, dict):
        before, after = before if isinstance(before, dict) else {}, after if isinstance(after, dict) else {}
        keys = list(dict.fromkeys([*before, *after]))
        return [Change(_key_label(str(k)), _text(before.get(k), entry.action, str(k)),
                       _text(after.get(k), entry.action, str(k))) for k in keys]
    if before is None and after is None:
        return []
    return [Change("", _text(before, entry.action), _text(after, entry.action))]
