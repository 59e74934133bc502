"""Games at a table: record, correct, delete, confirm. Every change keeps a revision.

A table's row is locked (``select_for_update``) for every write, so two tablets at the same table
are served one after the other: a retry with the same client id returns the stored game, and a
second, different submission for a game number already taken gets a 409. ``hand_record`` is the one
save of a new game, whichever page or API sends it.
"""

import uuid
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.messages import rule_error_text
from scoring.rules import RuleError
from scoring.rules import table as table_rules
from scoring.storage import hand_columns, hand_score, outcome_columns, stored_record

from ..models import Hand, HandRevision, Round, Table, TableConfirmation, Tournament
from .errors import NotFound, ServiceError, StateConflict
from .hooks import tournament_changed


def _locked_table(table: Table) -> Table:
    """Lock the table's row for this write, and its round so that its status holds meanwhile.

    ``of=("self",)``: without it PostgreSQL also locks the joined round and tournament rows for update,
    and every table of the tournament (and a standings recompute) would wait for every other. The
    round is locked first and without its key (``FOR NO KEY UPDATE``, the ORM's own, on every database
    that locks rows): closing, publishing or redrawing the round (``select_for_update`` on it) waits
    for a correction and it for them; corrections of one round wait for each other, which costs
    nothing at their rate (a new game locks only its table: ``hand_record``).
    """
    list(Round.objects.select_for_update(no_key=True).filter(pk=table.round_id).values_list("pk", flat=True))
    return Table.objects.select_for_update(of=("self",)).select_related("round__tournament").get(pk=table.pk)


def _require_open(table: Table, *, organiser: bool, reason: str) -> None:
    status = table.round.status
    if status == Round.Status.DRAWN:
        raise StateConflict("round", _("This round is not published yet."), code="round_not_published")
    if status == Round.Status.CLOSED:
        if table.round.tournament.status == Tournament.Status.FINISHED:
            raise StateConflict(
                "round",
                _(
                    "The tournament is finished: its games are final. To correct one, reopen "
                    "the last round with a reason."
                ),
                code="tournament_finished",
            )
        if not organiser:
            raise StateConflict(
                "round", _("This round is closed; only an organiser can correct it."), code="round_closed"
            )
        if not reason.strip():
            raise ServiceError("reason", _("A closed round is corrected only with a reason."), code="reason_required")
    elif table.closed_reason:  # closed by the organiser: no game, correction or confirmation until he reopens it
        raise StateConflict("table", table_closed_text(table.closed_reason), code="table_closed")


def table_closed_text(reason: str) -> str:
    """What a closed table's phone says and every refused write answers: the organiser's reason."""
    return _("Table closed by the organiser: %(reason)s") % {"reason": reason}


dealer_for = table_rules.dealer_for  # the table's sequence: scoring/rules/table.py


def _ruleset(table: Table):
    return table.round.tournament.ruleset  # parsed once per process (Tournament.ruleset)


def _games_required(table: Table) -> int:
    left = table.left()  # a table of five that plays on with four: its round's games then
    return left[2] if left else table_rules.games_required(_ruleset(table).games_per_round, table.size)


def _dealer_at(table: Table, number: int, thrown_in_before: int) -> int:
    """The seat stored as game ``number``'s dealer: who sits out at a table of five, the empty seat once
    it plays on with four (``Table.left``)."""
    left = table.left()
    return left[0] if left and number >= left[1] else dealer_for(number, thrown_in_before, table.size)


def next_game_number(table: Table) -> int:
    """The first game number not yet entered (a deleted game leaves a gap to fill)."""
    return table_rules.first_free_number(table.hands.order_by().values_list("number", flat=True))


def _dealer(table: Table, number: int) -> int:
    thrown_in = table.hands.filter(number__lt=number, thrown_in=True).count()
    return _dealer_at(table, number, thrown_in)


def _score(table: Table, record: dict[str, Any], dealer: int):
    try:
        return hand_score(record, dealer=dealer, rules=_ruleset(table), table_size=table.size)
    except RuleError as err:
        raise ServiceError(err.field, rule_error_text(err), code=err.code) from None


