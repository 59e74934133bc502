"""Reads of a qualifier series ("Qualifikation"): each evening's final order, who qualifies for the final
(scoring/rules/qualification.py), the public qualification list, and the evenings' winners."""

from dataclasses import dataclass

from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scoring.rules.qualification import EveningOrder, QualificationResult, evening_winners, qualify
from scoring.rules.qualification import Wildcard as RuleWildcard

from ..models import Invitation, Player, Series, Tournament
from ..pdf.qualification import QualificationDocument, QualificationLine
from .series import series_tournaments, tournament_outcome


def evening_orders(series: Series) -> list[tuple[Tournament, EveningOrder]]:
    """Every finished evening of the series (the final left out), with its final order (player ids)."""
    orders = []
    for tournament in series_tournaments(series):
        if tournament.pk == series.final_id or tournament.status != Tournament.Status.FINISHED:
            continue
        outcome = tournament_outcome(tournament)
        ranked = sorted(outcome.placings.placings, key=lambda p: p.rank)  # stable: the list's own order in ties
        orders.append((tournament, EveningOrder(tournament.slug, tuple(p.player for p in ranked))))
    return orders


def qualification_result(series: Series, orders=None) -> QualificationResult:
    orders = evening_orders(series) if orders is None else orders
    wildcards = [RuleWildcard(w.player_id, w.reason) for w in series.wildcards.order_by("pk")]
    declined = series.invitations.filter(status=Invitation.Status.DECLINED).values_list("player_id", flat=True)
    return qualify(
        [o for _, o in orders],
        series.qualification_rules,
        wildcards=wildcards,
        declined=declined,
        lot_seed=series.lot_seed,
    )


@dataclass(frozen=True)
class QualificationRow:
    number: int
    player: Player
    how: str  # evening | wildcard | lottery
    evening: Tournament | None
    place: int
    reason: str
    invitation: Invitation | None


@dataclass(frozen=True)
class NextInLine:
    evening: Tournament
    players: list[Player]


@dataclass(frozen=True)
class QualificationList:
    series: Series
    rows: list[QualificationRow]
    next_in_line: list[NextInLine]
    declined: list[Invitation]
    evenings: int
    lottery_candidates: int


def qualification_list(series: Series, *, next_count: int = 3) -> QualificationList:
    """The qualification list: every qualified player (how: evening with his place, wildcard with its reason,
    lottery), his invitation's state, and each evening's next in line."""
    orders = evening_orders(series)
    result = qualification_result(series, orders)
    by_slug = {t.slug: t for t, _ in orders}
    wanted = set(result.players) | {p for line in result.next_in_line.values() for p in line[:next_count]}
    players = Player.objects.select_related("club").in_bulk(wanted)
    invitations = {i.player_id: i for i in series.invitations.select_related("registration")}
    rows = [
        QualificationRow(
            n, players[q.player], q.how, by_slug.get(q.evening), q.place, q.reason, invitations.get(q.player)
        )
        for n, q in enumerate(result.qualified, start=1)
    ]
    lines = [
        NextInLine(by_slug[key], [players[p] for p in line[:next_count]])
        for key, line in result.next_in_line.items()
        if line
    ]
    declined = [i for i in invitations.values() if i.status == Invitation.Status.DECLINED]
    return QualificationList(series, rows, lines, declined, len(orders), len(result.lottery_candidates))


def final_winners(tournament: Tournament) -> set[int]:
    """The player ids of the evenings' winners when ``tournament`` is a qualifier series' final (else empty):
    its round-1 draw seats them apart."""
    series = Series.objects.filter(final=tournament, kind=Series.Kind.QUALIFIER).first()
    if series is None:
        return set()
    return set(evening_winners([o for _, o in evening_orders(series)]))


def wildcard_candidates(series: Series):
    """Who may get a wildcard: the series club's players and whoever played one of its evenings."""
    return (
        Player.objects.filter(Q(club_id=series.club_id) | Q(registrations__tournament__series=series))
        .distinct()
        .order_by("last_name", "first_name")
    )


def qualification_pdf_data(series: Series):
    """The qualification list as the PDF shows it (tournaments/pdf/qualification.py)."""
    if series.kind != Series.Kind.QUALIFIER:
        return QualificationDocument(
            series=series.name,
            final="",
            date=timezone.localdate(),
            lines=(),
            next_in_line=(),
            rules=_("This series has no qualification for a final."),
        )
    data = qualification_list(series)
    lines = []
    for row in data.rows:
        if row.how == "evening":
            how = _("%(p)s. place, %(e)s") % {"p": row.place, "e": row.evening.name}
        elif row.how == "wildcard":
            how = _("Wildcard") + f": {row.reason}"
        else:
            how = _("Lottery (drawn %(n)s.)") % {"n": row.place}
        lines.append(
            QualificationLine(row.number, row.player.name, row.player.club.name if row.player.club else "", how)
        )
    final = series.final
    return QualificationDocument(
        series=series.name,
        final=(f"{final.name}, {date_format(final.date, 'j. F Y')}" if final else ""),
        date=timezone.localdate(),
        lines=tuple(lines),
        next_in_line=tuple((line.evening.name, ", ".join(p.name for p in line.players)) for line in data.next_in_line),
        rules=_("%(k)s per evening") % {"k": series.qualify_per_evening} + f" · {series.get_qualify_mode_display()}",
    )
