"""schafkopfrennen/forget.py: an erase empties every process's kept names (issue 33.10)."""

from django.core.cache import cache
from django.core.cache.backends.redis import RedisCache

from schafkopfrennen import forget


def test_another_process_forgetting_empties_this_ones_caches_at_its_next_check(monkeypatch):
    kept = {"row": "Vor2 Nach2"}
    monkeypatch.setattr(forget, "_CLEARS", [kept.clear])
    monkeypatch.setattr(forget, "_seen", {"generation": None, "checked": float("-inf")})
    before = forget.generation()
    assert kept  # nothing forgotten yet
    cache.set(forget.KEY, "another-process-forgot")  # what names_forget() in another process writes
    assert forget.generation() == before and kept  # within CHECK_SECONDS the process does not ask again
    forget._seen["checked"] = float("-inf")  # CHECK_SECONDS later
    assert forget.generation() == "another-process-forgot" and not kept


def test_names_forget_empties_this_process_at_once_and_tells_the_others(monkeypatch):
    kept = {"row": "Vor2 Nach2"}
    monkeypatch.setattr(forget, "_CLEARS", [kept.clear])
    new = forget.names_forget()
    assert not kept and cache.get(forget.KEY) == new and forget.generation() == new


def test_with_the_shared_cache_down_the_pages_go_on_and_this_process_still_forgets(monkeypatch):
    kept = {"row": "Vor2 Nach2"}
    monkeypatch.setattr(forget, "_CLEARS", [kept.clear])
    monkeypatch.setattr(forget, "_seen", {"generation": "g1", "checked": float("-inf")})
    monkeypatch.setattr(
        forget, "cache", RedisCache("redis://127.0.0.1:9/0", {"OPTIONS": {"socket_connect_timeout": 0.2}})
    )
    assert forget.generation() == "g1" and kept
    forget.names_forget()
    assert not kept