def _clean_record(record: Any, size: int) -> dict[str, Any]:
    if not isinstance(record, dict):
        raise ServiceError("hand", _("A game must be an object of fields."))
    record = {k: v for k, v in record.items() if v is not None}
    record.pop("dealer", None)  # the dealer follows from the game number, never from the tablet
    return record


def _same_game(table: Table, number: int, record: dict[str, Any]) -> Hand | None:
    """The stored game ``number`` when it was entered exactly as ``record``, else None."""
    stored = table.hands.filter(number=number).first()
    if stored is None or any(getattr(stored, name) != value for name, value in hand_columns(record).items()):
        return None
    return stored


def _snapshot(hand: Hand) -> dict[str, Any]:
    return {"number": hand.number, "dealer": hand.dealer, **stored_record(hand, hand.table.size), "points": hand.points}


@transaction.atomic
def hand_record(
    *,
    table: Table,
    record: dict[str, Any],
    client_id: uuid.UUID,
    number: int | None = None,
    by=None,
    device: str = "",
    organiser: bool = False,
    reason: str = "",
) -> tuple[Hand, bool]:
    """Store one game: the one save of every entry point (the table page, the links' pages, paper mode, the
    table API). Returns (hand, created); a retry of the same submission returns the stored game.

    The table's row is locked first; what the save needs to know (the round's status, the table's games)
    is read after the lock, so a change committed meanwhile is seen.
    """
    table = Table.objects.select_for_update(of=("self",)).select_related("round__tournament").get(pk=table.pk)
    table.round.status = Round.objects.filter(pk=table.round_id).values_list("status", flat=True).get()
    facts = table.hands.order_by().aggregate(
        last=Max("number"),
        entered=Count("id"),
        thrown_in=Count("id", filter=Q(thrown_in=True)),
        twin=Max("id", filter=Q(client_id=client_id)),
    )
    return _record(
        table,
        facts,
        record=record,
        client_id=client_id,
        number=number,
        by=by,
        device=device,
        organiser=organiser,
        reason=reason,
    )


def _record(
    table: Table,
    facts: dict[str, Any],
    *,
    record: dict[str, Any],
    client_id: uuid.UUID,
    number: int | None,
    by=None,
    device: str = "",
    organiser: bool = False,
    reason: str = "",
) -> tuple[Hand, bool]:
    """The part of ``hand_record`` after the lock: check, number, score and store the game."""
    if facts["twin"] is not None:
        return Hand.objects.get(pk=facts["twin"]), False
    _require_open(table, organiser=organiser, reason=reason)
    record = _clean_record(record, table.size)
    if table.paper_totals is not None:
        raise StateConflict("table", _("This table's round totals were entered from paper."))
    last = facts["last"] or 0
    entered, thrown_in = facts["entered"] or 0, facts["thrown_in"] or 0
    gapless = entered == last  # games 1..last are all there
    if number is None:
        number = last + 1 if gapless else next_game_number(table)
    elif number < 1:
        raise ServiceError("number", _("Game numbers start at 1."))
    elif number <= last and (gapless or table.hands.filter(number=number).exists()):
        same = _same_game(table, number, _clean_record(record, table.size))
        if same is not None:  # the other device entered this very game: one game, not a conflict
            return same, False
        raise StateConflict(
            "number",
            _("Game %(n)d has already been entered, probably on another device. Please reload.") % {"n": number},
            code="number_taken",
        )
    if number > last + 1:
        raise ServiceError("number", _("Enter game %(n)d first.") % {"n": last + 1})
    played = entered - thrown_in
    if played >= _games_required(table):  # no more deals, not even a thrown-in one
        raise StateConflict("number", _("All games of this round are entered."), code="round_complete")
    dealer = _dealer_at(table, number, thrown_in) if number > last else _dealer(table, number)
    score = _score(table, record, dealer)
    if score.thrown_in and number <= last:
        raise ServiceError(
            "contract",
            _("A thrown-in game can only be entered as the latest game, because the same dealer deals again after it."),
            code="weiter_not_last",
        )
    try:
        # No savepoint: under the table's lock the number is free; a unique clash is the submission id
        # used at another table (or, on SQLite without row locks, a number taken meanwhile), and then
        # the whole transaction is given up anyway.
        author = by if getattr(by, "is_authenticated", False) else None
        hand = Hand.objects.create(
            table=table,
            number=number,
            dealer=dealer,
            **outcome_columns(score),
            entered_by=author,
            device=device[:200],
            client_id=client_id,
            **hand_columns(record),
        )
        HandRevision.objects.create(
            table=table,
            hand=hand,
            number=number,
            action=HandRevision.Action.CREATE,
            new=_snapshot(hand),
            by=author,
            device=device[:200],
            reason=reason[:300],
        )
    except IntegrityError as err:  # told apart by the constraint's name: no query in a failed transaction
        if "client_id" in str(err):
            raise StateConflict("client_id", _("This submission id belongs to another table.")) from None
        # SQLite has no row locks: another device's game with this number got in first
        raise StateConflict(
            "number", _("Game %(n)d has already been entered. Please reload.") % {"n": number}, code="number_taken"
        ) from None
    if table.completed_at is not None or table.closed_reason or table.confirmations.exists():
        _unconfirm(table)
    tournament_changed(table.round.tournament_id, table.pk)
    return hand, True


