"""Series standings: a season or cup ranked over several tournaments. Pure (stdlib only).

The input is each tournament's final standings (player key, rank, points) in the order the
tournaments were played; the output ranks the players for the series:

- what a tournament is worth to a player: his tournament points (``sum``, ``best_n``) or
  placement points (``placement``: the organiser's table, 1st 25, 2nd 20 ..., or one point per
  player he beat);
- ``best``: only his best N results count (Streichergebnisse; required for ``best_n``, optional
  with placement points);
- ``min_participations``: fewer tournaments than that and he is listed, but not ranked;
- ties on points: the configured tie-breaks in order, among ``participations`` (more),
  ``wins`` (more tournament wins), ``best_result`` (the better single result, in the series'
  own points), ``lot`` (drawn with the series' seed); a tie none of them decides is a shared place.

Player keys are opaque ints (the caller's player ids; two merged records are one key).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from .errors import RuleError

SUM = "sum"
BEST_N = "best_n"
PLACEMENT = "placement"
SCORINGS = (SUM, BEST_N, PLACEMENT)

PARTICIPATIONS = "participations"
WINS = "wins"
BEST_RESULT = "best_result"
LOT = "lot"
TIEBREAKS = (PARTICIPATIONS, WINS, BEST_RESULT, LOT)
DEFAULT_TIEBREAKS = TIEBREAKS


@dataclass(frozen=True, slots=True)
class SeriesRules:
    scoring: str = SUM
    best: int | None = None  # count only the best N results
    placement_points: tuple[int, ...] | None = None  # 1st, 2nd, ...; None with ``per_player_beaten``
    per_player_beaten: bool = False  # placement: one point per player ranked below him
    min_participations: int = 1
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS


@dataclass(frozen=True, slots=True)
class Placing:
    """One player's final result in one tournament."""

    player: int
    rank: int
    points: int


@dataclass(frozen=True, slots=True)
class TournamentPlacings:
    key: str  # the tournament's slug
    placings: tuple[Placing, ...]


@dataclass(frozen=True, slots=True)
class SeriesStanding:
    rank: int | None  # None: fewer participations than the minimum (listed, not ranked)
    player: int
    points: int  # what counts for the series, after placement points and best N
    participations: int
    wins: int
    best_result: int
    results: Mapping[str, int]  # tournament key -> his value there (tournament or placement points)
    counted: frozenset[str]  # the tournaments whose value is in ``points``
    ranks: Mapping[str, int]  # tournament key -> his place there
    tiebreak: str | None = None  # what put him above the next one on the same points


@dataclass(frozen=True)
class SeriesResult:
    ranked: tuple[SeriesStanding, ...]
    unranked: tuple[SeriesStanding, ...]
    tournaments: tuple[str, ...]
    # After each tournament (in order): player -> series points so far (best N applied as it stood then).
    progression: tuple[Mapping[int, int], ...] = field(default_factory=tuple)


MAX_SETTING = 999


def _unused(field: str) -> RuleError:
    return RuleError(field, "series_unused", "is not used with this scoring: leave it empty")


def validate_series_rules(rules: SeriesRules) -> None:
    """RuleError naming the field for a setting that cannot work (codes shared with the rules engine's)."""
    if rules.scoring not in SCORINGS:
        raise RuleError(
            "scoring",
            "invalid_choice",
            f"must be one of {', '.join(SCORINGS)}",
            {"choices": ", ".join(SCORINGS), "value": rules.scoring},
        )
    if rules.best is not None and not 1 <= rules.best <= MAX_SETTING:
        raise RuleError(
            "best",
            "out_of_range",
            f"must be between 1 and {MAX_SETTING}",
            {"min": 1, "max": MAX_SETTING, "value": rules.best},
        )
    if rules.scoring == BEST_N and rules.best is None:
        raise RuleError("best", "missing", "best N of M needs N")
    if rules.scoring == SUM and rules.best is not None:
        raise _unused("best")  # a plain sum counts every result
    if rules.scoring == PLACEMENT:
        if not rules.per_player_beaten and not rules.placement_points:
            raise RuleError(
                "placement_points", "missing", "placement needs either a table of points or one point per player beaten"
            )
        if rules.per_player_beaten and rules.placement_points:
            raise _unused("placement_points")  # one point per player beaten needs no table
        for points in rules.placement_points or ():
            if not 0 <= points <= MAX_SETTING:
                raise RuleError(
                    "placement_points",
                    "out_of_range",
                    f"must be between 0 and {MAX_SETTING}",
                    {"min": 0, "max": MAX_SETTING, "value": points},
                )
    elif rules.placement_points or rules.per_player_beaten:
        raise _unused("placement_points")
    if not 0 <= rules.min_participations <= MAX_SETTING:
        raise RuleError(
            "min_participations",
            "out_of_range",
            f"must be between 0 and {MAX_SETTING}",
            {"min": 0, "max": MAX_SETTING, "value": rules.min_participations},
        )
    for tiebreak in rules.tiebreaks:
        if tiebreak not in TIEBREAKS:
            raise RuleError(
                "tiebreaks",
                "invalid_choice",
                f"must be among {', '.join(TIEBREAKS)}",
                {"choices": ", ".join(TIEBREAKS), "value": tiebreak},
            )
    if len(set(rules.tiebreaks)) != len(rules.tiebreaks):
        twice = next(t for t in rules.tiebreaks if rules.tiebreaks.count(t) > 1)
        raise RuleError("tiebreaks", "duplicate", "each tie-break once", {"value": twice})


