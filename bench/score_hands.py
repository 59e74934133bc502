"""Benchmark of the pure scoring engine: how many hand records per second ``score_hand`` scores.

    python bench/score_hands.py [--hands N] [--seed S] [--pool P] [--pairs 7] [--ab-hands 100000]

Generates plausible valid hand records with a seeded random.Random (mostly Rufspiele, some Wenz
and Farbsolo, the odd Muss, Tout and Sie, a quarter of the games at tables of five), then times
the engine over them on one core. No Django, no database.

First, the figure with its floor in the same run (``bench/_floor.py``): ``--pairs`` interleaved
pairs of scoring ``--ab-hands`` records (A) against the floor (B): the least a scorer can do with the
same records, i.e. read the fields it needs and build the points per seat without any rule. CPU
seconds, median and range, the ratio and the load. Then the break-down of the engine's steps.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench._floor import MIN_PAIRS, ab_pairs, load
from scoring.rules import (
    hand_from_dict,
    ruleset_from_dict,
    score_document,
    score_hand,
    score_to_dict,
    validate_hand,
)
from scoring.rules.scoring import score_validated

SUITS = ("eichel", "gras", "schellen")
TRUMPS = ("eichel", "gras", "herz", "schellen")
LAUFENDE_WEIGHTS = (40, 22, 14, 10, 7, 4, 2, 1)  # 0..7 Laufende


def random_hand(rng: random.Random) -> tuple[dict[str, Any], int]:
    """One plausible valid hand record under the DEFAULT rules, and its table size."""
    table_size = 5 if rng.random() < 0.25 else 4
    seats = list(range(1, table_size + 1))
    hand: dict[str, Any] = {}
    if table_size == 5:
        dealer = rng.choice(seats)
        seats.remove(dealer)
    declarer = rng.choice(seats)
    roll = rng.random()
    laufende = rng.choices(range(8), LAUFENDE_WEIGHTS)[0]
    if roll < 0.72:
        partner = rng.choice([seat for seat in seats if seat != declarer])
        hand.update(contract="rufspiel", declarer=declarer, partner=partner)
        hand["called"] = rng.choice(SUITS)
        if rng.random() < 0.08:
            hand["muss"] = True
            if rng.random() < 0.3:
                hand["renonce"] = True
    elif roll < 0.84:
        hand.update(contract="solo", declarer=declarer, trump=rng.choice(TRUMPS))
    else:
        hand.update(contract="wenz", declarer=declarer)
        laufende = min(laufende, 4)
    special = rng.random()
    if hand["contract"] != "rufspiel" and special < 0.12:
        if hand["contract"] == "solo" and special < 0.02:
            hand["sie"] = True
        else:
            hand["tout"] = True
            hand["won"] = rng.random() < 0.8
            if laufende:
                hand["laufende"] = laufende
    else:
        augen = rng.randint(0, 120)
        hand["augen"] = augen
        if augen in (0, 120) and rng.random() < 0.5:
            hand["schwarz"] = True
        if laufende:
            hand["laufende"] = laufende
    if table_size == 5:
        hand["dealer"] = dealer
    return hand, table_size


def describe_mix(pool: list[tuple[dict[str, Any], int]]) -> str:
    """Share of each kind of game in the pool, e.g. "rufspiel 66.2%, muss 5.8%, ..."."""
    kinds: Counter[str] = Counter()
    for hand, size in pool:
        kind = "muss" if hand.get("muss") else hand["contract"]
        if hand.get("tout"):
            kind += " tout"
        elif hand.get("sie"):
            kind = "sie"
        kinds[kind] += 1
        kinds["table of five"] += size == 5
    return ", ".join(f"{kind} {count / len(pool):.1%}" for kind, count in kinds.most_common())


def timed(label: str, count: int, run: Callable[[], None]) -> float:
    """CPU seconds of this process (a shared machine's other work does not count), and the wall beside it."""
    gc.collect()
    start, start_wall = time.process_time(), time.perf_counter()
    run()
    seconds = time.process_time() - start
    wall = time.perf_counter() - start_wall
    rate = count / seconds
    per_hand = seconds / count * 1e6
    print(f"{label:<44} {seconds:8.3f} s CPU ({wall:.3f} wall)  {rate:>10,.0f} hands/s  {per_hand:6.2f} µs/hand")
    return rate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands to score (1,000,000)")
    parser.add_argument("--seed", type=int, default=20261121, help="seed of the generator")
    parser.add_argument("--pool", type=int, default=100_000, help="distinct hands generated, cycled to --hands")
    parser.add_argument("--pairs", type=int, default=MIN_PAIRS, help="A/B pairs against the floor (at least 7)")
    parser.add_argument("--ab-hands", type=int, default=100_000, help="hands per half of a pair")
    args = parser.parse_args(argv)
    if args.pairs < MIN_PAIRS:
        parser.error("--pairs: at least 7")

    if args.hands < 1 or args.pool < 1:
        parser.error("--hands and --pool must be at least 1")

    rng = random.Random(args.seed)
    pool = [random_hand(rng) for _ in range(min(args.pool, args.hands))]
    pool_hands = [(hand_from_dict(record), size) for record, size in pool]
    records = [pool[i % len(pool)] for i in range(args.hands)]
    hands = [pool_hands[i % len(pool)] for i in range(args.hands)]
    rules = ruleset_from_dict({})
    n = len(records)
    version = sys.version.split()[0]
    print(f"Python {version}, {n:,} hands ({len(pool):,} distinct), seed {args.seed}")
    print("mix:", describe_mix(pool))
    print(load())

    chunk = [pool[i % len(pool)] for i in range(args.ab_hands)]

    def engine() -> None:
        for record, size in chunk:
            score_hand(record, rules, size)

    def floor() -> None:  # read what a scorer reads, build the points per seat, apply no rule
        for record, size in chunk:
            points = dict.fromkeys(range(1, size + 1), 0)
            declarer, partner = record["declarer"], record.get("partner")
            value = record.get("augen", 61) - 60 + record.get("laufende", 0)
            points[declarer] += value
            if partner is not None:
                points[partner] += value

    pairs = ab_pairs(engine, floor, args.pairs)
    print(f"score_hand(dict) vs floor, {args.ab_hands:,} hands per half:")
    print(pairs.report("score_hand", "read fields + points dict", per=args.ab_hands, unit="µs", scale=1e6))
    print()

    def full() -> None:
        for record, size in records:
            score_hand(record, rules, size)

    def parse_only() -> None:
        for record, _ in records:
            hand_from_dict(record)

    def validate_only() -> None:
        for hand, size in hands:
            validate_hand(hand, rules, size)

    def score_only() -> None:
        for hand, size in hands:
            score_validated(hand, rules, size)

    def from_objects() -> None:
        for hand, size in hands:
            score_hand(hand, rules, size)

    def with_output() -> None:
        for record, size in records:
            score_to_dict(score_hand(record, rules, size))

    rate = timed("score_hand(dict)  [parse+validate+score]", n, full)
    timed("  hand_from_dict", n, parse_only)
    timed("  validate_hand", n, validate_only)
    timed("  scoring a validated HandRecord", n, score_only)
    timed("score_hand(HandRecord)  [validate+score]", n, from_objects)
    timed("score_hand(dict) + score_to_dict", n, with_output)

    fours = [record for record, size in records if size == 4]

    def document() -> None:
        score_document({"hands": fours})

    if fours:
        timed("score_document (the tables of four)", len(fours), document)
    target = 100_000
    print(f"target {target:,} hands/s: {'met' if rate >= target else 'NOT met'}")
    return 0 if rate >= target else 1


if __name__ == "__main__":
    sys.exit(main())