def _hand_still_there(hand: Hand) -> Hand:
    """The game as stored now, under the table's lock: somebody may have deleted it since it was read."""
    current = Hand.objects.select_related("table").filter(pk=hand.pk).first()
    if current is None:
        raise NotFound(
            "number",
            _("Game %(number)s was deleted meanwhile (on another device?).") % {"number": hand.number},
            code="deleted",
        )
    return current


@transaction.atomic
def hand_correct(
    *, hand: Hand, record: dict[str, Any], by=None, device: str = "", organiser: bool = False, reason: str = ""
) -> Hand:
    """Change a game; the old and new values are kept as a revision. A game sent back as it is stored
    (``PATCH {}``, the same PUT, the page's form sent unchanged) is no change: no revision, and the
    players' confirmations stay."""
    table = _locked_table(hand.table)
    hand = _hand_still_there(hand)
    _require_open(table, organiser=organiser, reason=reason)
    record = _clean_record(record, table.size)
    score = _score(table, record, hand.dealer)
    if hand.thrown_in != score.thrown_in:  # every later game's dealer would shift
        raise ServiceError(
            "contract", _("A thrown-in game and a played game cannot be swapped; delete the game and enter it anew.")
        )
    columns = hand_columns(record)
    outcome = outcome_columns(score)
    if _unchanged(hand, columns, outcome):
        return hand
    old = _snapshot(hand)
    for name, value in {**columns, **outcome}.items():
        setattr(hand, name, value)
    hand.save()
    HandRevision.objects.create(
        table=table,
        hand=hand,
        number=hand.number,
        action=HandRevision.Action.UPDATE,
        old=old,
        new=_snapshot(hand),
        by=by if getattr(by, "is_authenticated", False) else None,
        device=device[:200],
        reason=reason[:300],
    )
    _unconfirm(table, changed=hand.number)
    tournament_changed(table.round.tournament_id, table.pk)
    return hand


def _unchanged(hand: Hand, columns: dict[str, Any], outcome: dict[str, Any]) -> bool:
    """The stored game sent back as it is: the same outcome, and the same record, where a field left out
    and the same field sent empty (0, false: the page's form sends "0 Laufende" for a game entered
    without) read alike."""
    return all(getattr(hand, name) == value for name, value in outcome.items()) and all(
        getattr(hand, name) == value or (not getattr(hand, name) and not value) for name, value in columns.items()
    )


