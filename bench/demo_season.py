"""What the demo's finished season costs: demo_create with and without the season, A/B interleaved.

    python bench/demo_season.py [--pairs 7]

Tests load the demo often, so its season (three evenings of 12 players, two rounds of 8 games)
must stay cheap. Each run starts from the same freshly migrated SQLite file (copied, so migrating
is not timed); A is the demo without the season (the floor, as it was before), B the whole demo.
Prints the median and range of each and the machine's load (the machine may be shared).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
WORK = Path(tempfile.mkdtemp(prefix="bench-demo-"))
DB = WORK / "demo.sqlite3"
os.environ["DATABASE_URL"] = f"sqlite:///{DB}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "schafkopfrennen.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from tournaments.services import demo  # noqa: E402


def fresh(template: Path) -> None:
    connection.close()
    shutil.copy(template, DB)


def run(with_season: bool) -> float:
    original = demo._demo_season
    if not with_season:
        demo._demo_season = lambda *args, **kwargs: None
    try:
        started = time.perf_counter()
        demo.demo_create()
        return time.perf_counter() - started
    finally:
        demo._demo_season = original


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=7)
    args = parser.parse_args(argv)
    call_command("migrate", verbosity=0)
    connection.close()
    template = WORK / "migrated.sqlite3"
    shutil.copy(DB, template)
    before = os.getloadavg()
    times: dict[str, list[float]] = {"A without season": [], "B with season": []}
    for pair in range(args.pairs):
        order = (False, True) if pair % 2 == 0 else (True, False)  # interleaved, alternating who goes first
        for with_season in order:
            fresh(template)
            times["B with season" if with_season else "A without season"].append(run(with_season))
    after = os.getloadavg()
    print(
        f"demo_create on SQLite, {args.pairs} interleaved pairs; load average before {before[0]:.2f}, "
        f"after {after[0]:.2f} (1 min) on {os.cpu_count()} cores, machine shared"
    )
    for name, values in times.items():
        print(
            f"{name:>18}: median {statistics.median(values) * 1000:7.0f} ms, "
            f"range {min(values) * 1000:.0f}-{max(values) * 1000:.0f} ms"
        )
    extra = [b - a for a, b in zip(times["A without season"], times["B with season"], strict=True)]
    print(f"{'season costs':>18}: median {statistics.median(extra) * 1000:7.0f} ms per demo_create")
    shutil.rmtree(WORK, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
