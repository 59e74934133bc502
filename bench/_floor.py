"""What every bench shares: the machine's load, and A/B pairs against a floor measured in the same run.

A bench times its work (A) beside a floor (B: the least the same work can cost) in interleaved pairs,
the order turning round every pair (A B, B A, A B, …) so that a slow spell of a shared machine hits
both alike, at least seven pairs; it prints the median and range of each, of their ratio, and the
load average before and after. CPU seconds (``time.process_time``) are the figure where the work
runs in this process; wall seconds are printed beside them.
"""

from __future__ import annotations

import gc
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

MIN_PAIRS = 7


def load() -> str:
    one, five, _fifteen = os.getloadavg()
    return f"load {one:.2f}/{five:.2f} (1/5 min) on {os.cpu_count()} cores"


def spread(values: list[float], unit: str = "ms", digits: int = 1) -> str:
    if not values:
        return "–"
    return (
        f"median {statistics.median(values):,.{digits}f} {unit} "
        f"(range {min(values):,.{digits}f}–{max(values):,.{digits}f})"
    )


@dataclass
class Pairs:
    a_cpu: list[float]
    b_cpu: list[float]
    a_wall: list[float]
    b_wall: list[float]
    load_before: str
    load_after: str

    def ratios(self, cpu: bool = True) -> list[float]:
        a, b = (self.a_cpu, self.b_cpu) if cpu else (self.a_wall, self.b_wall)
        return [x / y for x, y in zip(a, b, strict=True) if y > 0]

    def report(
        self, a_label: str, b_label: str, *, per: int = 1, unit: str = "ms", scale: float = 1000.0, target: str = ""
    ) -> str:
        """Lines for the bench's output: A and B (CPU and wall, per item), the ratio, the load."""

        def per_item(values: list[float]) -> list[float]:
            return [v * scale / per for v in values]

        lines = [
            f"  {a_label}: CPU {spread(per_item(self.a_cpu), unit, 2)}; wall {spread(per_item(self.a_wall), unit, 2)}",
            f"  {b_label} (floor): CPU {spread(per_item(self.b_cpu), unit, 2)}; wall {spread(per_item(self.b_wall), unit, 2)}",
            f"  ratio A/B: CPU {spread(self.ratios(True), '×', 2)}; wall {spread(self.ratios(False), '×', 2)}"
            + (f" ({target})" if target else ""),
            f"  {len(self.a_cpu)} pairs, interleaved; {self.load_before} before, {self.load_after} after",
        ]
        return "\n".join(lines)


def ab_pairs(a: Callable[[], object], b: Callable[[], object], pairs: int = MIN_PAIRS) -> Pairs:
    """Run ``a`` and ``b`` in ``pairs`` interleaved pairs, the order turning round; CPU and wall seconds each."""
    if pairs < MIN_PAIRS:
        raise ValueError(f"at least {MIN_PAIRS} pairs")
    result = Pairs([], [], [], [], load(), "")
    for pair in range(pairs):
        halves = [(a, result.a_cpu, result.a_wall), (b, result.b_cpu, result.b_wall)]
        for fn, cpu, wall in halves if pair % 2 == 0 else halves[::-1]:
            gc.collect()
            started_cpu, started_wall = time.process_time(), time.perf_counter()
            fn()
            cpu.append(time.process_time() - started_cpu)
            wall.append(time.perf_counter() - started_wall)
    result.load_after = load()
    return result
