"""Export: a tournament as one archive document (a read; no writes)."""

from typing import Any

from django.utils import timezone

from scoring.rules import ruleset_to_dict
from scoring.storage import stored_record

from ..models import (
    AuditEntry,
    Hand,
    Prize,
    PrizeCategory,
    PrizePlan,
    Registration,
    Seat,
    Table,
    TableConfirmation,
    Tournament,
)
from ..selectors.standings import standings_compute
from ..services.prizes import PLAN_FIELDS
from .version import FORMAT, VERSION


def archive_build(tournament: Tournament, *, with_keys: bool = False) -> dict[str, Any]:
    """The whole tournament as one document. The keys (each table's entry key, each player's personal key)
    open the tournament's pages, so they are left out unless ``with_keys``: an archive then can be passed
    around without handing over the tournament (an import makes new keys)."""
    registrations = list(
        Registration.objects.filter(tournament=tournament)
        .select_related("player__club", "substitute_for", "venue")
        .order_by("start_number")
    )
    start_numbers = {reg.pk: reg.start_number for reg in registrations}
    venues = list(tournament.venues.order_by("first_table"))
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.localtime().isoformat(timespec="seconds"),
        "tournament": {
            "slug": tournament.slug,
            "name": tournament.name,
            "date": tournament.date.isoformat(),
            "club": tournament.club.name,
            "entry_fee_cents": tournament.entry_fee_cents,
            "venue": tournament.venue,
            "status": tournament.status,
            "payout_percent": tournament.payout_percent,
            "sponsored_cents": tournament.sponsored_cents,
            "standings_public": tournament.standings_public,
            "last_start_number": tournament.last_start_number,
            "lot_seed": tournament.lot_seed,
        },
        "rules": ruleset_to_dict(tournament.ruleset),
        "players": [_player(reg, with_keys) for reg in registrations],
        "rounds": _rounds(tournament, start_numbers, with_keys),
        **_ledger_and_standings(tournament),
        "audit": _audit(tournament),
        **_prizes(tournament),
        # optional, additive: an evening in several inns; an evening in one place has no key
        **(
            {
                "venues": [
                    {
                        "name": v.name,
                        "address": v.address,
                        "contact": v.contact,
                        "first_table": v.first_table,
                        "last_table": v.last_table,
                    }
                    for v in venues
                ]
            }
            if venues
            else {}
        ),
    }


# the plan as the prize services store it, and whether a player may win two prizes
PLAN_KEYS = (*PLAN_FIELDS, "categories_allow_both")


def _prizes(tournament: Tournament) -> dict[str, Any]:
    """Version 2's optional keys (docs/archive-v2.md): the prize list, the plan it came from, the category prizes."""
    result: dict[str, Any] = {
        "prizes": [
            {"place": p.place, "amount_cents": p.amount_cents, "goods": p.goods}
            for p in Prize.objects.filter(tournament=tournament)
        ],
    }
    plan = PrizePlan.objects.filter(tournament=tournament).first()
    if plan is not None:
        result["prize_plan"] = {key: getattr(plan, key) for key in PLAN_KEYS}
    categories = PrizeCategory.objects.filter(tournament=tournament)
    if categories:
        result["prize_categories"] = [
            {
                "name": c.name,
                "min_age": c.min_age,
                "max_age": c.max_age,
                "gender": c.gender,
                "local": c.local,
                "prizes": [{"amount_cents": p.get("amount_cents"), "goods": p.get("goods") or ""} for p in c.prizes],
            }
            for c in categories
        ]
    return result


def _audit(tournament: Tournament) -> list[dict[str, Any]]:
    """The tournament's audit log, oldest first: who changed what, when, before → after."""
    return [
        {
            "at": timezone.localtime(e.at).isoformat(),
            "action": e.action,
            "by": e.by_name or None,
            "subject": e.subject,
            "before": e.before,
            "after": e.after,
            "reason": e.reason,
        }
        for e in AuditEntry.objects.filter(tournament=tournament).order_by("at", "id")
    ]


def _ledger_and_standings(tournament: Tournament) -> dict[str, Any]:
    """Computed afresh from the closed rounds' games (never from a possibly older snapshot)."""
    result, info = standings_compute(tournament, closed_only=True)
    return {
        "ledger": [
            {
                "start_number": info[e.player].start_number,
                "round": e.round,
                "table": e.table,
                "hand": e.hand,
                "kind": e.kind,
                "cents": e.cents,
            }
            for e in result.ledger
        ],
        "standings": [
            {
                "rank": s.rank,
                "start_number": info[s.player].start_number,
                "points": s.points,
                "won_solos": s.won_solos,
                "lost_solos": s.lost_solos,
            }
            for s in result.overall
        ],
    }


