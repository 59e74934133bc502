"""The round lifecycle: drawn (can be redrawn) -> published -> closed (locked; the last one played can be reopened with a reason)."""

import random
from collections import defaultdict

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import seating
from ..models import Registration, Round, Seat, SeatSwap, Table, Tournament, Venue
from ..selectors.qualification import final_winners
from ..selectors.tables import table_progress
from .audit import audit_record, registration_label, round_label
from .errors import ServiceError, StateConflict
from .prizes import tournament_standings_publish


def _new_seed() -> int:
    return random.SystemRandom().randrange(1, 2**31)


def _field(tournament: Tournament) -> list[Registration]:
    """Who is drawn: checked in and not withdrawn."""
    return list(
        Registration.objects.filter(tournament=tournament, checked_in=True, withdrawn_after_round__isnull=True)
        .select_related("player")
        .order_by("start_number")
    )


def _met_pairs(tournament: Tournament, before_round: int) -> set[frozenset[int]]:
    tables: dict[int, list[int]] = defaultdict(list)
    for table_id, reg_id in Seat.objects.filter(
        round__tournament=tournament, round__number__lt=before_round
    ).values_list("table_id", "registration_id"):
        tables[table_id].append(reg_id)
    return seating.pairs_of(tables.values())


def _successors(tournament: Tournament) -> dict[int, int]:
    """Registration id -> the id of whoever took over his seat (following a chain of substitutes)."""
    direct = dict(
        Registration.objects.filter(tournament=tournament, substitute_for__isnull=False).values_list(
            "substitute_for_id", "pk"
        )
    )
    result = {}
    for original in direct:
        current = original
        while current in direct:
            current = direct[current]
        result[original] = current
    return result


def _first_round_tables(tournament: Tournament, field_ids: set[int]) -> dict[int, list[int]] | None:
    """Round 1's tables by number, when the same players (or their substitutes) are still there (keep_first_round)."""
    successors = _successors(tournament)
    seats = [
        (number, successors.get(reg, reg))
        for number, reg in Seat.objects.filter(round__tournament=tournament, round__number=1)
        .order_by("table__number", "number")
        .values_list("table__number", "registration_id")
    ]
    if not seats or {reg for _, reg in seats} != field_ids:
        return None
    tables: dict[int, list[int]] = defaultdict(list)
    for number, reg in seats:
        tables[number].append(reg)
    return dict(tables)


def _impossible(err: seating.SeatingImpossible, n: int) -> StateConflict:
    add, withdraw = err.params["add"], err.params["withdraw"]
    if withdraw:
        message = _(
            "%(n)d players cannot be seated at tables of four and five: add %(add)d or withdraw %(withdraw)d."
        ) % {"n": n, "add": add, "withdraw": withdraw}
    else:
        message = _("%(n)d players cannot be seated at tables of four and five: add %(add)d.") % {"n": n, "add": add}
    return StateConflict("players", message, code="seating_impossible")


def _venue_tables(
    rnd: Round, tournament: Tournament, field: list[Registration], venues: list[Venue], mix: bool
) -> dict[int, list[int]]:
    """The tables of an evening in several venues, numbered in each venue's range; every player's venue is
    written to his registration (he stays there next round unless the organiser mixes the venues)."""
    rules = tournament.ruleset
    try:
        draws = seating.draw_venues(
            [reg.pk for reg in field],
            [seating.VenueSpec(v.pk, v.tables) for v in venues],
            seed=rnd.seed,
            venue_of={reg.pk: reg.venue_id for reg in field if reg.venue_id},
            mix=mix,
            met=_met_pairs(tournament, rnd.number),
            clubs={reg.pk: reg.player.club_id for reg in field},
            keep_clubs_apart=rules.keep_clubs_apart,
        )
    except seating.VenuesFull as err:
        raise StateConflict(
            "venues",
            _("%(n)d players do not fit the venues' %(tables)d tables: add a venue or tables.")
            % {"n": len(field), "tables": err.params["room"]},
            code="venues_full",
        ) from err
    first = {v.pk: v.first_table for v in venues}
    tables: dict[int, list[int]] = {}
    moved: dict[int, list[int]] = defaultdict(list)
    current = {reg.pk: reg.venue_id for reg in field}
    for draw in draws:
        for i, players in enumerate(draw.result.tables):
            tables[first[draw.venue] + i] = list(players)
            moved[draw.venue].extend(p for p in players if current[p] != draw.venue)
    for venue_id, regs in moved.items():
        Registration.objects.filter(pk__in=regs).update(venue_id=venue_id)
    return tables


