"""How the suite itself runs (issue 33): a fast password hasher for tests only, and the end of a run says
what it skipped and why."""

import os
import subprocess
import sys
from pathlib import Path

from django.conf import global_settings, settings
from django.contrib.auth.hashers import get_hasher

from tests.production import production_settings

ROOT = Path(__file__).resolve().parent.parent


def test_tests_hash_passwords_fast_and_production_keeps_django_s_default():
    # The suite runs with its own settings module (pytest.ini), which sets the fast hasher.
    assert settings.SETTINGS_MODULE == "schafkopfrennen.settings_test"
    assert get_hasher().algorithm == "md5"
    assert settings.PASSWORD_HASHERS == ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # settings.py names no hasher: production keeps Django's default (PBKDF2, a million iterations).
    assert "PASSWORD_HASHERS" not in production_settings()
    assert global_settings.PASSWORD_HASHERS[0] == "django.contrib.auth.hashers.PBKDF2PasswordHasher"


def test_the_end_of_a_run_says_what_it_skipped_and_why(tmp_path):
    (tmp_path / "test_skips.py").write_text(
        "import pytest\n\n"
        "def test_a():\n    pytest.skip('no Redis at redis://127.0.0.1:6379/9')\n\n"
        "def test_b():\n    pytest.skip('no Redis at redis://127.0.0.1:6379/9')\n\n"
        "def test_c():\n    pytest.skip('row locks need PostgreSQL')\n\n"
        "def test_d():\n    pass\n"
    )
    env = {
        **{name: value for name, value in os.environ.items() if name != "CI"},
        "DJANGO_SETTINGS_MODULE": "schafkopfrennen.settings",
    }
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-c",
            os.devnull,
            "--rootdir",
            str(tmp_path),
            "-p",
            "tests.conftest",
            "-p",
            "no:cacheprovider",
            "-q",
            str(tmp_path / "test_skips.py"),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if "not run on this machine" in line)
    assert lines[start + 1 : start + 3] == [
        "   2 skipped: no Redis at redis://127.0.0.1:6379/9",
        "   1 skipped: row locks need PostgreSQL",
    ]
