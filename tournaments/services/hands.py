"""Games at a table: record, correct, delete, confirm. Every change keeps a revision.

A table's row is locked (``select_for_update``) for every write, so two tablets at the same table
are served one after the other: a retry with the same client id returns the stored game, and a
second, different submission for a game number already taken gets a 409. One exception keeps the
same promise without a transaction: a tablet's new game on PostgreSQL (``hand_record_at_key``) is
stored only while the table's change counter is still the one it read with the facts.
"""
import contextlib
import functools
import uuid
from typing import Any

from django.db import (DEFAULT_DB_ALIAS, IntegrityError, InterfaceError, OperationalError, connection, connections,
                       models, transaction)
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.messages import rule_error_text
from scoring.rules import RuleError
from scoring.rules import table as table_rules
from scoring.storage import hand_columns, hand_record as stored_record, hand_score, outcome_columns

from ..models import Hand, HandRevision, Round, Table, TableConfirmation, Tournament
from ..selectors.entry import entry_key_sql, entry_key_table, entry_key_width, table_for_entry_key
from .errors import NotFound, ServiceError, StateConflict
from .hooks import tournament_changed


def _locked_table(table: Table) -> Table:
    """Lock the table's row for this write, and its round so that its status holds meanwhile.

    ``of=("self",)``: without it PostgreSQL also locks the joined round and tournament rows for update,
    and every table of the tournament (and a standings recompute) would wait for every other. The
    round is locked first and without its key (``FOR NO KEY UPDATE``, the ORM's own, on every database
    that locks rows): closing, publishing or redrawing the round (``select_for_update`` on it) waits
    for a correction and it for them; corrections of one round wait for each other, which costs
    nothing at their rate (new games take the lean path of ``_lock_for_entry`` and no round lock).
    """
    list(Round.objects.select_for_update(no_key=True).filter(pk=table.round_id).values_list("pk", flat=True))
    return Table.objects.select_for_update(of=("self",)).select_related("round__tournament").get(pk=table.pk)


def _require_open(table: Table, *, organiser: bool, reason: str) -> None:
    status = table.round.status
    if status == Round.Status.DRAWN:
        raise StateConflict("round", _("This round is not published yet."), code="round_not_published")
    if status == Round.Status.CLOSED:
        if table.round.tournament.status == Tournament.Status.FINISHED:
            raise StateConflict("round", _("The tournament is finished: its games are final. To correct one, reopen "
                                           "the last round with a reason."), code="tournament_finished")
        if not organiser:
            raise StateConflict("round", _("This round is closed; only an organiser can correct it."),
                               code="round_closed")
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


_CHANGING = ("paper_totals", "completed_at", "closed_reason")  # a table's columns a write may find changed


@functools.cache
def _entry_sql(vendor: str) -> tuple[str, str]:
    """The two statements of ``_lock_for_entry``, written out once: standard SQL over the models' tables.

    Plain statements because the save is the hot path of a tournament: building the same ORM query
    anew for every game cost more CPU than running it.
    """
    t, h, r, c = (m._meta.db_table for m in (Table, Hand, Round, TableConfirmation))
    lock = (f'SELECT paper_totals IS NOT NULL, completed_at IS NOT NULL, closed_reason FROM "{t}" WHERE id = %s'
            + (" FOR UPDATE" if connection.features.has_select_for_update else ""))
    facts = (f'SELECT r.status, {_HAND_FACTS}, (SELECT COUNT(*) FROM "{c}" c WHERE c.table_id = %s) '
             f'FROM "{r}" r LEFT JOIN "{h}" h ON h.table_id = %s WHERE r.id = %s GROUP BY r.status')
    return lock, facts


# What a new game needs to know of its table's games (the last number, how many, how many thrown in, this
# submission's id if stored before): one home for the locked path's statement and the unlocked read's.
_HAND_FACTS = ('MAX(h.number), COUNT(h.id), SUM(CASE WHEN h.thrown_in THEN 1 ELSE 0 END), '
               'MAX(CASE WHEN h.client_id = %s THEN h.id END)')
_FACT_NAMES = ("last", "entered", "thrown_in", "twin", "confirmed")  # the facts' columns, confirmations last
_VERSION = "entry_version"  # the table's change counter, kept by PostgreSQL's triggers (migration 0018)