def _clubs_and_winners(rnd: Round, tournament: Tournament, field: list[Registration]) -> tuple[dict, bool]:
    """Each player's club for the draw; in round 1 of a qualifier series' final the evenings' winners count as
    one club of their own (seated apart, their own clubs not weighed then), and whether that applies."""
    clubs: dict[int, object] = {reg.pk: reg.player.club_id for reg in field}
    if rnd.number != 1:
        return clubs, False
    winners = final_winners(tournament)
    if not winners:
        return clubs, False
    apart = {reg.pk for reg in field if reg.player_id in winners}
    if not tournament.ruleset.keep_clubs_apart:
        clubs = {}
    clubs.update(dict.fromkeys(apart, "evening-winners"))
    return clubs, True


def _draw_into(rnd: Round, tournament: Tournament, field: list[Registration], *, mix_venues: bool = False) -> None:
    rules = tournament.ruleset
    ids = [reg.pk for reg in field]
    venues = list(tournament.venues.order_by("first_table"))
    tables = None
    if rules.draw_mode == "keep_first_round" and rnd.number > 1:
        tables = _first_round_tables(tournament, set(ids))
    if tables is None and venues:
        tables = _venue_tables(rnd, tournament, field, venues, mix_venues)
    if tables is None:
        clubs, apart = _clubs_and_winners(rnd, tournament, field)
        try:
            result = seating.draw_tables(
                ids,
                seed=rnd.seed,
                met=_met_pairs(tournament, rnd.number),
                clubs=clubs,
                keep_clubs_apart=rules.keep_clubs_apart or apart,
            )
        except seating.SeatingImpossible as err:
            raise _impossible(err, len(ids)) from err
        tables = {number: list(t) for number, t in enumerate(result.tables, start=1)}
    numbers = sorted(tables)
    created = Table.objects.bulk_create(Table(round=rnd, number=number, size=len(tables[number])) for number in numbers)
    Seat.objects.bulk_create(
        Seat(table=table, round=rnd, number=seat, registration_id=reg_id)
        for table, number in zip(created, numbers, strict=True)
        for seat, reg_id in enumerate(tables[number], start=1)
    )


@transaction.atomic
def round_draw(*, tournament: Tournament, seed: int | None = None, mix_venues: bool = False, by=None) -> list[Round]:
    """Draw the next round (or, in draw mode all_in_advance, every remaining round). In several venues each
    player stays in his venue unless ``mix_venues``."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    rules = locked.ruleset
    existing = list(locked.rounds.order_by("number"))
    if len(existing) >= rules.rounds:
        raise StateConflict("round", _("All %(n)d rounds are drawn already.") % {"n": rules.rounds})
    in_advance = rules.draw_mode == "all_in_advance"
    if existing and existing[-1].status != Round.Status.CLOSED and not in_advance:
        raise StateConflict("round", _("Round %(n)d must be closed before the next draw.") % {"n": existing[-1].number})
    field = _field(locked)
    seeding = random.Random(seed) if seed is not None else None
    drawn = []
    for number in range(len(existing) + 1, (rules.rounds if in_advance else len(existing) + 1) + 1):
        round_seed = seeding.randrange(1, 2**31) if seeding else _new_seed()
        rnd = Round.objects.create(tournament=locked, number=number, seed=round_seed)
        _draw_into(rnd, locked, field, mix_venues=mix_venues)
        drawn.append(rnd)
        if in_advance:
            field = _field(locked)  # each player's venue as this draw left it
        mix_venues = False
    if locked.status == Tournament.Status.PLANNED:
        locked.status = Tournament.Status.RUNNING
        locked.save(update_fields=["status"])
    for rnd in drawn:
        audit_record(
            action="round.draw",
            by=by,
            tournament=locked,
            subject=round_label(rnd.number),
            after={"seed": rnd.seed, "tables": rnd.tables.count()},
        )
    return drawn


@transaction.atomic
def round_redraw(*, round: Round, seed: int | None = None, by=None) -> Round:
    """Draw a round again (only before it is published), with a new seed."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if rnd.status != Round.Status.DRAWN:
        raise StateConflict("round", _("Round %(n)d is published; it cannot be drawn again.") % {"n": rnd.number})
    old_seed = rnd.seed
    rnd.tables.all().delete()
    rnd.seed = _new_seed() if seed is None else seed
    rnd.save(update_fields=["seed"])
    _draw_into(rnd, rnd.tournament, _field(rnd.tournament))
    audit_record(
        action="round.redraw",
        by=by,
        tournament=rnd.tournament,
        subject=round_label(rnd.number),
        before={"seed": old_seed},
        after={"seed": rnd.seed},
    )
    return rnd


