"""Reads for series (Saison, Cup), the players' history and the statistics of evenings and seasons.

Each tournament's result is its final standing computed afresh from the closed rounds' games, the
same computation the archive holds; the pure rules in ``scoring.rules.series`` and
``scoring.rules.statistics`` do the rest.
"""

from __future__ import annotations

import datetime
import io
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from schafkopfrennen.formats import number as format_number
from scoring.rules.series import Placing, SeriesResult, SeriesStanding, TournamentPlacings, compute_series
from scoring.rules.statistics import GameFact, GameStatistics, category, game_size, game_statistics, leaders
from scoring.rules.table import sits_out
from scoring.storage import POINTS_COLUMNS, columns_points
from tournaments.selectors.standings import standings_compute

from ..models import Hand, Player, Registration, Seat, Series, SeriesTournament, Tournament
from ..pdf.certificates import Certificate, Certificates
from ..pdf.lists import ListHead
from ..pdf.series import SeriesDocument, SeriesLine, StatisticsDocument
from ..spreadsheet import csv_writer
from .printing import _logo


def series_list(*, public_only: bool = False) -> QuerySet[Series]:
    qs = Series.objects.select_related("club").order_by("-created_at", "name")
    return qs.filter(public=True) if public_only else qs


def series_tournaments(series: Series) -> list[Tournament]:
    """The series' tournaments in the order they were played."""
    return [
        e.tournament
        for e in SeriesTournament.objects.filter(series=series)
        .select_related("tournament__club")
        .order_by("tournament__date", "tournament__name", "tournament_id")
    ]


@dataclass(frozen=True)
class TournamentOutcome:
    """One finished tournament, per player (player ids; a substitute's account is his own player)."""

    tournament: Tournament
    placings: TournamentPlacings
    won_solos: dict[int, int]
    tischbester: dict[int, int]  # player -> tables he was (one of) the best at
    field_size: int
    round_points: dict[int, tuple[int, ...]]  # player -> points per round


def tournament_outcome(tournament: Tournament) -> TournamentOutcome:
    """The tournament's final standing from its closed rounds (what the archive's standings hold)."""
    result, _info = standings_compute(tournament, closed_only=True)
    player_of = dict(Registration.objects.filter(tournament=tournament).values_list("pk", "player_id"))
    placings = tuple(Placing(player=player_of[s.player], rank=s.rank, points=s.points) for s in result.overall)
    tischbester: Counter[int] = Counter()
    for best in result.tischbeste:
        for reg in best.players:
            tischbester[player_of[reg]] += 1
    return TournamentOutcome(
        tournament=tournament,
        placings=TournamentPlacings(tournament.slug, placings),
        won_solos={player_of[s.player]: s.won_solos for s in result.overall},
        tischbester=dict(tischbester),
        field_size=len(placings),
        round_points={player_of[s.player]: tuple(s.round_points) for s in result.overall},
    )


def _counting(tournaments: list[Tournament]) -> list[Tournament]:
    return [t for t in tournaments if t.status == Tournament.Status.FINISHED]


@dataclass(frozen=True)
class SeriesRow:
    rank: int | None
    player_id: int
    name: str
    club: str
    points: int
    participations: int
    wins: int
    best_result: int
    results: dict[str, int]
    counted: frozenset[str]
    ranks: dict[str, int]
    tiebreak: str | None


@dataclass(frozen=True)
class SeriesStandings:
    series: Series
    tournaments: list[Tournament]  # every tournament of the series, in order
    played: list[Tournament]  # the finished ones, whose results count
    rows: list[SeriesRow]  # ranked
    unranked: list[SeriesRow]  # fewer participations than the minimum
    progression: list[dict[int, int]] = field(default_factory=list)  # after each played tournament
    outcomes: list[TournamentOutcome] = field(default_factory=list)

    @property
    def all_rows(self) -> list[SeriesRow]:
        return self.rows + self.unranked


