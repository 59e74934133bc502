"""The two web hot paths in one process, against their floors (A/B interleaved): a saved game through the
table API against ``bench/evening_site.py``'s bare insert view, and an unchanged standings / player-page
poll (304) against its bare 304 view, and a changed player page (rendered: his place moved, his tables as they
were) against the same bare view. CPU of this process (``time.process_time``), so no gunicorn.

    .venv/bin/python bench/web_paths.py setup   --database-url postgres://postgres@127.0.0.1:5432/skr_paths
    .venv/bin/python bench/web_paths.py measure --database-url postgres://postgres@127.0.0.1:5432/skr_paths \\
        --redis-url redis://127.0.0.1:6379/11 [--profile save|poll|player|player_changed] [--pairs 7 --batch 50] [--gc plain]

``setup`` drops and creates the database, migrates it and publishes round 1 of a ``--players`` tournament;
``measure`` runs with the project's full middleware (``django.test.Client``, DEBUG off) and Redis as cache
and broker (no worker: the standings tasks only queue up; the queue is emptied afterwards). Prints the
median and range per pair, the ratio and the load average.
"""

import argparse
import cProfile
import gc
import itertools
import os
import pstats
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f}/{five:.2f} on {os.cpu_count()} cores"


def setup(args) -> None:
    from bench.hand_entry import recreate_database

    server, name = args.database_url.rsplit("/", 1)
    recreate_database(server, name)
    os.environ["DATABASE_URL"] = args.database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "schafkopfrennen.settings"
    for name in ("CELERY_BROKER_URL", "REDIS_CACHE_URL"):
        os.environ.pop(name, None)
    import django

    django.setup()
    from django.core.management import call_command

    from tournaments.services.prizes import tournament_standings_publish
    from tournaments.services.rounds import round_draw, round_publish
    from tournaments.services.simulation import tournament_simulate_setup

    call_command("migrate", verbosity=0)
    tournament = tournament_simulate_setup(slug="abend", players=args.players, rounds=3, games=32, seed=1)
    tournament_standings_publish(tournament=tournament, public=True)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    round_publish(round=rnd)
    print(f"set up: {args.players} players, {rnd.tables.count()} tables")


def open_tables() -> tuple[list[list], list[tuple[str, int]]]:
    """The set-up round's tables as [entry key, size, next game number, its dealer], and fifty players'
    (key, start number)."""
    from tournaments.models import Registration, Round

    rnd = Round.objects.filter(tournament__slug="abend").order_by("-number").first()
    tables = []
    for t in rnd.tables.order_by("number"):
        last = t.hands.order_by("-number").first()
        thrown = t.hands.filter(thrown_in=True).count()
        number = (last.number if last else 0) + 1
        tables.append([t.entry_key, t.size, number, (number - 1 - thrown) % t.size + 1])
    return tables, list(Registration.objects.filter(tournament=rnd.tournament).values_list("key", "start_number")[:50])


def player_table(tables: list[list], key: str) -> int:
    """The index in ``tables`` of the table where the player of ``key`` sits in the set-up round."""
    from tournaments.models import Seat

    entry_key = (
        Seat.objects.filter(registration__key=key)
        .order_by("-round__number")
        .values_list("table__entry_key", flat=True)
        .first()
    )
    return next(i for i, t in enumerate(tables) if t[0] == entry_key)


