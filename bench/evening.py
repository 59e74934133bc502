"""The whole evening on this machine: tablets entering games and phones polling, against floors in the same run.

    .venv/bin/python bench/evening.py                                  # 1,000 players, 250 tablets, 1,000 phones
    .venv/bin/python bench/evening.py --seconds 30 --clock 30 --database-url postgres://postgres@127.0.0.1:5432/skr_14_evening \\
        --redis-url redis://127.0.0.1:6379/4 --port 8140

Set-up: drops and creates the PostgreSQL database of ``--database-url`` (env ``EVENING_DATABASE_URL``),
migrates it, registers the players and publishes round 1. Starts gunicorn (DEBUG off, ``--workers``
sync workers, on ``--port`` or env ``EVENING_PORT``, 127.0.0.1 only) with ``bench/evening_site.py``
(the project plus two floor views), and one Celery worker; both use Redis at ``--redis-url`` (env
``EVENING_REDIS_URL``) as broker and cache. Nothing else is contacted. A second gunicorn of
``--tablet-workers`` workers (2; on the next port) serves the tablets' saves of 3. and 5., as the deployment
of README.md routes ``/api/tisch/`` to a pool of its own: a save never waits in the phones' queue. Its
CPU counts with the web's. ``--tablet-workers 0``: one pool for all, as before 2026-11-25.

Then, in this order:
1. save A/B: ``--pairs`` pairs, interleaved, of ``--batch`` games entered as the table page enters them
   (A: the form static/js/entry.js posts to ``tisch/<key>/spiel/``, answered with the page's new parts)
   and ``--batch`` requests to a bare Django view inserting one row (B, the floor): web CPU (gunicorn
   and its workers, from /proc) and latency per request;
2. poll A/B: an unchanged standings poll (A, with its ETag: 304) against a bare view answering 304
   (B), and a changed poll (the list rendered from the fragment cache, 200);
3. last game → visible after a quiet moment: one game after two quiet seconds, time until the
   snapshot reflects it, ``--pairs`` times;
4. the phones alone, ``--phone-seconds`` long: every phone has loaded its page once (not counted) and
   polls every ``--poll`` s with its ETag while no game is entered (between two rounds): the share of
   one core the web workers and PostgreSQL's backends for this database use for 1,000 phones, polls/s,
   304 share, CPU per poll;
5. the evening, ``--seconds`` long: every table's page is open on two devices (what static/js/entry.js
   sends: both poll the page with its ETag, 3 s after a change and up to 15 s apart while nothing
   changes; one enters a game every 60–120 s divided by ``--clock``, with two previews before the save);
   ``--api``: one tablet a table saving through the table API instead. Every phone polls every ``--poll``
   s (its standings page with its own row, or its player page, each with the ETag it got last); prints
   saves/s, save p50/p95/p99, poll p50/p95 and the 304 share (phones, table pages), the CPU share of one
   core of the web workers, PostgreSQL and the Celery worker, and the standings lag of every fifth game.
   ``--clock 1`` is the real evening (the table pages' polls are never compressed).

Every figure comes with the load average (the machine may be shared: say so next to any figure).
"""

import argparse
import os
import random
import secrets
import statistics
import sys
import threading
import time
import uuid
from http.client import HTTPConnection
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.hand_entry import cpu_seconds, drop_database, percentile, recreate_database, start, stop  # noqa: E402

