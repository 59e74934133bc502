"""The project is whole on its own: a clone has no ../shared, so the specifications it follows live in docs/
(kept equal to ../shared/spec while both exist) and nothing in it points at ../shared."""

from pathlib import Path

import pytest

from tests.conftest import skip_or_fail

ROOT = Path(__file__).resolve().parent.parent
SHARED_SPEC = ROOT.parent / "shared" / "spec"
# Where this project keeps what ../shared/spec holds: spec/<name> is docs/<name>.
DOCS = ROOT / "docs"
SOURCES = ("README.md", "Makefile", "docs", "schafkopfrennen", "scoring", "tournaments", "templates", "bench", "tests")


def _shared_files() -> list[Path]:
    if not SHARED_SPEC.is_dir():
        skip_or_fail(f"no {SHARED_SPEC}: the copies in docs/ cannot be compared (a clone of the project alone)")
    return sorted(path for path in SHARED_SPEC.rglob("*") if path.is_file())


def test_every_specification_in_shared_has_its_copy_in_docs_and_they_are_equal():
    files = _shared_files()
    assert files, f"{SHARED_SPEC} is empty"
    for shared in files:
        name = shared.relative_to(SHARED_SPEC)
        copy = DOCS / name
        assert copy.is_file(), f"docs/{name} is missing: copy it from ../shared/spec/{name}"
        assert copy.read_bytes() == shared.read_bytes(), f"docs/{name} differs from ../shared/spec/{name}"


@pytest.mark.parametrize("name", ["rules.md", "archive.md", "score-cli.md", "cases/scoring.json"])
def test_the_specifications_the_code_follows_are_in_docs(name):
    assert (DOCS / name).is_file()


def test_nothing_points_at_the_shared_folder_a_clone_does_not_have():
    pointing = []
    for top in SOURCES:
        paths = [ROOT / top] if (ROOT / top).is_file() else (ROOT / top).rglob("*")
        for path in paths:
            if path.suffix not in {".py", ".md", ".html", ".txt", ""} or not path.is_file() or path == Path(__file__):
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            if "shared/spec" in text or "../shared" in text or "shared/STYLE" in text:
                pointing.append(str(path.relative_to(ROOT)))
    assert pointing == []
