"""Benchmark the print pack of a big round against a bare ReportLab canvas with the same pages and text.

    python bench/print.py [--players 1000] [--seed 1] [--blank] [--pairs 7] [--db FILE]

Builds a tournament in a throw-away SQLite database (rehearsal services: register, draw round 1,
play every table's 32 or 40 games; ``--blank`` prints blank score sheets instead of the entered
ones; ``--db FILE`` keeps the database and reuses it on the next run), then times on one core:

- ``data``: the selectors that read the round (``print_pack_data``);
- ``pack``: ``render_pack`` of that data — seat lists, table cards, score sheets, one PDF;
- ``bare``: a bare ``reportlab.pdfgen.canvas.Canvas`` that draws the same number of pages with
  the same strings in the same fonts and sizes (recorded from one pack render), one
  ``drawString`` each, nothing else: no lines, no QR codes, no layout.

The ratio pack / bare (CPU seconds) is the figure of merit (target: at most 2); pack and bare run
in ``--pairs`` interleaved pairs (``bench/_floor.py``: the order turning round, median and range,
the load printed). The QR codes are
encoded once per link and cached in the process, as a worker does when it rebuilds a pack after a
change; the first render (every code encoded) is reported separately.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
_db = sys.argv[sys.argv.index("--db") + 1] if "--db" in sys.argv[:-1] else ":memory:"
os.environ["SQLITE_PATH"] = _db
os.environ["DJANGO_DEBUG"] = "false"  # no query log
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "schafkopfrennen.settings")
os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.pdfgen.canvas import Canvas  # noqa: E402
from reportlab.pdfgen.textobject import PDFTextObject  # noqa: E402

from bench._floor import MIN_PAIRS, ab_pairs, load  # noqa: E402
from tournaments.models import Round  # noqa: E402
from tournaments.pdf.fonts import register_fonts  # noqa: E402
from tournaments.pdf.pack import render_pack  # noqa: E402
from tournaments.pdf.qr import qr_code  # noqa: E402
from tournaments.selectors.printing import print_pack_data  # noqa: E402
from tournaments.services.rounds import round_draw  # noqa: E402
from tournaments.services.simulation import round_simulate, tournament_simulate_setup  # noqa: E402


def record_pack(data) -> tuple[list[tuple], int]:
    """Render once, recording (page, page size, font, size, text) of every string seen on a page.

    Every string goes through a text object's ``textLine`` (``canvas.drawString`` and its kin) or
    ``textOut`` (the score sheet's rows share one text object per page). A string drawn once in a
    PDF form (the sheet's printed frame) counts on every page that places the form.
    """
    strings: list[tuple] = []
    in_forms: dict[str, list[tuple]] = defaultdict(list)
    originals = {name: getattr(PDFTextObject, name) for name in ("textLine", "textOut")}
    do_form = Canvas.doForm

    def wrap(original):
        def recording(self, text, *args, **kwargs):
            canv = self._canvas
            entry = (self._fontname, self._fontsize, text)
            if canv._formData is not None:
                in_forms[canv._formData[0]].append(entry)
            else:
                strings.append((canv._pageNumber, tuple(canv._pagesize), *entry))
            return original(self, text, *args, **kwargs)

        return recording

    def placing(self, name):
        strings.extend((self._pageNumber, tuple(self._pagesize), *entry) for entry in in_forms.get(name, ()))
        return do_form(self, name)

    for name, original in originals.items():
        setattr(PDFTextObject, name, wrap(original))
    Canvas.doForm = placing
    try:
        pdf = render_pack(data)
    finally:
        for name, original in originals.items():
            setattr(PDFTextObject, name, original)
        Canvas.doForm = do_form
    pages = pdf.count(b"/Type /Page\n") or pdf.count(b"/Type /Page ")
    return strings, pages


def render_bare(strings: list[tuple], pages: int) -> bytes:
    """The same pages and strings on a bare canvas: one drawString per string, top to bottom."""
    by_page: dict[int, list[tuple]] = defaultdict(list)
    sizes: dict[int, tuple] = {}
    for page, size, font, font_size, text in strings:
        by_page[page].append((font, font_size, text))
        sizes[page] = size
    buffer = io.BytesIO()
    canv = Canvas(buffer, pagesize=A4)
    for page in range(1, pages + 1):
        canv.setPageSize(sizes.get(page, A4))
        y = sizes.get(page, A4)[1] - 20
        for font, font_size, text in by_page.get(page, ()):
            canv.setFont(font, font_size)
            canv.drawString(20, y, text)
            y -= 1.5
            if y < 20:
                y = sizes.get(page, A4)[1] - 20
        canv.showPage()
    canv.save()
    return buffer.getvalue()


def timed(fn, repeat: int) -> tuple[float, float, object]:
    """Median CPU seconds (process_time: steadier than the wall clock on a shared machine), median wall seconds."""
    cpu, wall, result = [], [], None
    for _ in range(repeat):
        started_cpu, started_wall = time.process_time(), time.perf_counter()
        result = fn()
        cpu.append(time.process_time() - started_cpu)
        wall.append(time.perf_counter() - started_wall)
    return statistics.median(cpu), statistics.median(wall), result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--blank", action="store_true", help="blank score sheets instead of the entered games")
    parser.add_argument("--pairs", type=int, default=MIN_PAIRS, help="A/B pairs pack vs bare (at least 7)")
    parser.add_argument("--repeat", type=int, default=3, help="repeats of the data step")
    parser.add_argument("--db", default=":memory:", help="SQLite file to keep (and reuse) the tournament in")
    args = parser.parse_args(argv)
    if args.pairs < MIN_PAIRS:
        parser.error("--pairs: at least 7")

    register_fonts()
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    slug = f"bench-print-{args.players}-{args.seed}-{'blank' if args.blank else 'played'}"
    rnd = Round.objects.filter(tournament__slug=slug, number=1).select_related("tournament").first()
    if rnd is None:
        tournament = tournament_simulate_setup(slug=slug, players=args.players, rounds=2, games=32, seed=args.seed)
        (rnd,) = round_draw(tournament=tournament, seed=args.seed)
        round_simulate(rnd=rnd, seed=args.seed, play=not args.blank, close=False)
    setup = time.perf_counter() - started
    tables = rnd.tables.count()
    print(
        f"{args.players} players, {tables} tables, round 1 {'drawn (blank sheets)' if args.blank else 'played'}; "
        f"setup {setup:.1f} s; {load()}"
    )

    data_cpu, data_wall, data = timed(
        lambda: print_pack_data(rnd, url_base="https://rennen.example.org", blank=args.blank), args.repeat
    )
    qr_code.cache_clear()
    cold_cpu, cold_wall, pdf = timed(lambda: render_pack(data), 1)
    strings, pages = record_pack(data)
    bare_pdf = render_bare(strings, pages)
    pairs = ab_pairs(lambda: render_pack(data), lambda: render_bare(strings, pages), args.pairs)
    pack_cpu, pack_wall = statistics.median(pairs.a_cpu), statistics.median(pairs.a_wall)
    bare_cpu, bare_wall = statistics.median(pairs.b_cpu), statistics.median(pairs.b_wall)

    print(f"pages {pages}, strings {len(strings)}, pack {len(pdf) / 1e6:.1f} MB, bare {len(bare_pdf) / 1e6:.1f} MB")
    print(f"{'step':<38} {'CPU s':>7} {'wall s':>7}")
    for label, cpu, wall in [
        ("data (selectors)", data_cpu, data_wall),
        ("pack render, first (QR codes encoded)", cold_cpu, cold_wall),
        ("pack render (median, QR cached)", pack_cpu, pack_wall),
        ("bare canvas, same pages + strings", bare_cpu, bare_wall),
    ]:
        print(f"{label:<38} {cpu:7.2f} {wall:7.2f}")
    print(pairs.report("pack render (QR cached)", "bare canvas", unit="s", scale=1.0, target="target ≤ 2"))
    print(
        f"first render / bare (CPU): {cold_cpu / bare_cpu:.2f}; "
        f"first render with the data step {(data_cpu + cold_cpu) / bare_cpu:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