@functools.cache
def _unlocked_read_sql() -> str:
    """The key lookup (table, round, tournament), the table's change counter and the game facts in one
    statement, read without a transaction (PostgreSQL only: the counter exists there)."""
    h, c = Hand._meta.db_table, TableConfirmation._meta.db_table
    return entry_key_sql(
        extra_columns=f', t."{_VERSION}", f.*, (SELECT COUNT(*) FROM "{c}" c WHERE c.table_id = t.id)',
        extra_from=f' CROSS JOIN LATERAL (SELECT {_HAND_FACTS} FROM "{h}" h WHERE h.table_id = t.id) f')


@functools.cache
def _insert_sql(model: type, vendor: str) -> tuple[str, list, bool]:
    """``INSERT`` of one row of ``model`` (every concrete column but the id), written out once per process,
    with how each column's value is read (``_column_reader``)."""
    db = connections[DEFAULT_DB_ALIAS]
    meta, qn = model._meta, db.ops.quote_name
    fields = [f for f in meta.local_concrete_fields if f is not meta.auto_field and not f.generated]
    returning = db.features.can_return_columns_from_insert
    sql = (f"INSERT INTO {qn(meta.db_table)} ({', '.join(qn(f.column) for f in fields)}) "
           f"VALUES ({', '.join(['%s'] * len(fields))})" + (f" RETURNING {qn(meta.pk.column)}" if returning else ""))
    return sql, [_column_reader(f) for f in fields], returning


def _column_reader(field) -> tuple[Any, str | None, tuple[type, ...], str | None]:
    """How ``_row`` reads a field's value for the database: (field, attname, types, integer). For a value of
    exactly one of ``types`` (or None) ``get_db_prep_save(pre_save(obj, True))`` is the value itself, or for
    an ``integer`` column the backend's ``adapt_integerfield_value(value, integer)``: the field's class keeps
    Django's own ``pre_save`` and conversions, which for these types only pass the value through. Any other
    value, and every other field (a ``DateTimeField``'s ``auto_now_add``, a ``JSONField``, a ``ForeignKey``),
    takes the ORM's two calls."""
    kind = type(field)
    plain = (kind.pre_save is models.Field.pre_save and kind.get_db_prep_save is models.Field.get_db_prep_save)
    if plain and kind.get_prep_value is models.IntegerField.get_prep_value and (
            kind.get_db_prep_value is models.IntegerField.get_db_prep_value):
        return field, field.attname, (int,), field.get_internal_type()
    if plain and kind.get_db_prep_value is models.Field.get_db_prep_value and (
            kind.get_prep_value is models.BooleanField.get_prep_value):
        return field, field.attname, (bool,), None
    if plain and kind.get_db_prep_value is models.Field.get_db_prep_value and (
            kind.get_prep_value is models.CharField.get_prep_value):
        return field, field.attname, (str,), None
    return field, None, (), None


def _row(obj, db) -> list:
    """The INSERT's parameters: ``[f.get_db_prep_save(f.pre_save(obj, True), db) for f in fields]``."""
    params, adapt = [], db.ops.adapt_integerfield_value
    for field, attname, types, integer in _insert_sql(type(obj), db.vendor)[1]:
        if attname is not None:
            value = getattr(obj, attname)
            if value is None or type(value) in types:
                params.append(value if integer is None else adapt(value, integer))
                continue
        params.append(field.get_db_prep_save(field.pre_save(obj, True), db))
    return params


def _insert(obj, cursor):
    """``Model.objects.create`` for the save's two rows without compiling the same INSERT for every game
    (that cost more CPU than the rest of the save): each field's value as the ORM prepares it
    (``_column_reader``), one statement. These models have no save() of their own and no signals."""
    db = cursor.db
    sql, _readers, returning = _insert_sql(type(obj), db.vendor)
    cursor.execute(sql, _row(obj, db))
    obj.pk = (cursor.fetchone()[0] if returning
              else db.ops.last_insert_id(cursor, obj._meta.db_table, obj._meta.pk.column))
    obj._state.adding, obj._state.db = False, db.alias
    return obj


@functools.cache
def _layout(model: type) -> list[tuple[str, Any]]:
    return [(f.name, f if f.is_relation else None) for f in model._meta.concrete_fields]


def _new(model: type, values: dict[str, Any]):
    """``model(**values)`` for the save's two rows, built positionally as ``Model.from_db`` builds a row: the
    keyword path's lookups per field cost half as much again. Related objects (by field name) are cached
    on the new row as assigning them caches them; a column not in ``values`` gets its default."""
    args, related = [], []
    for name, relation in _layout(model):
        if name not in values:
            args.append(model._meta.get_field(name).get_default())
        elif relation is None:
            args.append(values[name])
        else:
            value = values[name]
            related.append((relation, value))
            args.append(None if value is None else getattr(value, relation.target_field.attname))
    obj = model(*args)
    for relation, value in related:
        relation.set_cached_value(obj, value)
    return obj


