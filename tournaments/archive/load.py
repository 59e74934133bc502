"""Import: validate a whole archive first, then write it in one transaction.

Validation walks the document and stops at the first bad value, naming its path
(``rounds[0].tables[3].hands[17].augen``); nothing is written unless the whole archive is valid.
Computed values (the points of each hand) are recomputed by the rules engine and must agree.

A table may carry ``paper_totals`` (``{"1": 12, "2": -5, ...}``) instead of games: paper mode, where only
each seat's round total was entered.
"""
import datetime
import re
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from scoring.rules import RuleError, Ruleset, ruleset_from_dict, ruleset_to_dict
from scoring.storage import hand_columns, hand_score, outcome_columns, points_json

from ..models import AuditEntry, Club, Hand, Player, Registration, Round, Seat, Table, TableConfirmation, Tournament
from ..selectors.standings import standings_compute
from .version import FORMAT, VERSION

SLUG_RE = re.compile(r"^[-a-zA-Z0-9_]+$")
KEY_RE = re.compile(r"^[-a-zA-Z0-9_]+$")  # entry and personal keys: URL-safe characters only
# The database's limits, checked here so that a value too large is refused with its path, not a DataError.
INT_MAX = 2**31 - 1  # PositiveIntegerField
SMALL_MAX = 2**15 - 1  # PositiveSmallIntegerField
BIG_MAX = 2**63 - 1  # BigIntegerField


class ArchiveError(ValueError):
    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


@dataclass
class _Hand:
    number: int
    dealer: int
    record: dict[str, Any]
    outcome: dict[str, Any]  # points and the rest of the engine's outcome, as the Hand model stores it


@dataclass
class _Table:
    number: int
    seats: dict[int, int]  # seat -> start number
    hands: list[_Hand]
    entry_key: str | None
    paper_totals: dict[str, int] | None = None  # paper mode: each seat's round total, no games
    confirmations: list[int] = field(default_factory=list)  # the seats that confirmed the sheet
    closed_reason: str = ""  # closed by the organiser without every confirmation


@dataclass
class _Round:
    number: int
    status: str
    seed: int
    tables: list[_Table] = field(default_factory=list)


def _require(doc: dict, key: str, path: str) -> Any:
    if key not in doc:
        raise ArchiveError(f"{path}.{key}" if path else key, "is missing")
    return doc[key]


def _obj(value: Any, path: str) -> dict:
    if not isinstance(value, dict):
        raise ArchiveError(path, "must be an object")
    return value


def _list(value: Any, path: str) -> list:
    if not isinstance(value, list):
        raise ArchiveError(path, "must be a list")
    return value


def _int(value: Any, path: str, lo: int | None = None, hi: int | None = None, null: bool = False) -> int | None:
    if value is None and null:
        return None
    if type(value) is not int:
        raise ArchiveError(path, "must be a whole number")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        bounds = f"from {lo}" + (f" to {hi}" if hi is not None else "")
        raise ArchiveError(path, f"must be {bounds}, not {value}")
    return value


def _str(value: Any, path: str, null: bool = False, blank: bool = False, max_length: int | None = None) -> str | None:
    if value is None and null:
        return None
    if not isinstance(value, str) or (not blank and not value.strip()):
        raise ArchiveError(path, "must be a non-empty text" if not blank else "must be a text")
    if max_length is not None and len(value) > max_length:
        raise ArchiveError(path, f"must be at most {max_length} characters, not {len(value)}")
    return value


def _key(value: Any, path: str) -> str | None:
    """An entry or personal key (optional: an archive without keys gets new ones on import)."""
    key = _str(value, path, null=True, max_length=64)
    if key is not None and not KEY_RE.match(key):
        raise ArchiveError(path, "may hold only letters, digits, '-' and '_'")
    return key


def _bool(value: Any, path: str) -> bool:
    if type(value) is not bool:
        raise ArchiveError(path, "must be true or false")
    return value


