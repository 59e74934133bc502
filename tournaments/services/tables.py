"""The organiser at a table that cannot finish by itself: confirm for an absent player, or close it with a reason.

All are logged in the audit log (who, which table, why) and need a reason. A closed table is closed: it takes
no game, correction or confirmation (``hands._require_open``) until the organiser reopens it here.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.rules.table import games_with_four

from ..models import Round, Table, TableConfirmation
from .audit import audit_record, registration_label
from .errors import ServiceError, StateConflict
from .hands import _games_required, _locked_table, _require_open, table_complete_if_confirmed
from .hooks import tournament_changed

ORGANISER_DEVICE = "organiser"


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ServiceError("reason", _("Give a reason; it is kept in the audit log."), code="reason_required")
    return reason[:300]


@transaction.atomic
def table_confirm_for(*, table: Table, seat: int, by, reason: str) -> TableConfirmation:
    """The organiser confirms the sheet for a player who cannot (he left, his phone is gone)."""
    reason = _reason(reason)
    table = _locked_table(table)
    _require_open(table, organiser=False, reason="")
    seats = set(table.seats.values_list("number", flat=True))
    if seat not in seats:
        raise ServiceError("seat", _("There is no seat %(seat)s at this table.") % {"seat": seat})
    played = table.hands.exclude(thrown_in=True).count()
    required = _games_required(table)
    if played < required and table.paper_totals is None:
        raise StateConflict(
            "seat",
            _("%(played)d of %(required)d games are entered; confirm when all are.")
            % {"played": played, "required": required},
            code="games_missing",
        )
    confirmation, created = TableConfirmation.objects.get_or_create(
        table=table, seat=seat, defaults={"device": ORGANISER_DEVICE}
    )
    if created:
        audit_record(
            action="table_confirm_for",
            by=by,
            tournament=table.round.tournament,
            subject=f"{table.round.number}/{table.number}/{seat}",
            after={"round": table.round.number, "table": table.number, "seat": seat},
            reason=reason,
        )
    table_complete_if_confirmed(table)
    return confirmation


@transaction.atomic
def table_close(*, table: Table, by, reason: str) -> Table:
    """Close a table although confirmations (or games) are missing; its games count as entered."""
    reason = _reason(reason)
    table = _locked_table(table)
    _require_open(table, organiser=False, reason="")
    before = {"confirmations": table.confirmations.count(), "completed": table.completed_at is not None}
    table.closed_reason = reason
    table.completed_at = table.completed_at or timezone.now()
    table.reconfirm_game = None
    table.save(update_fields=["closed_reason", "completed_at", "reconfirm_game"])
    audit_record(
        action="table_close",
        by=by,
        tournament=table.round.tournament,
        subject=f"{table.round.number}/{table.number}",
        before=before,
        after={"round": table.round.number, "table": table.number},
        reason=reason,
    )
    tournament_changed(table.round.tournament_id)  # the standings say it (and may scale its points)
    return table


@transaction.atomic
def table_play_on_with_four(*, table: Table, seat: int, by, reason: str) -> Table:
    """A table of five loses a player ("spielt zu viert weiter", rules.md section 2): from its next game the
    four others play on, nobody sits out (the empty seat is what ``Hand.dealer`` names), and the round has
    ``scoring.rules.table.games_with_four`` games. The player is withdrawn (he left during the round); his
    games so far count. Logged with the reason."""
    from .registration import _leave  # the desk's own rule of when a player left

    reason = _reason(reason)
    table = _locked_table(table)
    _require_open(table, organiser=False, reason="")
    if table.size != 5:
        raise ServiceError("seat", _("Only a table of five plays on with four."), code="not_five")
    if table.seat_left is not None:
        raise StateConflict(
            "seat", _("Table %(table)d plays with four already.") % {"table": table.number}, code="with_four"
        )
    if table.paper_totals is not None:
        raise StateConflict("table", _("This table's round totals were entered from paper."))
    here = table.seats.select_related("registration__player", "registration__tournament").filter(number=seat).first()
    if here is None:
        raise ServiceError("seat", _("There is no seat %(seat)s at this table.") % {"seat": seat})
    games = list(table.hands.order_by("number").values_list("number", "dealer", "thrown_in"))
    table.seat_left, table.seat_left_from = seat, max((number for number, _d, _t in games), default=0) + 1
    table.games_with_four = games_with_four(
        table.round.tournament.ruleset.games_per_round,
        [dealer for _n, dealer, thrown_in in games if not thrown_in],
        seat,
    )
    table.save(update_fields=["seat_left", "seat_left_from", "games_with_four"])
    reg = here.registration
    if not reg.withdrawn:
        _leave(reg)
    table.confirmations.filter(seat=seat).delete()
    table_complete_if_confirmed(table)
    audit_record(
        action="table_four",
        by=by,
        tournament=table.round.tournament,
        subject=f"{table.round.number}/{table.number}",
        before={"player": registration_label(reg)},
        after={
            "round": table.round.number,
            "table": table.number,
            "seat": seat,
            "from_game": table.seat_left_from,
            "games": table.games_with_four,
        },
        reason=reason,
    )
    tournament_changed(table.round.tournament_id, table.pk)
    return table


@transaction.atomic
def table_reopen(*, table: Table, by, reason: str) -> Table:
    """Open a table the organiser closed (closed by mistake, the ill player is back): it takes games again."""
    reason = _reason(reason)
    table = _locked_table(table)
    if table.round.status != Round.Status.PUBLISHED:
        raise StateConflict("round", _("Only a table of a round under way can be reopened."), code="round_not_open")
    if not table.closed_reason:
        raise StateConflict("table", _("Table %(table)d is not closed.") % {"table": table.number}, code="table_open")
    before = {"closed_reason": table.closed_reason}
    table.closed_reason = ""
    table.completed_at = None
    table.save(update_fields=["closed_reason", "completed_at"])
    table_complete_if_confirmed(table)
    audit_record(
        action="table_reopen",
        by=by,
        tournament=table.round.tournament,
        subject=f"{table.round.number}/{table.number}",
        before=before,
        after={"round": table.round.number, "table": table.number},
        reason=reason,
    )
    tournament_changed(table.round.tournament_id)
    return table