@functools.cache
def _insert_pair_sql(vendor: str) -> tuple[str, int] | None:
    """The game's and its revision's INSERTs as one statement, as issue 14 asks (one insert of the game and
    its revision): the game's INSERT a CTE whose new id the revision's INSERT takes; with the position of
    the revision's link to the game among its columns. None where INSERT cannot stand in a WITH (SQLite).

    Both INSERTs are ``_insert_sql``'s own (one home for the column lists)."""
    if vendor != "postgresql":
        return None
    qn = connections[DEFAULT_DB_ALIAS].ops.quote_name
    hand_sql, _readers, _returning = _insert_sql(Hand, vendor)
    columns = [reader[0].column for reader in _insert_sql(HandRevision, vendor)[1]]
    link = columns.index(HandRevision._meta.get_field("hand").column)
    new_id = f"(SELECT {qn(Hand._meta.pk.column)} FROM h)"
    values = ", ".join(new_id if n == link else "%s" for n in range(len(columns)))
    return (f"WITH h AS ({hand_sql}) INSERT INTO {qn(HandRevision._meta.db_table)} "
            f"({', '.join(qn(c) for c in columns)}) VALUES ({values}) "
            f"RETURNING {qn(columns[link])}, {qn(HandRevision._meta.pk.column)}"), link


@functools.cache
def _guarded_pair_sql() -> tuple[str, int]:
    """``_insert_pair_sql`` that stores only while the table's change counter is still the one read: both
    INSERTs take their row from a CTE that locks the table's row ``WHERE entry_version = %s``. When another
    writer holds the lock, PostgreSQL checks that condition again on the row as that writer left it
    (EvalPlanQual), so a change committed since the read stores nothing. PostgreSQL only."""
    qn = connections[DEFAULT_DB_ALIAS].ops.quote_name
    hand_columns_ = [reader[0].column for reader in _insert_sql(Hand, "postgresql")[1]]
    columns = [reader[0].column for reader in _insert_sql(HandRevision, "postgresql")[1]]
    link = columns.index(HandRevision._meta.get_field("hand").column)
    values = ", ".join(f"h.{qn(Hand._meta.pk.column)}" if n == link else "%s" for n in range(len(columns)))
    return (f'WITH t AS (SELECT id FROM {qn(Table._meta.db_table)} WHERE id = %s AND "{_VERSION}" = %s FOR UPDATE), '
            f"h AS (INSERT INTO {qn(Hand._meta.db_table)} ({', '.join(qn(c) for c in hand_columns_)}) "
            f"SELECT {', '.join(['%s'] * len(hand_columns_))} FROM t RETURNING {qn(Hand._meta.pk.column)}) "
            f"INSERT INTO {qn(HandRevision._meta.db_table)} ({', '.join(qn(c) for c in columns)}) "
            f"SELECT {values} FROM h RETURNING {qn(columns[link])}, {qn(HandRevision._meta.pk.column)}"), link


class _Moved(Exception):
    """The table changed between the unlocked read and the guarded write: nothing was stored."""


def _insert_with_revision(hand: Hand, revision: HandRevision, cursor, version: int | None = None) -> None:
    """Store a new game and its revision: one statement on PostgreSQL (a round trip less per save: 1.148 ->
    1.065 ms of CPU in one process, docs/performance.md), two plain INSERTs elsewhere. Each row's values as
    ``_insert`` prepares them. With ``version`` (the unlocked save): only while the table's change counter
    is still ``version`` (``_guarded_pair_sql``), else ``_Moved``."""
    db = cursor.db
    pair = _insert_pair_sql(db.vendor) if version is None else _guarded_pair_sql()
    if pair is None:
        _insert(hand, cursor)
        revision.hand = hand
        _insert(revision, cursor)
        return
    sql, link = pair
    revision_params = _row(revision, db)
    del revision_params[link]  # the game's new id, taken inside the statement
    head = [] if version is None else [hand.table_id, version]
    cursor.execute(sql, head + _row(hand, db) + revision_params)
    stored = cursor.fetchone()
    if stored is None:
        raise _Moved
    hand.pk, revision.pk = stored
    revision.hand = hand
    for obj in (hand, revision):
        obj._state.adding, obj._state.db = False, db.alias


