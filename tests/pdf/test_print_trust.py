"""Redis down must not break the print page (issue 13, fix 4): it says so and offers the single PDFs.

The pack's job lives in the database (a PrintPack row); what Redis takes down is the broker that carries
the job to a worker. Here real workers are configured and their broker is a Redis nobody listens on.
"""

import contextlib

import pytest
import redis
from django.core.cache import caches
from django.test import override_settings
from django.urls import reverse

from tests.pdf.conftest import pdf_pages
from tournaments.services import printing


@contextlib.contextmanager
def broker_down():
    """Real workers configured, their broker (Redis) down: every connection to it is refused."""
    from schafkopfrennen.celery import app

    keys = ("task_always_eager", "broker_url")
    old = {key: app.conf.get(key) for key in keys}
    app.conf.update(task_always_eager=False, broker_url="redis://127.0.0.1:9/0")
    app._pool = None
    try:
        yield
    finally:
        app.conf.update(**old)
        app._pool = None


def url(name: str, rnd, **kwargs) -> str:
    return reverse(f"tournaments:{name}", kwargs={"slug": rnd.tournament.slug, "number": rnd.number, **kwargs})


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


@pytest.mark.django_db
def test_print_page_with_redis_down_says_unavailable_and_offers_single_documents(organiser_client, played_round):
    with broker_down():
        page = organiser_client.get(url("print_round", played_round))

    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-testid="pack-unavailable"' in html and "Druckdienst ist gerade nicht erreichbar" in html
    assert 'data-testid="pack-build"' not in html  # nothing offered that cannot work now
    assert 'data-testid="doc-sitzplan"' in html and 'data-testid="doc-spielliste"' in html
    # the single documents are made in the request, without the cache
    seat_list = organiser_client.get(url("print_document", played_round, doc="sitzplan"))
    assert seat_list.status_code == 200 and seat_list["Content-Type"] == "application/pdf"
    assert "Sitzplan" in " ".join(pdf_pages(seat_list.content)[0])
    sheet = organiser_client.get(url("print_table_document", played_round, table=1, doc="spielliste"))
    assert sheet.status_code == 200 and sheet["Content-Type"] == "application/pdf"


@pytest.mark.django_db
def test_asking_for_the_pack_with_redis_down_answers_unavailable(
    organiser_client, played_round, django_capture_on_commit_callbacks
):
    with broker_down(), django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = organiser_client.post(url("print_round", played_round), HTTP_HX_REQUEST="true")
        status = organiser_client.get(url("print_status", played_round))
    assert response.status_code == 200 and 'data-status="unavailable"' in response.content.decode()
    assert status.status_code == 200 and 'data-status="unavailable"' in status.content.decode()
    assert not callbacks  # no task enqueued that nobody could report on
    assert not list(printing.pack_directory().glob("*.pdf"))


DEAD_CACHE = {
    "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:9/1"}
}


@pytest.mark.django_db
def test_with_the_shared_cache_down_too_the_print_page_and_the_single_documents_work(organiser_client, played_round):
    """Redis down on a server usually means the shared cache (REDIS_CACHE_URL) is gone as well as the broker."""
    with override_settings(CACHES=DEAD_CACHE), broker_down():
        caches.close_all()
        with pytest.raises(redis.exceptions.ConnectionError):  # the cache really is unreachable here
            caches["default"].get("probe")
        page = organiser_client.get(url("print_round", played_round))
        status = organiser_client.get(url("print_status", played_round))
        seat_list = organiser_client.get(url("print_document", played_round, doc="sitzplan"))
    caches.close_all()
    assert page.status_code == 200 and 'data-testid="pack-unavailable"' in page.content.decode()
    assert 'data-testid="doc-sitzplan"' in page.content.decode()
    assert status.status_code == 200 and 'data-status="unavailable"' in status.content.decode()
    assert seat_list.status_code == 200 and seat_list["Content-Type"] == "application/pdf"
