"""Import: validate a whole archive first, then write it in one transaction.

Validation refuses the first bad value, naming its path (``rounds[0].tables[3].hands[17].augen``);
nothing is written unless the whole archive is valid. The archive's shape (types, ranges, lengths,
which keys may be left out) is declared once in ``schema.py``; the checks here are what its values
must agree on: start numbers given once and known wherever named, rounds and tables numbered in
order, and every game's record scored by the rules engine to the points the archive gives.

A table may carry ``paper_totals`` (``{"1": 12, "2": -5, ...}``) instead of games: paper mode, where only
each seat's round total was entered.
"""

import json
import uuid
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from scoring.rules import RuleError, Ruleset, ruleset_to_dict
from scoring.storage import hand_columns, hand_score, outcome_columns, points_json

from ..models import (
    AuditEntry,
    Club,
    Hand,
    Player,
    Registration,
    Round,
    Seat,
    Table,
    TableConfirmation,
    Tournament,
    Venue,
)
from ..selectors.desk import club_players
from ..selectors.standings import standings_compute
from ..services.errors import ServiceError
from ..services.prizes import prize_categories_set, prize_plan_set, prizes_set
from .schema import SLUG_RE, ArchiveSchema, first_error

_STATUS_ORDER = (Round.Status.CLOSED, Round.Status.PUBLISHED, Round.Status.DRAWN)  # from the first round on


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
    shared_seats: dict[int, dict[str, int]] = field(default_factory=dict)  # seat -> from_game, before (v2)
    left: tuple[int, int, int] | None = None  # a table of five that played on with four (v2)


@dataclass
class _Round:
    number: int
    status: str
    seed: int
    tables: list[_Table] = field(default_factory=list)


@dataclass
class _Archive:
    tournament: dict[str, Any]
    rules: Ruleset
    players: list[dict[str, Any]]
    rounds: list[_Round]
    standings: list[dict[str, Any]]
    audit: list[dict[str, Any]]
    prizes: dict[str, Any] = field(default_factory=dict)  # version 2's optional keys
    venues: list[dict[str, Any]] = field(default_factory=list)


def archive_parse(content: bytes) -> Any:
    """An archive file's bytes as its JSON document; a file that is none (binary, not UTF-8, not JSON, nested
    without end) is refused as ``file``."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ArchiveError("file", f"not UTF-8 text (byte {err.start}): no archive") from None
    try:
        return json.loads(text)
    except RecursionError:  # the parser's own bound (about 1,000 levels; ours nest about ten)
        raise ArchiveError("file", "nested too deeply: no archive") from None
    except json.JSONDecodeError as err:
        raise ArchiveError("file", f"not JSON (line {err.lineno}, column {err.colno}: {err.msg})") from None


def _validate(doc: Any) -> _Archive:
    """The archive's shape through its schema (``schema.ArchiveSchema``), then what its values must agree on."""
    schema = ArchiveSchema(data=doc)
    if not schema.is_valid():
        raise ArchiveError(*first_error(schema.errors))
    data = schema.validated_data
    tournament = dict(data["tournament"])
    rules = data["rules"]
    players = [dict(p) for p in data["players"]]
    numbers = [p["start_number"] for p in players]
    for i, number in enumerate(numbers):
        if number in numbers[:i]:
            raise ArchiveError(f"players[{i}].start_number", f"start number {number} appears twice")
    known = set(numbers)
    for i, p in enumerate(players):
        if p["substitute_for"] is not None and p["substitute_for"] not in known:
            raise ArchiveError(f"players[{i}].substitute_for", f"no player has start number {p['substitute_for']}")
        if p["withdrawn_after_round"] is not None and p["withdrawn_after_round"] > rules.rounds:
            raise ArchiveError(
                f"players[{i}].withdrawn_after_round",
                f"must be from 0 to {rules.rounds} (the tournament's rounds), not {p['withdrawn_after_round']}",
            )
    tournament["last_start_number"] = max([tournament["last_start_number"], *numbers])

    rounds = [_round(r, f"rounds[{i}]", i + 1, rules, known) for i, r in enumerate(data["rounds"])]
    for i, (before, rnd) in enumerate(zip(rounds, rounds[1:]), start=1):
        if _STATUS_ORDER.index(rnd.status) < _STATUS_ORDER.index(before.status):
            raise ArchiveError(
                f"rounds[{i}].status",
                f"round {rnd.number} cannot be {rnd.status} after round "
                f"{before.number} {before.status}: rounds are published and closed in order",
            )
    for i, entry in enumerate(data["ledger"]):
        if entry["start_number"] not in known:
            raise ArchiveError(f"ledger[{i}].start_number", "no player has this start number")
        _ledger_place(entry, f"ledger[{i}]", rounds)
    for i, entry in enumerate(data["standings"]):
        if entry["start_number"] not in known:
            raise ArchiveError(f"standings[{i}].start_number", "no player has this start number")
    # Ledger and standings follow from the games; the importer recomputes them rather than trusting them.
    audit = [
        {
            "at": e["at"],
            "action": e["action"],
            "by_name": e["by"] or "",
            "subject": e["subject"],
            "before": e["before"],
            "after": e["after"],
            "reason": e["reason"],
        }
        for e in data["audit"]
    ]
    prizes = {key: data[key] for key in ("prizes", "prize_plan", "prize_categories")}
    venues = [dict(v) for v in data["venues"]]
    _check_venues(venues, players)
    return _Archive(tournament, rules, players, rounds, list(data["standings"]), audit, prizes, venues)