def placement_value(rules: SeriesRules, rank: int, beaten: int) -> int:
    """What a place is worth under the placement scoring (0 beyond the table's end)."""
    if rules.per_player_beaten:
        return beaten
    table = rules.placement_points or ()
    return table[rank - 1] if 1 <= rank <= len(table) else 0


def tournament_values(rules: SeriesRules, tournament: TournamentPlacings) -> dict[int, int]:
    """player -> what this tournament is worth to him in the series."""
    if rules.scoring != PLACEMENT:
        return {p.player: p.points for p in tournament.placings}
    ranks = sorted(p.rank for p in tournament.placings)
    values = {}
    for p in tournament.placings:
        beaten = sum(1 for r in ranks if r > p.rank)
        values[p.player] = placement_value(rules, p.rank, beaten)
    return values


def _counted(results: Mapping[str, int], order: Sequence[str], best: int | None) -> frozenset[str]:
    """The tournaments that count: all, or the best N (an earlier one wins a tie of values)."""
    keys = [k for k in order if k in results]
    if best is None or len(keys) <= best:
        return frozenset(keys)
    position = {k: i for i, k in enumerate(order)}
    return frozenset(sorted(keys, key=lambda k: (-results[k], position[k]))[:best])


def compute_series(tournaments: Sequence[TournamentPlacings], rules: SeriesRules, *, lot_seed: int) -> SeriesResult:
    """Rank the players of a series (see the module's docstring)."""
    validate_series_rules(rules)
    order = tuple(t.key for t in tournaments)
    results: dict[int, dict[str, int]] = defaultdict(dict)
    ranks: dict[int, dict[str, int]] = defaultdict(dict)
    progression: list[dict[int, int]] = []
    for tournament in tournaments:
        for player, value in tournament_values(rules, tournament).items():
            results[player][tournament.key] = value
        for p in tournament.placings:
            ranks[p.player][tournament.key] = p.rank
        done = order[: len(progression) + 1]
        progression.append(
            {
                player: sum(res[k] for k in _counted({k: v for k, v in res.items() if k in done}, done, rules.best))
                for player, res in results.items()
            }
        )

    players = sorted(results)
    shuffled = list(range(len(players)))
    random.Random(lot_seed).shuffle(shuffled)
    lot = dict(zip(players, shuffled, strict=True))
    rows = {}
    for player in players:
        res = results[player]
        counted = _counted(res, order, rules.best)
        rows[player] = SeriesStanding(
            rank=None,
            player=player,
            points=sum(res[k] for k in counted),
            participations=len(res),
            wins=sum(1 for r in ranks[player].values() if r == 1),
            best_result=max(res.values()),
            results=dict(res),
            counted=counted,
            ranks=dict(ranks[player]),
        )

    def key(player: int) -> tuple[int, ...]:
        row = rows[player]
        parts = [-row.points]
        for tiebreak in rules.tiebreaks:
            parts.append(
                {PARTICIPATIONS: -row.participations, WINS: -row.wins, BEST_RESULT: -row.best_result, LOT: lot[player]}[
                    tiebreak
                ]
            )
        return tuple(parts)

    eligible = sorted((key(p), p) for p in players if rows[p].participations >= rules.min_participations)
    ranked: list[SeriesStanding] = []
    rank = 0
    for index, (k, player) in enumerate(eligible):
        if index == 0 or k != eligible[index - 1][0]:
            rank = index + 1
        decided = None
        if index + 1 < len(eligible) and eligible[index + 1][0][0] == k[0]:
            below = eligible[index + 1][0]
            decided = next((t for t, x, y in zip(rules.tiebreaks, k[1:], below[1:], strict=True) if x != y), "shared")
        ranked.append(replace(rows[player], rank=rank, tiebreak=decided))
    unranked = sorted(
        (rows[p] for p in players if rows[p].participations < rules.min_participations), key=lambda r: key(r.player)
    )
    return SeriesResult(
        ranked=tuple(ranked), unranked=tuple(unranked), tournaments=order, progression=tuple(progression)
    )
