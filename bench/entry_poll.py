"""What a table page's poll costs the server: a full render of the page vs the 304 while nothing changed.

    .venv/bin/python bench/entry_poll.py [--games 40] [--pairs 9] [--requests 30]

entry.js asks for its table page every 3 s with the ETag it has; while the table is unchanged the
answer is a bare 304 (the table's version: two small queries). A changed table is a full render of
the page (seats, form, a sheet of up to 40 games). Both are measured in-process with Django's test
client on a fresh SQLite file in /tmp (no network, no browser), A/B interleaved: each pair runs
``--requests`` full renders and as many 304s, the order alternating from pair to pair. Printed: the
median time per request of each, its range over the pairs, and the machine's load average
(os.getloadavg) before and after, since the machine may be shared.
"""

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def set_up(games: int):
    db = Path(tempfile.gettempdir()) / f"skr_bench_entry_poll_{os.getpid()}.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "schafkopfrennen.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from tests.tournaments.test_services_hands import make_table
    from tournaments.services.hands import dealer_for, table_sheet_record
    from tournaments.simulation import random_hand

    table = make_table(size=5)
    rng = random.Random(7)
    records = [random_hand(rng, table_size=5, dealer=dealer_for(n, 0, 5)) for n in range(1, games + 1)]
    table_sheet_record(table=table, records=records)
    return table, db


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--pairs", type=int, default=9)
    parser.add_argument("--requests", type=int, default=30)
    args = parser.parse_args()
    table, db = set_up(args.games)
    from django.test import Client

    client = Client(HTTP_ACCEPT_LANGUAGE="de", HTTP_HOST="localhost")
    url = f"/tisch/{table.entry_key}/"
    first = client.get(url)
    assert first.status_code == 200, first.status_code
    etag = first["ETag"]

    def full() -> float:
        started = time.perf_counter()
        for _ in range(args.requests):
            assert client.get(url).status_code == 200
        return (time.perf_counter() - started) / args.requests * 1000

    def not_modified() -> float:
        started = time.perf_counter()
        for _ in range(args.requests):
            assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
        return (time.perf_counter() - started) / args.requests * 1000

    load_before = os.getloadavg()
    results: dict[str, list[float]] = {"full": [], "304": []}
    for pair in range(args.pairs):
        order = (("full", full), ("304", not_modified)) if pair % 2 == 0 else (("304", not_modified), ("full", full))
        for name, run in order:
            results[name].append(run())
    load_after = os.getloadavg()
    print(
        f"table of five, {args.games} games; {args.pairs} A/B pairs of {args.requests} requests each (SQLite, in-process)"
    )
    for name, times in results.items():
        print(
            f"  {name:>4}: median {statistics.median(times):7.2f} ms/request   range {min(times):.2f}–{max(times):.2f}"
        )
    ratio = statistics.median(results["full"]) / statistics.median(results["304"])
    print(f"  a full render costs {ratio:.1f}× a 304")
    print(
        f"  load average before {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}, "
        f"after {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f} (shared machine)"
    )
    db.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
