"""Benchmark the seat draw on a synthetic field: time, repeated pairs and club pairs per round.

    python bench/draw.py [--players 1000] [--rounds 3] [--seed 1]
                         [--clubs 0] [--keep-clubs-apart] [--effort N] [--pairs 7]

Round 1 is drawn without history, every later round with the pairs of all earlier rounds, as
the round-draw service does. Players get ids 1..N; with ``--clubs K`` they are dealt into K
clubs at random (seeded). Times are wall-clock (time.perf_counter) for one draw_tables call
on one core; no Django is involved.

Then the last round's draw (with every earlier round's pairs to avoid) against its floor in the same
run (``bench/_floor.py``): ``--pairs`` interleaved pairs of ``draw_tables`` (A) and of the least a
draw can do (B: shuffle the players with the same seeded generator and deal them into the same
tables, no history, no clubs), CPU seconds, median, range, ratio and the load.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._floor import MIN_PAIRS, ab_pairs, load
from tournaments.seating import DEFAULT_EFFORT, draw_tables, pairs_of


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--clubs", type=int, default=0, help="deal the players into K clubs")
    parser.add_argument("--keep-clubs-apart", action="store_true")
    parser.add_argument("--effort", type=int, default=DEFAULT_EFFORT)
    parser.add_argument("--pairs", type=int, default=MIN_PAIRS, help="A/B pairs against the floor (at least 7)")
    args = parser.parse_args(argv)
    if args.pairs < MIN_PAIRS:
        parser.error("--pairs: at least 7")

    players = list(range(1, args.players + 1))
    clubs = None
    if args.clubs:
        rng = random.Random(args.seed)
        clubs = {pid: f"club {rng.randrange(args.clubs)}" for pid in players}

    print(
        f"{args.players} players, {args.rounds} rounds, seed {args.seed}, effort {args.effort}"
        + (f", {args.clubs} clubs" if clubs else "")
        + (", clubs kept apart" if args.keep_clubs_apart else "")
    )
    print(load())
    print(f"{'round':>5}  {'tables':>6}  {'time ms':>9}  {'repeated':>8}  {'club pairs':>10}")
    met: set[frozenset[int]] = set()
    total = 0.0
    for number in range(1, args.rounds + 1):
        started = time.perf_counter()
        result = draw_tables(
            players,
            seed=args.seed * 1000 + number,
            met=met,
            clubs=clubs,
            keep_clubs_apart=args.keep_clubs_apart,
            effort=args.effort,
        )
        elapsed = time.perf_counter() - started
        total += elapsed
        print(
            f"{number:>5}  {len(result.tables):>6}  {elapsed * 1000:>9.1f}"
            f"  {result.repeated_pairs:>8}  {result.club_pairs:>10}"
        )
        met_before_last = set(met)
        met |= pairs_of(result.tables)
    print(f"{'all':>5}  {'':>6}  {total * 1000:>9.1f}")

    sizes = [len(table) for table in result.tables]
    last = args.rounds

    def draw() -> None:
        draw_tables(
            players,
            seed=args.seed * 1000 + last,
            met=met_before_last,
            clubs=clubs,
            keep_clubs_apart=args.keep_clubs_apart,
            effort=args.effort,
        )

    def floor() -> None:  # shuffle and deal into the same tables: no history, no clubs
        order = list(players)
        random.Random(args.seed * 1000 + last).shuffle(order)
        tables, start = [], 0
        for size in sizes:
            tables.append(order[start : start + size])
            start += size

    pairs = ab_pairs(draw, floor, args.pairs)
    print(f"round {last}'s draw vs floor (shuffle and deal):")
    print(pairs.report("draw_tables", "shuffle and deal"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