def measure(args) -> None:
    os.environ.update(
        {
            "DATABASE_URL": args.database_url,
            "DJANGO_SETTINGS_MODULE": "bench.evening_settings",
            "REDIS_CACHE_URL": args.redis_url,
            "CELERY_BROKER_URL": args.redis_url,
            "DJANGO_DEBUG": "false",
            "DJANGO_ALLOWED_HOSTS": "testserver",
            "DJANGO_TABLE_READ_RATE": "100000/min",
            "DJANGO_TABLE_WRITE_RATE": "100000/min",
            "DJANGO_SECRET_KEY": "x" * 50,
        }
    )
    import django

    django.setup()
    import json

    from django.test import Client

    from tournaments.simulation import random_hand

    tables, keys = open_tables()
    rng = random.Random(args.seed)
    client = Client()
    turn = 0

    def save_one(table=None):
        nonlocal turn
        if table is None:
            table = tables[turn % len(tables)]
            turn += 1
        record = random_hand(rng, table_size=table[1], dealer=table[3], tout_allowed=False)
        body = json.dumps({**record, "number": table[2], "client_id": str(uuid.uuid4())})
        response = client.post(f"/api/tisch/{table[0]}/hands/", body, content_type="application/json")
        assert response.status_code == 201, (response.status_code, response.content)
        stored = json.loads(response.content)
        table[2] = stored["number"] + 1
        table[3] = stored["dealer"] % table[1] + 1

    floor_ids = itertools.count(1)

    def floor_one():
        client.post("/bench/floor/insert/", f"floor-{next(floor_ids)}", content_type="text/plain")

    url = f"/t/abend/rangliste/?ich={keys[0][1]}"
    hx = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_ENCODING": "gzip"}
    player = f"/s/{keys[1][0]}/"
    his_table = player_table(tables, keys[1][0])

    def tags():
        return (client.get(url, **hx)["ETag"], client.get(player, HTTP_ACCEPT_ENCODING="gzip")["ETag"])

    tag, ptag = None, None

    def poll_one():
        response = client.get(url, HTTP_IF_NONE_MATCH=tag, **hx)
        assert response.status_code == 304, response.status_code

    def player_one():
        response = client.get(player, HTTP_IF_NONE_MATCH=ptag, HTTP_ACCEPT_ENCODING="gzip")
        assert response.status_code == 304, response.status_code

    def player_changed():  # a phone whose tag is out of date: the whole page rendered
        response = client.get(player, HTTP_IF_NONE_MATCH='"changed"', HTTP_ACCEPT_ENCODING="gzip")
        assert response.status_code == 200, response.status_code

    def floor_poll():
        client.get("/bench/floor/poll/", HTTP_IF_NONE_MATCH='"floor"')

    collecting = {"since": 0.0, "total": 0.0}

    def collected(phase, _info) -> None:  # CPU in the garbage collector's passes
        if phase == "start":
            collecting["since"] = time.process_time()
        else:
            collecting["total"] += time.process_time() - collecting["since"]

    gc.callbacks.append(collected)
    in_gc: dict = {}

    def timed(fn, count: int) -> float:
        before_gc = collecting["total"]
        began = time.process_time()
        for _ in range(count):
            fn()
        in_gc.setdefault(fn, []).append(1e6 * (collecting["total"] - before_gc) / count)
        return 1000 * (time.process_time() - began) / count

    for _ in range(20):  # warm: imports, connections, caches
        save_one()
        floor_one()
    for _ in range(16):  # the player's table half played: his page shows its games
        save_one(tables[his_table])
    tag, ptag = tags()
    for _ in range(20):
        poll_one()
        player_one()
        floor_poll()

    tag, ptag = tags()
    if args.gc == "frozen":  # the heap frozen out of the collector's sight (gunicorn's entry no longer does it)
        gc.collect()
        gc.freeze()
    if args.profile:
        fn = {
            "save": save_one,
            "poll": poll_one,
            "player": player_one,
            "player_changed": player_changed,
            "floor": floor_one,
        }[args.profile]
        profiler = cProfile.Profile(time.process_time)  # CPU, not waiting for the database
        profiler.enable()
        for _ in range(args.batch * 4):
            fn()
        profiler.disable()
        stats = pstats.Stats(profiler).sort_stats("cumulative")
        stats.print_stats(45)
        stats.sort_stats("tottime").print_stats(30)
        if args.dump:
            stats.dump_stats(args.dump)
        return

    print(f"{args.pairs} pairs × {args.batch}, in-process, full middleware; {load()}")
    for name, a, b in (
        ("standings 304", poll_one, floor_poll),
        ("player 304", player_one, floor_poll),
        ("player changed", player_changed, floor_poll),
        ("save", save_one, floor_one),
    ):  # the saves last: they change what the polls show
        cost_a, cost_b = [], []
        for pair in range(args.pairs):
            halves = [(a, cost_a), (b, cost_b)]
            for fn, costs in halves if pair % 2 == 0 else halves[::-1]:
                costs.append(timed(fn, args.batch))
        ratios = [x / y for x, y in zip(cost_a, cost_b, strict=True)]
        print(
            f"  {name}: {statistics.median(cost_a):.2f} ms CPU (range {min(cost_a):.2f}–{max(cost_a):.2f}); "
            f"floor {statistics.median(cost_b):.2f} ({min(cost_b):.2f}–{max(cost_b):.2f}); "
            f"ratio {statistics.median(ratios):.2f}× ({min(ratios):.2f}–{max(ratios):.2f}); {load()}"
        )
        print(
            f"    in the garbage collector: {statistics.median(in_gc[a]):.0f} µs per request "
            f"(floor {statistics.median(in_gc[b]):.0f}); heap {args.gc}"
        )
    from django.core.cache import cache

    cache.clear()  # the queued standings tasks and counters of this run (its own Redis db)