def _rows(standings: tuple[SeriesStanding, ...], players: dict[int, Player]) -> list[SeriesRow]:
    rows = []
    for s in standings:
        player = players[s.player]
        rows.append(
            SeriesRow(
                rank=s.rank,
                player_id=s.player,
                name=player.name,
                club=player.club.name if player.club else "",
                points=s.points,
                participations=s.participations,
                wins=s.wins,
                best_result=s.best_result,
                results=dict(s.results),
                counted=s.counted,
                ranks=dict(s.ranks),
                tiebreak=s.tiebreak,
            )
        )
    return rows


def series_standings(series: Series) -> SeriesStandings:
    tournaments = series_tournaments(series)
    played = _counting(tournaments)
    outcomes = [tournament_outcome(t) for t in played]
    result: SeriesResult = compute_series([o.placings for o in outcomes], series.rules, lot_seed=series.lot_seed)
    ids = {s.player for s in result.ranked + result.unranked}
    players = Player.objects.select_related("club").in_bulk(ids)
    return SeriesStandings(
        series=series,
        tournaments=tournaments,
        played=played,
        rows=_rows(result.ranked, players),
        unranked=_rows(result.unranked, players),
        progression=[dict(p) for p in result.progression],
        outcomes=outcomes,
    )


def series_document(data: SeriesStandings) -> dict[str, Any]:
    """The JSON of the command and the download (the issue's shape, and a little more)."""
    series = data.series
    return {
        "series": series.slug,
        "name": series.name,
        "club": series.club.name,
        "scoring": series.scoring,
        "best": series.best,
        "placement_points": list(series.placement_points) if series.placement_points else None,
        "per_player_beaten": series.per_player_beaten,
        "min_participations": series.min_participations,
        "tiebreaks": list(series.tiebreaks),
        "tournaments": [t.slug for t in data.tournaments],
        "played": [t.slug for t in data.played],
        "standings": [_row_document(r) for r in data.rows],
        "unranked": [_row_document(r) for r in data.unranked],
    }


def _row_document(row: SeriesRow) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "name": row.name,
        "club": row.club,
        "points": row.points,
        "participations": row.participations,
        "wins": row.wins,
        "results": dict(row.results),
        "counted": sorted(row.counted),
        "places": dict(row.ranks),
    }


def series_csv(data: SeriesStandings) -> str:
    """One line per player: rank, name, club, points, participations, wins, then each tournament's value
    (in brackets where it does not count)."""
    buffer = io.StringIO()
    writer = csv_writer(buffer, delimiter=";")  # a name typed as "=HYPERLINK(...)" stays text
    writer.writerow(["rank", "name", "club", "points", "participations", "wins", *[t.slug for t in data.played]])
    for row in data.all_rows:
        values = []
        for t in data.played:
            value = row.results.get(t.slug)
            values.append(
                "" if value is None else value if t.slug in row.counted else f"({value})"
            )  # -3 stays a number
        writer.writerow([row.rank or "", row.name, row.club, row.points, row.participations, row.wins, *values])
    return buffer.getvalue()


# --- the players' history ------------------------------------------------------------------------


@dataclass(frozen=True)
class HistoryRow:
    tournament: Tournament
    place: int | None  # None while the tournament has no closed round
    field_size: int
    points: int | None
    won_solos: int
    tischbester: int
    hidden: bool = False  # its standings are not published: no result shown (``player_history(public=True)``)


@dataclass(frozen=True)
class PlayerHistory:
    player: Player
    rows: list[HistoryRow]  # newest first

    @property
    def tournaments(self) -> int:
        return len(self.rows)

    @property
    def wins(self) -> int:
        return sum(1 for r in self.rows if r.place == 1)

    @property
    def points(self) -> int:
        return sum(r.points or 0 for r in self.rows)

    @property
    def tischbester(self) -> int:
        return sum(r.tischbester for r in self.rows)