def _validate(doc: Any) -> tuple[dict, Ruleset, list[dict], list[_Round], list[dict]]:
    doc = _obj(doc, "document")
    if _require(doc, "format", "") != FORMAT:
        raise ArchiveError("format", f"must be {FORMAT!r}")
    if _require(doc, "version", "") != VERSION:
        raise ArchiveError("version", f"must be {VERSION}")
    _require(doc, "exported_at", "")

    t = _obj(_require(doc, "tournament", ""), "tournament")
    slug = _str(_require(t, "slug", "tournament"), "tournament.slug", max_length=100)
    if not SLUG_RE.match(slug):
        raise ArchiveError("tournament.slug", "may hold only letters, digits, '-' and '_'")
    tournament = {
        "slug": slug,
        "name": _str(_require(t, "name", "tournament"), "tournament.name", max_length=200),
        "club": _str(_require(t, "club", "tournament"), "tournament.club", max_length=200),
        "entry_fee_cents": _int(_require(t, "entry_fee_cents", "tournament"), "tournament.entry_fee_cents", 0, INT_MAX),
        "venue": _str(t.get("venue", ""), "tournament.venue", blank=True, max_length=200),
        "status": t.get("status", Tournament.Status.PLANNED),
        "payout_percent": _int(t.get("payout_percent", 100), "tournament.payout_percent", 0, 100),
        "sponsored_cents": _int(t.get("sponsored_cents", 0), "tournament.sponsored_cents", 0, INT_MAX),
        "standings_public": _bool(t.get("standings_public", False), "tournament.standings_public"),
        "last_start_number": _int(t.get("last_start_number", 0), "tournament.last_start_number", 0, INT_MAX),
    }
    if "lot_seed" in t:
        tournament["lot_seed"] = _int(t["lot_seed"], "tournament.lot_seed", 0, BIG_MAX)
    try:
        tournament["date"] = datetime.date.fromisoformat(_str(_require(t, "date", "tournament"), "tournament.date"))
    except ValueError:
        raise ArchiveError("tournament.date", "must be a date like 2026-11-21") from None
    if tournament["status"] not in Tournament.Status.values:
        raise ArchiveError("tournament.status", f"must be one of {', '.join(Tournament.Status.values)}")

    try:
        rules = ruleset_from_dict(_obj(_require(doc, "rules", ""), "rules"))
    except RuleError as err:
        raise ArchiveError(f"rules.{err.field}", err.message) from None

    players = [_player(p, f"players[{i}]") for i, p in enumerate(_list(_require(doc, "players", ""), "players"))]
    numbers = [p["start_number"] for p in players]
    for i, number in enumerate(numbers):
        if number in numbers[:i]:
            raise ArchiveError(f"players[{i}].start_number", f"start number {number} appears twice")
    known = set(numbers)
    for i, p in enumerate(players):
        if p["substitute_for"] is not None and p["substitute_for"] not in known:
            raise ArchiveError(f"players[{i}].substitute_for", f"no player has start number {p['substitute_for']}")
    tournament["last_start_number"] = max([tournament["last_start_number"], *numbers])

    rounds = [
        _round(r, f"rounds[{i}]", i + 1, rules, known)
        for i, r in enumerate(_list(_require(doc, "rounds", ""), "rounds"))
    ]
    for i, entry in enumerate(_list(_require(doc, "ledger", ""), "ledger")):
        entry = _obj(entry, f"ledger[{i}]")
        if _int(_require(entry, "start_number", f"ledger[{i}]"), f"ledger[{i}].start_number", 1) not in known:
            raise ArchiveError(f"ledger[{i}].start_number", "no player has this start number")
        _ledger_place(entry, f"ledger[{i}]", rounds)
        if _require(entry, "kind", f"ledger[{i}]") not in ("reuegeld", "weitergeld", "payout"):
            raise ArchiveError(f"ledger[{i}].kind", "must be reuegeld, weitergeld or payout")
        _int(_require(entry, "cents", f"ledger[{i}]"), f"ledger[{i}].cents")
    for i, entry in enumerate(_list(_require(doc, "standings", ""), "standings")):
        entry = _obj(entry, f"standings[{i}]")
        _int(_require(entry, "rank", f"standings[{i}]"), f"standings[{i}].rank", 1)
        if _int(_require(entry, "start_number", f"standings[{i}]"), f"standings[{i}].start_number", 1) not in known:
            raise ArchiveError(f"standings[{i}].start_number", "no player has this start number")
        _int(_require(entry, "points", f"standings[{i}]"), f"standings[{i}].points")
    # Ledger and standings follow from the games; the importer recomputes them rather than trusting them.
    return tournament, rules, players, rounds, doc["standings"]


def _ledger_place(entry: dict, path: str, rounds: list[_Round]) -> None:
    """A ledger entry names a round, a table of it and (for Reuegeld, Weitergeld) a game at that table."""
    number = _int(_require(entry, "round", path), f"{path}.round", 1)
    if number > len(rounds):
        raise ArchiveError(f"{path}.round", f"there is no round {number}")
    table_number = _int(_require(entry, "table", path), f"{path}.table", 1)
    table = next((t for t in rounds[number - 1].tables if t.number == table_number), None)
    if table is None:
        raise ArchiveError(f"{path}.table", f"round {number} has no table {table_number}")
    hand = _int(entry.get("hand"), f"{path}.hand", 1, null=True)
    if hand is not None and hand not in {h.number for h in table.hands}:
        raise ArchiveError(f"{path}.hand", f"table {table_number} of round {number} has no game {hand}")


