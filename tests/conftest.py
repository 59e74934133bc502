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