def _check_venues(venues: list[dict], players: list[dict]) -> None:
    """Venues: distinct names, tables in order and not shared; a player's venue is one of them."""
    names: set[str] = set()
    for i, v in enumerate(venues):
        if v["name"] in names:
            raise ArchiveError(f"venues[{i}].name", f"venue {v['name']!r} appears twice")
        names.add(v["name"])
        if v["last_table"] < v["first_table"]:
            raise ArchiveError(f"venues[{i}].last_table", "must not be below first_table")
        for j, other in enumerate(venues[:i]):
            if v["first_table"] <= other["last_table"] and other["first_table"] <= v["last_table"]:
                raise ArchiveError(f"venues[{i}].first_table", f"its tables overlap those of venues[{j}]")
    for i, p in enumerate(players):
        if p.get("venue") is not None and p["venue"] not in names:
            raise ArchiveError(f"players[{i}].venue", f"no venue is called {p['venue']!r}")


def _ledger_place(entry: dict, path: str, rounds: list[_Round]) -> None:
    """A ledger entry's round, table and game (Reuegeld, Weitergeld) exist in the archive."""
    number = entry["round"]
    if number > len(rounds):
        raise ArchiveError(f"{path}.round", f"there is no round {number}")
    table_number = entry["table"]
    table = next((t for t in rounds[number - 1].tables if t.number == table_number), None)
    if table is None:
        raise ArchiveError(f"{path}.table", f"round {number} has no table {table_number}")
    hand = entry["hand"]
    if hand is not None and hand not in {h.number for h in table.hands}:
        raise ArchiveError(f"{path}.hand", f"table {table_number} of round {number} has no game {hand}")


def _round(r: dict, path: str, expected_number: int, rules: Ruleset, players: set[int]) -> _Round:
    number = r["number"]
    if number != expected_number:
        raise ArchiveError(f"{path}.number", f"rounds must be numbered 1, 2, 3 … in order; expected {expected_number}")
    result = _Round(number=number, status=r["status"], seed=r["seed"])
    seated: set[int] = set()
    for i, t in enumerate(r["tables"]):
        table = _table(t, f"{path}.tables[{i}]", i + 1, rules, players)
        for start_number in table.seats.values():
            if start_number in seated:
                raise ArchiveError(f"{path}.tables[{i}].seats", f"start number {start_number} sits twice in this round")
            seated.add(start_number)
        result.tables.append(table)
    return result