def _player(p: Any, path: str) -> dict:
    p = _obj(p, path)
    name = _str(_require(p, "name", path), f"{path}.name").strip()
    first = p.get("first_name")
    last = p.get("last_name")
    if first is None or last is None:
        first, _, last = name.rpartition(" ")
    return {
        "start_number": _int(_require(p, "start_number", path), f"{path}.start_number", 1, INT_MAX),
        "first_name": _str(first, f"{path}.first_name", blank=True, max_length=100),
        "last_name": _str(last, f"{path}.last_name", max_length=100),
        "club": _str(_require(p, "club", path), f"{path}.club", null=True, max_length=200),
        "paid": _bool(_require(p, "paid", path), f"{path}.paid"),
        "checked_in": _bool(p.get("checked_in", False), f"{path}.checked_in"),
        "withdrawn_after_round": _int(
            _require(p, "withdrawn_after_round", path), f"{path}.withdrawn_after_round", 0, SMALL_MAX, null=True
        ),
        "substitute_for": _int(p.get("substitute_for"), f"{path}.substitute_for", 1, INT_MAX, null=True),
        "key": _key(p.get("key"), f"{path}.key"),
    }


def _round(r: Any, path: str, expected_number: int, rules: Ruleset, players: set[int]) -> _Round:
    r = _obj(r, path)
    number = _int(_require(r, "number", path), f"{path}.number", 1, SMALL_MAX)
    if number != expected_number:
        raise ArchiveError(f"{path}.number", f"rounds must be numbered 1, 2, 3 … in order; expected {expected_number}")
    status = _require(r, "status", path)
    if status not in Round.Status.values:
        raise ArchiveError(f"{path}.status", f"must be one of {', '.join(Round.Status.values)}")
    result = _Round(number=number, status=status, seed=_int(_require(r, "seed", path), f"{path}.seed", 0, BIG_MAX))
    seated: set[int] = set()
    for i, t in enumerate(_list(_require(r, "tables", path), f"{path}.tables")):
        table = _table(t, f"{path}.tables[{i}]", i + 1, rules, players)
        for start_number in table.seats.values():
            if start_number in seated:
                raise ArchiveError(f"{path}.tables[{i}].seats", f"start number {start_number} sits twice in this round")
            seated.add(start_number)
        result.tables.append(table)
    return result


def _table(t: Any, path: str, expected_number: int, rules: Ruleset, players: set[int]) -> _Table:
    t = _obj(t, path)
    number = _int(_require(t, "number", path), f"{path}.number", 1, SMALL_MAX)
    if number != expected_number:
        raise ArchiveError(f"{path}.number", f"tables must be numbered 1, 2, 3 … in order; expected {expected_number}")
    raw_seats = _obj(_require(t, "seats", path), f"{path}.seats")
    size = len(raw_seats)
    if sorted(raw_seats) != [str(s) for s in range(1, size + 1)] or size not in (4, 5):
        raise ArchiveError(f"{path}.seats", 'must map seats "1" to "4" (or "5") to start numbers')
    seats: dict[int, int] = {}
    for seat, start_number in raw_seats.items():
        start_number = _int(start_number, f"{path}.seats.{seat}", 1)
        if start_number not in players:
            raise ArchiveError(f"{path}.seats.{seat}", f"no player has start number {start_number}")
        seats[int(seat)] = start_number
    entry_key = _key(t.get("entry_key"), f"{path}.entry_key")
    hands: list[_Hand] = []
    for i, h in enumerate(_list(_require(t, "hands", path), f"{path}.hands")):
        hands.append(_hand(h, f"{path}.hands[{i}]", rules, size, {x.number for x in hands}))
    paper_totals = _paper_totals(t.get("paper_totals"), f"{path}.paper_totals", rules, size, bool(hands))
    confirmations: list[int] = []
    for i, seat in enumerate(_list(t.get("confirmations", []), f"{path}.confirmations")):
        seat = _int(seat, f"{path}.confirmations[{i}]", 1, size)
        if seat in confirmations:
            raise ArchiveError(f"{path}.confirmations[{i}]", f"seat {seat} confirmed twice")
        confirmations.append(seat)
    closed_reason = _str(t.get("closed_reason", ""), f"{path}.closed_reason", blank=True, max_length=300)
    return _Table(number=number, seats=seats, hands=hands, entry_key=entry_key, paper_totals=paper_totals,
                  confirmations=confirmations, closed_reason=closed_reason)