HOST = "127.0.0.1"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--tablets", type=int, default=250)
    parser.add_argument("--phones", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the evening phase")
    parser.add_argument("--phone-seconds", type=float, default=40.0, help="length of the phones-alone phase")
    parser.add_argument("--clock", type=float, default=20.0, help="time compression of game entry (60–120 s / clock)")
    parser.add_argument("--poll", type=float, default=20.0, help="seconds between two polls of one phone")
    parser.add_argument("--pairs", type=int, default=7, help="A/B pairs (at least 7)")
    parser.add_argument("--batch", type=int, default=30, help="requests per half of a pair")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn sync workers")
    parser.add_argument(
        "--tablet-workers",
        type=int,
        default=2,
        help="sync workers of a second gunicorn that serves only the tablets' saves, as the "
        "deployment in README.md routes /api/tisch/ to a pool of its own; 0: the tablets "
        "share the phones' pool",
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get("EVENING_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/schafkopfrennen_evening"),
    )
    parser.add_argument("--redis-url", default=os.environ.get("EVENING_REDIS_URL", "redis://127.0.0.1:6379/4"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("EVENING_PORT", "0")) or None)
    parser.add_argument("--seed", type=int, default=20261124)
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument("--evening-only", action="store_true", help="skip 1.–4.: only the evening (5.)")
    parser.add_argument(
        "--api",
        action="store_true",
        help="the tablets save through the table API (one device a table, no page polls) instead of "
        "the table page's own requests (two devices a table: previews, the save, the page's polls)",
    )
    args = parser.parse_args()
    if args.pairs < 7:
        parser.error("--pairs: at least 7")
    return args


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f}/{five:.2f} on {os.cpu_count()} cores"


class Client:
    """One keep-alive connection per thread; (status, body, headers, seconds)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn: HTTPConnection | None = None

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = HTTPConnection(HOST, self.port, timeout=60)
            began = time.perf_counter()
            try:
                self.conn.request(method, path, body=body, headers=headers or {})
                response = self.conn.getresponse()
                data = response.read()
            except (OSError, ConnectionError):
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
                continue
            return response.status, data, dict(response.getheaders()), time.perf_counter() - began
        raise AssertionError


def set_up(database_url: str, players: int, seed: int):
    os.environ["DATABASE_URL"] = database_url
    os.environ["DJANGO_SETTINGS_MODULE"] = "schafkopfrennen.settings"
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.pop("REDIS_CACHE_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    from tournaments.services.prizes import tournament_standings_publish
    from tournaments.services.rounds import round_draw, round_publish
    from tournaments.services.simulation import tournament_simulate_setup

    call_command("migrate", verbosity=0)
    tournament = tournament_simulate_setup(slug="abend", players=players, rounds=3, games=32, seed=seed)
    tournament_standings_publish(tournament=tournament, public=True)
    (rnd,) = round_draw(tournament=tournament, seed=seed)
    round_publish(round=rnd)
    from django.db import connection

    with connection.cursor() as cursor:  # statistics as autovacuum has them a minute after the draw: every
        cursor.execute("ANALYZE")  # run plans the same statements (without, it depended on when autovacuum came)
    tables = [[t.entry_key, t.size, 1, 1, 0] for t in rnd.tables.order_by("number")]  # key, size, next, dealer, thrown
    phones = list(tournament.registrations.values_list("key", "start_number"))
    return tournament.pk, tables, phones


def game_body(rng: random.Random, table: list) -> bytes:
    import json

    from tournaments.simulation import random_hand

    record = random_hand(rng, table_size=table[1], dealer=table[3], tout_allowed=False)
    return json.dumps({**record, "number": table[2], "client_id": str(uuid.uuid4())}).encode()


def save(client: Client, rng: random.Random, table: list, lock: threading.Lock):
    import json

    with lock:
        body = game_body(rng, table)
    status, data, _headers, seconds = client.request(
        "POST", f"/api/tisch/{table[0]}/hands/", body, {"Content-Type": "application/json"}
    )
    if status == 201:
        stored = json.loads(data)
        with lock:
            table[2] = stored["number"] + 1
            table[3] = stored["dealer"] % table[1] + 1
        return status, seconds, stored["id"]
    return status, seconds, None


POLL_MS, POLL_MAX_MS = 3000, 15000  # the table page's poll (static/js/entry.js): 3 s after a change, ×1.5 up to 15 s


class Device:
    """A phone or tablet with a table's page open (what static/js/entry.js does): its session-less cookies (the
    CSRF cookie), the page's ETag, and when it polls next."""

    def __init__(self, port: int, key: str) -> None:
        self.client, self.key, self.cookie, self.tag = Client(port), key, "", ""
        self.delay, self.next_poll = POLL_MS / 1000, 0.0

    def open(self) -> None:
        status, _data, headers, _s = self.client.request("GET", f"/tisch/{self.key}/", headers={"Accept": "text/html"})
        cookie = headers.get("Set-Cookie", "")
        if "csrftoken=" in cookie:
            self.cookie = cookie.split("csrftoken=", 1)[1].split(";", 1)[0]
        self.tag = headers.get("ETag", "")

    def post(self, path: str, fields: dict) -> tuple[int, bytes, float]:
        from urllib.parse import urlencode

        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "Accept": "application/json",
            "X-CSRFToken": self.cookie,
            "Cookie": f"csrftoken={self.cookie}",
        }
        status, data, _h, seconds = self.client.request(
            "POST", f"/tisch/{self.key}/{path}", urlencode(fields).encode(), headers
        )
        return status, data, seconds

    def poll(self) -> tuple[int, float]:
        """The page's conditional GET; the next one 3 s after a change, else later (as entry.js backs off)."""
        headers = {"Accept": "text/html", "Cookie": f"csrftoken={self.cookie}"}
        if self.tag:
            headers["If-None-Match"] = self.tag
        status, _data, got, seconds = self.client.request("GET", f"/tisch/{self.key}/", headers=headers)
        if status == 200:
            self.tag = got.get("ETag", self.tag)
        self.lively() if status == 200 else self.slower()
        return status, seconds

    def lively(self) -> None:
        self.delay = POLL_MS / 1000
        self.next_poll = time.monotonic() + self.delay

    def slower(self) -> None:
        self.delay = min(self.delay * 1.5, POLL_MAX_MS / 1000)
        self.next_poll = time.monotonic() + self.delay


