"""The before/after check of a refactoring: a simulated 200-player tournament, fingerprinted.

    .venv/bin/python bench/fingerprint.py make OUT [--players 200] [--rounds 3] [--games 32] [--seed 1604]
                                              [--database-url URL] [--sqlite FILE] [--flush]
    .venv/bin/python bench/fingerprint.py compare BEFORE AFTER [--show 12]

``make`` simulates the tournament with a fixed seed (``simulate_tournament``, the rehearsal command)
into a fresh database (SQLite in memory by default; ``--sqlite FILE``, or ``--database-url`` /
``DATABASE_URL`` for PostgreSQL, which must hold no tournament unless ``--flush`` empties it first),
loads the demo (its season and series), and writes to the folder OUT:

- ``standings.json`` / ``standings.csv`` (and ``-round-N``): the public standings downloads;
- ``archive.json``: ``export_tournament`` (``exported_at`` masked); ``demo-archive.json`` likewise;
- ``series.json`` / ``series.csv``: the demo season's downloads;
- ``pdf/<name>.txt``: the text pypdf extracts from every printable PDF, page by page, through the
  organiser's URLs (score sheets filled and blank, seat list, table cards, start cards, standings
  overall and per round, prize list, cash list, certificates, the series) and through the two print
  commands (the print pack filled and blank, every ``print_standings`` document);
- ``pdf/<name>.pages``: the page count and page sizes of each PDF;
- ``MANIFEST``: the commit, the options, and a SHA-256 per file.

What differs from run to run and is no fact of the tournament is masked: the tournament's date is
fixed to 2026-11-21, the random entry and personal keys become ``<key:N>`` (numbered in order of
appearance), timestamps become ``<time>``. The tournament itself is the same with the same seed.

``compare`` prints, per file, whether it is identical, missing on one side, or how it differs (the
first changed lines of a unified diff, ``--show`` lines each), then a summary; it exits 1 when
anything differs. New keys in a JSON file (a field added on purpose) are reported as such, not hidden.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXED_DATE = "2026-11-21"
GERMAN_TIME_RE = re.compile(r"\d{1,2}\.\d{1,2}\.\d{4},? \d{1,2}:\d{2}( Uhr)?")
TODAY_ISO = time.strftime("%Y-%m-%d")
TODAY_GERMAN = time.strftime("%d.%m.%Y")
TIME_RE = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}:?\d{2}|Z)?")


# --- make ------------------------------------------------------------------------------------


def _setup(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(ROOT))
    url = args.database_url or (os.environ.get("DATABASE_URL") if not args.sqlite else None)
    if url:
        os.environ["DATABASE_URL"] = url
    else:
        os.environ.pop("DATABASE_URL", None)
        os.environ["SQLITE_PATH"] = args.sqlite or ":memory:"
    os.environ.pop("CELERY_BROKER_URL", None)  # every task in-process
    os.environ.pop("REDIS_CACHE_URL", None)
    os.environ["DJANGO_DEBUG"] = "false"
    os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver"
    os.environ.setdefault("DJANGO_SECRET_KEY", "fingerprint-only")
    os.environ["DJANGO_SETTINGS_MODULE"] = "schafkopfrennen.settings"
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")
    import warnings

    import django

    warnings.filterwarnings("ignore", message="No directory at")  # whitenoise: no collectstatic needed here
    django.setup()
    from reportlab import rl_config

    rl_config.invariant = 1
    _seeded_defaults(args.seed)


def _seeded_defaults(seed: int) -> None:
    """The random defaults of the models (lot seeds, entry and personal keys) drawn from ``seed`` instead.

    The lot breaks ties in the standings, and a key's width moves the text around it in a PDF; both
    must be the same in every run. Which field gets which value depends only on the order of creation.
    """
    import random

    from django.apps import apps

    rng = random.Random(seed)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    for model in apps.get_models():
        for field in model._meta.concrete_fields:
            default = field.default
            name = getattr(default, "__name__", "")
            if not callable(default) or not any(word in name for word in ("key", "seed", "token")):
                continue
            sample = default()
            if isinstance(sample, int):
                bits = max(sample.bit_length(), 31)
                field.default = lambda bits=bits: rng.getrandbits(bits)
            elif isinstance(sample, str):
                n = len(sample)
                field.default = lambda n=n: "".join(rng.choice(alphabet) for _ in range(n))
            else:
                continue
            field.__dict__.pop("_get_default", None)  # Django caches the default's callable


class Masker:
    """Replaces the random keys (numbered in order of appearance) and timestamps in a text."""

    def __init__(self, keys: list[str]) -> None:
        self.numbers: dict[str, int] = {}
        self.pattern = (
            re.compile("|".join(re.escape(k) for k in sorted(set(keys), key=len, reverse=True))) if keys else None
        )

    def __call__(self, text: str) -> str:
        if self.pattern is not None:
            text = self.pattern.sub(
                lambda m: f"<key:{self.numbers.setdefault(m.group(0), len(self.numbers) + 1)}>", text
            )
        text = TIME_RE.sub("<time>", text)
        text = GERMAN_TIME_RE.sub("<time>", text)
        return text.replace(TODAY_ISO, "<today>").replace(TODAY_GERMAN, "<today>")


def _random_keys() -> list[str]:
    """Every value of a model field whose default is a random key (entry keys, personal keys, tokens)."""
    from django.apps import apps

    keys: list[str] = []
    for model in apps.get_models():
        for field in model._meta.concrete_fields:
            default = getattr(field, "default", None)
            if callable(default) and "key" in getattr(default, "__name__", "") + field.name:
                keys.extend(v for v in model.objects.values_list(field.name, flat=True) if isinstance(v, str) and v)
    return [k for k in keys if len(k) >= 12]


def _pdf_text(content: bytes) -> tuple[str, str]:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(content))
    pages, sizes = [], []
    for number, page in enumerate(reader.pages, start=1):
        pages.append(f"=== page {number} ===\n{page.extract_text() or ''}")
        box = page.mediabox
        sizes.append(f"{number}: {float(box.width):.1f} x {float(box.height):.1f}")
    return "\n".join(pages) + "\n", f"pages: {len(reader.pages)}\n" + "\n".join(sizes) + "\n"


def make(args: argparse.Namespace) -> None:
    out = Path(args.out)
    if out.exists() and any(out.iterdir()):
        sys.exit(f"out: {out} exists and is not empty")
    _setup(args)
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse  # by name: the organiser paths may change language

    from tournaments.models import Tournament

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    if Tournament.objects.exists():
        if not args.flush:
            sys.exit("database: it holds tournaments already; use a fresh one or --flush")
        call_command("flush", interactive=False, verbosity=0)
    slug = f"fingerprint-{args.players}-{args.seed}"
    call_command(
        "simulate_tournament",
        players=args.players,
        rounds=args.rounds,
        games=args.games,
        seed=args.seed,
        slug=slug,
        stdout=io.StringIO(),
    )
    Tournament.objects.filter(slug=slug).update(date=FIXED_DATE)
    call_command("demo", allow_without_debug=True, stdout=io.StringIO(), stderr=io.StringIO())
    simulated = time.perf_counter() - started
    tournament = Tournament.objects.get(slug=slug)
    rounds = list(tournament.rounds.order_by("number").values_list("number", flat=True))
    tables = list(tournament.rounds.get(number=rounds[0]).tables.order_by("number").values_list("number", flat=True))

    mask = Masker(_random_keys())
    (out / "pdf").mkdir(parents=True)
    files: dict[str, str] = {}

    def write(name: str, text: str) -> None:
        (out / name).write_text(text, encoding="utf-8")
        files[name] = hashlib.sha256(text.encode()).hexdigest()

    def write_pdf(name: str, content: bytes) -> None:
        if not content.startswith(b"%PDF"):
            raise SystemExit(f"{name}: not a PDF ({content[:80]!r})")
        text, pages = _pdf_text(content)
        write(f"pdf/{name}.txt", mask(text))
        write(f"pdf/{name}.pages", pages)

    user = get_user_model().objects.create_superuser("fingerprint", "fp@example.org", "fingerprint-pw")
    client = Client()
    client.force_login(user)

    def get(url: str) -> bytes:
        response = client.get(url)
        if response.status_code != 200:
            raise SystemExit(f"GET {url}: {response.status_code}")
        return b"".join(response.streaming_content) if response.streaming else response.content

    def json_text(content: bytes | str) -> str:
        doc = json.loads(content)
        if isinstance(doc, dict):
            doc.pop("exported_at", None)
            doc.pop("computed_at", None)
        return mask(json.dumps(doc, ensure_ascii=False, indent=1, sort_keys=True)) + "\n"

    # the standings downloads (published so the public URL serves them)
    response = client.post(f"/o/{slug}/rangliste/veroeffentlichen/", {"public": "1"})
    if response.status_code != 302:
        raise SystemExit(f"publishing the standings: {response.status_code}")
    for suffix, query in [("", ""), *((f"-round-{n}", f"?runde={n}") for n in rounds)]:
        write(f"standings{suffix}.json", json_text(get(f"/t/{slug}/rangliste.json{query}")))
        write(f"standings{suffix}.csv", mask(get(f"/t/{slug}/rangliste.csv{query}").decode("utf-8")))

    # the archives
    for name, archive_slug in (("archive", slug), ("demo-archive", "herbstrennen")):
        if Tournament.objects.filter(slug=archive_slug).exists():
            buffer = io.StringIO()
            call_command("export_tournament", archive_slug, stdout=buffer)
            write(f"{name}.json", json_text(buffer.getvalue()))

    # the series of the demo
    for fmt in ("json", "csv"):
        content = get(f"/serie/jahreswertung-2026/wertung.{fmt}")
        write(f"series.{fmt}", json_text(content) if fmt == "json" else mask(content.decode("utf-8")))
    write_pdf("series", get("/serie/jahreswertung-2026/wertung.pdf"))

    # every printable PDF through the organiser's URLs
    for number in rounds:
        for doc in ("spielliste", "spielliste-leer", "sitzplan", "tischkarten"):
            write_pdf(f"url-round-{number}-{doc}", get(f"/o/{slug}/runde/{number}/druck/{doc}.pdf"))
    for doc in ("spielliste", "spielliste-leer"):
        write_pdf(f"url-round-1-table-{tables[-1]}-{doc}", get(f"/o/{slug}/runde/1/tisch/{tables[-1]}/{doc}.pdf"))
    write_pdf("url-start-cards", get(reverse("tournaments:start_cards", args=[slug])))
    write_pdf("url-standings", get(f"/o/{slug}/druck/rangliste.pdf"))
    for number in rounds:
        write_pdf(f"url-standings-round-{number}", get(f"/o/{slug}/druck/rangliste.pdf?runde={number}"))
    write_pdf("url-prizes", get(f"/o/{slug}/druck/preisliste.pdf"))
    write_pdf("url-cash", get(f"/o/{slug}/druck/kassenliste.pdf"))
    write_pdf("url-certificates", get(f"/o/{slug}/druck/urkunden.pdf"))
    write_pdf("url-certificates-5", get(f"/o/{slug}/druck/urkunden.pdf?plaetze=5"))
    write_pdf("url-demo-cash", get("/o/herbstrennen/druck/kassenliste.pdf"))
    write_pdf("url-demo-prizes", get("/o/herbstrennen/druck/preisliste.pdf"))

    # and through the two print commands
    with tempfile.TemporaryDirectory() as folder:

        def command_pdf(name: str, *command_args, **options) -> None:
            path = os.path.join(folder, "out.pdf")
            call_command(*command_args, output=path, stderr=io.StringIO(), **options)
            write_pdf(name, Path(path).read_bytes())

        for number in rounds:
            command_pdf(f"cmd-pack-round-{number}", "print_round", slug, str(number), base_url="http://testserver/")
        command_pdf("cmd-pack-round-1-blank", "print_round", slug, "1", blank=True, base_url="http://testserver/")
        for doc in ("standings", "prizes", "cash", "certificates"):
            command_pdf(f"cmd-{doc}", "print_standings", slug, document=doc)
        command_pdf("cmd-standings-round-1", "print_standings", slug, document="standings", round="1")

    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
    dirty = subprocess.run(
        ["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True
    ).stdout.strip()
    manifest = [
        f"commit: {commit.strip()}{' (with uncommitted changes)' if dirty else ''}",
        f"options: players={args.players} rounds={args.rounds} games={args.games} seed={args.seed}",
        f"database: {os.environ.get('DATABASE_URL') or 'sqlite ' + os.environ['SQLITE_PATH']}",
        "",
    ]
    manifest += [f"{digest}  {name}" for name, digest in sorted(files.items())]
    (out / "MANIFEST").write_text("\n".join(manifest) + "\n", encoding="utf-8")
    print(f"{len(files)} files in {out} (simulation {simulated:.0f} s, all {time.perf_counter() - started:.0f} s)")


# --- compare ---------------------------------------------------------------------------------


def _files(folder: Path) -> dict[str, Path]:
    return {str(p.relative_to(folder)): p for p in sorted(folder.rglob("*")) if p.is_file() and p.name != "MANIFEST"}


def _json_keys(doc, path: str = "") -> set[str]:
    """Every key path of a JSON document, list items folded to ``[]``."""
    keys: set[str] = set()
    if isinstance(doc, dict):
        for key, value in doc.items():
            keys.add(f"{path}.{key}")
            keys |= _json_keys(value, f"{path}.{key}")
    elif isinstance(doc, list):
        for value in doc:
            keys |= _json_keys(value, f"{path}[]")
    return keys


def compare(args: argparse.Namespace) -> None:
    before, after = Path(args.before), Path(args.after)
    for folder in (before, after):
        manifest = folder / "MANIFEST"
        print(f"{folder}: {manifest.read_text().splitlines()[0] if manifest.exists() else '(no MANIFEST)'}")
    old, new = _files(before), _files(after)
    identical, changed, missing, added = [], [], sorted(set(old) - set(new)), sorted(set(new) - set(old))
    for name in sorted(set(old) & set(new)):
        a, b = old[name].read_text(encoding="utf-8"), new[name].read_text(encoding="utf-8")
        if a == b:
            identical.append(name)
            continue
        changed.append(name)
        a_lines, b_lines = a.splitlines(), b.splitlines()
        removed = sum(1 for line in difflib.ndiff(a_lines, b_lines) if line.startswith("- "))
        plus = (
            sum(1 for line in difflib.ndiff(a_lines, b_lines) if line.startswith("+ "))
            if len(a_lines) < 20000
            else None
        )
        print(f"\n--- CHANGED {name}: {removed} line(s) out, {plus if plus is not None else '?'} in")
        if name.endswith(".json"):
            ka, kb = _json_keys(json.loads(a)), _json_keys(json.loads(b))
            for key in sorted(kb - ka):
                print(f"    new key: {key}")
            for key in sorted(ka - kb):
                print(f"    key gone: {key}")
        shown = 0
        for line in difflib.unified_diff(a_lines, b_lines, "before/" + name, "after/" + name, n=0, lineterm=""):
            if line.startswith(("---", "+++")):
                continue
            print("    " + line)
            shown += 1
            if shown >= args.show:
                print("    ...")
                break
    for name in missing:
        print(f"\n--- MISSING after: {name}")
    for name in added:
        print(f"\n--- NEW after: {name}")
    print(
        f"\nSUMMARY: {len(identical)} identical, {len(changed)} changed, {len(missing)} missing after, "
        f"{len(added)} new after (of {len(set(old) | set(new))} files)"
    )
    for label, names in (("changed", changed), ("missing after", missing), ("new after", added)):
        if names:
            print(f"  {label}: {', '.join(names)}")
    sys.exit(1 if changed or missing or added else 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    m = sub.add_parser("make", help="simulate and write a fingerprint folder")
    m.add_argument("out")
    m.add_argument("--players", type=int, default=200)
    m.add_argument("--rounds", type=int, default=3)
    m.add_argument("--games", type=int, default=32)
    m.add_argument("--seed", type=int, default=1604)
    m.add_argument("--database-url", default=None, help="PostgreSQL (default: DATABASE_URL, else SQLite)")
    m.add_argument("--sqlite", default=None, help="an SQLite file (default: in memory)")
    m.add_argument("--flush", action="store_true", help="empty a database that holds tournaments first")
    c = sub.add_parser("compare", help="compare two fingerprint folders")
    c.add_argument("before")
    c.add_argument("after")
    c.add_argument("--show", type=int, default=12, help="diff lines shown per changed file")
    args = parser.parse_args()
    make(args) if args.mode == "make" else compare(args)


if __name__ == "__main__":
    main()