def _paper_totals(value: Any, path: str, rules: Ruleset, size: int, has_hands: bool) -> dict[str, int] | None:
    """The checks of paper mode (``table_paper_totals``): every seat a whole number, summing to 0 under plus/minus."""
    if value is None:
        return None
    value = _obj(value, path)
    if has_hands:
        raise ArchiveError(path, "a table has either games or round totals from paper, not both")
    seats = [str(s) for s in range(1, size + 1)]
    if sorted(value) != sorted(seats):
        raise ArchiveError(path, f'must map every seat "1" to "{size}" to its round total')
    totals = {seat: _int(value[seat], f"{path}.{seat}") for seat in seats}
    if rules.scoring == "plus_minus" and sum(totals.values()) != 0:
        raise ArchiveError(path, f"must add up to 0, not {sum(totals.values()):+d}")
    return totals


def _hand(h: Any, path: str, rules: Ruleset, size: int, numbers_so_far: set[int]) -> _Hand:
    h = _obj(dict(h) if isinstance(h, dict) else h, path)
    number = _int(_require(h, "number", path), f"{path}.number", 1, SMALL_MAX)
    if number in numbers_so_far:
        raise ArchiveError(f"{path}.number", f"game {number} appears twice at this table")
    dealer = _int(_require(h, "dealer", path), f"{path}.dealer", 1, size)
    points = h.get("points")
    record = {key: value for key, value in h.items() if key not in ("number", "dealer", "points")}
    if size == 5:
        record["dealer"] = dealer
    try:
        score = hand_score(record, dealer=dealer, rules=rules, table_size=size)
    except RuleError as err:
        raise ArchiveError(f"{path}.{err.field}", err.message) from None
    if not score.thrown_in:  # a Strich ("weiter", a Kreuz replayed after 60:60) has no points
        _obj(_require(h, "points", path), f"{path}.points")
    computed = points_json(score)
    if not score.thrown_in and points != computed:
        raise ArchiveError(f"{path}.points", f"do not match the rules: expected {computed}")
    return _Hand(number=number, dealer=dealer, record=record, outcome=outcome_columns(score))


@transaction.atomic
def archive_import(*, doc: Any, slug: str | None = None) -> Tournament:
    """Validate the whole archive, then create the tournament; refuses an existing slug."""
    tournament_data, rules, players, rounds, standings = _validate(doc)
    audit = _audit(doc.get("audit", []))  # optional: archives from before the audit log have none
    original = Tournament.objects.filter(slug=tournament_data["slug"]).first()  # the same server's source, if any
    if slug is not None:
        if not SLUG_RE.match(slug):
            raise ArchiveError("slug", "may hold only letters, digits, '-' and '_'")
        tournament_data["slug"] = slug
    if Tournament.objects.filter(slug=tournament_data["slug"]).exists():
        raise ArchiveError(
            "tournament.slug", f"a tournament {tournament_data['slug']!r} exists already; choose another with --slug"
        )
    club, _ = Club.objects.get_or_create(name=tournament_data.pop("club"))
    tournament = Tournament.objects.create(club=club, rules=ruleset_to_dict(rules), **tournament_data)

    registrations: dict[int, Registration] = {}
    taken: set[int] = set()  # players given a start number already: a namesake never takes the same one
    for p in sorted(players, key=lambda p: p["start_number"]):
        player_club = Club.objects.get_or_create(name=p["club"])[0] if p["club"] else None
        player = _player_for(p, player_club, original, taken)
        taken.add(player.pk)
        # A key is kept (printed start cards stay valid) unless another registration has it; none: a new one.
        keep_key = p["key"] and not Registration.objects.filter(key=p["key"]).exists()
        registrations[p["start_number"]] = Registration.objects.create(
            tournament=tournament, player=player, start_number=p["start_number"], paid=p["paid"],
            checked_in=p["checked_in"], withdrawn_after_round=p["withdrawn_after_round"],
            **({"key": p["key"]} if keep_key else {}),
        )
    for p in players:
        if p["substitute_for"] is not None:
            reg = registrations[p["start_number"]]
            reg.substitute_for = registrations[p["substitute_for"]]
            reg.save(update_fields=["substitute_for"])

    for r in rounds:
        rnd = Round.objects.create(tournament=tournament, number=r.number, status=r.status, seed=r.seed)
        for t in r.tables:
            # Keep the printed QR codes valid, unless the key is taken (the same archive imported twice).
            keep_key = t.entry_key and not Table.objects.filter(entry_key=t.entry_key).exists()
            extra = {"entry_key": t.entry_key} if keep_key else {}
            complete = len(t.confirmations) >= len(t.seats) or bool(t.closed_reason) or t.paper_totals is not None
            table = Table.objects.create(round=rnd, number=t.number, size=len(t.seats), paper_totals=t.paper_totals,
                                         closed_reason=t.closed_reason,
                                         completed_at=timezone.now() if complete else None, **extra)
            TableConfirmation.objects.bulk_create(TableConfirmation(table=table, seat=seat, device="archive")
                                                  for seat in t.confirmations)
            Seat.objects.bulk_create(
                Seat(table=table, round=rnd, number=seat, registration=registrations[start_number])
                for seat, start_number in sorted(t.seats.items())
            )
            Hand.objects.bulk_create(
                Hand(table=table, number=h.number, dealer=h.dealer, client_id=uuid.uuid4(),
                     **h.outcome, **hand_columns(h.record))
                for h in t.hands
            )
    _check_standings(tournament, standings)
    _audit_write(tournament, audit)
    return tournament


