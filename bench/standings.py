"""Standings benchmark: a 1,000-player tournament (3 rounds × 48 games = 36,000 games) on PostgreSQL.

    .venv/bin/python bench/standings.py [--players 1000] [--games 48] [--reuse]

Prints (1) a full recompute (load every game, score, rank, ledger, replace the snapshot) next to a
raw SQL ``SUM ... GROUP BY`` over the same stored points, as a ratio, and (2) the time from the last
game of a table committed to the standings showing it, with a real Celery worker on Redis.
Needs PostgreSQL on 127.0.0.1:5432 (user postgres) and Redis on 127.0.0.1:6379. Not a test.
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
DB = "schafkopfrennen_bench_standings"
BROKER = "redis://127.0.0.1:6379/14"
os.environ.update(
    DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{DB}", CELERY_BROKER_URL=BROKER,
    DJANGO_SETTINGS_MODULE="schafkopfrennen.settings", DJANGO_LOG_LEVEL="WARNING",
)

RAW_SQL = """
    SELECT s.registration_id, SUM((h.points ->> s.number::text)::int)
    FROM tournaments_hand h
    JOIN tournaments_table t ON t.id = h.table_id
    JOIN tournaments_round r ON r.id = t.round_id
    JOIN tournaments_seat s ON s.table_id = h.table_id
    WHERE r.tournament_id = %s AND h.contract <> 'weiter'
    GROUP BY s.registration_id
"""


def recreate_database() -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB}")
        conn.execute(f"CREATE DATABASE {DB}")


def hand_record_of(hand) -> dict:
    """The record of a stored game (what the tablet sent)."""
    from scoring.services import hand_record as stored_record

    return stored_record(hand, hand.table.size)


def interleaved_medians_ms(fns, repeat: int = 11) -> list[float]:
    """Median time of each function, run in turns so that a slow spell of the machine hits all alike."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for fn, bucket in zip(fns, times):
            started = time.perf_counter()
            fn()
            bucket.append((time.perf_counter() - started) * 1000)
    return [statistics.median(bucket) for bucket in times]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--games", type=int, default=48)
    parser.add_argument("--reuse", action="store_true", help="keep the database of an earlier run")
    args = parser.parse_args()
    if not args.reuse:
        recreate_database()

    import django

    django.setup()
    import random

    from django.core.management import call_command
    from django.db import connection

    from scoring.models import StandingsSnapshot
    from scoring.schedule import standings_deferred
    from scoring.standings import games_marker, standings_recompute
    from tournaments.models import Hand, Tournament
    from tournaments.services.hands import hand_delete, hand_record, table_sheet_record
    from tournaments.services.rounds import round_draw, round_publish
    from tournaments.services.simulation import round_simulate, tournament_simulate_setup
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
                records = [random_hand(rng, table_size=table.size, dealer=((n - 1) % table.size) + 1)
                           for n in range(1, args.games * table.size // 4 + 1)]
                table_sheet_record(table=table, records=records[:-1])  # the last game comes later
                last_games.append((table, records[-1]))
        print(f"set up {args.players} players, 3 rounds, in {time.perf_counter() - started:.1f} s")
    hands = Hand.objects.filter(table__round__tournament=tournament).count()

    def raw_sum():
        with connection.cursor() as cursor:
            cursor.execute(RAW_SQL, [tournament.pk])
            return cursor.fetchall()

    standings_recompute(tournament_id=tournament.pk)  # warm both up once
    raw_sum()
    recompute_ms, raw_ms = interleaved_medians_ms([lambda: standings_recompute(tournament_id=tournament.pk), raw_sum])
    print(f"games stored:                 {hands:,}")
    print(f"full recompute (median of 11): {recompute_ms:8.1f} ms")
    print(f"raw SQL SUM ... GROUP BY:      {raw_ms:8.1f} ms")
    print(f"ratio:                         {recompute_ms / raw_ms:8.2f} ×")

    if not last_games:  # --reuse: take the last game of ten tables of the open round back, to enter it again
        rnd = tournament.rounds.order_by("-number").first()
        for table in rnd.tables.order_by("number")[:10]:
            hand = table.hands.order_by("-number").first()
            last_games.append((table, hand_record_of(hand)))
            hand_delete(hand=hand, device="bench")
        standings_recompute(tournament_id=tournament.pk)
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "schafkopfrennen", "worker", "--pool=solo", "--loglevel=WARNING",
         "--without-gossip", "--without-mingle", "--purge"],
        cwd=ROOT, env=dict(os.environ),
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
        print(f"last game committed -> standings visible, 10 tables: median {statistics.median(delays):.0f} ms, "
              f"max {max(delays):.0f} ms (includes the 1 s coalescing window)")
    finally:
        worker.terminate()
        worker.wait(timeout=30)


if __name__ == "__main__":
    main()