def player_history(
    player: Player, *, tournaments: list[Tournament] | None = None, public: bool = False
) -> PlayerHistory:
    """Every tournament the player was registered for (or only ``tournaments``), with his result;
    ``public`` (a page anyone may open): no result of a tournament whose standings are hidden."""
    qs = Tournament.objects.filter(registrations__player=player).select_related("club").distinct()
    if tournaments is not None:
        qs = qs.filter(pk__in=[t.pk for t in tournaments])
    rows = []
    for tournament in qs.order_by("-date", "name"):
        if public and not tournament.standings_public:
            rows.append(
                HistoryRow(
                    tournament=tournament,
                    place=None,
                    field_size=0,
                    points=None,
                    won_solos=0,
                    tischbester=0,
                    hidden=True,
                )
            )
            continue
        outcome = tournament_outcome(tournament)
        placing = next((p for p in outcome.placings.placings if p.player == player.pk), None)
        rows.append(
            HistoryRow(
                tournament=tournament,
                place=placing.rank if placing else None,
                field_size=outcome.field_size,
                points=placing.points if placing else None,
                won_solos=outcome.won_solos.get(player.pk, 0),
                tischbester=outcome.tischbester.get(player.pk, 0),
            )
        )
    return PlayerHistory(player=player, rows=rows)


def player_games(player: Player, history: PlayerHistory) -> dict[str, Any] | None:
    """The player's own games over his history's finished tournaments: games, declarer share, win rate by contract."""
    tournaments = [r.tournament for r in history.rows if r.tournament.status == Tournament.Status.FINISHED]
    games = game_statistics(game_facts(tournaments)).players.get(player.pk)
    if games is None:
        return None
    return {
        "games": games.games,
        "declared": games.declared,
        "won": games.won,
        "share": round(100 * games.declarer_share),
        "by_category": [(category_label(s.category), s.games, s.won) for s in games.by_category],
    }


# --- statistics ------------------------------------------------------------------------------------


def game_facts(tournaments: list[Tournament]) -> list[GameFact]:
    """Every game of the tournaments' closed rounds, seats mapped to players (stored outcomes only)."""
    if not tournaments:
        return []
    slugs = {t.pk: t.slug for t in tournaments}
    muss_win = {t.pk: t.ruleset.muss_win for t in tournaments}
    closed = {"table__round__tournament__in": tournaments, "table__round__status": "closed"}
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for table_id, seat, player_id in (
        Seat.objects.filter(round__tournament__in=tournaments, round__status="closed")
        .values_list("table_id", "number", "registration__player_id")
        .order_by()
    ):
        seats[table_id][seat] = player_id
    facts = []
    for (
        table_id,
        tournament_id,
        rnd,
        table,
        size,
        number,
        contract,
        declarer,
        outcome,
        tout,
        sie,
        muss,
        augen,
        schwarz,
        dealer,
        thrown_in,
        *columns,
    ) in (
        Hand.objects.filter(**closed)
        .values_list(
            "table_id",
            "table__round__tournament_id",
            "table__round__number",
            "table__number",
            "table__size",
            "number",
            "contract",
            "declarer",
            "outcome",
            "tout",
            "sie",
            "muss",
            "augen",
            "schwarz",
            "dealer",
            "thrown_in",
            *POINTS_COLUMNS.values(),
        )
        .order_by("table__round__tournament__date", "table__round__number", "table__number", "number")
    ):
        at_table = seats[table_id]
        won = None if thrown_in else outcome.get("declarer_won")  # from the stored HandScore
        out = sits_out(dealer, size)
        playing = tuple(p for s, p in sorted(at_table.items()) if s != out)
        facts.append(
            GameFact(
                tournament=slugs[tournament_id],
                round=rnd,
                table=table,
                number=number,
                contract=contract,
                players=playing,
                points={
                    at_table[int(s)]: int(v)
                    for s, v in columns_points(dict(zip(POINTS_COLUMNS.values(), columns))).items()
                    if int(s) in at_table
                },
                declarer=at_table.get(declarer) if declarer else None,
                declarer_won=won,
                tout=bool(tout),
                sie=bool(sie),
                muss=bool(muss),
                augen=augen,
                schwarz=bool(schwarz),
                win_line=muss_win[tournament_id] if muss else 61,
                thrown_in=bool(thrown_in),
                schneider=outcome.get("schneider"),
            )
        )
    return facts