def _audit(value: Any) -> list[dict]:
    """The archive's audit log: a list of entries (at, action, by, subject, before, after, reason)."""
    entries = []
    for i, e in enumerate(_list(value, "audit")):
        path = f"audit[{i}]"
        e = _obj(e, path)
        at = parse_datetime(_str(_require(e, "at", path), f"{path}.at")) if isinstance(e.get("at"), str) else None
        if at is None or at.tzinfo is None:
            raise ArchiveError(f"{path}.at", "must be a date and time with its offset, like 2026-11-21T19:30:00+01:00")
        entries.append({
            "at": at,
            "action": _str(_require(e, "action", path), f"{path}.action", max_length=60),
            "by_name": _str(e.get("by"), f"{path}.by", null=True, blank=True, max_length=150) or "",
            "subject": _str(e.get("subject", ""), f"{path}.subject", blank=True, max_length=300),
            "before": e.get("before"),
            "after": e.get("after"),
            "reason": _str(e.get("reason", ""), f"{path}.reason", blank=True, max_length=300),
        })
    return entries


def _audit_write(tournament: Tournament, entries: list[dict]) -> None:
    """The log as it was: same times, same names (linked to the user of that name on this server, if any)."""
    from django.contrib.auth import get_user_model

    users = {u.get_username(): u for u in get_user_model().objects.filter(
        username__in={e["by_name"] for e in entries if e["by_name"]})}
    for e in entries:
        row = AuditEntry.objects.create(club=tournament.club, tournament=tournament, by=users.get(e["by_name"]),
                                        **{k: v for k, v in e.items() if k != "at"})
        AuditEntry.objects.filter(pk=row.pk).update(at=e["at"])  # ``at`` is auto_now_add: set it afterwards


def _player_for(p: dict, club: Club | None, original: Tournament | None, taken: set[int]) -> Player:
    """The archive's player in this database, matched on start number first, so namesakes stay apart.

    1. The archive's own tournament is on this server (a copy under a new slug): the player it registered
       under this start number, when name and club agree.
    2. Otherwise a player of the same name and club not yet taken by a namesake of this archive (the
       namesakes in start number order take the players in the order they were created).
    3. Otherwise a new player.
    """
    same = {"first_name": p["first_name"], "last_name": p["last_name"], "club": club}
    if original is not None:
        reg = (Registration.objects.filter(tournament=original, start_number=p["start_number"], player__club=club,
                                           player__first_name=p["first_name"], player__last_name=p["last_name"])
               .select_related("player").first())
        if reg is not None and reg.player_id not in taken:
            return reg.player
    found = Player.objects.filter(**same).exclude(pk__in=taken).order_by("pk").first()
    return found or Player.objects.create(**same)


def _check_standings(tournament: Tournament, standings: list[dict]) -> None:
    """The archive's standings must be what its games give (raising rolls the whole import back)."""
    result, info = standings_compute(tournament, closed_only=True)
    computed = {info[s.player].start_number: s.points for s in result.overall}
    for i, entry in enumerate(standings):
        expected = computed.get(entry["start_number"])
        if expected != entry["points"]:
            raise ArchiveError(f"standings[{i}].points", f"do not match the games: expected {expected}")
