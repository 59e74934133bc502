"""The biggest evenings: one evening in several inns, and a series of many pub evenings, end to end.

    .venv/bin/python bench/venues.py [--players 500] [--venues 6] [--rounds 3] [--games 32]
        [--evenings 58] [--evening-players 20] [--database-url postgres://postgres@127.0.0.1:5432/skr_venues_bench]
        [--redis-url redis://127.0.0.1:6379/7] [--keep]

Set-up: drops and creates the PostgreSQL database of ``--database-url`` (env ``VENUES_DATABASE_URL``) and
migrates it; starts one Celery worker (solo pool) on Redis ``--redis-url`` (env ``VENUES_REDIS_URL``); this
process sends its standings work there, as the site does with a broker.

1. The evening: ``--players`` players in ``--venues`` inns (``simulate_tournament --venues``' set-up), each
   round drawn over the venues (players stay in theirs), published and every table's sheet entered and
   confirmed in this process (the worker merges the standings), rounds closed — except the last game of
   the last table of the last venue in the last round. The worker is let catch up; then that game is
   entered (``hand_record``, as a tablet saves it), and the bench prints
   a. last game → the standings snapshot counts it (the worker's merge),
   b. last game → its table confirmed, the round closed, the tournament finished ("Endstand") and the
      snapshot current: what the central desk waits for instead of 23:00 and paper.
   It also checks the draw: nobody changed venue, every table stands in its venue's range.
2. The series: ``--evenings`` pub evenings of ``--evening-players`` each (players drawn from a pool of
   1,200, so many play several), two rounds each, played in this process; a season over all of them.
   Prints the time to play the evenings and the time from the last evening's last standings to the
   series list (``series_standings``: every evening's result read and the season ranked), and its size.

Every figure comes with the load average: the machine may be shared (say so next to any figure).
"""

import argparse
import os
import random
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def load() -> str:
    one, five, _fifteen = os.getloadavg()
    return f"load {one:.2f} / {five:.2f} (1 / 5 min, {os.cpu_count()} cores)"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--venues", type=int, default=6)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=32)
    parser.add_argument("--evenings", type=int, default=58)
    parser.add_argument("--evening-players", type=int, default=20)
    parser.add_argument("--seed", type=int, default=38)
    parser.add_argument(
        "--database-url",
        default=os.environ.get("VENUES_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/skr_venues_bench"),
    )
    parser.add_argument("--redis-url", default=os.environ.get("VENUES_REDIS_URL", "redis://127.0.0.1:6379/7"))
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    return parser.parse_args()