@transaction.atomic
def round_publish(*, round: Round, by=None) -> Round:
    """Seat lists become visible and the tables' entry links go live."""
    rnd = Round.objects.select_for_update().select_related("tournament__club").get(pk=round.pk)
    if rnd.status != Round.Status.DRAWN:
        raise StateConflict("round", _("Round %(n)d is published already.") % {"n": rnd.number})
    earlier_open = (
        Round.objects.filter(tournament_id=rnd.tournament_id, number__lt=rnd.number)
        .exclude(status=Round.Status.CLOSED)
        .first()
    )
    if earlier_open:
        raise StateConflict("round", _("Round %(n)d must be closed first.") % {"n": earlier_open.number})
    gone = [
        seat.registration.player.name
        for seat in Seat.objects.filter(round=rnd, registration__withdrawn_after_round__lt=rnd.number)
        .select_related("registration__player")
        .order_by("registration__start_number")
    ]
    if gone:
        raise StateConflict(
            "round",
            _("Withdrawn players have a seat in round %(n)d: %(names)s. Draw the round again or name a substitute.")
            % {"n": rnd.number, "names": ", ".join(gone)},
            code="withdrawn_seated",
        )
    rnd.status = Round.Status.PUBLISHED
    rnd.published_at = timezone.now()
    rnd.save(update_fields=["status", "published_at"])
    audit_record(
        action="round.publish",
        by=by,
        tournament=rnd.tournament,
        subject=round_label(rnd.number),
        before={"status": Round.Status.DRAWN},
        after={"status": rnd.status},
    )
    tournament = rnd.tournament
    if tournament.blackout_last_round and rnd.number >= tournament.ruleset.rounds and tournament.standings_public:
        tournament_standings_publish(tournament=tournament, public=False, by=by)  # the blackout begins
    return rnd


