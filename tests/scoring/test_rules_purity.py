"""scoring.rules is pure: the standard library and its own modules, nothing else."""

import ast
import sys
from pathlib import Path

import pytest

RULES_DIR = Path(__file__).resolve().parents[2] / "scoring" / "rules"
PACKAGE = "scoring.rules"
PROJECT_PACKAGES = {"django", "tournaments", "schafkopfrennen", "scoring"}


def forbidden_imports(source: str) -> list[str]:
    """The imports in ``source`` that are neither standard library nor inside scoring.rules."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level > 0:  # relative: inside the package
                continue
            names = [node.module or ""]
        else:
            continue
        for name in names:
            if name == PACKAGE or name.startswith(PACKAGE + "."):
                continue
            top = name.split(".")[0]
            if top in PROJECT_PACKAGES or top not in sys.stdlib_module_names:
                found.append(name)
    return found


def test_detector_flags_django_and_project_imports():
    assert forbidden_imports("import django") == ["django"]
    assert forbidden_imports("from django.db import models") == ["django.db"]
    assert forbidden_imports("import json, requests") == ["requests"]
    assert forbidden_imports("from tournaments.models import Hand") == ["tournaments.models"]
    assert forbidden_imports("from scoring import services") == ["scoring"]
    assert forbidden_imports("from scoring.storage import x") == ["scoring.storage"]
    assert forbidden_imports("def f():\n    import celery\n") == ["celery"]


def test_detector_allows_stdlib_and_the_package_itself():
    source = (
        "import json\nfrom dataclasses import dataclass\nfrom collections.abc import Mapping\n"
        "from .errors import RuleError\nfrom . import ruleset\nfrom scoring.rules.hand import Hand\n"
    )
    assert forbidden_imports(source) == []


def module_files():
    files = sorted(RULES_DIR.glob("*.py"))
    assert files, f"no modules found in {RULES_DIR}"
    return files


@pytest.mark.parametrize("path", module_files(), ids=lambda path: path.name)
def test_module_imports_only_the_standard_library(path):
    assert forbidden_imports(path.read_text("utf-8")) == []


IMPURE_MODULES = {"time", "os", "io", "pathlib", "shutil", "socket", "subprocess", "secrets", "uuid"}
CLOCK_CALLS = {"now", "today", "utcnow"}
BUILTIN_IO = {"open", "input", "print"}


def impure_uses(source: str) -> list[str]:
    """I/O, the clock and the global random generator (a seeded ``random.Random`` is fine)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] in IMPURE_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            module = node.module or ""
            if module.split(".")[0] in IMPURE_MODULES:
                found.append(module)
            if module == "random":
                found += [f"random.{a.name}" for a in node.names if a.name != "Random"]
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in BUILTIN_IO:
                found.append(func.id)
            elif isinstance(func, ast.Attribute):
                owner = func.value
                if func.attr in CLOCK_CALLS:
                    found.append(func.attr)
                elif isinstance(owner, ast.Name) and owner.id == "random" and func.attr != "Random":
                    found.append(f"random.{func.attr}")
    return found


def test_impurity_detector_flags_clock_io_and_global_random():
    assert impure_uses("import time") == ["time"]
    assert impure_uses("from datetime import datetime\nx = datetime.now()") == ["now"]
    assert impure_uses("open('f')") == ["open"]
    assert impure_uses("import random\nrandom.shuffle(x)") == ["random.shuffle"]
    assert impure_uses("from random import choice") == ["random.choice"]
    assert impure_uses("import random\nrng = random.Random(seed)\nrng.shuffle(x)") == []


@pytest.mark.parametrize("path", module_files(), ids=lambda path: path.name)
def test_module_uses_no_clock_no_io_and_no_global_randomness(path):
    assert impure_uses(path.read_text("utf-8")) == []
