"""Shared fixtures. Under CI=true a missing service or browser fails the test instead of skipping."""
import os

import pytest

IN_CI = os.environ.get("CI", "").lower() == "true"


def skip_or_fail(reason: str) -> None:
    """Skip on a newcomer's machine; fail under CI, where nothing may skip for a missing service."""
    if IN_CI:
        pytest.fail(f"CI=true but {reason}")
    pytest.skip(reason)


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