@transaction.atomic
def hand_delete(*, hand: Hand, by=None, device: str = "", organiser: bool = False, reason: str = "") -> None:
    table = _locked_table(hand.table)
    hand = _hand_still_there(hand)
    _require_open(table, organiser=organiser, reason=reason)
    if hand.thrown_in and table.hands.filter(number__gt=hand.number).exists():
        raise StateConflict(
            "number",
            _("The games after this thrown-in game were dealt on from it; delete them first."),
            code="weiter_not_last",
        )
    HandRevision.objects.create(
        table=table,
        hand=None,
        number=hand.number,
        action=HandRevision.Action.DELETE,
        old=_snapshot(hand),
        by=by if getattr(by, "is_authenticated", False) else None,
        device=device[:200],
        reason=reason[:300],
    )
    hand.delete()
    _unconfirm(table, changed=hand.number)
    tournament_changed(table.round.tournament_id, table.pk)


def _unconfirm(table: Table, changed: int | None = None) -> None:
    """Any change after players confirmed means they must confirm the sheet again.

    ``changed``: the game that was corrected or deleted; when it cleared confirmations, the table
    remembers it, and the tablet says "game 12 was changed – please confirm again" and marks it.
    Not in a closed round: the players are gone, the organiser's correction carries a reason, and the
    table stays complete.
    """
    if table.round.status == Round.Status.CLOSED:
        return
    deleted, _rows = table.confirmations.all().delete()
    fields = []
    if deleted and changed is not None:
        table.reconfirm_game = changed
        fields.append("reconfirm_game")
    if table.completed_at is not None or table.closed_reason:
        table.completed_at, table.closed_reason = None, ""
        fields += ["completed_at", "closed_reason"]
    if fields:
        table.save(update_fields=fields)


@transaction.atomic
def table_confirm(*, table: Table, seat: int, device: str = "", device_id: str = "") -> TableConfirmation:
    """A player confirms the table's complete sheet by tapping his name. ``device_id``: which browser
    (``TableConfirmation.device_id``), so the table can be told when one device confirmed every seat."""
    table = _locked_table(table)
    _require_open(table, organiser=False, reason="")
    if seat not in range(1, table.size + 1) or seat == table.seat_left:
        raise ServiceError("seat", _("There is no seat %(seat)s at this table.") % {"seat": seat})
    played = table.hands.exclude(thrown_in=True).count()
    required = _games_required(table)
    if played < required:
        raise StateConflict(
            "seat",
            _("%(played)d of %(required)d games are entered; confirm when all are.")
            % {"played": played, "required": required},
            code="games_missing",
        )
    confirmation, _created = TableConfirmation.objects.get_or_create(
        table=table, seat=seat, defaults={"device": device[:200], "device_id": device_id[:32]}
    )
    table_complete_if_confirmed(table)
    return confirmation


def table_complete_if_confirmed(table: Table) -> None:
    """Every seat confirmed: the table is complete, and a change notice has been answered."""
    if table.confirmations.count() >= table.size - (table.seat_left is not None) and table.completed_at is None:
        table.completed_at = timezone.now()
        table.reconfirm_game = None
        table.save(update_fields=["completed_at", "reconfirm_game"])