def _lock_for_entry(table: Table, client_id: uuid.UUID, cursor) -> dict[str, Any]:
    """Lock the table's row, then read in one query what entering a game needs, as of after the lock.

    The hot path of a tournament: the caller loaded the table with its round and tournament (the key
    lookup); the lock re-reads only the table's own changing columns (whether they are set: their
    values are read only in the rare case they are), and the round's status comes with the game
    facts from a statement after the lock, so a round closed meanwhile is seen (closing a round locks
    its tables first). ``twin``: this submission was stored before (a retry).
    """
    lock, _facts = _entry_sql(cursor.db.vendor)
    cursor.execute(lock, [table.pk])
    paper, completed, reason = cursor.fetchone()
    if paper or completed:  # rare: read the values themselves (the lock is already held)
        fresh = Table.objects.filter(pk=table.pk).values(*_CHANGING).get()
        for name in _CHANGING:
            setattr(table, name, fresh[name])
    else:
        table.paper_totals, table.completed_at, table.closed_reason = None, None, reason
    return _entry_facts(table, client_id, cursor)


def _entry_facts(table: Table, client_id: uuid.UUID, cursor) -> dict[str, Any]:
    """What entering a game needs, in one statement; run after the table's lock, so that it sees the
    round's status and the games as they are now."""
    db = cursor.db
    _lock, facts = _entry_sql(db.vendor)
    uid = _CLIENT_ID.get_db_prep_value(client_id, db)
    cursor.execute(facts, [uid, table.pk, table.pk, table.round_id])
    return dict(zip(("status", *_FACT_NAMES), cursor.fetchone(), strict=True))


_CLIENT_ID = Hand._meta.get_field("client_id")


@transaction.atomic
def hand_record(
    *, table: Table, record: dict[str, Any], client_id: uuid.UUID, number: int | None = None,
    by=None, device: str = "", organiser: bool = False, reason: str = "",
) -> tuple[Hand, bool]:
    """Store one game. Returns (hand, created); a retry of the same submission returns the stored game.

    Four queries whatever the tournament's size: the lock, the facts, the game, its revision (one cursor;
    three on PostgreSQL, where the game and its revision are one statement).
    """
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        facts = _lock_for_entry(table, client_id, cursor)
        return _record(table, facts, cursor, record=record, client_id=client_id, number=number, by=by,
                       device=device, organiser=organiser, reason=reason)


_TRIES = 3  # unlocked attempts before a save takes the table's lock (each lost one means a change came first)


def hand_record_at_key(
    *, entry_key: str, record: dict[str, Any], client_id: uuid.UUID, number: int | None = None, device: str = "",
) -> tuple[Hand, bool] | None:
    """A tablet's new game by its round's entry key; None: no table has this round entry key (it may be a
    table card's key, which the caller resolves and hands to ``hand_record``).

    On PostgreSQL two statements without a transaction (issue 14's lean save): the table, its change
    counter and the game facts read at once (``_unlocked_read_sql``), then the game and its revision stored
    only while the counter is unchanged (``_guarded_pair_sql``). Every change of the table's games,
    confirmations, own columns or round status raises the counter (the triggers of migration 0018), so a
    save whose facts went stale stores nothing and reads again. A save that must also clear the table's
    confirmations, and one that lost ``_TRIES`` times, takes the locked path, as every save does elsewhere.
    """
    db = connections[DEFAULT_DB_ALIAS]
    if db.vendor == "postgresql":
        found = _first_read(db, entry_key, client_id)
        with db.cursor() as cursor:
            for attempt in range(_TRIES):
                if attempt:
                    found = _unlocked_read(entry_key, client_id, cursor)
                if found is None:
                    return None
                table, version, facts = found
                if facts["confirmed"] or table.completed_at is not None or table.closed_reason:
                    break  # the save clears the confirmations too: one transaction, under the lock
                try:
                    # in a caller's transaction (a test's, say) a failed statement must not break it: a savepoint
                    with transaction.atomic() if cursor.db.in_atomic_block else contextlib.nullcontext():
                        return _record(table, facts, cursor, record=record, client_id=client_id, number=number,
                                       device=device, version=version)
                except _Moved:
                    continue
    return _hand_record_at_key_locked(entry_key=entry_key, record=record, client_id=client_id,
                                      number=number, device=device)