def game_fields(rng: random.Random, table: list) -> dict:
    """A Rufspiel as the page's form sends it, for the table's next game (``table``: key, size, next, dealer)."""
    size, dealer = table[1], table[3]
    active = [seat for seat in range(1, size + 1) if not (size == 5 and seat == dealer)]
    declarer, partner = rng.sample(active, 2)
    return {
        "number": str(table[2]),
        "client_id": str(uuid.uuid4()),
        "device": "bench",
        "contract": "rufspiel",
        "called": rng.choice(["eichel", "gras", "schellen"]),
        "declarer": str(declarer),
        "partner": str(partner),
        "augen": str(rng.randint(0, 120)),
        "laufende": "0",
        "kontra": "0",
    }


def page_save(device: Device, rng: random.Random, table: list, lock: threading.Lock, previews: int = 2):
    """A game as the table's page enters it: ``previews`` previews while the form is filled in (htmx), then the
    save, whose answer carries the page's new parts and ETag. (status, seconds of the save, the game's number)."""
    import json

    with lock:
        fields = game_fields(rng, table)
    for n in range(previews):  # the form half filled in, then whole
        shown = fields if n == previews - 1 else {k: v for k, v in fields.items() if k != "augen"}
        device.post("vorschau/", shown)
    status, data, seconds = device.post("spiel/", fields)
    if status == 200:
        answer = json.loads(data)
        device.tag = answer.get("etag") or device.tag
        device.lively()
        with lock:
            table[2] += 1
            table[3] = table[3] % table[1] + 1
        return status, seconds, int(fields["number"])
    return status, seconds, None


def hand_id_of(key: str, number: int) -> int | None:
    from tournaments.models import Hand

    return Hand.objects.filter(table__entry_key=key, number=number).values_list("id", flat=True).first()


def revision_of(hand_id: int) -> int:
    from tournaments.models import HandRevision

    return HandRevision.objects.filter(hand_id=hand_id).order_by("-id").values_list("id", flat=True).first() or 0