def _table(t: dict, path: str, expected_number: int, rules: Ruleset, players: set[int]) -> _Table:
    number = t["number"]
    if number != expected_number:
        raise ArchiveError(f"{path}.number", f"tables must be numbered 1, 2, 3 … in order; expected {expected_number}")
    seats: dict[int, int] = t["seats"]
    size = len(seats)
    for seat, start_number in seats.items():
        if start_number not in players:
            raise ArchiveError(f"{path}.seats.{seat}", f"no player has start number {start_number}")
    hands: list[_Hand] = []
    for i, h in enumerate(t["hands"]):
        hands.append(_hand(h, f"{path}.hands[{i}]", rules, size, {x.number for x in hands}))
    paper_totals = _paper_totals(t["paper_totals"], f"{path}.paper_totals", rules, size, bool(hands))
    confirmations: list[int] = []
    for i, seat in enumerate(t["confirmations"]):
        if seat > size:
            raise ArchiveError(f"{path}.confirmations[{i}]", f"must be from 1 to {size}, not {seat}")
        if seat in confirmations:
            raise ArchiveError(f"{path}.confirmations[{i}]", f"seat {seat} confirmed twice")
        confirmations.append(seat)
    shared: dict[int, dict[str, int]] = {}
    for key, value in t["shared_seats"].items():
        if not key.isdigit() or int(key) not in seats:
            raise ArchiveError(f"{path}.shared_seats", f"names seat {key}, which the table does not have")
        if value["before"] not in players:
            raise ArchiveError(f"{path}.shared_seats.{key}.before", f"no player has start number {value['before']}")
        shared[int(key)] = dict(value)
    left = (t["seat_left"], t["seat_left_from"], t["games_with_four"])
    if any(value is not None for value in left):
        if None in left:
            raise ArchiveError(f"{path}.seat_left", "seat_left, seat_left_from and games_with_four go together")
        if size != 5 or left[0] not in seats:
            raise ArchiveError(f"{path}.seat_left", "only a seat of a table of five can be left empty")
    return _Table(
        number=number,
        seats=seats,
        hands=hands,
        entry_key=t["entry_key"],
        paper_totals=paper_totals,
        confirmations=confirmations,
        closed_reason=t["closed_reason"],
        shared_seats=shared,
        left=left if left[0] is not None else None,
    )


def _paper_totals(
    value: dict[str, int] | None, path: str, rules: Ruleset, size: int, has_hands: bool
) -> dict[str, int] | None:
    """The checks of paper mode (``table_paper_totals``): every seat given, summing to 0 under plus/minus."""
    if value is None:
        return None
    if has_hands:
        raise ArchiveError(path, "a table has either games or round totals from paper, not both")
    seats = [str(s) for s in range(1, size + 1)]
    if sorted(value) != sorted(seats):
        raise ArchiveError(path, f'must map every seat "1" to "{size}" to its round total')
    totals = {seat: value[seat] for seat in seats}
    if rules.scoring == "plus_minus" and sum(totals.values()) != 0:
        raise ArchiveError(path, f"must add up to 0, not {sum(totals.values()):+d}")
    return totals


def _hand(h: dict, path: str, rules: Ruleset, size: int, numbers_so_far: set[int]) -> _Hand:
    """A game: its record scored by the rules engine (which names a bad key), its points what the rules give."""
    number = h["number"]
    if number in numbers_so_far:
        raise ArchiveError(f"{path}.number", f"game {number} appears twice at this table")
    dealer = h["dealer"]
    if dealer > size:
        raise ArchiveError(f"{path}.dealer", f"must be from 1 to {size}, not {dealer}")
    record = dict(h["record"])
    if size == 5:
        record["dealer"] = dealer
    try:
        score = hand_score(record, dealer=dealer, rules=rules, table_size=size)
    except RuleError as err:
        raise ArchiveError(f"{path}.{err.field}", err.message) from None
    if not score.thrown_in and "points" not in h:  # a Strich ("weiter", a Kreuz replayed after 60:60) has none
        raise ArchiveError(f"{path}.points", "is missing")
    computed = points_json(score)
    if not score.thrown_in and h["points"] != computed:
        raise ArchiveError(f"{path}.points", f"do not match the rules: expected {computed}")
    return _Hand(number=number, dealer=dealer, record=record, outcome=outcome_columns(score))


