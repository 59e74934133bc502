"""A table's progress in its round: games entered and required, confirmations (every audience shows it)."""
from collections import Counter
from dataclasses import dataclass

from django.db.models import Count

from scoring.rules import table as table_rules
from scoring.rules.seats import kreuz_partner

from ..models import Hand, Round, TableConfirmation, Tournament


def games_required(tournament: Tournament, table_size: int) -> int:
    """32 games at a table of four; tables of five play games × 5 / 4 so everyone plays as many."""
    return table_rules.games_required(tournament.ruleset.games_per_round, table_size)


@dataclass(frozen=True)
class TableProgress:
    table_id: int
    number: int
    size: int
    games_entered: int
    games_required: int
    confirmations: int
    paper_totals: bool
    closed_reason: str = ""  # the organiser closed it without every confirmation
    reconfirm_game: int | None = None  # a game changed after confirmation

    @property
    def games_complete(self) -> bool:
        return self.paper_totals or self.games_entered >= self.games_required

    @property
    def complete(self) -> bool:
        return self.paper_totals or bool(self.closed_reason) or (self.games_complete and self.confirmations >= self.size)


def table_progress(rnd: Round) -> list[TableProgress]:
    """For every table of a round: games entered (thrown-in games do not count) and confirmations."""
    tournament = rnd.tournament
    games = Counter(
        dict(Hand.objects.filter(table__round=rnd).exclude(thrown_in=True)
             .values_list("table_id").annotate(n=Count("id")).values_list("table_id", "n"))
    )
    confirmations = Counter(
        dict(TableConfirmation.objects.filter(table__round=rnd).values_list("table_id")
             .annotate(n=Count("id")).values_list("table_id", "n"))
    )
    return [
        TableProgress(
            table_id=t.pk, number=t.number, size=t.size, games_entered=games[t.pk],
            games_required=games_required(tournament, t.size), confirmations=confirmations[t.pk],
            paper_totals=t.paper_totals is not None, closed_reason=t.closed_reason, reconfirm_game=t.reconfirm_game,
        )
        for t in rnd.tables.order_by("number")
    ]


def hand_partner(hand: Hand, size: int) -> int | None:
    """The declarer's partner: as entered, or in a game über Kreuz the seat opposite (rules.md section 6)."""
    if hand.partner is None and hand.contract == Hand.Contract.KREUZ and hand.declarer:
        return kreuz_partner(hand.declarer, size, table_rules.sits_out(hand.dealer, size))
    return hand.partner
