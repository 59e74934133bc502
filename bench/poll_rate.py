"""One unchanged poll at a hall's rate against the bare 304 view at the same rate, and both back to back.

    .venv/bin/python bench/web_paths.py setup --database-url postgres://postgres@127.0.0.1:5432/skr_paths
    .venv/bin/python bench/poll_rate.py --database-url postgres://postgres@127.0.0.1:5432/skr_paths \\
        --redis-url redis://127.0.0.1:6379/11 [--port 8160 --rate 47 --phones 100 --seconds 8 --pairs 7]

1,000 phones polling every 20 s send some 50 requests a second, spread out: each gunicorn worker meets
each poll after a pause, with cold caches, and the same request costs two to three times the CPU it
costs back to back. This bench shows it on the poll and on its floor alike. gunicorn runs the project's
WSGI entry (``bench/evening_site_wsgi.py``, three sync workers, DEBUG off) on ``web_paths.py setup``'s
database; A is the standings' htmx poll of a player's own row with the page's tag (304 from
``schafkopfrennen.polling.UnchangedPolls``), B the bare Django view answering 304 through the full
middleware (``bench/evening_site.py``). Per pair: A and B spread over ``--phones`` connections at
``--rate`` requests a second for ``--seconds`` each, then as many back to back over one connection; the
order turns round every pair. Prints web CPU per request (user and system ticks of gunicorn's
processes, from /proc), PostgreSQL's CPU per request for the database, medians and ranges, and the load.
Not a test.
"""

import argparse
import os
import secrets
import statistics
import sys
import threading
import time
from http.client import HTTPConnection
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench._floor import MIN_PAIRS, load  # noqa: E402
from bench.hand_entry import cpu_seconds, start, stop  # noqa: E402

HOST = "127.0.0.1"


def get(conn: HTTPConnection, path: str, headers: dict) -> tuple[int, str | None]:
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    response.read()
    return response.status, response.getheader("ETag")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--database-url", default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/skr_paths")
    )
    parser.add_argument("--redis-url", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/11"))
    parser.add_argument("--port", type=int, default=8160)
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument(
        "--rate", type=float, default=47.0, help="requests a second, spread out (1,000 phones / 20 s ≈ 50)"
    )
    parser.add_argument("--phones", type=int, default=100, help="connections the spread requests come over")
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--pairs", type=int, default=MIN_PAIRS)
    args = parser.parse_args()
    if args.pairs < MIN_PAIRS:
        parser.error(f"--pairs: at least {MIN_PAIRS}")
    os.environ.update(
        DATABASE_URL=args.database_url,
        DJANGO_SETTINGS_MODULE="schafkopfrennen.settings",
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=os.environ.get("DJANGO_SECRET_KEY", secrets.token_urlsafe(50)),
    )
    import django

    django.setup()  # this process reads which PostgreSQL backends serve the database, and their CPU
    from bench.evening import database_cpu, database_cpu_since

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
    }
    web = start(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "bench.evening_site_wsgi",
            "--preload",
            "--workers",
            str(args.workers),
            "--bind",
            f"{HOST}:{args.port}",
            "--log-level",
            "warning",
        ],
        env,
    )
    try:
        for _ in range(200):
            try:
                HTTPConnection(HOST, args.port, timeout=2).request("GET", "/bench/floor/poll/")
                break
            except OSError:
                time.sleep(0.1)
        poll_path, poll_headers = "/t/abend/rangliste/?ich=5", {"HX-Request": "true", "Accept-Encoding": "gzip"}
        conn = HTTPConnection(HOST, args.port, timeout=30)
        status, tag = get(conn, poll_path, poll_headers)
        if status != 200 or not tag:
            raise SystemExit(f"the standings answered {status} without a tag: run bench/web_paths.py setup first")
        cases = {
            "A": (poll_path, {**poll_headers, "If-None-Match": tag}),
            "B": ("/bench/floor/poll/", {"If-None-Match": '"floor"'}),
        }
        for path, headers in cases.values():  # warm every worker
            for _ in range(100):
                assert get(conn, path, headers)[0] == 304
        count = int(args.rate * args.seconds)

        def spread(path, headers):
            per = max(1, count // args.phones)
            step = args.phones / args.rate

            def phone(offset):
                c = HTTPConnection(HOST, args.port, timeout=30)
                time.sleep(step * offset / args.phones)
                for _ in range(per):
                    began = time.monotonic()
                    assert get(c, path, headers)[0] == 304
                    time.sleep(max(0.0, step - (time.monotonic() - began)))

            threads = [threading.Thread(target=phone, args=(i,)) for i in range(args.phones)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            return per * args.phones

        def burst(path, headers):
            c = HTTPConnection(HOST, args.port, timeout=30)
            for _ in range(count):
                assert get(c, path, headers)[0] == 304
            return count

        results: dict[tuple[str, str], list[tuple[float, float]]] = {}
        print(
            f"{args.pairs} pairs: {count} requests each way, spread at {args.rate:g}/s over {args.phones} "
            f"connections and back to back; gunicorn {args.workers} sync workers; {load()}",
            flush=True,
        )
        for pair in range(args.pairs):
            for way in (spread, burst):
                order = ("A", "B") if pair % 2 == 0 else ("B", "A")
                for name in order:
                    web_before, db_before = cpu_seconds([web.pid]), database_cpu()
                    done = way(*cases[name])
                    web_ms = 1000 * (cpu_seconds([web.pid]) - web_before) / done
                    db_ms = 1000 * database_cpu_since(db_before) / done
                    results.setdefault((way.__name__, name), []).append((web_ms, db_ms))
        for way in ("spread", "burst"):
            a, b = results[(way, "A")], results[(way, "B")]
            ratios = [x[0] / y[0] for x, y in zip(a, b, strict=True) if y[0] > 0]

            def described(values):
                return f"{statistics.median(values):.2f} ms (range {min(values):.2f}–{max(values):.2f})"

            print(
                f"  {way:6s}: poll web {described([x[0] for x in a])}, PostgreSQL {described([x[1] for x in a])}; "
                f"bare 304 view web {described([x[0] for x in b])}; web ratio {statistics.median(ratios):.2f}×"
            )
            if way == "spread":
                total = [x[0] + x[1] for x in a]
                print(
                    f"          1,000 phones every 20 s (50 polls/s) at the poll's median: "
                    f"{5 * statistics.median(total):.1f} % of one core (web and PostgreSQL); "
                    f"the bare view's web alone: {5 * statistics.median([y[0] for y in b]):.1f} %"
                )
        print(f"  {load()}")
    finally:
        stop(web)


if __name__ == "__main__":
    main()