@transaction.atomic
def archive_import(*, doc: Any, slug: str | None = None, club: Club | None = None) -> Tournament:
    """Validate the whole archive, then create the tournament in ``club`` (None: the club the archive names,
    made if there is none); refuses an existing slug.

    Players are matched and made only in that club's database (``selectors.desk.club_players``): a player's
    club that is not the importing club stays a text on his registration, and the "original" is a
    tournament of the importing club only. Another club's rows are never read, matched or written."""
    archive = _validate(doc)
    tournament_data, rules, players, rounds = archive.tournament, archive.rules, archive.players, archive.rounds
    named = tournament_data.pop("club")
    if club is None:
        club = Club.objects.get_or_create(name=named)[0]
    # the same server's source, if any: the importing club's own tournament of that slug
    original = Tournament.objects.filter(slug=tournament_data["slug"], club=club).first()
    if slug is not None:
        if not SLUG_RE.match(slug):
            raise ArchiveError("slug", "may hold only letters, digits, '-' and '_'")
        tournament_data["slug"] = slug
    if Tournament.objects.filter(slug=tournament_data["slug"]).exists():
        raise ArchiveError(
            "tournament.slug", f"a tournament {tournament_data['slug']!r} exists already; choose another with --slug"
        )
    tournament = Tournament.objects.create(club=club, rules=ruleset_to_dict(rules), **tournament_data)

    registrations: dict[int, Registration] = {}
    taken: set[int] = set()  # players given a start number already: a namesake never takes the same one
    for p in sorted(players, key=lambda p: p["start_number"]):
        said = p["club"] or ""
        home = said.casefold() == club.name.casefold()
        player = _player_for(p, club, club if home else None, original, taken)
        taken.add(player.pk)
        # A key is kept (printed start cards stay valid) unless another registration has it; none: a new one.
        keep_key = p["key"] and not Registration.objects.filter(key=p["key"]).exists()
        registrations[p["start_number"]] = Registration.objects.create(
            tournament=tournament,
            player=player,
            start_number=p["start_number"],
            paid=p["paid"],
            checked_in=p["checked_in"],
            withdrawn_after_round=p["withdrawn_after_round"],
            fee_due=p["fee_due"],
            left_during_round=p["left_during_round"],
            prize_handed_over=p["prize_handed_over"],
            prize_chosen=p["prize_chosen"],
            birth_year=p["birth_year"],
            gender=p["gender"],
            local=p["local"],
            club_name="" if home else said,
            **({"key": p["key"]} if keep_key else {}),
        )
    venues = {v["name"]: Venue.objects.create(tournament=tournament, **v) for v in archive.venues}
    for p in players:
        if p.get("venue") is not None:
            Registration.objects.filter(pk=registrations[p["start_number"]].pk).update(venue=venues[p["venue"]])
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
            complete = (
                len(t.confirmations) >= len(t.seats) - (t.left is not None)
                or bool(t.closed_reason)
                or t.paper_totals is not None
            )
            left = dict(zip(("seat_left", "seat_left_from", "games_with_four"), t.left or (None, None, None)))
            table = Table.objects.create(
                round=rnd,
                number=t.number,
                size=len(t.seats),
                paper_totals=t.paper_totals,
                closed_reason=t.closed_reason,
                completed_at=timezone.now() if complete else None,
                **left,
                **extra,
            )
            TableConfirmation.objects.bulk_create(
                TableConfirmation(table=table, seat=seat, device="archive") for seat in t.confirmations
            )
            Seat.objects.bulk_create(
                Seat(
                    table=table,
                    round=rnd,
                    number=seat,
                    registration=registrations[start_number],
                    since_game=t.shared_seats.get(seat, {}).get("from_game"),
                    earlier=registrations[t.shared_seats[seat]["before"]] if seat in t.shared_seats else None,
                )
                for seat, start_number in sorted(t.seats.items())
            )
            Hand.objects.bulk_create(
                Hand(
                    table=table,
                    number=h.number,
                    dealer=h.dealer,
                    client_id=uuid.uuid4(),
                    **h.outcome,
                    **hand_columns(h.record),
                )
                for h in t.hands
            )
    _check_standings(tournament, archive.standings)
    _prizes_write(tournament, archive.prizes)
    AuditEntry.objects.filter(tournament=tournament).delete()  # the services' own entries: the log is the archive's
    _audit_write(tournament, archive.audit)
    return tournament