def set_up(args) -> subprocess.Popen:
    from bench.hand_entry import recreate_database, require_redis

    server, name = args.database_url.rsplit("/", 1)
    require_redis(args.redis_url)
    recreate_database(server, name)
    os.environ.update(
        {
            "DATABASE_URL": args.database_url,
            "CELERY_BROKER_URL": args.redis_url,
            "DJANGO_SETTINGS_MODULE": "schafkopfrennen.settings",
            "DJANGO_LOG_LEVEL": "WARNING",
        }
    )
    os.environ.pop("REDIS_CACHE_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import redis

    redis.Redis.from_url(args.redis_url).flushdb()  # no task of an earlier run waits there
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [
            str(Path(sys.executable).parent / "celery"),
            "-A",
            "schafkopfrennen",
            "worker",
            "--loglevel=WARNING",
            "--concurrency=1",
            "--pool=solo",
            "--without-heartbeat",
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=env,
        start_new_session=True,
    )


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def wait_current(tournament_id: int, since: float, timeout: float = 120.0) -> float | None:
    """Seconds from ``since`` until the snapshot counts the newest game revision (None: not within timeout)."""
    from scoring.models import StandingsSnapshot
    from tournaments.models import HandRevision

    newest = (
        HandRevision.objects.filter(table__round__tournament_id=tournament_id)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
        or 0
    )
    while time.perf_counter() - since < timeout:
        seen = StandingsSnapshot.objects.filter(tournament_id=tournament_id).values_list("revision", flat=True).first()
        if seen is not None and seen >= newest:
            return time.perf_counter() - since
        time.sleep(0.005)
    return None


def sheet(rng: random.Random, rules, size: int) -> list[dict]:
    from scoring.rules import score_hand
    from scoring.rules.table import deal_schedule, games_required
    from tournaments.simulation import random_hand

    records, thrown = [], []
    while len(thrown) - sum(thrown) < games_required(rules.games_per_round, size):
        dealer, _ = deal_schedule(thrown, size)
        record = random_hand(rng, table_size=size, dealer=dealer, tout_allowed=False)
        records.append(record)
        thrown.append(score_hand({**record, "dealer": dealer}, rules, size).thrown_in)
    return records


def evening(args) -> None:
    from tournaments.models import Registration, Seat
    from tournaments.services.hands import hand_record, table_confirm, table_sheet_record
    from tournaments.services.rounds import round_close, round_draw, round_publish
    from tournaments.services.simulation import tournament_simulate_setup
    from tournaments.services.tournament import tournament_finish

    rng = random.Random(args.seed)
    started = time.perf_counter()
    tournament = tournament_simulate_setup(
        slug="sechs-wirtshaeuser",
        players=args.players,
        rounds=args.rounds,
        games=args.games,
        seed=args.seed,
        venues=args.venues,
    )
    venues = list(tournament.venues.order_by("first_table"))
    rules = tournament.ruleset
    print(
        f"1. the evening: {args.players} players, {len(venues)} venues "
        f"({', '.join(f'{v.first_table}-{v.last_table}' for v in venues)}), {args.rounds} rounds of {args.games} "
        f"games; {load()}",
        flush=True,
    )
    first_venue = None
    last_hand = None
    for number in range(1, args.rounds + 1):
        t = time.perf_counter()
        (rnd,) = round_draw(tournament=tournament, seed=rng.randrange(2**31))
        draw_s = time.perf_counter() - t
        round_publish(round=rnd)
        where = dict(Registration.objects.filter(tournament=tournament).values_list("pk", "venue_id"))
        first_venue = first_venue or where
        moved = sum(1 for reg, venue in where.items() if first_venue.get(reg) != venue)
        outside = sum(
            1
            for table_number, venue in Seat.objects.filter(round=rnd).values_list(
                "table__number", "registration__venue_id"
            )
            if not any(v.pk == venue and v.first_table <= table_number <= v.last_table for v in venues)
        )
        per_venue = [rnd.tables.filter(number__gte=v.first_table, number__lte=v.last_table).count() for v in venues]
        tables = list(rnd.tables.order_by("number"))
        final = number == args.rounds
        t = time.perf_counter()
        for table in tables:
            records = sheet(rng, rules, table.size)
            if final and table is tables[-1]:
                last_hand = records.pop()
            table_sheet_record(table=table, records=records, device="bench")
            if not (final and table is tables[-1]):
                for seat in range(1, table.size + 1):
                    table_confirm(table=table, seat=seat, device="bench")
        play_s = time.perf_counter() - t
        print(
            f"   round {number}: draw {draw_s:.2f} s (tables per venue {per_venue}, {moved} changed venue, "
            f"{outside} seated outside their venue), {len(tables)} sheets entered in {play_s:.1f} s; {load()}",
            flush=True,
        )
        if not final:
            round_close(round=rnd)
    caught_up = wait_current(tournament.pk, time.perf_counter())
    print(
        f"   the worker caught up with everything but the last game ({caught_up:.1f} s after the sheets); {load()}",
        flush=True,
    )
    last_table = tables[-1]
    venue = next(v for v in venues if v.first_table <= last_table.number <= v.last_table)
    t0 = time.perf_counter()
    hand_record(table=last_table, record=last_hand, client_id=uuid.uuid4(), device="bench")
    counted = wait_current(tournament.pk, t0)
    for seat in range(1, last_table.size + 1):
        table_confirm(table=last_table, seat=seat, device="bench")
    round_close(round=rnd)
    tournament_finish(tournament=tournament)
    final = wait_current(tournament.pk, t0)
    print(
        f"   a. last game (table {last_table.number}, {venue.name}) → standings count it: {counted:.2f} s", flush=True
    )
    print(
        f"   b. last game → table confirmed, round closed, tournament finished, final standings: {final:.2f} s "
        f"(target < 5 s); {load()}",
        flush=True,
    )
    print(f"   whole evening set up and played in {time.perf_counter() - started:.0f} s", flush=True)


def series(args) -> None:
    import datetime

    from django.db import transaction

    from tournaments.models import Club, Player
    from tournaments.selectors.series import series_standings
    from tournaments.services.registration import registration_create
    from tournaments.services.series import series_create, series_tournament_add
    from tournaments.services.simulation import tournament_play
    from tournaments.services.tournament import tournament_create
    from tournaments.simulation import random_name

    rng = random.Random(args.seed + 1)
    club = Club.objects.create(name="Wieninger Meisterschaft", town="Teisendorf")
    pool = Player.objects.bulk_create(
        Player(first_name=f, last_name=ln, club=club) for f, ln in (random_name(rng) for _ in range(1200))
    )
    season = series_create(club=club, name="Wieninger 2026", slug="wieninger-2026", public=True)
    print(
        f"2. the series: {args.evenings} evenings of {args.evening_players} players from a pool of {len(pool)}; "
        f"{load()}",
        flush=True,
    )
    t = time.perf_counter()
    for n in range(args.evenings):
        with transaction.atomic():
            evening = tournament_create(
                club=club,
                name=f"Vorrunde {n + 1}",
                slug=f"vorrunde-{n + 1}",
                date=datetime.date(2026, 1, 1) + datetime.timedelta(days=3 * n),
                rules={"rounds": 2, "games_per_round": args.games},
            )
            for person in rng.sample(pool, args.evening_players):
                registration_create(tournament=evening, player=person, paid=True, checked_in=True)
        tournament_play(tournament=evening, seed=rng.randrange(2**31))
        series_tournament_add(series=season, tournament=evening)
    played = time.perf_counter() - t
    wait_current(evening.pk, time.perf_counter())
    t0 = time.perf_counter()
    standings = series_standings(season)
    listed = time.perf_counter() - t0
    rows = len(standings.rows) if hasattr(standings, "rows") else "?"
    print(f"   {args.evenings} evenings played in {played:.0f} s ({played / args.evenings:.2f} s each)", flush=True)
    print(
        f"   last evening's standings → the series list ({rows} players ranked): {listed:.2f} s; {load()}", flush=True
    )


def main() -> None:
    args = parse_args()
    print(f"set-up: database {args.database_url.rsplit('/', 1)[1]}, Redis {args.redis_url}; {load()}", flush=True)
    worker = set_up(args)
    try:
        evening(args)
        series(args)
    finally:
        stop(worker)
        if not args.keep:
            from django.db import connections

            connections.close_all()
            from bench.hand_entry import drop_database

            server, name = args.database_url.rsplit("/", 1)
            drop_database(server, name)


if __name__ == "__main__":
    main()