def _first_read(db, entry_key: str, client_id: uuid.UUID) -> tuple[Table, int, dict[str, Any]] | None:
    """``_unlocked_read`` as a request's first statement, standing in for Django's health check of a kept
    connection (``CONN_HEALTH_CHECKS``: a ``SELECT 1`` before a request's first statement, one round trip
    of the save's four). The read is a plain SELECT outside a transaction: on a connection that died since
    the last request it fails and changes nothing, and runs once more on a new connection, which is what
    the check would have led to. Inside a transaction (a caller's, a test's) the check is left as it is."""
    standing_in = (db.connection is not None and db.health_check_enabled and not db.health_check_done
                   and not db.in_atomic_block)
    if standing_in:
        db.health_check_done = True
    try:
        with db.cursor() as cursor:
            return _unlocked_read(entry_key, client_id, cursor)
    except (OperationalError, InterfaceError):
        if not standing_in:
            raise
        db.close()  # the kept connection is gone: a new one, as after a failed check
        with db.cursor() as cursor:
            return _unlocked_read(entry_key, client_id, cursor)


def _unlocked_read(entry_key: str, client_id: uuid.UUID, cursor) -> tuple[Table, int, dict[str, Any]] | None:
    """(table with round and tournament, its change counter, the game facts) for a round's entry key."""
    cursor.execute(_unlocked_read_sql(), [_CLIENT_ID.get_db_prep_value(client_id, cursor.db), entry_key])
    row = cursor.fetchone()
    if row is None:
        return None
    width = entry_key_width()
    table = entry_key_table(row, cursor.db)
    version, *values = row[width:]
    return table, version, {"status": table.round.status, **dict(zip(_FACT_NAMES, values, strict=True))}


@transaction.atomic
def _hand_record_at_key_locked(
    *, entry_key: str, record: dict[str, Any], client_id: uuid.UUID, number: int | None = None, device: str = "",
) -> tuple[Hand, bool] | None:
    """``hand_record_at_key`` in a transaction: the table found and locked by its key (with its round and
    tournament), the facts, then the game and its revision (``_insert_with_revision``: one statement on
    PostgreSQL, two elsewhere)."""
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        table = table_for_entry_key(entry_key, for_update=True, cursor=cursor)
        if table is None:
            return None
        return _record(table, _entry_facts(table, client_id, cursor), cursor, record=record, client_id=client_id,
                       number=number, device=device)


def _record(
    table: Table, facts: dict[str, Any], cursor, *, record: dict[str, Any], client_id: uuid.UUID, number: int | None,
    by=None, device: str = "", organiser: bool = False, reason: str = "", version: int | None = None,
) -> tuple[Hand, bool]:
    """The part of ``hand_record`` after the lock: check, number, score and store the game. ``version``: the
    unlocked save's change counter (the store raises ``_Moved`` when the table changed since)."""
    if facts["twin"] is not None:
        return Hand.objects.get(pk=facts["twin"]), False
    table.round.status = facts["status"]
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
            "number", _("Game %(n)d has already been entered, probably on another device. Please reload.") % {"n": number},
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
        raise ServiceError("contract", _("A thrown-in game can only be entered as the latest game, "
                                         "because the same dealer deals again after it."), code="weiter_not_last")
    try:
        # No savepoint: under the table's lock the number is free; a unique clash is the submission id
        # used at another table (or, on SQLite without row locks, a number taken meanwhile), and then
        # the whole transaction is given up anyway.
        author = by if getattr(by, "is_authenticated", False) else None
        hand = _new(Hand, {
            "table": table, "number": number, "dealer": dealer, **outcome_columns(score), "entered_by": author,
            "device": device[:200], "client_id": client_id, **hand_columns(record),
        })
        _insert_with_revision(hand, _new(HandRevision, {
            "table": table, "number": number, "action": HandRevision.Action.CREATE, "new": _snapshot(hand),
            "by": author, "device": device[:200], "reason": reason[:300],
        }), cursor, version)
    except IntegrityError as err:  # told apart by the constraint's name: no query in a failed transaction
        if "client_id" in str(err):
            raise StateConflict("client_id", _("This submission id belongs to another table.")) from None
        # SQLite has no row locks: another device's game with this number got in first
        raise StateConflict("number", _("Game %(n)d has already been entered. Please reload.") % {"n": number},
                           code="number_taken") from None
    if facts["confirmed"] or table.completed_at is not None or table.closed_reason:
        _unconfirm(table)
    tournament_changed(table.round.tournament_id, table.pk)
    return hand, True


