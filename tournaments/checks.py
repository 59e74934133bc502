"""System checks (``manage.py check --deploy`` and every start): settings that work alone but not together."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.checks import Warning, register
from django.db import DatabaseError
from django.db.models import Q

from .services.demo import DEMO_PASSWORD, DEMO_USERNAME


@register("schafkopfrennen")
def shared_cache_with_real_workers(app_configs=None, **kwargs) -> list[Warning]:
    """Real Celery workers need a cache they share with the web processes.

    The standings' one-second coalescing window lives in the cache; with a per-process local-memory
    cache the web processes and the workers do not coalesce together. (The print pack's job and
    progress live in the database: ``PrintPack``.)
    """
    backend = settings.CACHES["default"]["BACKEND"]
    if settings.CELERY_BROKER_URL and backend.endswith("LocMemCache"):
        return [
            Warning(
                "CELERY_BROKER_URL is set but the cache is local to each process.",
                hint="Set REDIS_CACHE_URL (e.g. redis://127.0.0.1:6379/1) so that the web processes and the "
                "workers coalesce standings recomputes together.",
                id="schafkopfrennen.W001",
            )
        ]
    return []


@register("schafkopfrennen", deploy=True)
def demo_password_in_use(app_configs=None, **kwargs) -> list[Warning]:
    """``check --deploy``: the demo's organiser login (or any staff login) still has the demo's published password.

    Only the demo's user name and the staff are tried (each try hashes the password once, on purpose slow).
    """
    user_model = get_user_model()
    try:
        users = list(
            user_model.objects.filter(
                Q(username=DEMO_USERNAME) | Q(is_staff=True) | Q(is_superuser=True), is_active=True
            )
        )
    except DatabaseError:  # no database yet (before migrate): nothing to check
        return []
    found = sorted(user.get_username() for user in users if user.check_password(DEMO_PASSWORD))
    if found:
        return [
            Warning(
                f"The demo's published password opens the login of: {', '.join(found)}.",
                hint="Set a new password (python manage.py changepassword <name>) or delete the user; "
                "never run manage.py demo on a production server.",
                id="schafkopfrennen.W002",
            )
        ]
    return []