@transaction.atomic
def round_close(*, round: Round, by=None) -> Round:
    """Lock a round once every table is complete and confirmed by its players."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if rnd.status != Round.Status.PUBLISHED:
        raise StateConflict("round", _("Only a published round can be closed."))
    # A game being entered holds its table's lock: wait for it, and make later ones see the round closed.
    list(Table.objects.select_for_update().filter(round=rnd).order_by("pk").values_list("pk", flat=True))
    open_tables = [t.number for t in table_progress(rnd) if not t.complete]
    if open_tables:
        raise StateConflict(
            "round",
            _("Not every table is complete and confirmed: table %(tables)s.")
            % {"tables": ", ".join(str(n) for n in open_tables[:20]) + (" …" if len(open_tables) > 20 else "")},
        )
    rnd.status = Round.Status.CLOSED
    rnd.closed_at = timezone.now()
    rnd.save(update_fields=["status", "closed_at"])
    tournament = rnd.tournament
    audit_record(
        action="round.close",
        by=by,
        tournament=tournament,
        subject=round_label(rnd.number),
        before={"status": Round.Status.PUBLISHED},
        after={"status": rnd.status},
    )
    # The last round closed leaves the tournament running: the organiser finishes it (tournament_finish).
    return rnd


@transaction.atomic
def round_reopen(*, round: Round, reason: str, by=None) -> Round:
    """Unlock the last round played, with a reason: its tables may enter and correct games again and confirm
    anew; it is closed again the usual way. Only while no later round has been published (a later round
    drawn in advance waits: it is published once this one is closed again)."""
    rnd = Round.objects.select_for_update().select_related("tournament__club").get(pk=round.pk)
    if rnd.status != Round.Status.CLOSED:
        raise StateConflict("round", _("Only a closed round can be reopened."))
    reason = " ".join(reason.split())
    if not reason:
        raise ServiceError("reason", _("A round is reopened only with a reason."), code="reason_required")
    later = (
        Round.objects.filter(tournament_id=rnd.tournament_id, number__gt=rnd.number)
        .exclude(status=Round.Status.DRAWN)
        .order_by("number")
        .first()
    )
    if later is not None:
        raise StateConflict(
            "round",
            _("Round %(n)d is under way already; only the last round played can be reopened.") % {"n": later.number},
            code="later_round_published",
        )
    list(Table.objects.select_for_update().filter(round=rnd).order_by("pk").values_list("pk", flat=True))
    rnd.status = Round.Status.PUBLISHED
    rnd.closed_at = None
    rnd.save(update_fields=["status", "closed_at"])
    tournament = rnd.tournament
    if tournament.status == Tournament.Status.FINISHED:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    audit_record(
        action="round.reopen",
        by=by,
        tournament=tournament,
        subject=round_label(rnd.number),
        before={"status": Round.Status.CLOSED},
        after={"status": rnd.status},
        reason=reason[:300],
    )
    return rnd


@transaction.atomic
def seat_swap(*, round: Round, first: Registration, second: Registration, by=None) -> SeatSwap:
    """Swap two players' seats before play; recorded with who and when."""
    rnd = Round.objects.select_for_update().select_related("tournament__club").get(pk=round.pk)
    if rnd.status == Round.Status.CLOSED:
        raise StateConflict("round", _("Round %(n)d is closed.") % {"n": rnd.number})
    seats = {
        s.registration_id: s
        for s in Seat.objects.select_related("table").filter(round=rnd, registration__in=[first.pk, second.pk])
    }
    for field, reg in (("first", first), ("second", second)):
        if reg.pk not in seats:
            raise ServiceError(field, _("%(name)s has no seat in this round.") % {"name": reg.player.name})
    a, b = seats[first.pk], seats[second.pk]
    if a.pk == b.pk:
        raise ServiceError("second", _("Choose two different players."))
    if any(t.hands.exists() or t.paper_totals is not None for t in (a.table, b.table)):
        raise StateConflict("round", _("Play has started at these tables; seats can no longer be swapped."))
    description = _("%(a)s (table %(ta)d, seat %(sa)d) ⇄ %(b)s (table %(tb)d, seat %(sb)d)") % {
        "a": first.player.name,
        "ta": a.table.number,
        "sa": a.number,
        "b": second.player.name,
        "tb": b.table.number,
        "sb": b.number,
    }
    Seat.objects.filter(pk__in=[a.pk, b.pk]).delete()
    Seat.objects.bulk_create(
        [
            Seat(table=a.table, round=rnd, number=a.number, registration=second),
            Seat(table=b.table, round=rnd, number=b.number, registration=first),
        ]
    )
    audit_record(
        action="round.swap",
        by=by,
        tournament=rnd.tournament,
        subject=round_label(rnd.number),
        before={
            registration_label(first): [a.table.number, a.number],
            registration_label(second): [b.table.number, b.number],
        },
        after={
            registration_label(first): [b.table.number, b.number],
            registration_label(second): [a.table.number, a.number],
        },
        reason=description,
    )
    return SeatSwap.objects.create(round=rnd, first=first, second=second, description=description, by=by)
