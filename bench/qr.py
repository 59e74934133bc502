"""The QR codes' encoder: segno (the one generator now) against ReportLab's own QR widget, A/B in one run.

    .venv/bin/python bench/qr.py [--links 200] [--pairs 7] [--seed 1]

Encodes the same table links (``https://…/tisch/<24 characters>/``, as on a round's score sheets and
table cards) uncached with ``segno`` (``tournaments.qr``: level M, the best of the eight masks) and
with ReportLab's ``QrCodeWidget`` (level M, its ``make()``: the encoder the PDFs used before, without
the hand-made mask shortcut that reached into its internals). Interleaved ``--pairs`` times; prints
each arm's median and range in ms per code, the pairwise ratio and the load average. The PDFs cache
each link's code in the process, so a round pays this once per table link.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import string
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from reportlab.graphics.barcode.qr import QrCodeWidget

from tournaments import qr


def links(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    alphabet = string.ascii_letters + string.digits + "-_"
    return [f"https://rennen.example.org/tisch/{''.join(rng.choice(alphabet) for _ in range(24))}/" for _ in range(n)]


def segno_arm(values: list[str]) -> float:
    qr.qr_matrix.cache_clear()
    start = time.process_time()
    for value in values:
        qr.qr_matrix(value)
    return (time.process_time() - start) / len(values) * 1e3


def reportlab_arm(values: list[str]) -> float:
    start = time.process_time()
    for value in values:
        widget = QrCodeWidget(value, barLevel="M")
        widget.qr.make()
    return (time.process_time() - start) / len(values) * 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--links", type=int, default=200)
    parser.add_argument("--pairs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    values = links(args.links, args.seed)
    load_before = os.getloadavg()
    segno_arm(values[:10]), reportlab_arm(values[:10])  # warm up
    a, b = [], []
    for pair in range(args.pairs):
        for arm in (segno_arm, reportlab_arm) if pair % 2 == 0 else (reportlab_arm, segno_arm):
            (a if arm is segno_arm else b).append(arm(values))
    load_after = os.getloadavg()
    print(f"{args.links} links, {args.pairs} pairs interleaved, CPU time per code")
    for label, v in (("segno (tournaments.qr)", a), ("ReportLab QrCodeWidget", b)):
        print(f"{label:<24} median {statistics.median(v):6.2f} ms  range {min(v):6.2f}–{max(v):6.2f}")
    ratios = [x / y for x, y in zip(a, b)]
    print(f"segno / ReportLab median {statistics.median(ratios):.2f}  range {min(ratios):.2f}–{max(ratios):.2f}")
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} ({os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