@dataclass(frozen=True)
class Statistics:
    games: GameStatistics
    names: dict[int, str]
    tischbester_leaders: tuple[tuple[str, ...], int]
    progression: list[tuple[str, list[int]]]  # (name, cumulative points after each step) of the leaders
    steps: list[str]  # the steps' labels (rounds or tournaments)
    tournament_names: dict[str, str] = field(default_factory=dict)  # slug -> name, for a season's games

    def name(self, player: int | None) -> str:
        return self.names.get(player, "") if player is not None else ""

    @property
    def biggest_declarer(self) -> str:
        return self.name(self.games.biggest.declarer) if self.games.biggest else ""

    @property
    def biggest_size(self) -> int:
        return game_size(self.games.biggest) if self.games.biggest else 0

    @property
    def player_rows(self) -> list[tuple[str, Any]]:
        rows = [(self.name(p), g) for p, g in self.games.players.items()]
        return sorted(rows, key=lambda r: (-r[1].games, r[0]))


PROGRESSION_LINES = 5


def _names(ids) -> dict[int, str]:
    return {pk: p.name for pk, p in Player.objects.in_bulk(list(ids)).items()}


def tournament_statistics(tournament: Tournament) -> Statistics:
    outcome = tournament_outcome(tournament)
    facts = game_facts([tournament])
    stats = game_statistics(facts)
    names = _names(set(stats.players) | set(outcome.round_points) | set(outcome.tischbester))
    rounds = max((len(r) for r in outcome.round_points.values()), default=0)
    leaders_ = [p.player for p in outcome.placings.placings[:PROGRESSION_LINES]]
    progression = []
    for player in leaders_:
        running, line = 0, []
        for value in outcome.round_points[player]:
            running += value
            line.append(running)
        progression.append((names.get(player, ""), line))
    best, count = leaders(outcome.tischbester)
    return Statistics(
        games=stats,
        names=names,
        tischbester_leaders=(tuple(names[p] for p in best), count),
        progression=progression,
        steps=[str(n) for n in range(1, rounds + 1)],
    )


def series_statistics(data: SeriesStandings) -> Statistics:
    facts = game_facts(data.played)
    stats = game_statistics(facts)
    tischbester: Counter[int] = Counter()
    for outcome in data.outcomes:
        tischbester.update(outcome.tischbester)
    names = _names(set(stats.players) | set(tischbester) | {r.player_id for r in data.all_rows})
    progression = []
    for row in data.rows[:PROGRESSION_LINES]:
        progression.append((row.name, [step.get(row.player_id, 0) for step in data.progression]))
    best, count = leaders(tischbester)
    return Statistics(
        games=stats,
        names=names,
        tischbester_leaders=(tuple(names[p] for p in best), count),
        progression=progression,
        steps=[t.name for t in data.played],
        tournament_names={t.slug: t.name for t in data.played},
    )


def last_played(data: SeriesStandings) -> datetime.date | None:
    return data.played[-1].date if data.played else None


# --- labels, the PDF's and the certificates' data ---------------------------------------------------

CATEGORY_LABELS = {
    "rufspiel": _lazy("Rufspiel"),
    "muss": _lazy("Muss"),
    "wenz": _lazy("Wenz"),
    "farbsolo": _lazy("Farbsolo"),
    "tout": _lazy("Tout"),
    "sie": _lazy("Sie"),
    "weiter": _lazy("thrown in"),
}


def category_label(name: str) -> str:
    return str(CATEGORY_LABELS.get(name, name.capitalize()))


def scoring_text(series: Series) -> str:
    """ "best 2 of 3 tournaments", "placement points 25, 20, 16 …", "sum of tournament points" """
    if series.scoring == Series.Scoring.BEST_N:
        text = _("best %(n)d results count") % {"n": series.best}
    elif series.scoring == Series.Scoring.PLACEMENT:
        if series.per_player_beaten:
            text = _("placement points: one per player beaten")
        else:
            shown = ", ".join(str(p) for p in (series.placement_points or [])[:6])
            more = " …" if len(series.placement_points or []) > 6 else ""
            text = _("placement points %(points)s") % {"points": shown + more}
        if series.best:
            text += ", " + _("best %(n)d results count") % {"n": series.best}
    else:
        text = _("sum of tournament points")
    if series.min_participations > 1:
        text += ", " + _("ranked from %(n)d tournaments") % {"n": series.min_participations}
    return text


def percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)} %" if whole else "\u2013"


