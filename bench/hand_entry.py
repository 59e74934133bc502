"""Hand entry under load: simulated tablets against gunicorn and PostgreSQL (run by hand, not a test).

    .venv/bin/python bench/hand_entry.py                  # 250 tablets, 70 s, standings via Redis + a worker
    .venv/bin/python bench/hand_entry.py --duration 140 --celery eager --pairs 7 \
        --database-url postgres://postgres@127.0.0.1:5432/skr_bench --redis-url redis://127.0.0.1:6379/14 --port 8142

What it does: drops and creates the PostgreSQL database ``schafkopfrennen_bench``, migrates it,
sets up a 1,000-player tournament whose first round is drawn and published (250 tables), starts
gunicorn on a free port of 127.0.0.1 (DEBUG off) and, with ``--celery worker`` (the production set-up
of README.md), a Celery worker with Redis as broker and cache. Then every tablet (one thread per
table) reads its sheet once and enters a plausible game (tournaments.simulation.random_hand, with
the right dealer) every 2–4 s until the time is up, and the latency of every POST is measured from
connect to the last byte of the answer. It prints throughput, p50/p95/p99, errors, and checks that
the database holds exactly the games that were answered with 201. Only 127.0.0.1 is ever contacted.

The floor runs in the same run: the entry time is cut into ``--pairs`` pairs of slices (A B, B A,
…); in an A slice the tablets post their games to the table API, in a B slice the same requests go to
a bare Django view inserting one row (``bench/evening_site.py``). Per slice: p50/p95 latency and web
CPU per request; printed as median and range over the pairs, with their ratio and the load.
Database, Redis (broker and cache, one db) and port from the options or the environment
(HAND_ENTRY_DATABASE_URL, HAND_ENTRY_REDIS_URL, HAND_ENTRY_PORT).
"""

import argparse
import http.client
import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
HOST = "127.0.0.1"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--tablets", type=int, default=250, help="tablets (tables) entering games at once")
    parser.add_argument("--duration", type=float, default=70.0, help="seconds of entry (all slices)")
    parser.add_argument(
        "--pairs", type=int, default=7, help="A/B pairs of slices: table API vs bare insert (at least 7)"
    )
    parser.add_argument(
        "--interval",
        type=float,
        nargs=2,
        default=(2.0, 4.0),
        metavar=("MIN", "MAX"),
        help="seconds between two games of one tablet (uniform)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=3,
        help="gunicorn sync worker processes (on 2 cores 3 measured best: 2, 4, 5 and gthread were slower)",
    )
    parser.add_argument("--threads", type=int, default=1, help="threads per gunicorn worker (gthread if > 1)")
    parser.add_argument(
        "--celery",
        choices=("worker", "eager"),
        default="worker",
        help="worker: standings recompute in a Celery worker via Redis (production); "
        "eager: in the web process after each commit (the embedded default)",
    )
    parser.add_argument(
        "--redis-url",
        default=os.environ.get("HAND_ENTRY_REDIS_URL", "redis://127.0.0.1:6379/14"),
        help="Redis for --celery worker: broker and cache (one db)",
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get("HAND_ENTRY_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/schafkopfrennen_bench"),
        help="PostgreSQL database this bench drops and creates",
    )
    parser.add_argument("--port", type=int, default=int(os.environ.get("HAND_ENTRY_PORT", "0")) or None)
    parser.add_argument("--seed", type=int, default=20261121)
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    args = parser.parse_args()
    if args.pairs < 7:
        parser.error("--pairs: at least 7")
    args.server, args.database = args.database_url.rsplit("/", 1)
    return args


# --- set-up -------------------------------------------------------------------------------------


def recreate_database(server: str, name: str) -> None:
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(server: str, name: str) -> None:
    import psycopg

    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def set_up_tournament(database_url: str, players: int, seed: int) -> list[tuple[str, int, int]]:
    """Migrate, register the players, draw and publish round 1; (entry key, size, games) per table."""
    os.environ["DATABASE_URL"] = database_url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "schafkopfrennen.settings")
    os.environ.pop("CELERY_BROKER_URL", None)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connections

    from tournaments.selectors.tables import tournament_games_required
    from tournaments.services.rounds import round_draw, round_publish
    from tournaments.services.simulation import tournament_simulate_setup

    call_command("migrate", verbosity=0)
    tournament = tournament_simulate_setup(slug="bench", players=players, rounds=2, games=32, seed=seed)
    (rnd,) = round_draw(tournament=tournament, seed=seed)
    round_publish(round=rnd)
    tables = [
        (t.entry_key, t.size, tournament_games_required(tournament, t.size)) for t in rnd.tables.order_by("number")
    ]
    connections.close_all()
    return tables