def visible_after(tournament_id: int, revision: int, since: float, timeout: float = 30.0) -> float | None:
    from scoring.models import StandingsSnapshot

    while time.perf_counter() - since < timeout:
        seen = StandingsSnapshot.objects.filter(tournament_id=tournament_id).values_list("revision", flat=True).first()
        if seen is not None and seen >= revision:
            return time.perf_counter() - since
        time.sleep(0.005)
    return None


def summary(values: list[float], unit: str = "ms", scale: float = 1000.0, digits: int = 1) -> str:
    if not values:
        return "–"
    v = [x * scale for x in values]
    return f"median {statistics.median(v):.{digits}f} {unit} (range {min(v):.{digits}f}–{max(v):.{digits}f})"


def wait_for_web(client, seconds: float = 60) -> None:
    """Until gunicorn answers (the bare poll view), at most ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if client.request("GET", "/bench/floor/poll/")[0] == 200:
                return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise SystemExit("gunicorn did not come up")
        time.sleep(0.3)


def database_cpu() -> dict[int, float]:
    """CPU seconds so far of each PostgreSQL backend serving the bench's database (the web workers' and the
    worker's connections, kept open), this process's own left out."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        pids = [pid for (pid,) in cursor.fetchall()]
    ticks, spent = os.sysconf("SC_CLK_TCK"), {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        spent[pid] = (int(fields[11]) + int(fields[12])) / ticks
    return spent


def database_cpu_since(before: dict[int, float]) -> float:
    """CPU seconds the database's backends spent since ``before`` (a backend opened meanwhile counts whole)."""
    return sum(now - before.get(pid, 0.0) for pid, now in database_cpu().items())


def cpu_ms_per_request(web_pids, fn, count: int) -> float:
    before = cpu_seconds(web_pids)
    fn()
    return 1000 * (cpu_seconds(web_pids) - before) / count


def main() -> None:
    args = parse_args()
    server, name = args.database_url.rsplit("/", 1)
    print(f"set-up: {args.players} players, database {name}, Redis {args.redis_url}; {load()}", flush=True)
    recreate_database(server, name)
    tournament_id, tables, phones = set_up(args.database_url, args.players, args.seed)
    tables = tables[: args.tablets]
    free_port = __import__("bench.hand_entry", fromlist=["free_port"]).free_port
    port = args.port or free_port()
    tablet_port = port
    while args.tablet_workers and tablet_port == port:
        tablet_port = port + 1 if args.port else free_port()
    env = {
        **os.environ,
        "DJANGO_DEBUG": "false",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": args.database_url,
        "DJANGO_ALLOWED_HOSTS": HOST,
        "DJANGO_LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
        "CELERY_BROKER_URL": args.redis_url,
        "REDIS_CACHE_URL": args.redis_url,
        "DJANGO_SETTINGS_MODULE": "bench.evening_settings",
        "DJANGO_TABLE_READ_RATE": "100000/min",
        "DJANGO_TABLE_WRITE_RATE": "100000/min",
    }
    bin_dir = Path(sys.executable).parent
    web = start(
        [
            str(bin_dir / "gunicorn"),
            "bench.evening_site_wsgi",
            "--preload",
            "--workers",
            str(args.workers),
            "--bind",
            f"{HOST}:{port}",
            "--log-level",
            "warning",
        ],
        env,
    )
    pools = [web]
    if args.tablet_workers:
        pools.append(
            start(
                [
                    str(bin_dir / "gunicorn"),
                    "bench.evening_site_wsgi",
                    "--preload",
                    "--workers",
                    str(args.tablet_workers),
                    "--bind",
                    f"{HOST}:{tablet_port}",
                    "--log-level",
                    "warning",
                ],
                env,
            )
        )
    worker = start(
        [
            str(bin_dir / "celery"),
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
        env,
    )
    lock = threading.Lock()
    rng = random.Random(args.seed)
    try:
        client = Client(port)
        wait_for_web(client)
        if args.tablet_workers:
            wait_for_web(Client(tablet_port))
            print(
                f"web: {args.workers} workers for the phones (and the floors of 1. and 2.), {args.tablet_workers} "
                f"of their own for the tablets' saves",
                flush=True,
            )
        # every table's first game, so that the standings exist and hold every table
        for table in tables:
            save(client, rng, table, lock)
        from tournaments.models import HandRevision

        newest = HandRevision.objects.order_by("-id").values_list("id", flat=True).first()
        visible_after(tournament_id, newest, time.perf_counter(), timeout=120)

        web_pids, worker_pids = [pool.pid for pool in pools], [worker.pid]
        if not args.evening_only:  # 1.–3.
            # 1. save A/B
            print(
                f"\n1. save: {args.pairs} pairs × {args.batch}: the table page's save (A: the form entry.js posts, "
                f"answered with the page's parts) vs bare insert view (B); {load()}"
            )
            devices = {table[0]: Device(port, table[0]) for table in tables}
            for device in devices.values():
                device.open()
            save_cpu, floor_cpu, save_lat, floor_lat = [], [], [], []
            turn = 0
            for pair in range(args.pairs):
                lat_a, lat_b = [], []

                def a_batch():
                    nonlocal turn
                    for _ in range(args.batch):
                        table = tables[turn % len(tables)]
                        turn += 1
                        lat_a.append(page_save(devices[table[0]], rng, table, lock, previews=0)[1])

                def b_batch():
                    for i in range(args.batch):
                        lat_b.append(
                            client.request("POST", "/bench/floor/insert/", f"{pair}-{i}-{uuid.uuid4()}".encode())[3]
                        )

                halves = [(a_batch, save_cpu, lat_a), (b_batch, floor_cpu, lat_b)]
                for fn, cpu, _lat in halves if pair % 2 == 0 else halves[::-1]:
                    cpu.append(cpu_ms_per_request(web_pids, fn, args.batch))
                save_lat.append(statistics.median(lat_a))
                floor_lat.append(statistics.median(lat_b))
                time.sleep(0.5)
            ratios = [a / b for a, b in zip(save_cpu, floor_cpu, strict=True) if b > 0]  # /proc counts in 10 ms ticks
            # two decimals: a target at the line (2.0 may be 1.96 or 2.04)
            print(
                f"   web CPU per save: {summary(save_cpu, scale=1, digits=2)}; floor {summary(floor_cpu, scale=1, digits=2)}; "
                f"ratio {summary(ratios, unit='×', scale=1, digits=2)} (target ≤ 2)"
            )
            print(f"   latency, one tablet alone: save {summary(save_lat)}; floor {summary(floor_lat)}; {load()}")

            # 2. poll A/B
            print(
                f"\n2. poll: {args.pairs} pairs × {args.batch}: unchanged standings poll (A, 304) vs bare 304 view (B); {load()}"
            )
            url = f"/t/abend/rangliste/?ich={phones[0][1]}"
            hx = {"HX-Request": "true", "Accept-Encoding": "gzip"}
            tag = client.request("GET", url, headers=hx)[2].get("ETag", "")
            poll_cpu, pfloor_cpu, changed_cpu, statuses = [], [], [], []
            for pair in range(args.pairs):

                def a_polls():
                    for _ in range(args.batch):
                        statuses.append(client.request("GET", url, headers={**hx, "If-None-Match": tag})[0])

                def b_polls():
                    for _ in range(args.batch):
                        client.request("GET", "/bench/floor/poll/", headers={"If-None-Match": '"floor"'})

                def c_polls():  # a phone whose tag is old: the list comes from the fragment cache
                    for _ in range(args.batch):
                        client.request("GET", url, headers={**hx, "If-None-Match": '"old"'})

                halves = [(a_polls, poll_cpu), (b_polls, pfloor_cpu)]
                for fn, cpu in halves if pair % 2 == 0 else halves[::-1]:
                    cpu.append(cpu_ms_per_request(web_pids, fn, args.batch))
                changed_cpu.append(cpu_ms_per_request(web_pids, c_polls, args.batch))
            share = statuses.count(304) / max(1, len(statuses))
            print(
                f"   web CPU per unchanged poll: {summary(poll_cpu, scale=1)} ({share:.0%} answered 304); "
                f"floor {summary(pfloor_cpu, scale=1)}; changed poll (200, cached list) {summary(changed_cpu, scale=1)}"
            )

            # 3. quiet lag
            print(f"\n3. last game → visible after 2 quiet seconds, {args.pairs} times; {load()}")
            quiet = []
            for i in range(args.pairs):
                time.sleep(2)
                status, seconds, hand_id = save(client, rng, tables[i % len(tables)], lock)
                since = time.perf_counter()
                if hand_id:
                    lag = visible_after(tournament_id, revision_of(hand_id), since)
                    if lag is not None:
                        quiet.append(lag)
            print(f"   {summary(quiet)} (target < 300 ms median)")

        # 4. the phones alone (between rounds), then 5. the evening; every phone has its page's tag
        people = (phones * (args.phones // max(1, len(phones)) + 1))[: args.phones]
        tags = warm_tags(port, people)
        if not args.evening_only:
            evening(
                args,
                port,
                tablet_port,
                tournament_id,
                tables,
                phones,
                lock,
                rng,
                web_pids,
                worker_pids,
                seconds=args.phone_seconds,
                tablets=False,
                tags=tags,
            )
        evening(
            args,
            port,
            tablet_port,
            tournament_id,
            tables,
            phones,
            lock,
            rng,
            web_pids,
            worker_pids,
            seconds=args.seconds,
            tablets=True,
            tags=tags,
        )
    finally:
        stop(worker)
        for pool in pools:
            stop(pool)
        from django.db import connections

        connections.close_all()
        if not args.keep:
            drop_database(server, name)


def phone_url(key: str, number: int) -> tuple[str, dict]:
    """Two in three phones poll their standings (htmx, their own row), one in three their player page."""
    if number % 3:
        return f"/t/abend/rangliste/?ich={number}", {"HX-Request": "true", "Accept-Encoding": "gzip"}
    return f"/s/{key}/", {"Accept-Encoding": "gzip"}


def warm_tags(port: int, people: list) -> dict[str, str]:
    """Every phone loads its page once (not measured): afterwards it polls with the page's ETag."""
    tags: dict[str, str] = {}
    chunks = [people[i::8] for i in range(8)]

    def load_pages(chunk):
        client = Client(port)
        for key, number in chunk:
            url, headers = phone_url(key, number)
            got = client.request("GET", url, headers=headers)[2]
            if got.get("ETag"):
                tags[url] = got["ETag"]

    threads = [threading.Thread(target=load_pages, args=(chunk,), daemon=True) for chunk in chunks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return tags


def evening(
    args,
    port,
    tablet_port,
    tournament_id,
    tables,
    phones,
    lock,
    rng,
    web_pids,
    worker_pids,
    *,
    seconds: float,
    tablets: bool,
    tags: dict[str, str],
) -> None:
    if tablets:
        print(
            f"\n5. the evening: {len(tables)} tablets (a game every {60 / args.clock:.1f}–{120 / args.clock:.1f} s), "
            f"{args.phones} phones (every {args.poll:g} s, each with its page's tag), {seconds:g} s; {load()}",
            flush=True,
        )
    else:
        print(
            f"\n4. the phones alone (no game entered): {args.phones} phones polling every {args.poll:g} s with "
            f"their page's tag, {seconds:g} s; {load()}",
            flush=True,
        )
    saves, polls, lags, failures, table_polls = [], [], [], [], []
    codes: dict[int, int] = {}
    to_check: list[tuple[int, float]] = []
    results_lock = threading.Lock()
    stop_at = time.monotonic() + seconds

    def tablet(table, seed):
        """Through the API (``--api``): one tablet saving; else the table's page on two devices: one enters
        each game (previews, then the save), both poll the page as entry.js does."""
        local = random.Random(seed)
        if args.api:
            client = Client(tablet_port)
            time.sleep(local.uniform(0, 120 / args.clock))
            while time.monotonic() < stop_at:
                try:
                    status, seconds, hand_id = save(client, local, table, lock)
                except OSError as exc:
                    failures.append(type(exc).__name__)
                    continue
                done = time.perf_counter()
                with results_lock:
                    saves.append(seconds)
                    codes[status] = codes.get(status, 0) + 1
                    if hand_id and len(saves) % 5 == 0:
                        to_check.append((hand_id, done))
                time.sleep(local.uniform(60 / args.clock, 120 / args.clock))
            return
        devices = devices_of[table[0]]
        for device in devices:
            device.next_poll = time.monotonic() + local.uniform(0, POLL_MAX_MS / 1000)
        next_game = time.monotonic() + local.uniform(0, 120 / args.clock)
        while time.monotonic() < stop_at:
            now = time.monotonic()
            due = min(next_game, *(d.next_poll for d in devices))
            if due > now:
                time.sleep(min(due - now, max(0.0, stop_at - now)))
                continue
            try:
                if next_game <= now:
                    status, seconds, number = page_save(devices[0], local, table, lock)
                    done = time.perf_counter()
                    with results_lock:
                        saves.append(seconds)
                        codes[status] = codes.get(status, 0) + 1
                        check = number is not None and len(saves) % 5 == 0
                    if check:
                        hand_id = hand_id_of(table[0], number)
                        if hand_id:
                            with results_lock:
                                to_check.append((hand_id, done))
                    next_game = time.monotonic() + local.uniform(60 / args.clock, 120 / args.clock)
                    continue
                device = min(devices, key=lambda d: d.next_poll)
                status, seconds = device.poll()
                with results_lock:
                    table_polls.append((seconds, status))
            except OSError as exc:
                failures.append(type(exc).__name__)

    def phone_group(group, seed):
        local, client = random.Random(seed), Client(port)
        step = args.poll / len(group)
        time.sleep(local.uniform(0, step))
        while time.monotonic() < stop_at:
            for key, number in group:
                began = time.monotonic()
                url, headers = phone_url(key, number)
                headers = dict(headers)
                if url in tags:
                    headers["If-None-Match"] = tags[url]
                try:
                    status, _data, got, seconds = client.request("GET", url, headers=headers)
                except OSError as exc:
                    failures.append(type(exc).__name__)
                    continue
                if got.get("ETag"):
                    tags[url] = got["ETag"]
                with results_lock:
                    polls.append((seconds, status))
                time.sleep(max(0.0, step - (time.monotonic() - began)))
                if time.monotonic() >= stop_at:
                    return

    def lag_checker():
        while time.monotonic() < stop_at + 5:
            with results_lock:
                item = to_check.pop(0) if to_check else None
            if item is None:
                time.sleep(0.01)
                continue
            hand_id, since = item
            lag = visible_after(tournament_id, revision_of(hand_id), since, timeout=20)
            lags.append(lag if lag is not None else float("inf"))

    devices_of: dict[str, list[Device]] = {}  # every table's page open on two devices (not measured)
    if tablets and not args.api:
        for table in tables:
            devices_of[table[0]] = [Device(tablet_port, table[0]) for _ in range(2)]
            for device in devices_of[table[0]]:
                device.open()
    group_size = max(1, args.phones // 100)
    people = (phones * (args.phones // max(1, len(phones)) + 1))[: args.phones]
    threads = [
        threading.Thread(target=tablet, args=(t, rng.getrandbits(32)), daemon=True) for t in (tables if tablets else [])
    ]
    threads += [
        threading.Thread(target=phone_group, args=(people[i : i + group_size], rng.getrandbits(32)), daemon=True)
        for i in range(0, len(people), group_size)
    ]
    checker = threading.Thread(target=lag_checker, daemon=True)
    stop_at = time.monotonic() + seconds  # from now: opening the pages took its time
    cpu_before = (cpu_seconds(web_pids), cpu_seconds(worker_pids), time.process_time())
    db_before = database_cpu()
    load_before = load()
    started = time.monotonic()
    for thread in [*threads, checker]:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 120)
    elapsed = time.monotonic() - started
    web_cpu = cpu_seconds(web_pids) - cpu_before[0]
    worker_cpu = cpu_seconds(worker_pids) - cpu_before[1]
    db_cpu = database_cpu_since(db_before)
    checker.join(timeout=30)
    ms = [1000 * s for s in saves]
    poll_ms = [1000 * s for s, _ in polls]
    share = sum(1 for _, status in polls if status == 304) / max(1, len(polls))
    print(
        f"   saves: {len(saves)} = {len(saves) / elapsed:.1f}/s, statuses {dict(sorted(codes.items()))}; "
        f"p50 {percentile(ms, 50):.1f}  p95 {percentile(ms, 95):.1f}  p99 {percentile(ms, 99):.1f} ms "
        f"(target p95 < 100 ms)"
        if ms
        else "   no saves"
    )
    if poll_ms:
        print(
            f"   polls: {len(polls)} = {len(polls) / elapsed:.1f}/s; p50 {percentile(poll_ms, 50):.1f}  "
            f"p95 {percentile(poll_ms, 95):.1f} ms; 304 share {share:.0%}"
        )
    if table_polls:
        t_ms = [1000 * s for s, _ in table_polls]
        t_share = sum(1 for _, status in table_polls if status == 304) / len(table_polls)
        print(
            f"   table pages' polls (two devices a table): {len(table_polls)} = {len(table_polls) / elapsed:.1f}/s; "
            f"p50 {percentile(t_ms, 50):.1f}  p95 {percentile(t_ms, 95):.1f} ms; 304 share {t_share:.0%}"
        )
    finite = [x for x in lags if x != float("inf")]
    print(
        f"   standings lag (every fifth game, {len(lags)} measured, {len(lags) - len(finite)} not seen in 20 s): "
        f"median {1000 * statistics.median(finite):.0f} ms, p95 {1000 * percentile(finite, 95):.0f} ms"
        if finite
        else "   standings lag: none measured"
    )
    per = len(saves) + len(polls) + len(table_polls)
    print(
        f"   CPU share of one core: web {100 * web_cpu / elapsed:.1f} %, PostgreSQL {100 * db_cpu / elapsed:.1f} %, "
        f"worker {100 * worker_cpu / elapsed:.1f} %; together {100 * (web_cpu + db_cpu + worker_cpu) / elapsed:.1f} % "
        f"(target < 50 %)"
    )
    if not tablets:
        print(
            f"   web workers and database: {100 * (web_cpu + db_cpu) / elapsed:.1f} % of one core for {args.phones} "
            f"phones ({1000 * (web_cpu + db_cpu) / max(1, len(polls)):.2f} ms CPU per poll; target < 10 %): "
            f"web {100 * web_cpu / elapsed:.1f} % ({1000 * web_cpu / max(1, len(polls)):.2f} ms), "
            f"PostgreSQL {100 * db_cpu / elapsed:.1f} % ({1000 * db_cpu / max(1, len(polls)):.2f} ms)"
        )
    print(
        f"   CPU: web {web_cpu:.1f} s ({1000 * web_cpu / max(1, per):.2f} ms per request), PostgreSQL {db_cpu:.1f} s "
        f"({1000 * db_cpu / max(1, per):.2f} ms per request), worker {worker_cpu:.1f} s "
        f"({1000 * worker_cpu / max(1, len(saves)):.1f} ms per game), this client {time.process_time() - cpu_before[2]:.1f} s "
        f"— of {elapsed * os.cpu_count():.0f} core-seconds; {load_before} before, {load()} after"
    )
    if failures:
        print(f"   client failures: {len(failures)} ({', '.join(sorted(set(failures)))})")


if __name__ == "__main__":
    main()
