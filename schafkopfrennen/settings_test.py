"""The settings the test suite runs with (pytest.ini): settings.py, and what only the tests change.

Production's settings stay as they are (tests/test_test_setup.py checks both). The module lives in this
package, not in tests/: the package imports the Celery app, which reads the settings while they load.
"""

from schafkopfrennen.settings import *  # noqa: F403

# Every test user costs one hash, and Django's default (PBKDF2 with a million iterations, as production keeps
# it) is slow on purpose. Django's own suite does this.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
