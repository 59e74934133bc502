"""Team standings inside an individual evening. Pure: stdlib only.

A team's score is either the **sum** of its members' points over the evening, or **table points**: at
each table of each round the players are ranked by their points at that table and each member earns
the points of his place there (SCB's Bayernliga: 40 / 30 / 20 / 10; at a table of five a fifth place
earns 0 unless the scale says more). Players tied at a table share the places they occupy evenly
(two on 1st at a table of four: (40 + 30) / 2 = 35 each); table points are exact fractions (three
sharing 40 + 30 + 20 get 30 each, three sharing 30 + 20 + 10 get 20).

Teams are ranked by score, higher first; a tie is broken by the best single member's points, then
shared (1, 1, 3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

DEFAULT_TABLE_POINTS = (40, 30, 20, 10)


@dataclass(frozen=True, slots=True)
class TeamStanding:
    team: str
    rank: int
    score: Fraction  # points (sum) or table points
    members: tuple[int, ...]
    best_member: int  # the best single member's evening points (the tie-break)


def table_points(
    tables: Sequence[Mapping[int, int]], scale: Sequence[int] = DEFAULT_TABLE_POINTS
) -> dict[int, Fraction]:
    """Each player's table points over all ``tables`` (each: player -> his points at that table)."""
    earned: dict[int, Fraction] = {}
    for table in tables:
        ordered = sorted(table.items(), key=lambda item: -item[1])
        index = 0
        while index < len(ordered):
            group = [p for p, pts in ordered[index:] if pts == ordered[index][1]]
            places = range(index, index + len(group))
            share = Fraction(sum(scale[i] if i < len(scale) else 0 for i in places), len(group))
            for player in group:
                earned[player] = earned.get(player, Fraction(0)) + share
            index += len(group)
    return earned


def rank_teams(
    teams: Mapping[str, Sequence[int]],
    *,
    points: Mapping[int, int],
    tables: Sequence[Mapping[int, int]] = (),
    mode: str = "sum",
    scale: Sequence[int] = DEFAULT_TABLE_POINTS,
) -> tuple[TeamStanding, ...]:
    """The team standings: ``points`` are the players' evening points, ``tables`` each table's points (for
    ``mode="table_points"``). A member without points (withdrawn before playing) adds nothing."""
    if mode not in ("sum", "table_points"):
        raise ValueError("mode")
    earned = table_points(tables, scale) if mode == "table_points" else {p: Fraction(v) for p, v in points.items()}
    rows = []
    for team, members in teams.items():
        score = sum((earned.get(m, Fraction(0)) for m in members), Fraction(0))
        best = max((points.get(m, 0) for m in members), default=0)
        rows.append((team, score, tuple(members), best))
    rows.sort(key=lambda r: (-r[1], -r[3], r[0]))
    standings: list[TeamStanding] = []
    for index, (team, score, members, best) in enumerate(rows):
        tied = standings and standings[-1].score == score and standings[-1].best_member == best
        standings.append(TeamStanding(team, standings[-1].rank if tied else index + 1, score, members, best))
    return tuple(standings)


__all__ = ["DEFAULT_TABLE_POINTS", "TeamStanding", "rank_teams", "table_points"]