def require_redis(url: str) -> None:
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        raise SystemExit(f"Redis at {url} does not answer ({exc}): start redis-server, or use --celery eager") from None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def wait_until_up(port: int, path: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            status, _ = request(port, "GET", path)
            if status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"gunicorn did not answer on {HOST}:{port} within {timeout:.0f} s")


def start(command: list[str], env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


# --- the tablets --------------------------------------------------------------------------------


def warm_up(port: int, keys: list[str], count: int) -> None:
    """Some sheet reads in parallel first, so that every worker has loaded what it loads lazily."""
    threads = [
        threading.Thread(target=request, args=(port, "GET", f"/api/tisch/{keys[i % len(keys)]}/")) for i in range(count)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def request(port: int, method: str, path: str, body: dict | None = None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection(HOST, port, timeout=30)
    try:
        payload = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json", "User-Agent": "bench-tablet"} if payload else {}
        conn.request(method, path, body=payload, headers=headers)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


class Results:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.post_latencies: list[float] = []
        self.get_latencies: list[float] = []
        self.statuses: Counter = Counter()
        self.failures: Counter = Counter()
        self.created = 0
        self.by_slice: dict[int, list[float]] = {}

    def post(self, latency: float, status: int, slice_: int | None = None) -> None:
        with self.lock:
            self.post_latencies.append(latency)
            self.statuses[status] += 1
            self.created += status == 201
            if slice_ is not None:
                self.by_slice.setdefault(slice_, []).append(latency)


class Slices:
    """Which half of which pair the clock is in: pair k is A B when k is even, B A when odd."""

    def __init__(self, start: float, duration: float, pairs: int) -> None:
        self.start, self.length, self.count = start, duration / (2 * pairs), 2 * pairs

    def index(self, now: float) -> int | None:
        i = int((now - self.start) // self.length)
        return i if 0 <= i < self.count else None

    @staticmethod
    def is_floor(i: int) -> bool:
        pair, half = divmod(i, 2)
        return half == (0 if pair % 2 else 1)


def tablet(
    port: int,
    key: str,
    size: int,
    games: int,
    rng: random.Random,
    start_at: float,
    end_at: float,
    interval: tuple[float, float],
    results: Results,
    slices: Slices,
) -> None:
    from tournaments.simulation import random_hand

    time.sleep(max(0.0, start_at - time.monotonic()))
    began = time.perf_counter()
    status, body = request(port, "GET", f"/api/tisch/{key}/")
    with results.lock:
        results.get_latencies.append(time.perf_counter() - began)
    if status != 200:
        with results.lock:
            results.failures[f"GET {status}"] += 1
        return
    sheet = json.loads(body)
    number, dealer = sheet["next_number"], sheet["next_dealer"]
    while number is not None and number <= games and time.monotonic() < end_at:
        record = random_hand(rng, table_size=size, dealer=dealer)
        game = {**record, "number": number, "client_id": str(uuid.UUID(int=rng.getrandbits(128), version=4))}
        slice_ = slices.index(time.monotonic())
        if slice_ is not None and slices.is_floor(slice_):  # the floor: the same request to a bare insert
            began = time.perf_counter()
            try:
                body = {"client_id": game["client_id"], **game}  # the floor stores the first 60 characters: unique
                status, _answer = request(port, "POST", "/bench/floor/insert/", body)
            except OSError as exc:
                with results.lock:
                    results.failures[f"floor {type(exc).__name__}"] += 1
            else:
                with results.lock:
                    results.by_slice.setdefault(slice_, []).append(time.perf_counter() - began)
            time.sleep(rng.uniform(*interval))
            continue
        began = time.perf_counter()
        try:
            status, answer = request(port, "POST", f"/api/tisch/{key}/hands/", game)
        except OSError as exc:
            with results.lock:
                results.failures[type(exc).__name__] += 1
            status = None
        else:
            results.post(time.perf_counter() - began, status, slice_)
            if status == 201:
                stored = json.loads(answer)
                number = stored["number"] + 1
                dealer = stored["dealer"] % size + 1  # random_hand never throws a game in
            elif status != 200:
                with results.lock:
                    results.failures[f"POST {status}: {answer[:120].decode(errors='replace')}"] += 1
        time.sleep(rng.uniform(*interval))


def cpu_seconds(root_pids: list[int]) -> float:
    """User + system CPU seconds of these processes and all their descendants (from /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats[int(entry.name)] = (int(fields[1]), int(fields[11]) + int(fields[12]))  # ppid, utime + stime
    total, todo, seen = 0, list(root_pids), set()
    while todo:
        pid = todo.pop()
        if pid in seen or pid not in stats:
            continue
        seen.add(pid)
        total += stats[pid][1]
        todo += [child for child, (ppid, _) in stats.items() if ppid == pid]
    return total / ticks


def postgres_ticks(database: str) -> dict[int, int]:
    """CPU clock ticks of the PostgreSQL backends serving ``database`` now."""
    ticks = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if f" {database} " in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                    ticks[int(entry.name)] = int(fields[11]) + int(fields[12])
            except OSError:
                continue
    return ticks


def postgres_cpu_since(database: str, before: dict[int, int]) -> float:
    """CPU seconds the backends of ``database`` used since ``before`` (backends that ended meanwhile are missed)."""
    now = postgres_ticks(database)
    return sum(max(0, ticks - before.get(pid, 0)) for pid, ticks in now.items()) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def main() -> None:
    args = parse_args()
    database_url = f"{args.server}/{args.database}"
    load_before = os.getloadavg()[0]
    if args.celery == "worker":
        require_redis(args.redis_url)
    print(f"setting up {args.database}: {args.players} players, round 1 drawn and published …", flush=True)
    began = time.perf_counter()
    recreate_database(args.server, args.database)
    tables = set_up_tournament(database_url, args.players, args.seed)[: args.tablets]
    print(f"  {len(tables)} tables ready in {time.perf_counter() - began:.1f} s", flush=True)

    port = args.port or free_port()
    env = {
        **os.environ,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": database_url,
        "DJANGO_ALLOWED_HOSTS": HOST,
        "DJANGO_LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
        "DJANGO_SETTINGS_MODULE": "bench.evening_settings",  # + the floor view
    }
    env.pop("CELERY_BROKER_URL", None)
    env.pop("REDIS_CACHE_URL", None)
    if args.celery == "worker":
        env.update(CELERY_BROKER_URL=args.redis_url, REDIS_CACHE_URL=args.redis_url)
    bin_dir = Path(sys.executable).parent
    gunicorn = [
        str(bin_dir / "gunicorn"),
        "bench.evening_site_wsgi",
        "--preload",
        "--workers",
        str(args.workers),
        "--bind",
        f"{HOST}:{port}",
        "--log-level",
        "warning",
    ]
    if args.threads > 1:
        gunicorn += ["--worker-class", "gthread", "--threads", str(args.threads)]
    processes = [start(gunicorn, env)]
    if args.celery == "worker":
        processes.append(
            start(
                [
                    str(bin_dir / "celery"),
                    "-A",
                    "schafkopfrennen",
                    "worker",
                    "--loglevel=WARNING",
                    "--concurrency=1",
                    "--without-heartbeat",
                    "--without-gossip",
                    "--without-mingle",
                ],
                env,
            )
        )
    try:
        wait_until_up(port, f"/api/tisch/{tables[0][0]}/")
        print(
            f"gunicorn on {HOST}:{port}: {args.workers} workers × {args.threads} threads; standings: "
            f"{args.celery}; {len(tables)} tablets, one game every {args.interval[0]:g}–{args.interval[1]:g} s, "
            f"{args.duration:g} s",
            flush=True,
        )
        warm_up(port, [key for key, _, _ in tables], args.workers * max(1, args.threads) * 4)
        results = Results()
        rng = random.Random(args.seed)
        now = time.monotonic()
        end_at = now + args.interval[1] + args.duration
        slices = Slices(now + args.interval[1], args.duration, args.pairs)  # after every tablet has started
        threads = [
            threading.Thread(
                target=tablet,
                daemon=True,
                args=(
                    port,
                    key,
                    size,
                    games,
                    random.Random(rng.getrandbits(64)),
                    now + rng.uniform(0, args.interval[1]),
                    end_at,
                    tuple(args.interval),
                    results,
                    slices,
                ),
            )
            for key, size, games in tables
        ]
        before = {
            "web": cpu_seconds([processes[0].pid]),
            "worker": cpu_seconds([p.pid for p in processes[1:]]),
            "postgres": postgres_ticks(args.database),
            "tablets": time.process_time(),
        }
        started = time.monotonic()
        slice_cpu: dict[int, float] = {}

        def sample_cpu() -> None:  # web CPU at every slice boundary
            last = None
            while time.monotonic() < end_at + 1:
                i = slices.index(time.monotonic())
                if i != last and i is not None:
                    slice_cpu[i] = cpu_seconds([processes[0].pid])
                    last = i
                time.sleep(0.02)
            slice_cpu[slices.count] = cpu_seconds([processes[0].pid])

        sampler = threading.Thread(target=sample_cpu, daemon=True)
        sampler.start()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=args.duration + 120)
        elapsed = time.monotonic() - started
        cpu = {
            "web": cpu_seconds([processes[0].pid]) - before["web"],
            "worker": cpu_seconds([p.pid for p in processes[1:]]) - before["worker"],
            "postgres": postgres_cpu_since(args.database, before["postgres"]),
            "tablets": time.process_time() - before["tablets"],
        }
        sampler.join(timeout=10)
    finally:
        for process in reversed(processes):
            stop(process)

    report(results, elapsed, args)
    report_pairs(results, slices, slice_cpu, load_before)
    print(
        "CPU seconds during entry: "
        + ", ".join(f"{name} {value:.1f}" for name, value in cpu.items())
        + f" (of {os.cpu_count() * elapsed:.0f} on {os.cpu_count()} cores; load average {load_before:.1f} before, "
        f"{os.getloadavg()[0]:.1f} at the end: other processes share the machine)"
    )
    if results.created:
        print(
            f"  per stored game: web {1000 * cpu['web'] / results.created:.1f} ms, "
            f"postgres {1000 * cpu['postgres'] / results.created:.1f} ms"
        )
    check_database(results)
    if not args.keep:
        drop_database(args.server, args.database)


def report(results: Results, elapsed: float, args: argparse.Namespace) -> None:
    posts = results.post_latencies
    ms = [1000 * x for x in posts]
    print()
    print(
        f"POSTs: {len(posts)} in {elapsed:.1f} s = {len(posts) / elapsed:.1f}/s "
        f"({results.created} stored); statuses {dict(sorted(results.statuses.items()))}"
    )
    if ms:
        print(
            f"save latency ms: p50 {percentile(ms, 50):.1f}  p95 {percentile(ms, 95):.1f}  "
            f"p99 {percentile(ms, 99):.1f}  max {max(ms):.1f}  mean {statistics.fmean(ms):.1f}"
        )
    gets = [1000 * x for x in results.get_latencies]
    if gets:
        print(
            f"sheet GET latency ms ({len(gets)}): p50 {percentile(gets, 50):.1f}  p95 {percentile(gets, 95):.1f}  "
            f"max {max(gets):.1f}"
        )
    errors = sum(results.failures.values())
    print(f"errors: {errors}" + "".join(f"\n  {count} × {kind}" for kind, count in results.failures.most_common()))
    if ms:
        verdict = "met" if percentile(ms, 95) < 100 else "MISSED"
        print(f"target p95 < 100 ms: {verdict}")


def report_pairs(results: Results, slices: Slices, slice_cpu: dict[int, float], load_before: float) -> None:
    """A (table API) against B (bare insert) slice by slice: p50, p95 and web CPU per request."""
    from bench._floor import load, spread

    halves: dict[bool, dict[str, list[float]]] = {
        False: {"p50": [], "p95": [], "cpu": []},
        True: {"p50": [], "p95": [], "cpu": []},
    }
    for i in range(slices.count):
        got = [1000 * x for x in results.by_slice.get(i, [])]
        if not got or i + 1 not in slice_cpu or i not in slice_cpu:
            continue
        half = halves[slices.is_floor(i)]
        half["p50"].append(percentile(got, 50))
        half["p95"].append(percentile(got, 95))
        half["cpu"].append(1000 * (slice_cpu[i + 1] - slice_cpu[i]) / len(got))
    a, b = halves[False], halves[True]
    print(f"\nA/B in {slices.count // 2} pairs of {slices.length:.1f} s slices (A: table API, B: bare insert view):")
    for name in ("p50", "p95", "cpu"):
        unit = "ms CPU per request" if name == "cpu" else f"ms latency {name}"
        ratios = [x / y for x, y in zip(a[name], b[name]) if y > 0]
        print(f"  {unit}: A {spread(a[name])}; B {spread(b[name])}; ratio {spread(ratios, '×', 2)}")
    print(f"  load {load_before:.2f} before; {load()} after")


def check_database(results: Results) -> None:
    from tournaments.models import Hand, HandRevision

    stored, revisions = Hand.objects.count(), HandRevision.objects.filter(action="create").count()
    ok = stored == results.created == revisions
    print(f"database: {stored} games, {revisions} create revisions — {'consistent' if ok else 'INCONSISTENT'}")
    if not ok:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
