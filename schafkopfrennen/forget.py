"""Names forgotten at once: when a player is erased, every process drops what it kept of names.

The pages that many phones read keep parts of themselves per process (decoded standings lists, a
table's rounds for the player pages, rendered rows) under keys that follow the games, not the names,
and a polled page whose token did not change is answered 304, so the phone keeps showing the page it
has. ``names_forget()`` (called by the erase, ``tournaments/services/personal_data.py``) empties every
cache registered with ``keeps`` in this process at once and puts a new ``generation()`` in the shared
cache (Redis with ``REDIS_CACHE_URL``); every other process sees it within ``CHECK_SECONDS`` and empties
its own. The generation is part of every polled page's tag (``polling._tag``) and of the standings'
fragment keys, so a page kept from before the erase is never "unchanged".
"""

import logging
import threading
import time
import uuid
from collections.abc import Callable

from django.core.cache import cache

logger = logging.getLogger(__name__)

KEY = "schafkopfrennen:names-generation"
CHECK_SECONDS = 1.0  # how often a process asks the shared cache whether names were forgotten elsewhere

_CLEARS: list[Callable[[], None]] = []
_LOCK = threading.Lock()
_seen = {"generation": None, "checked": float("-inf")}


def keeps(clear: Callable[[], None]) -> Callable[[], None]:
    """Register a per-process cache's ``clear``: it is called whenever names are forgotten."""
    _CLEARS.append(clear)
    return clear


def _clear_all() -> None:
    for clear in _CLEARS:
        clear()


def generation() -> str:
    """The names' generation as this process knows it; a change seen empties this process's caches."""
    now = time.monotonic()
    if now - _seen["checked"] < CHECK_SECONDS:
        return _seen["generation"] or ""
    try:
        found = cache.get(KEY) or ""
    except Exception:  # the shared cache (Redis) is down: the pages go on, with what this process knows
        logger.warning("names generation unreadable; asking again in %.0f s", CHECK_SECONDS, exc_info=True)
        _seen["checked"] = now
        return _seen["generation"] or ""
    with _LOCK:
        if _seen["generation"] is not None and found != _seen["generation"]:
            _clear_all()
        _seen["generation"], _seen["checked"] = found, now
    return found


def names_forget() -> str:
    """Forget every name kept: this process's caches now, the others' within ``CHECK_SECONDS``."""
    new = uuid.uuid4().hex
    try:
        cache.set(KEY, new, timeout=None)
    except Exception:  # the shared cache (Redis) is down: this process forgets now, the others at their restart
        logger.exception("names generation not shared: other processes keep names until they restart")
    with _LOCK:
        _clear_all()
        _seen["generation"], _seen["checked"] = new, time.monotonic()
    return new
