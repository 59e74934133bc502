"""Shared fixtures. Under CI=true a missing service or browser fails the test instead of skipping."""

import os

import pytest

IN_CI = os.environ.get("CI", "").lower() == "true"

try:
    from hypothesis import settings as hypothesis_settings
except ImportError:  # the pure engine tests also run on a bare Python
    pass
else:
    # No per-example deadline: tests never assert wall-clock times, and on a busy 2-core machine a
    # pure example can take 500 ms once (hypothesis then calls the test "flaky" and fails it).
    hypothesis_settings.register_profile("schafkopfrennen", deadline=None)
    hypothesis_settings.load_profile("schafkopfrennen")


def skip_or_fail(reason: str) -> None:
    """Skip on a newcomer's machine; fail under CI, where nothing may skip for a missing service."""
    if IN_CI:
        pytest.fail(f"CI=true but {reason}")
    pytest.skip(reason)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """At the very end, what did not run and why (a newcomer's machine without PostgreSQL, Redis or
    Chromium): one line per reason with how many tests it skipped."""
    skipped = terminalreporter.stats.get("skipped", [])
    if not skipped:
        return
    reasons: dict[str, int] = {}
    for report in skipped:
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        reason = reason.removeprefix("Skipped: ")
        reasons[reason] = reasons.get(reason, 0) + 1
    terminalreporter.section("not run on this machine", sep="=", yellow=True, bold=True)
    for reason, count in sorted(reasons.items(), key=lambda item: -item[1]):
        terminalreporter.write_line(f"{count:4d} skipped: {reason}")
    terminalreporter.write_line("CI (CI=true, .ci/run) runs them all: there a missing service fails instead.")


@pytest.fixture(scope="session")
def collected_static(tmp_path_factory):
    """The static files collected once per run as a deployment collects them (tests/production.py):
    returns the settings in which production differs from the tests, STATIC_ROOT the collected files."""
    from tests.production import collect_static  # Django's: the pure engine tests also run on a bare Python

    return collect_static(tmp_path_factory.mktemp("staticfiles"))


@pytest.fixture
def production(collected_static):
    """The test runs with production's settings: DEBUG off, the manifest storage's hashed static URLs."""
    from django.test.utils import override_settings

    with override_settings(**collected_static):
        yield collected_static


@pytest.fixture(autouse=True)
def _fresh_standings_lists():
    """The decoded standings lists and the player pages' tables are kept per process and
    version; a test's database is rolled back and may give the next test's rows the same ids."""
    try:
        from tournaments.selectors import standings
    except ImportError:  # the pure engine tests also run on a bare Python
        yield
        return
    from tournaments.selectors import links

    standings._LISTS.clear()
    links._ROUNDS.clear()
    yield
    standings._LISTS.clear()
    links._ROUNDS.clear()


@pytest.fixture(autouse=True)
def _reportlab_invariant():
    """Byte-stable PDFs in tests."""
    try:
        from reportlab import rl_config
    except ImportError:  # the pure engine tests also run on a bare Python
        yield
        return
    old = rl_config.invariant
    rl_config.invariant = 1
    yield
    rl_config.invariant = old