@transaction.atomic
def table_paper_totals(*, table: Table, totals: dict[str, int], by=None, device: str = "", reason: str = "") -> Table:
    """Paper mode: only each player's round total, for a table that played without a tablet.

    Entering or overwriting the totals keeps a revision (action ``totals``, number 0) with the old
    totals (None the first time), the new ones, who, from which device and why.
    """
    table = _locked_table(table)
    _require_open(table, organiser=True, reason=reason if table.round.status == Round.Status.CLOSED else "paper")
    if table.hands.exists():
        raise StateConflict("totals", _("Games were entered at this table; correct those instead."))
    seats = [str(s) for s in range(1, table.size + 1)]
    if not isinstance(totals, dict) or sorted(totals) != sorted(seats):
        raise ServiceError("totals", _("Enter a total for every seat 1 to %(n)d.") % {"n": table.size})
    for seat in seats:
        if type(totals[seat]) is not int:
            raise ServiceError(f"totals.{seat}", _("Enter a whole number."))
        if abs(totals[seat]) > Table.PAPER_TOTAL_MAX:
            raise ServiceError(
                f"totals.{seat}", _("Enter a total from -%(max)d to %(max)d.") % {"max": Table.PAPER_TOTAL_MAX}
            )
    if table.round.tournament.ruleset.scoring == "plus_minus" and sum(totals.values()) != 0:
        raise ServiceError(
            "totals",
            _("The totals add up to %(sum)+d; on a correct sheet they add up to 0.") % {"sum": sum(totals.values())},
        )
    old = table.paper_totals
    table.paper_totals = {seat: totals[seat] for seat in seats}
    table.completed_at = timezone.now()
    table.save(update_fields=["paper_totals", "completed_at"])
    HandRevision.objects.create(
        table=table,
        hand=None,
        number=HandRevision.TOTALS_NUMBER,
        action=HandRevision.Action.TOTALS,
        old=old,
        new=table.paper_totals,
        by=by if getattr(by, "is_authenticated", False) else None,
        device=device[:200],
        reason=reason[:300],
    )
    tournament_changed(table.round.tournament_id, table.pk)
    return table


@transaction.atomic
def table_sheet_record(
    *, table: Table, records: list[dict[str, Any]], by=None, device: str = "", reason: str = ""
) -> list[Hand]:
    """A whole sheet at once (paper mode, rehearsals): every game is checked first; all or nothing.

    The games follow the ones already entered; an error names its game (``hands[3].augen``). In a
    closed round only with a reason, like every other correction there.
    """
    table = _locked_table(table)
    _require_open(table, organiser=True, reason=reason if table.round.status == Round.Status.CLOSED else "sheet")
    if table.paper_totals is not None:
        raise StateConflict("table", _("This table's round totals were entered from paper."))
    rules = table.round.tournament.ruleset
    numbers = set(table.hands.order_by().values_list("number", flat=True))
    number = max(numbers, default=0)
    thrown_in = table.hands.filter(thrown_in=True).count()
    played = len(numbers) - thrown_in
    required = _games_required(table)
    author = by if getattr(by, "is_authenticated", False) else None
    hands: list[Hand] = []
    for index, raw in enumerate(records):
        record = _clean_record(raw, table.size)
        number += 1
        dealer = _dealer_at(table, number, thrown_in)
        try:
            score = hand_score(record, dealer=dealer, rules=rules, table_size=table.size)
        except RuleError as err:
            raise ServiceError(f"hands[{index}].{err.field}", rule_error_text(err), code=err.code) from None
        if score.thrown_in:
            thrown_in += 1
        else:
            played += 1
            if played > required:
                raise ServiceError(f"hands[{index}]", _("More games than the round has (%(n)d).") % {"n": required})
        hands.append(
            Hand(
                table=table,
                number=number,
                dealer=dealer,
                **outcome_columns(score),
                entered_by=author,
                device=device[:200],
                client_id=uuid.uuid4(),
                **hand_columns(record),
            )
        )
    Hand.objects.bulk_create(hands)
    HandRevision.objects.bulk_create(
        HandRevision(
            table=table,
            hand=hand,
            number=hand.number,
            action=HandRevision.Action.CREATE,
            new=_snapshot(hand),
            by=author,
            device=device[:200],
            reason=reason[:300],
        )
        for hand in hands
    )
    _unconfirm(table)
    tournament_changed(table.round.tournament_id, table.pk)
    return hands


def hand_preview(*, table: Table, record: dict[str, Any], number: int | None = None) -> tuple[int, int, Any]:
    """Score a game without storing it: (number, dealer, score); a rule error names its field.

    Without ``number`` the next free game; for a game already entered its dealer (a correction).
    """
    record = _clean_record(record, table.size)
    if number is None:
        number = next_game_number(table)
    elif number < 1:
        raise ServiceError("number", _("Game numbers start at 1."))
    stored = table.hands.filter(number=number).order_by().values_list("dealer", flat=True).first()
    dealer = stored if stored is not None else _dealer(table, number)
    return number, dealer, _score(table, record, dealer)