def served(args) -> None:
    """The same A/B pairs over HTTP against gunicorn as bench/evening.py starts it (sync workers, DEBUG off),
    web CPU from /proc (the gunicorn tree): what a request costs with the server's own share."""
    import json
    import secrets

    from bench.evening import Client, wait_for_web
    from bench.hand_entry import cpu_seconds, free_port, start, stop

    os.environ["DATABASE_URL"] = args.database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "schafkopfrennen.settings"
    for name in ("CELERY_BROKER_URL", "REDIS_CACHE_URL"):
        os.environ.pop(name, None)
    import django

    django.setup()
    from tournaments.simulation import random_hand

    tables, keys = open_tables()
    port = args.port or free_port()
    env = {
        **os.environ,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
        "CELERY_BROKER_URL": args.redis_url,
        "REDIS_CACHE_URL": args.redis_url,
        "DJANGO_SETTINGS_MODULE": "bench.evening_settings",
        "DJANGO_TABLE_READ_RATE": "100000/min",
        "DJANGO_TABLE_WRITE_RATE": "100000/min",
    }
    web = start(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "bench.evening_site_wsgi",
            "--preload",
            "--workers",
            str(args.workers),
            "--bind",
            f"127.0.0.1:{port}",
            "--log-level",
            "warning",
        ],
        env,
    )
    rng = random.Random(args.seed)
    client = Client(port)
    turn = 0
    try:
        wait_for_web(client)

        def save_one(table=None):
            nonlocal turn
            if table is None:
                table = tables[turn % len(tables)]
                turn += 1
            record = random_hand(rng, table_size=table[1], dealer=table[3], tout_allowed=False)
            body = json.dumps({**record, "number": table[2], "client_id": str(uuid.uuid4())}).encode()
            status, data, _h, _s = client.request(
                "POST", f"/api/tisch/{table[0]}/hands/", body, {"Content-Type": "application/json"}
            )
            assert status == 201, (status, data)
            stored = json.loads(data)
            table[2] = stored["number"] + 1
            table[3] = stored["dealer"] % table[1] + 1

        def floor_one():
            client.request("POST", "/bench/floor/insert/", f"floor-{uuid.uuid4()}".encode())

        url = f"/t/abend/rangliste/?ich={keys[0][1]}"
        hx = {"HX-Request": "true", "Accept-Encoding": "gzip"}
        player = f"/s/{keys[1][0]}/"
        tags = {}

        def poll_one():
            status = client.request("GET", url, headers={**hx, "If-None-Match": tags["s"]})[0]
            assert status == 304, status

        def player_one():
            status = client.request("GET", player, headers={"Accept-Encoding": "gzip", "If-None-Match": tags["p"]})[0]
            assert status == 304, status

        def player_changed():
            status = client.request("GET", player, headers={"Accept-Encoding": "gzip", "If-None-Match": '"changed"'})[0]
            assert status == 200, status

        def floor_poll():
            client.request("GET", "/bench/floor/poll/", headers={"If-None-Match": '"floor"'})

        for _ in range(3 * args.workers):
            save_one()
            floor_one()
        for _ in range(16):  # the player's table half played: his page shows its games
            save_one(tables[player_table(tables, keys[1][0])])
        tags["s"] = client.request("GET", url, headers=hx)[2]["ETag"]
        tags["p"] = client.request("GET", player, headers={"Accept-Encoding": "gzip"})[2]["ETag"]

        from django.db import connection

        def db_pids() -> list[int]:
            """The PostgreSQL backends serving this database (the web workers' connections, kept 60 s)."""
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
                return [pid for (pid,) in cursor.fetchall()]

        def timed(fn, count):
            pids = db_pids()
            before = cpu_seconds([web.pid]), cpu_seconds(pids)
            for _ in range(count):
                fn()
            pids_after = db_pids()
            db = cpu_seconds(pids_after) - (before[1] if pids_after == pids else cpu_seconds(pids_after))
            return 1000 * (cpu_seconds([web.pid]) - before[0]) / count, 1000 * db / count

        print(
            f"{args.pairs} pairs × {args.batch}, gunicorn ({args.workers} sync workers), web CPU from /proc "
            f"(and the database's backends for this database); {load()}"
        )
        for name, a, b in (
            ("standings 304", poll_one, floor_poll),
            ("player 304", player_one, floor_poll),
            ("player changed", player_changed, floor_poll),
            ("save", save_one, floor_one),
        ):
            cost_a, cost_b, db_a, db_b = [], [], [], []
            for pair in range(args.pairs):
                halves = [(a, cost_a, db_a), (b, cost_b, db_b)]
                for fn, costs, dbs in halves if pair % 2 == 0 else halves[::-1]:
                    web_ms, db_ms = timed(fn, args.batch)
                    costs.append(web_ms)
                    dbs.append(db_ms)
            ratios = [x / y for x, y in zip(cost_a, cost_b, strict=True) if y > 0]
            print(
                f"  {name}: {statistics.median(cost_a):.2f} ms CPU (range {min(cost_a):.2f}–{max(cost_a):.2f}); "
                f"floor {statistics.median(cost_b):.2f} ({min(cost_b):.2f}–{max(cost_b):.2f}); "
                f"ratio {statistics.median(ratios):.2f}× ({min(ratios):.2f}–{max(ratios):.2f}); "
                f"PostgreSQL {statistics.median(db_a):.2f} vs floor {statistics.median(db_b):.2f} ms; {load()}",
                flush=True,
            )
    finally:
        stop(web)
        import redis

        redis.Redis.from_url(args.redis_url).flushdb()  # the queued standings tasks of this run (its own db)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("setup", "measure", "served"))
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/11")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--pairs", type=int, default=7)
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--workers", type=int, default=3, help="gunicorn sync workers (served)")
    parser.add_argument(
        "--gc",
        choices=("frozen", "plain"),
        default="plain",
        help="measure: as gunicorn's entry leaves the heap (plain), or frozen out of the collector's sight",
    )
    parser.add_argument("--port", type=int, default=None)
    parser.add_argument("--dump", help="write the profile's stats to this file (pstats)")
    parser.add_argument("--profile", choices=("save", "poll", "player", "player_changed", "floor"))
    args = parser.parse_args()
    if args.seed is None:
        args.seed = int(time.time())
    {"setup": setup, "measure": measure, "served": served}[args.mode](args)


if __name__ == "__main__":
    main()
