"""System checks (``manage.py check --deploy`` and every start): settings that work alone but not together."""
from django.conf import settings
from django.core.checks import Warning, register


@register("schafkopfrennen")
def shared_cache_with_real_workers(app_configs=None, **kwargs) -> list[Warning]:
    """Real Celery workers need a cache they share with the web processes.

    The standings' one-second coalescing window lives in the cache; with a per-process local-memory
    cache the web processes and the workers do not coalesce together. (The print pack's job and
    progress live in the database: ``PrintPack``.)
    """
    backend = settings.CACHES["default"]["BACKEND"]
    if settings.CELERY_BROKER_URL and backend.endswith("LocMemCache"):
        return [Warning(
            "CELERY_BROKER_URL is set but the cache is local to each process.",
            hint="Set REDIS_CACHE_URL (e.g. redis://127.0.0.1:6379/1) so that the web processes and the "
                 "workers coalesce standings recomputes together.",
            id="schafkopfrennen.W001",
        )]
    return []
