"""Reads for the round control panel: the state of every table at a glance."""

import datetime
from dataclasses import dataclass

from django.db.models import Max
from django.utils import timezone

from ..models import HandRevision, Round, Tournament
from .tables import TableProgress, table_progress

QUIET_MINUTES = 15  # a table that has saved no game for this long gets a warning


@dataclass(frozen=True)
class TableTile:
    progress: TableProgress
    last_change: datetime.datetime | None
    quiet: bool  # no game saved for QUIET_MINUTES while games are missing
    unconfirmed: bool  # all games in, not every player has confirmed


@dataclass(frozen=True)
class RoundPanel:
    round: Round
    tiles: list[TableTile]
    complete: int
    next_action: str  # draw | publish | play | close | closed


def round_panel(rnd: Round, now: datetime.datetime | None = None) -> RoundPanel:
    now = now or timezone.now()
    last = dict(
        HandRevision.objects.filter(table__round=rnd)
        .values_list("table_id")
        .annotate(m=Max("at"))
        .values_list("table_id", "m")
    )
    tiles = []
    for p in table_progress(rnd):
        changed = last.get(p.table_id) or rnd.published_at
        quiet = (
            rnd.status == Round.Status.PUBLISHED
            and not p.games_complete
            and changed is not None
            and now - changed > datetime.timedelta(minutes=QUIET_MINUTES)
        )
        tiles.append(TableTile(p, last.get(p.table_id), quiet, p.games_complete and not p.complete))
    complete = sum(1 for t in tiles if t.progress.complete)
    if rnd.status == Round.Status.DRAWN:
        action = "publish"
    elif rnd.status == Round.Status.CLOSED:
        action = "closed"
    else:
        action = "close" if tiles and complete == len(tiles) else "play"
    return RoundPanel(rnd, tiles, complete, action)


def tournament_finishable(tournament: Tournament) -> bool:
    """Every round the rules plan is played and closed, and the organiser has not finished the evening yet."""
    if tournament.status == Tournament.Status.FINISHED:
        return False
    planned = tournament.ruleset.rounds
    return tournament.rounds.filter(status=Round.Status.CLOSED, number__lte=planned).count() >= planned


def tournament_panels(tournament: Tournament) -> tuple[list[RoundPanel], bool]:
    """Every round's panel, and whether the next round can be drawn now."""
    rounds = list(tournament.rounds.order_by("number"))
    panels = [round_panel(r) for r in rounds]
    rules = tournament.ruleset
    can_draw = len(rounds) < rules.rounds and (
        not rounds or rounds[-1].status == Round.Status.CLOSED or rules.draw_mode == "all_in_advance"
    )
    return panels, can_draw


def unpaid_registrations(tournament: Tournament) -> list:
    """Checked-in players (not withdrawn) who have not paid: the desk and the console warn before a draw."""
    return list(
        tournament.registrations.filter(checked_in=True, paid=False, withdrawn_after_round__isnull=True)
        .select_related("player")
        .order_by("start_number")
    )


MIN_FIELD = 4  # a table needs four


def field_ready(tournament: Tournament) -> bool:
    """Enough players checked in for a draw: otherwise the desk is the next step, not the draw."""
    return tournament.registrations.filter(checked_in=True, withdrawn_after_round__isnull=True).count() >= MIN_FIELD
