"""Reading the audit log: a club's or a tournament's entries, newest first, as readable rows."""

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop

from schafkopfrennen import formats
from scoring.rules import Ruleset

from ..models import AuditEntry, Club, ClubMembership, PrizePlan, Round, Tournament

ACTIONS = {
    "venue.create": gettext_lazy("Venue added"),
    "series.qualification": gettext_lazy("Qualification set"),
    "series.wildcard": gettext_lazy("Wildcard"),
    "series.invite": gettext_lazy("Invited to the final"),
    "series.decline": gettext_lazy("Declined the final"),
    "venue.helper": gettext_lazy("Venue desk helper"),
    "venue.checkin": gettext_lazy("Checked in at a venue"),
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
    "prize.hand_over": gettext_lazy("Prize handed over"),
    "prize_plan.set": gettext_lazy("Prize plan changed"),
    "prize_categories.set": gettext_lazy("Category prizes changed"),
    "registration.facts": gettext_lazy("Details for category prizes"),
    "tournament.finish": gettext_lazy("Tournament finished"),
    "standings.publish": gettext_lazy("Standings shown to the public"),
    "role.change": gettext_lazy("Role changed"),
    "player.export": gettext_lazy("Player's data exported"),
    "player.anonymise": gettext_lazy("Player anonymised"),
    # written by the evening's table tools and the series (their own codes)
    "table_confirm_for": gettext_lazy("Confirmed for a player"),
    "table_close": gettext_lazy("Table closed with a reason"),
    "table_reopen": gettext_lazy("Table reopened"),
    "table_four": gettext_lazy("Table of five plays on with four"),
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
    sentence: str = ""  # what happened, in words (``audit_sentence``)


def audit_for_tournament(tournament: Tournament) -> QuerySet[AuditEntry]:
    return AuditEntry.objects.filter(tournament=tournament).select_related("by", "tournament")


def audit_for_club(club: Club) -> QuerySet[AuditEntry]:
    """Everything of the club: its own entries (roles, players) and those of each of its tournaments."""
    return AuditEntry.objects.filter(club=club).select_related("by", "tournament")


def audit_rows(entries) -> list[AuditRow]:
    return [
        AuditRow(
            entry=e,
            action=str(ACTIONS.get(e.action, e.action)),
            subject=_subject(e),
            who=_who(e),
            changes=_changes(e),
            sentence=audit_sentence(e),
        )
        for e in entries
    ]


# --- each entry as one sentence: one describer per action kind ------------------------------------------


def _ruleset_label(key: str) -> str | None:
    found = {f.name: f for f in dataclasses.fields(Ruleset)}.get(key)
    return _(found.metadata["label"]) if found and found.metadata.get("label") else None


def _changed_keys(entry: AuditEntry) -> str:
    """ "Startgeld (Cent) 1000 → 1200; Ort Post → Krone": the keys that changed, labelled as the forms label them."""
    before = entry.before if isinstance(entry.before, dict) else {}
    after = entry.after if isinstance(entry.after, dict) else {}
    parts = []
    for key in dict.fromkeys([*before, *after]):
        label = (_ruleset_label(key) if entry.action == "tournament.rules" else None) or _key_label(str(key))
        old, new = _text(before.get(key), entry.action, key), _text(after.get(key), entry.action, key)
        parts.append(f"{label} {old} → {new}")
    return "; ".join(parts)


def _place(place) -> str:
    return _("last place") if place is None else _("place %(n)s") % {"n": place}


def _prize(prize: dict) -> str:
    parts = [formats.euro(prize["amount_cents"])] if prize.get("amount_cents") is not None else []
    if prize.get("goods"):
        parts.append(prize["goods"])
    return f"{_place(prize.get('place'))} {' + '.join(parts)}".strip()


def _prizes(entry: AuditEntry) -> str:
    prizes = entry.after if isinstance(entry.after, list) else []
    if not prizes:
        return _("Prizes removed")
    return _("Prizes changed: %(prizes)s") % {"prizes": ", ".join(_prize(p) for p in prizes)}


def _prize_plan(entry: AuditEntry) -> str:
    curve = _after(entry, "curve", "")
    label = dict(PrizePlan.Curve.choices).get(curve, curve)
    return _("Prize plan set: %(curve)s") % {"curve": label}


def _categories(entry: AuditEntry) -> str:
    names = [c["name"] for c in (entry.after or []) if isinstance(c, dict) and "name" in c]
    return _("Category prizes changed: %(names)s") % {"names": ", ".join(names) or "–"}


def _after(entry: AuditEntry, key: str, default: Any = None) -> Any:
    return entry.after.get(key, default) if isinstance(entry.after, dict) else default


def _withdrawn(entry: AuditEntry) -> str:
    after_round = _after(entry, "withdrawn_after_round")
    if not after_round:
        return _("%(who)s withdrew before the first round") % {"who": entry.subject}
    return _("%(who)s withdrew after round %(n)s") % {"who": entry.subject, "n": after_round}


def _registered(entry: AuditEntry) -> str:
    state = [str(text) for key, text in (("paid", _("paid")), ("checked_in", _("here"))) if _after(entry, key)]
    sentence = _("%(who)s registered") % {"who": entry.subject}
    return f"{sentence} ({', '.join(state)})" if state else sentence


def _yes_no(yes: str, no: str) -> Callable[[AuditEntry], str]:
    return lambda entry: (_(yes) if entry.after else _(no)) % {"who": entry.subject}


def _role(entry: AuditEntry) -> str:
    values = {
        "who": entry.subject,
        "before": _text(entry.before, entry.action),
        "after": _text(entry.after, entry.action),
    }
    if entry.after is None:
        return _("%(who)s no longer has a role (was: %(before)s)") % values
    if entry.before is None:
        return _("%(who)s given the role %(after)s") % values
    return _("%(who)s: role %(before)s → %(after)s") % values


def _swapped(entry: AuditEntry) -> str:
    moves = [
        _("%(who)s to table %(t)s, seat %(s)s") % {"who": who, "t": where[0], "s": where[1]}
        for who, where in (entry.after or {}).items()
        if isinstance(where, list) and len(where) == 2
    ]
    return _("Round %(n)s: seats swapped – %(moves)s") % {"n": entry.subject, "moves": "; ".join(moves)}


def _table(entry: AuditEntry, text: str) -> str:
    return _(text) % {
        "round": _after(entry, "round", "?"),
        "table": _after(entry, "table", "?"),
        "seat": _after(entry, "seat", "?"),
    }


def _names(entry: AuditEntry, key: str) -> str:
    return ", ".join(_after(entry, key, []) or []) or "–"


DESCRIBERS: dict[str, Callable[[AuditEntry], str]] = {
    "registration.create": _registered,
    "registration.paid": _yes_no(gettext_noop("%(who)s paid"), gettext_noop("%(who)s marked as not paid")),
    "registration.checked_in": _yes_no(gettext_noop("%(who)s checked in"), gettext_noop("%(who)s marked as not here")),
    "registration.withdraw": _withdrawn,
    "registration.substitute": lambda e: (
        _("%(sub)s plays on for %(who)s") % {"sub": _after(e, "substitute", "?"), "who": e.subject}
    ),
    "round.draw": lambda e: (
        _("Round %(n)s drawn: %(tables)s tables (lot number %(seed)s)")
        % {"n": e.subject, "tables": _after(e, "tables", "?"), "seed": _after(e, "seed", "?")}
    ),
    "round.redraw": lambda e: (
        _("Round %(n)s drawn again (lot number %(before)s → %(after)s)")
        % {"n": e.subject, "before": (e.before or {}).get("seed", "?"), "after": _after(e, "seed", "?")}
    ),
    "round.publish": lambda e: _("Round %(n)s published: seat lists and table links are live") % {"n": e.subject},
    "round.close": lambda e: _("Round %(n)s closed") % {"n": e.subject},
    "round.reopen": lambda e: _("Round %(n)s reopened") % {"n": e.subject},
    "round.swap": _swapped,
    "tournament.rules": lambda e: _("Rules changed: %(changes)s") % {"changes": _changed_keys(e)},
    "tournament.details": lambda e: _("Tournament details changed: %(changes)s") % {"changes": _changed_keys(e)},
    "tournament.finish": lambda e: _("Tournament finished: the standings are final"),
    "prizes.set": _prizes,
    "prize_plan.set": _prize_plan,
    "prize_categories.set": _categories,
    "registration.facts": lambda e: _("%(who)s: details for category prizes given") % {"who": e.subject},
    "prize.hand_over": _yes_no(
        gettext_noop("Prize handed over to %(who)s"), gettext_noop("Prize for %(who)s marked as not handed over")
    ),
    "standings.publish": lambda e: (
        _("Standings shown to the public") if e.after else _("Standings hidden from the public")
    ),
    "role.change": _role,
    "venue.create": lambda e: (
        _("Venue %(name)s added: tables %(tables)s") % {"name": e.subject, "tables": _after(e, "tables", "?")}
    ),
    "venue.helper": lambda e: (
        _("%(who)s runs the desk at %(venue)s") % {"who": e.subject, "venue": e.after}
        if e.after
        else _("%(who)s no longer runs the desk at %(venue)s") % {"who": e.subject, "venue": e.before}
    ),
    "series.qualification": lambda e: (
        _("%(name)s: qualification set (%(changes)s)") % {"name": e.subject, "changes": _changed_keys(e)}
    ),
    "series.wildcard": lambda e: (
        _("%(who)s gets a wildcard for the final of %(series)s") % {"who": e.subject, "series": e.after}
    ),
    "series.invite": lambda e: (
        _("Invited to the final of %(series)s: %(names)s") % {"series": e.subject, "names": ", ".join(e.after or [])}
    ),
    "series.decline": lambda e: _("%(who)s declined the final of %(series)s") % {"who": e.subject, "series": e.after},
    "venue.checkin": lambda e: _("%(who)s checked in at %(venue)s") % {"who": e.subject, "venue": e.after},
    "player.export": lambda e: _("%(who)s: personal data exported") % {"who": e.subject},
    "player.anonymise": lambda e: _("A player was anonymised (now %(who)s)") % {"who": e.subject},
    "table_confirm_for": lambda e: _table(
        e, gettext_noop("Round %(round)s, table %(table)s: confirmed for seat %(seat)s")
    ),
    "table_close": lambda e: _table(e, gettext_noop("Round %(round)s, table %(table)s closed by the organiser")),
    "table_reopen": lambda e: _table(e, gettext_noop("Round %(round)s, table %(table)s reopened by the organiser")),
    "table_four": lambda e: (
        _("Round %(round)s, table %(table)s plays on with four from game %(game)s (%(who)s left seat %(seat)s)")
        % {
            "round": _after(e, "round", "?"),
            "table": _after(e, "table", "?"),
            "game": _after(e, "from_game", "?"),
            "seat": _after(e, "seat", "?"),
            "who": (e.before or {}).get("player", "?"),
        }
    ),
    "tournament.table_cards_renew": lambda e: _("New table cards: the cards printed before no longer open a table"),
    "series_create": lambda e: _("Series %(name)s created") % {"name": e.subject},
    "series_update": lambda e: _("Series %(name)s changed") % {"name": e.subject},
    "series_tournament_add": lambda e: _("Tournament added to the series %(name)s") % {"name": e.subject},
    "series_tournament_remove": lambda e: _("Tournament taken out of the series %(name)s") % {"name": e.subject},
    "signup.options": lambda e: _("Online sign-up changed: %(changes)s") % {"changes": _changed_keys(e)},
    "signup.move_up": lambda e: _("%(who)s moved up from the waiting list") % {"who": e.subject},
    "signup.withdraw": lambda e: _("%(who)s withdrew the online sign-up") % {"who": e.subject},
    "signup.consent_withdraw": lambda e: _("%(who)s withdrew the consent") % {"who": e.subject},
    "signup.match": lambda e: (
        (
            _("%(who)s confirmed as the known player")
            if _after(e, "same_person")
            else _("%(who)s confirmed as a new player")
        )
        % {"who": e.subject}
    ),
    "checkin.close": lambda e: (
        _("Check-in closed; not here: %(gone)s; moved up: %(moved)s")
        % {"gone": _names(e, "not_here"), "moved": _names(e, "moved_up")}
    ),
    "archive_import": lambda e: _("Tournament imported from an archive (%(slug)s)") % {"slug": e.subject},
    "club.status": lambda e: (
        _("Club status set by the operator: %(status)s") % {"status": Club.Status(_after(e, "status", "?")).label}
    ),
}


def audit_sentence(entry: AuditEntry) -> str:
    """The entry as one sentence in the reader's language ("Preise geändert: 1. Platz 120,00 €")."""
    describer = DESCRIBERS.get(entry.action)
    if describer is not None:
        try:
            return describer(entry)
        except (AttributeError, KeyError, TypeError, ValueError):  # an entry of an older shape: the plain form
            pass
    label = str(ACTIONS.get(entry.action, entry.action))
    return f"{label}: {entry.subject}" if entry.subject else label


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
    if isinstance(value, list):
        return ", ".join(_text(v, action) for v in value) or "–"
    if isinstance(value, dict):
        return "; ".join(f"{_key_label(str(k))}: {_text(v, action, str(k))}" for k, v in value.items()) or "–"
    return str(value)


def _changes(entry: AuditEntry) -> list[Change]:
    before, after = entry.before, entry.after
    if isinstance(before, dict) or isinstance(after, dict):
        before, after = before if isinstance(before, dict) else {}, after if isinstance(after, dict) else {}
        keys = list(dict.fromkeys([*before, *after]))
        return [
            Change(
                _key_label(str(k)),
                _text(before.get(k), entry.action, str(k)),
                _text(after.get(k), entry.action, str(k)),
            )
            for k in keys
        ]
    if before is None and after is None:
        return []
    return [Change("", _text(before, entry.action), _text(after, entry.action))]