def statistics_facts(stats: Statistics) -> list[tuple[str, str]]:
    """The figures beside the charts, as (label, value) for the pages and the PDF."""
    games = stats.games
    facts = [
        (_("Games"), str(games.games)),
        (_("Solo win rate"), f"{percent(games.solo_won, games.solo_games)} ({games.solo_won}/{games.solo_games})"),
        (_("Schneider"), str(games.schneider)),
        (_("Schwarz"), str(games.schwarz)),
    ]
    if games.biggest is not None:
        big = games.biggest
        where = _("round %(round)d, table %(table)d") % {"round": big.round, "table": big.table}
        if big.tournament in stats.tournament_names:  # a season's game: which evening
            where = _("%(tournament)s, %(where)s") % {
                "tournament": stats.tournament_names[big.tournament],
                "where": where,
            }
        facts.append(
            (
                _("Biggest game"),
                _("%(contract)s by %(name)s, %(points)d points (%(where)s)")
                % {
                    "contract": category_label(_category(big)),
                    "name": stats.name(big.declarer) or "\u2013",
                    "points": stats.biggest_size,
                    "where": where,
                },
            )
        )
    names, count = stats.tischbester_leaders
    if count:
        facts.append((_("Most often Tischbester"), f"{', '.join(names)} ({count}\u00d7)"))
    return facts


def _category(game: GameFact) -> str:
    return category(game)


def series_pdf_data(data: SeriesStandings, stats: Statistics | None = None):
    series = data.series
    labels = tuple(str(n) for n in range(1, len(data.played) + 1))

    def line(row: SeriesRow) -> SeriesLine:
        results = []
        for t in data.played:
            value = row.results.get(t.slug)
            text = format_number(value)
            results.append(text if value is None or t.slug in row.counted else f"({text})")
        return SeriesLine(
            place=row.rank,
            name=row.name,
            club=row.club,
            points=row.points,
            participations=row.participations,
            wins=row.wins,
            results=tuple(results),
        )

    stats = stats if stats is not None else series_statistics(data)
    played = _("%(played)d of %(all)d tournaments played") % {"played": len(data.played), "all": len(data.tournaments)}
    head = ListHead(
        tournament=f"{series.name} \u00b7 {series.club.name}",
        date=last_played(data) or timezone.localdate(),
        venue=played,
        computed_at=timezone.localtime(),
        current=True,
        logo=_logo(series.club),
    )
    return SeriesDocument(
        head=head,
        scoring=scoring_text(series),
        tournaments=labels,
        tournament_names=tuple(f"{t.name} ({t.date:%d.%m.%Y})" for t in data.played),
        lines=tuple(line(r) for r in data.rows),
        unranked=tuple(line(r) for r in data.unranked),
        progression=tuple((name, tuple(values)) for name, values in stats.progression),
        mix=tuple((category_label(m.category), m.games) for m in stats.games.mix),
        facts=tuple(statistics_facts(stats)),
    )


def tournament_statistics_pdf_data(tournament: Tournament, stats: Statistics) -> StatisticsDocument:
    """The statistics page of an evening as a PDF's data (the same figures and pictures)."""
    head = ListHead(
        tournament=tournament.name,
        date=tournament.date,
        venue=tournament.venue,
        computed_at=timezone.localtime(),
        current=True,
        logo=_logo(tournament.club),
    )
    return StatisticsDocument(
        head=head,
        progression=tuple((name, tuple(values)) for name, values in stats.progression),
        mix=tuple((category_label(m.category), m.games) for m in stats.games.mix),
        facts=tuple(statistics_facts(stats)),
    )


def series_certificates_data(data: SeriesStandings, *, places: int = 3):
    """A certificate for each of the series' first ``places`` places (shared places each get one)."""
    series = data.series
    return Certificates(
        tournament=series.name,
        date=last_played(data) or timezone.localdate(),
        venue=series.club.town,
        organiser=series.club.name,
        logo=_logo(series.club),
        certificates=tuple(
            Certificate(place=r.rank, name=r.name, points=r.points, club=r.club)
            for r in data.rows
            if r.rank is not None and r.rank <= places
        ),
    )
