"""Standings benchmark: a 1,000-player tournament (3 rounds × 48 games = 36,000 games) on PostgreSQL.

    .venv/bin/python bench/standings.py [--players 1000] [--games 48] [--pairs 11] [--reuse] \
        [--database-url postgres://postgres@127.0.0.1:5432/skr_bench] [--redis-url redis://127.0.0.1:6379/14]

Prints (1) a full recompute (read every game's stored outcome, per-table results, rank, ledger,
replace the snapshot), the merge of one changed table (what a save costs the worker), and the floor:
a raw SQL ``SUM ... GROUP BY`` over the same stored points; interleaved, median and range, with the
load average; and (2) the time from the last game of a table committed to the standings showing it,
with a real Celery worker on Redis. Database and broker from ``--database-url`` / ``--redis-url`` or
the environment (BENCH_DATABASE_URL: a server URL plus a database name this bench may drop;
BENCH_REDIS_URL). The floor counts what the full recompute counts: every game that is not thrown in
(``thrown_in``), points per seat summed per player. Not a test.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _option(name: str, env: str, default: str) -> str:
    """An option read before Django is set up (the settings take it from the environment)."""
    for index, arg in enumerate(sys.argv):
        if arg == name and index + 1 < len(sys.argv):
            return sys.argv[index + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return os.environ.get(env, default)


DATABASE_URL = _option(
    "--database-url", "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/schafkopfrennen_bench_standings"
)
SERVER, DB = DATABASE_URL.rsplit("/", 1)
BROKER = _option("--redis-url", "BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
os.environ.update(
    DATABASE_URL=DATABASE_URL,
    CELERY_BROKER_URL=BROKER,
    DJANGO_SETTINGS_MODULE="schafkopfrennen.settings",
    DJANGO_LOG_LEVEL="WARNING",
    # as in production: no query log (it formatted every statement's SQL, the floor's one and the recompute's ten)
    DJANGO_DEBUG="false",
    DJANGO_SECRET_KEY=os.environ.get("DJANGO_SECRET_KEY", "bench-" + uuid.uuid4().hex * 2),
)

RAW_SQL = """
    SELECT s.registration_id, SUM(CASE s.number WHEN 1 THEN h.points_1 WHEN 2 THEN h.points_2 WHEN 3 THEN h.points_3
                                               WHEN 4 THEN h.points_4 WHEN 5 THEN h.points_5 END)
    FROM tournaments_hand h
    JOIN tournaments_table t ON t.id = h.table_id
    JOIN tournaments_round r ON r.id = t.round_id
    JOIN tournaments_seat s ON s.table_id = h.table_id
    WHERE r.tournament_id = %s AND NOT h.thrown_in
    GROUP BY s.registration_id