def _player(reg: Registration, with_keys: bool) -> dict[str, Any]:
    player = reg.player
    entry = {
        "start_number": reg.start_number,
        "name": player.name,
        "club": reg.club_label or None,
        "paid": reg.paid,
        "withdrawn_after_round": reg.withdrawn_after_round,
        "first_name": player.first_name,
        "last_name": player.last_name,
        "checked_in": reg.checked_in,
        "substitute_for": reg.substitute_for.start_number if reg.substitute_for else None,
        "fee_due": reg.fee_due,  # false: a substitute who took over a paid seat owes no fee
        "left_during_round": reg.left_during_round,
        "prize_handed_over": reg.prize_handed_over,
    }
    if reg.prize_chosen:
        entry["prize_chosen"] = reg.prize_chosen
    for fact in ("birth_year", "gender", "local"):  # given for a category prize, with consent
        if getattr(reg, fact) not in (None, ""):
            entry[fact] = getattr(reg, fact)
    if reg.venue_id:
        entry["venue"] = reg.venue.name  # optional: the venue he played in
    if with_keys:
        entry["key"] = reg.key
    return entry


def _rounds(tournament: Tournament, start_numbers: dict[int, int], with_keys: bool) -> list[dict[str, Any]]:
    tables = list(
        Table.objects.filter(round__tournament=tournament).select_related("round").order_by("round__number", "number")
    )
    seats: dict[int, dict[str, int]] = {}
    shared: dict[int, dict[str, dict[str, int]]] = {}  # who played which games of a seat (version 2)
    for seat in Seat.objects.filter(round__tournament=tournament).order_by("table_id", "number"):
        seats.setdefault(seat.table_id, {})[str(seat.number)] = start_numbers[seat.registration_id]
        if seat.earlier_id and seat.since_game and seat.since_game > 1:
            shared.setdefault(seat.table_id, {})[str(seat.number)] = {
                "from_game": seat.since_game,
                "before": start_numbers[seat.earlier_id],
            }
    hands: dict[int, list[Hand]] = {}
    for hand in Hand.objects.filter(table__round__tournament=tournament).order_by("table_id", "number"):
        hands.setdefault(hand.table_id, []).append(hand)
    confirmed: dict[int, list[int]] = {}
    for table_id, seat in (
        TableConfirmation.objects.filter(table__round__tournament=tournament)
        .order_by("table_id", "seat")
        .values_list("table_id", "seat")
    ):
        confirmed.setdefault(table_id, []).append(seat)

    rounds: list[dict[str, Any]] = []
    for rnd in tournament.rounds.order_by("number"):
        rounds.append(
            {
                "number": rnd.number,
                "status": rnd.status,
                "seed": rnd.seed,
                "tables": [
                    _table(table, seats, hands, with_keys, confirmed.get(table.pk, []), shared.get(table.pk))
                    for table in tables
                    if table.round_id == rnd.pk
                ],
            }
        )
    return rounds


def _table(
    table: Table,
    seats: dict[int, dict[str, int]],
    hands: dict[int, list[Hand]],
    with_keys: bool,
    confirmed: list[int] = (),
    shared: dict[str, dict[str, int]] | None = None,
) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "number": table.number,
        "seats": seats.get(table.pk, {}),
        "hands": [_hand(hand, table.size) for hand in hands.get(table.pk, [])],
    }
    if with_keys:
        entry["entry_key"] = table.entry_key
    if table.paper_totals is not None:  # paper mode: only each seat's round total, no games
        entry["paper_totals"] = {seat: table.paper_totals[seat] for seat in sorted(table.paper_totals, key=int)}
    if confirmed:  # the seats that confirmed the sheet
        entry["confirmations"] = list(confirmed)
    if table.closed_reason:  # closed by the organiser without every confirmation
        entry["closed_reason"] = table.closed_reason
    if shared:  # version 2: a substitute sat down mid-round
        entry["shared_seats"] = shared
    if table.left():  # version 2: a table of five that played on with four
        entry["seat_left"], entry["seat_left_from"], entry["games_with_four"] = table.left()
    return entry


def _hand(hand: Hand, table_size: int) -> dict[str, Any]:
    record = stored_record(hand, table_size)
    record.pop("dealer", None)
    entry: dict[str, Any] = {"number": hand.number, "dealer": hand.dealer, **record}
    if not hand.thrown_in:  # a Strich ("weiter", or a Kreuz replayed after 60:60) has no points
        entry["points"] = hand.points
    return entry
