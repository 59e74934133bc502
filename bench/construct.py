"""Is ``scoring/rules/_construct.py``'s generated constructor needed? A/B in the same run.

    .venv/bin/python bench/construct.py [--hands 20000] [--pairs 9] [--seed 20261121]

Scores the same plausible hand records (``bench/score_hands.py``'s generator, the default rules)
through ``score_hand`` with the two ways of building the frozen ``HandRecord`` and ``HandScore``:

- ``A``: whatever ``scoring.rules`` uses now (the generated constructor while it exists);
- ``B``: the dataclasses' own ``__init__`` (``HandRecord(...)``, ``HandScore(...)``).

The arms are interleaved (A, B, B, A, ...) ``--pairs`` times on one core; the report gives each
arm's median and range in µs per hand, the median of the pairwise ratios B/A, and the machine's
load average before and after. No Django, no database.
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.score_hands import random_hand
from scoring.rules import HandRecord, HandScore, ruleset_from_dict, score_hand
from scoring.rules import hand as hand_module
from scoring.rules import scoring as scoring_module

PATCHES = ((hand_module, "_build_hand", HandRecord), (scoring_module, "_build_score", HandScore))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--pairs", type=int, default=9)
    parser.add_argument("--seed", type=int, default=20261121)
    args = parser.parse_args()
    import random

    rng = random.Random(args.seed)
    records = [random_hand(rng) for _ in range(args.hands)]
    rules = ruleset_from_dict({})
    present = [(module, name) for module, name, _cls in PATCHES if hasattr(module, name)]
    originals = {(module, name): getattr(module, name) for module, name in present}

    def arm(plain: bool) -> float:
        for module, name, cls in PATCHES:
            if (module, name) in originals:
                setattr(module, name, cls if plain else originals[(module, name)])
        gc.collect()
        start = time.process_time()
        for record, size in records:
            score_hand(record, rules, size)
        return (time.process_time() - start) / len(records) * 1e6

    load_before = os.getloadavg()
    arm(False), arm(True)  # warm up
    a, b = [], []
    for pair in range(args.pairs):
        order = (False, True) if pair % 2 == 0 else (True, False)
        for plain in order:
            (b if plain else a).append(arm(plain))
    load_after = os.getloadavg()
    ratios = [y / x for x, y in zip(a, b)]
    print(
        f"Python {sys.version.split()[0]}, {args.hands:,} hands, {args.pairs} pairs interleaved, "
        f"generated constructor {'present: ' + ', '.join(n for _m, n in present) if present else 'ABSENT (A = B)'}"
    )
    for label, values in (("A generated constructor", a), ("B dataclass __init__", b)):
        print(
            f"{label:<26} median {statistics.median(values):6.2f} µs/hand  range {min(values):6.2f}–{max(values):6.2f}"
        )
    print(f"B/A median {statistics.median(ratios):.3f}  range {min(ratios):.3f}–{max(ratios):.3f}")
    print(
        f"load average before {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, "
        f"after {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f} ({os.cpu_count()} cores)"
    )


if __name__ == "__main__":
    main()
