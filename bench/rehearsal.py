"""The big rehearsal, by hand: simulate_tournament then export_tournament, and check the archive.

    .venv/bin/python bench/rehearsal.py [--players 1000] [--rounds 3] [--games 48] [--seed 1] [--pairs 7]

Runs the two commands exactly as an organiser would, on a throw-away SQLite file (the embedded
default), then checks that the archive's standings equal the sum of its hands' points (and its
paper totals) per start number and that every game sums to 0. Prints the times and the result;
exits 1 if a check fails. The export then runs against its floor in the same run
(``bench/_floor.py``, ``--pairs`` interleaved pairs, CPU seconds of this process): the least an
export can do, i.e. one plain ``SELECT`` of every game's row and ``json.dumps`` of the same archive to
a file. Not a test (tests/scoring/test_standings_db.py checks the same on a small
field).
"""

import argparse
import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._floor import MIN_PAIRS, ab_pairs, load  # noqa: E402


def check(doc: dict) -> list[str]:
    """What is wrong with the archive's standings and ledger, measured against its own hands."""
    problems = []
    totals: Counter[int] = Counter()
    games = 0
    for rnd in doc["rounds"]:
        for table in rnd["tables"]:
            seats = {int(seat): start for seat, start in table["seats"].items()}
            for seat, total in (table.get("paper_totals") or {}).items():
                totals[seats[int(seat)]] += total
            for hand in table["hands"]:
                points = hand.get("points", {})
                games += 1
                if sum(points.values()) != 0 and doc["rules"]["scoring"] == "plus_minus":
                    problems.append(
                        f"round {rnd['number']} table {table['number']} game {hand['number']}: "
                        f"points sum to {sum(points.values())}"
                    )
                for seat, value in points.items():
                    totals[seats[int(seat)]] += value
    standings = {s["start_number"]: s["points"] for s in doc["standings"]}
    for start, points in sorted(standings.items()):
        if points != totals.get(start, 0):
            problems.append(f"start number {start}: standings {points}, hands {totals.get(start, 0)}")
    if set(totals) - set(standings):
        problems.append(f"players with games but no standing: {sorted(set(totals) - set(standings))[:10]}")
    print(f"archive: {len(doc['players'])} players, {games:,} games, {len(doc['ledger']):,} ledger entries")
    return problems


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=48)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairs", type=int, default=MIN_PAIRS, help="A/B pairs export vs floor (at least 7)")
    args = parser.parse_args()
    if args.pairs < MIN_PAIRS:
        parser.error("--pairs: at least 7")
    print(load())
    folder = tempfile.mkdtemp(prefix="rehearsal-")
    os.environ.update(
        SQLITE_PATH=os.path.join(folder, "db.sqlite3"),
        DJANGO_SETTINGS_MODULE="schafkopfrennen.settings",
        DJANGO_LOG_LEVEL="WARNING",
    )
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("CELERY_BROKER_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    slug = "probelauf"
    started = time.perf_counter()
    call_command(
        "simulate_tournament", players=args.players, rounds=args.rounds, games=args.games, seed=args.seed, slug=slug
    )
    simulated = time.perf_counter() - started
    archive = os.path.join(folder, "archive.json")
    started = time.perf_counter()
    call_command("export_tournament", slug, output=archive)
    exported = time.perf_counter() - started
    size = os.path.getsize(archive)
    print(
        f"simulate_tournament --players {args.players} --rounds {args.rounds} --games {args.games}: {simulated:.1f} s"
    )
    print(f"export_tournament: {exported:.1f} s, {size / 1e6:.1f} MB ({archive})")
    problems = check(json.loads(Path(archive).read_text(encoding="utf-8")))
    if problems:
        print(f"{len(problems)} problems, the first: " + "; ".join(problems[:5]))
        raise SystemExit(1)
    print("standings equal the sum of the hands' points for every player; every game sums to 0")

    from django.db import connection

    from tournaments.models import Hand

    doc = json.loads(Path(archive).read_text(encoding="utf-8"))
    again = os.path.join(folder, "again.json")
    floor_file = os.path.join(folder, "floor.json")

    def floor() -> None:
        with connection.cursor() as cursor:
            cursor.execute(f'SELECT * FROM "{Hand._meta.db_table}"')
            cursor.fetchall()
        Path(floor_file).write_text(json.dumps(doc, ensure_ascii=False, indent=1), encoding="utf-8")

    import io

    pairs = ab_pairs(
        lambda: call_command("export_tournament", slug, output=again, stdout=io.StringIO()), floor, args.pairs
    )
    print("export_tournament vs floor (SELECT every game + json.dumps of the archive):")
    print(pairs.report("export_tournament", "select + dump", unit="s", scale=1.0))


if __name__ == "__main__":
    main()