"""


def recreate_database() -> None:
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB}")


def hand_record_of(hand) -> dict:
    """The record of a stored game (what the tablet sent)."""
    from scoring.storage import stored_record

    return stored_record(hand, hand.table.size)


CPU_MS: dict[int, list[float]] = {}  # this process's CPU per function (PostgreSQL's own is not in it)


def interleaved_ms(fns, repeat: int = 11) -> list[list[float]]:
    """Times of each function, run in turns (the order turning round) so that a slow spell of the machine hits all alike."""
    times: list[list[float]] = [[] for _ in fns]
    for turn in range(repeat):
        order = list(zip(range(len(fns)), fns, times))
        for index, fn, bucket in order if turn % 2 == 0 else order[::-1]:
            started, cpu = time.perf_counter(), time.process_time()
            fn()
            bucket.append((time.perf_counter() - started) * 1000)
            CPU_MS.setdefault(index, []).append((time.process_time() - cpu) * 1000)
    return times


def interleaved_medians_ms(fns, repeat: int = 11) -> list[float]:
    return [statistics.median(bucket) for bucket in interleaved_ms(fns, repeat)]


def described(values: list[float]) -> str:
    return f"median {statistics.median(values):8.1f} ms (range {min(values):.1f}–{max(values):.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=48)
    parser.add_argument("--reuse", action="store_true", help="keep the database of an earlier run")
    parser.add_argument("--pairs", type=int, default=11, help="interleaved turns (at least 7)")
    parser.add_argument("--database-url", default=DATABASE_URL)
    parser.add_argument("--redis-url", default=BROKER)
    parser.add_argument("--no-worker", action="store_true", help="skip the last-game-to-visible part")
    args = parser.parse_args()
    if args.pairs < 7:
        parser.error("--pairs: at least 7")
    if not args.reuse:
        recreate_database()

    import django

    django.setup()
    import random

    from django.core.management import call_command
    from django.db import connection

    from scoring.models import StandingsSnapshot
    from tournaments.models import Hand, Tournament
    from tournaments.selectors.standings import games_marker
    from tournaments.services.hands import hand_delete, hand_record, table_sheet_record
    from tournaments.services.rounds import round_draw, round_publish
    from tournaments.services.schedule import standings_deferred
    from tournaments.services.simulation import round_simulate, tournament_simulate_setup
    from tournaments.services.standings import standings_recompute
    from tournaments.simulation import random_hand

    slug = f"bench-{args.players}"
    if not args.reuse:
        call_command("migrate", verbosity=0)
    tournament = Tournament.objects.filter(slug=slug).first()
    last_games: list = []
    if tournament is None:
        started = time.perf_counter()
        with standings_deferred():
            tournament = tournament_simulate_setup(slug=slug, players=args.players, rounds=3, games=args.games, seed=1)
            rng = random.Random(1)
            for _ in range(2):
                (rnd,) = round_draw(tournament=tournament, seed=rng.randrange(2**31))
                round_simulate(rnd=rnd, seed=rng.randrange(2**31))
            (rnd,) = round_draw(tournament=tournament, seed=rng.randrange(2**31))
            round_publish(round=rnd)
            for table in rnd.tables.order_by("number"):
                records = [
                    random_hand(rng, table_size=table.size, dealer=((n - 1) % table.size) + 1)
                    for n in range(1, args.games * table.size // 4 + 1)
                ]
                table_sheet_record(table=table, records=records[:-1])  # the last game comes later
                last_games.append((table, records[-1]))
        print(f"set up {args.players} players, 3 rounds, in {time.perf_counter() - started:.1f} s")
    hands = Hand.objects.filter(table__round__tournament=tournament).count()

    def raw_sum():
        with connection.cursor() as cursor:
            cursor.execute(RAW_SQL, [tournament.pk])
            return cursor.fetchall()

    from tournaments.services.hands import hand_correct
    from tournaments.services.standings import standings_update

    open_tables = list(
        Hand.objects.filter(table__round__tournament=tournament, table__round__status="published")
        .order_by("table_id", "-number")
        .distinct("table_id")[: args.pairs]
    )

    def merge_one() -> None:
        """A correction at one table (not timed here), then what the worker does with it."""
        hand = open_tables.pop()
        hand_correct(hand=hand, record=hand_record_of(hand), device="bench")
        started = time.perf_counter()
        standings_update(tournament_id=tournament.pk, table_ids=[hand.table_id])
        merge_times.append((time.perf_counter() - started) * 1000)

    merge_times: list[float] = []
    standings_recompute(tournament_id=tournament.pk)  # warm them up once
    raw_sum()
    load_before = os.getloadavg()
    recompute, raw, _ = interleaved_ms(
        [lambda: standings_recompute(tournament_id=tournament.pk), raw_sum, merge_one], repeat=args.pairs
    )
    load_after = os.getloadavg()
    print(
        f"games stored: {hands:,}; {args.pairs} interleaved turns; load {load_before[0]:.2f} before, {load_after[0]:.2f} after "
        f"on {os.cpu_count()} cores (the machine may be shared)"
    )
    print(f"full recompute:            {described(recompute)}")
    print(f"merge of one changed table: {described(merge_times)}")
    print(f"raw SQL SUM ... GROUP BY:  {described(raw)}")
    print(
        f"  CPU of this process: full recompute {described(CPU_MS[0])}; raw SQL {described(CPU_MS[1])}; "
        f"correction + merge {described(CPU_MS[2])}"
    )
    ratios = [a / b for a, b in zip(recompute, raw, strict=True)]
    print(
        f"full recompute / raw SQL:  median {statistics.median(ratios):.2f} × (range {min(ratios):.2f}–{max(ratios):.2f}; target ≤ 2)"
    )

    if args.no_worker:
        return
    if not last_games:  # --reuse: take the last game of ten tables of the open round back, to enter it again
        rnd = tournament.rounds.order_by("-number").first()
        for table in rnd.tables.order_by("number")[:10]:
            hand = table.hands.order_by("-number").first()
            last_games.append((table, hand_record_of(hand)))
            hand_delete(hand=hand, device="bench")
        standings_recompute(tournament_id=tournament.pk)
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "schafkopfrennen",
            "worker",
            "--pool=solo",
            "--loglevel=WARNING",
            "--without-gossip",
            "--without-mingle",
            "--purge",
        ],
        cwd=ROOT,
        env=dict(os.environ),
    )
    try:
        time.sleep(4)  # let the worker connect
        delays = []
        for table, record in last_games[:10]:
            hand_record(table=table, record=record, client_id=uuid.uuid4(), device="bench")
            committed = time.perf_counter()
            marker = games_marker(tournament)
            while True:
                snap = StandingsSnapshot.objects.filter(tournament=tournament).values_list("marker", flat=True).first()
                if snap == marker:
                    break
                if time.perf_counter() - committed > 30:
                    raise SystemExit("standings did not catch up within 30 s: is the worker running?")
                time.sleep(0.02)
            delays.append((time.perf_counter() - committed) * 1000)
            time.sleep(1.5)  # the next table's last game, a moment later
        print(
            f"last game committed -> standings visible, 10 tables, 1.5 s apart: median {statistics.median(delays):.0f} ms, "
            f"range {min(delays):.0f}–{max(delays):.0f} ms; load {os.getloadavg()[0]:.2f}"
        )
    finally:
        worker.terminate()
        worker.wait(timeout=30)


if __name__ == "__main__":
    main()