def _hand_still_there(hand: Hand) -> Hand:
    """The game as stored now, under the table's lock: somebody may have deleted it since it was read."""
    current = Hand.objects.select_related("table").filter(pk=hand.pk).first()
    if current is None:
        raise NotFound(
            "number", _("Game %(number)s was deleted meanwhile (on another device?).") % {"number": hand.number},
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
        raise ServiceError("contract", _("A thrown-in game and a played game cannot be swapped; delete the game and enter it anew."))
    columns = hand_columns(record)
    outcome = outcome_columns(score)
    if _unchanged(hand, columns, outcome):
        return hand
    old = _snapshot(hand)
    for name, value in {**columns, **outcome}.items():
        setattr(hand, name, value)
    hand.save()
    HandRevision.objects.create(
        table=table, hand=hand, number=hand.number, action=HandRevision.Action.UPDATE, old=old, new=_snapshot(hand),
        by=by if getattr(by, "is_authenticated", False) else None, device=device[:200], reason=reason[:300],
    )
    _unconfirm(table, changed=hand.number)
    tournament_changed(table.round.tournament_id, table.pk)
    return hand


def _unchanged(hand: Hand, columns: dict[str, Any], outcome: dict[str, Any]) -> bool:
    """The stored game sent back as it is: the same outcome, and the same record, where a field left out
    and the same field sent empty (0, false: the page's form sends "0 Laufende" for a game entered
    without) read alike."""
    return all(getattr(hand, name) == value for name, value in outcome.items()) and all(
        getattr(hand, name) == value or (not getattr(hand, name) and not value) for name, value in columns.items())


@transaction.atomic
def hand_delete(*, hand: Hand, by=None, device: str = "", organiser: bool = False, reason: str = "") -> None:
    table = _locked_table(hand.table)
    hand = _hand_still_there(hand)
    _require_open(table, organiser=organiser, reason=reason)
    if hand.thrown_in and table.hands.filter(number__gt=hand.number).exists():
        raise StateConflict(
            "number", _("The games after this thrown-in game were dealt on from it; delete them first."),
            code="weiter_not_last",
        )
    HandRevision.objects.create(
        table=table, hand=None, number=hand.number, action=HandRevision.Action.DELETE, old=_snapshot(hand),
        by=by if getattr(by, "is_authenticated", False) else None, device=device[:200], reason=reason[:300],
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
            "seat", _("%(played)d of %(required)d games are entered; confirm when all are.") % {
                "played": played, "required": required}, code="games_missing",
        )
    confirmation, _created = TableConfirmation.objects.get_or_create(table=table, seat=seat, defaults={
        "device": device[:200], "device_id": device_id[:32]})
    table_complete_if_confirmed(table)
    return confirmation


def table_complete_if_confirmed(table: Table) -> None:
    """Every seat confirmed: the table is complete, and a change notice has been answered."""
    if table.confirmations.count() >= table.size - (table.seat_left is not None) and table.completed_at is None:
        table.completed_at = timezone.now()
        table.reconfirm_game = None
        table.save(update_fields=["completed_at", "reconfirm_game"])


@transaction.atomic
def table_paper_totals(
    *, table: Table, totals: dict[str, int], by=None, device: str = "", reason: str = ""
) -> Table:
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
            raise ServiceError(f"totals.{seat}", _("Enter a total from -%(max)d to %(max)d.") % {
                "max": Table.PAPER_TOTAL_MAX})
    if table.round.tournament.ruleset.scoring == "plus_minus" and sum(totals.values()) != 0:
        raise ServiceError(
            "totals", _("The totals add up to %(sum)+d; on a correct sheet they add up to 0.") % {"sum": sum(totals.values())}
        )
    old = table.paper_totals
    table.paper_totals = {seat: totals[seat] for seat in seats}
    table.completed_at = timezone.now()
    table.save(update_fields=["paper_totals", "completed_at"])
    HandRevision.objects.create(
        table=table, hand=None, number=HandRevision.TOTALS_NUMBER, action=HandRevision.Action.TOTALS,
        old=old, new=table.paper_totals, by=by if getattr(by, "is_authenticated", False) else None,
        device=device[:200], reason=reason[:300],
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
        hands.append(Hand(
            table=table, number=number, dealer=dealer, **outcome_columns(score),
            entered_by=author, device=device[:200], client_id=uuid.uuid4(), **hand_columns(record),
        ))
    Hand.objects.bulk_create(hands)
    HandRevision.objects.bulk_create(
        HandRevision(table=table, hand=hand, number=hand.number, action=HandRevision.Action.CREATE,
                     new=_snapshot(hand), by=author, device=device[:200], reason=reason[:300])
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
