"""tournaments/seating.py stays pure: standard library only, no I/O, no clock, no global random."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

SEATING = Path(__file__).resolve().parents[2] / "tournaments" / "seating.py"

# Standard-library modules that would bring in I/O, the clock, the environment or randomness
# that is not the injected, seeded random.Random.
IMPURE_STDLIB = {
    "datetime",
    "io",
    "os",
    "pathlib",
    "secrets",
    "shutil",
    "socket",
    "subprocess",
    "sys",
    "tempfile",
    "threading",
    "time",
    "uuid",
}
IMPURE_BUILTINS = {"open", "print", "input", "exec", "eval", "__import__"}


def impurities(source: str) -> list[str]:
    """Every import or call in ``source`` that a pure module must not have."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                found.append(f"relative import from {'.' * node.level}{node.module or ''}")
                continue
            modules = [node.module or ""]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in IMPURE_BUILTINS:
                found.append(f"call of {node.func.id}()")
            continue
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
            and node.attr != "Random"
        ):
            found.append(f"module-level random.{node.attr} (use the injected random.Random)")
            continue
        else:
            continue
        for module in modules:
            top = module.split(".")[0]
            if top not in sys.stdlib_module_names:
                found.append(f"non-stdlib import {module}")
            elif top in IMPURE_STDLIB:
                found.append(f"impure stdlib import {module}")
    return found


def test_seating_is_pure():
    assert impurities(SEATING.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "source",
    [
        "import django",
        "from django.db import models",
        "import numpy as np",
        "from tournaments.models import Round",
        "from . import models",
        "import time",
        "from datetime import datetime",
        "with open('x') as f: pass",
        "import random\nrandom.shuffle([])",
    ],
)
def test_the_detector_flags_impure_code(source):
    assert impurities(source) != []


def test_the_detector_accepts_pure_code():
    source = (
        "from __future__ import annotations\n"
        "import random\n"
        "from collections import Counter\n"
        "from dataclasses import dataclass\n"
        "rng = random.Random(1)\n"
    )
    assert impurities(source) == []
