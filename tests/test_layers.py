"""The layers hold: import-linter's contracts (.importlinter), and what an import graph cannot see.

``make test`` runs ``lint-imports`` before pytest; this test runs the same contracts, so a plain
``pytest`` fails on a broken layer too. Which imports are allowed is declared in .importlinter only:
the pure modules import the standard library and each other, the apps depend one way (tournaments
uses scoring), selectors never import services, and no package has an import loop.
"""

import ast
import sys
from pathlib import Path

import pytest
from importlinter import cli

ROOT = Path(__file__).resolve().parents[1]
PROJECT_PACKAGES = ("tournaments", "scoring", "schafkopfrennen")
PURE = sorted((ROOT / "scoring" / "rules").glob("*.py")) + [ROOT / "tournaments" / "seating.py"]


def test_the_import_contracts_are_kept(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.syspath_prepend(str(ROOT))
    assert cli.lint_imports(config_filename=str(ROOT / ".importlinter"), no_cache=True) == cli.EXIT_STATUS_SUCCESS


# --- Function-level imports: only with a comment that says why ---


def function_level_imports(source: str) -> list[tuple[int, str]]:
    """(line, module) of every import of a project module inside a function or class body without a comment."""
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.Import):
                modules = [alias.name for alias in inner.names]
            elif isinstance(inner, ast.ImportFrom):
                modules = ["." * inner.level + (inner.module or "")]
            else:
                continue
            project = [m for m in modules if m.startswith(".") or m.split(".")[0] in PROJECT_PACKAGES]
            said_why = "#" in lines[inner.lineno - 1] or lines[inner.lineno - 2].strip().startswith("#")
            if project and not said_why:
                found.append((inner.lineno, project[0]))
    return sorted(set(found))


def test_the_detector_finds_a_function_level_import_without_a_reason():
    assert function_level_imports("def f():\n    from tournaments.models import Hand\n") == [(2, "tournaments.models")]
    assert function_level_imports("def f():\n    from ..selectors import x\n") == [(2, "..selectors")]
    assert function_level_imports("def f():\n    from . import checks  # registers the checks\n") == []
    assert function_level_imports("def f():\n    import json\n") == []
    assert function_level_imports("from tournaments.models import Hand\n") == []


def project_files() -> list[Path]:
    return [
        path
        for package in PROJECT_PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
    ]


@pytest.mark.parametrize("path", project_files(), ids=lambda path: str(path.relative_to(ROOT)))
def test_no_function_level_import_of_a_project_module(path):
    """An import inside a function hides a dependency (and often a loop) from the import graph."""
    assert function_level_imports(path.read_text("utf-8")) == []


# --- The pure modules: no clock, no I/O, no global randomness (imports are the contracts' job) ---

CLOCK_CALLS = {"now", "today", "utcnow"}
BUILTIN_IO = {"open", "input", "print"}


def impure_uses(source: str) -> list[str]:
    """Calls of the clock and of I/O builtins, and the global random generator (a seeded ``random.Random`` is fine)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "random":
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


def test_the_impurity_detector_flags_clock_io_and_global_random():
    assert impure_uses("from datetime import datetime\nx = datetime.now()") == ["now"]
    assert impure_uses("open('f')") == ["open"]
    assert impure_uses("import random\nrandom.shuffle(x)") == ["random.shuffle"]
    assert impure_uses("from random import choice") == ["random.choice"]
    assert impure_uses("import random\nrng = random.Random(seed)\nrng.shuffle(x)") == []


@pytest.mark.parametrize("path", PURE, ids=lambda path: str(path.relative_to(ROOT)))
def test_a_pure_module_uses_no_clock_no_io_and_no_global_randomness(path):
    assert impure_uses(path.read_text("utf-8")) == []


def test_the_pure_modules_are_found():
    assert len(PURE) > 5 and all(path.exists() for path in PURE)
    assert sys.version_info >= (3, 10)  # ast.FunctionDef | ... above