def _prizes_write(tournament: Tournament, data: dict[str, Any]) -> None:
    """The prize list, its plan and the category prizes through their services, which check them (a refusal
    names the archive's key and rolls the whole import back)."""
    steps = [("prizes", lambda: prizes_set(tournament=tournament, prizes=data["prizes"]))]
    if data["prize_plan"] is not None:
        plan = data["prize_plan"]
        if not isinstance(plan, dict):
            raise ArchiveError("prize_plan", "must be an object")
        both = plan.get("categories_allow_both", False)
        values = {k: v for k, v in plan.items() if k != "categories_allow_both"}
        steps.append(("prize_plan", lambda: prize_plan_set(tournament=tournament, values=values)))
        steps.append(
            (
                "prize_plan.categories_allow_both",
                lambda: prize_categories_set(tournament=tournament, categories=[], allow_both=both is True),
            )
        )
    if data["prize_categories"]:
        steps.append(
            (
                "prize_categories",
                lambda: prize_categories_set(tournament=tournament, categories=data["prize_categories"]),
            )
        )
    for key, step in steps:
        try:
            if key == "prizes" and not all(isinstance(p, dict) for p in data["prizes"]):
                raise ArchiveError("prizes", "each prize must be an object")
            if key == "prize_categories" and not all(isinstance(c, dict) for c in data["prize_categories"]):
                raise ArchiveError("prize_categories", "each category must be an object")
            step()
        except ServiceError as err:  # the services name "prizes[6].place", "categories[0].gender", "curve"
            field = (
                err.field
                if err.field.startswith("prizes[")
                else (f"prize_{err.field}" if err.field.startswith("categories[") else f"{key}.{err.field}")
            )
            raise ArchiveError(field, err.message) from None


def _audit_write(tournament: Tournament, entries: list[dict]) -> None:
    """The log as it was: same times, same names (linked to the user of that name on this server, if any)."""
    from django.contrib.auth import get_user_model

    users = {
        u.get_username(): u
        for u in get_user_model().objects.filter(username__in={e["by_name"] for e in entries if e["by_name"]})
    }
    for e in entries:
        row = AuditEntry.objects.create(
            club=tournament.club,
            tournament=tournament,
            by=users.get(e["by_name"]),
            **{k: v for k, v in e.items() if k != "at"},
        )
        AuditEntry.objects.filter(pk=row.pk).update(at=e["at"])  # ``at`` is auto_now_add: set it afterwards


def _player_for(p: dict, club: Club, player_club: Club | None, original: Tournament | None, taken: set[int]) -> Player:
    """The archive's player in the importing club's database, matched on start number first, so namesakes
    stay apart.

    1. The archive's own tournament is this club's on this server (a copy under a new slug): the player it
       registered under this start number, when name and club agree.
    2. Otherwise a player of the club's database of the same name and club (``player_club``: the importing
       club, or none for a player of another club) not yet taken by a namesake of this archive (the
       namesakes in start number order take the players in the order they were created).
    3. Otherwise a new player of the club's database.
    """
    database = club_players(club.pk)
    if original is not None:
        reg = (
            Registration.objects.filter(
                tournament=original,
                start_number=p["start_number"],
                player__in=database,
                player__first_name=p["first_name"],
                player__last_name=p["last_name"],
            )
            .select_related("player__club")
            .first()
        )
        if reg is not None and reg.player_id not in taken and reg.club_label == (p["club"] or ""):
            return reg.player
    same = {"first_name": p["first_name"], "last_name": p["last_name"], "club": player_club}
    found = database.filter(**same).exclude(pk__in=taken).order_by("pk").first()
    return found or Player.objects.create(**same)


def _check_standings(tournament: Tournament, standings: list[dict]) -> None:
    """The archive's standings must be what its games give (raising rolls the whole import back)."""
    result, info = standings_compute(tournament, closed_only=True)
    computed = {info[s.player].start_number: s.points for s in result.overall}
    for i, entry in enumerate(standings):
        expected = computed.get(entry["start_number"])
        if expected != entry["points"]:
            raise ArchiveError(f"standings[{i}].points", f"do not match the games: expected {expected}")
