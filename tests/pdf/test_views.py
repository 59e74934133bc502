"""The print page of a round: the pack (build, progress, download) and single documents on request."""

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.urls import reverse

from tests.factories import ClubFactory
from tests.pdf.conftest import pdf_pages
from tournaments.models import ClubMembership, PrintPack, Seat
from tournaments.services import printing


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


def url(name: str, rnd, **kwargs) -> str:
    return reverse(f"tournaments:{name}", kwargs={"slug": rnd.tournament.slug, "number": rnd.number, **kwargs})


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


@pytest.mark.django_db
def test_anonymous_is_sent_to_the_login(client, played_round):
    response = client.get(url("print_round", played_round))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.django_db
@pytest.mark.parametrize("role, status", [("organiser", 200), ("desk", 200), ("viewer", 404)])
def test_roles(client, played_round, role, status):
    user = get_user_model().objects.create_user(f"u-{role}", password="pw")
    ClubMembership.objects.create(user=user, club=played_round.tournament.club, role=role)
    client.force_login(user)
    assert client.get(url("print_round", played_round)).status_code == status
    assert client.get(url("print_document", played_round, doc="sitzplan")).status_code == status


@pytest.mark.django_db
def test_another_clubs_organiser_gets_404(client, played_round):
    user = get_user_model().objects.create_user("fremd", password="pw")
    ClubMembership.objects.create(user=user, club=ClubFactory(name="Anderer Verein"), role="organiser")
    client.force_login(user)
    for response in (
        client.get(url("print_round", played_round)),
        client.post(url("print_round", played_round)),
        client.get(url("print_document", played_round, doc="spielliste")),
        client.get(url("print_table_document", played_round, table=1, doc="spielliste")),
    ):
        assert response.status_code == 404


@pytest.mark.django_db
def test_build_the_pack_and_download_it(organiser_client, played_round, django_capture_on_commit_callbacks):
    page = organiser_client.get(url("print_round", played_round))
    assert b'data-testid="pack-build"' in page.content and b'data-status="none"' in page.content

    with django_capture_on_commit_callbacks(execute=True) as callbacks:  # the task runs in-process (eager)
        response = organiser_client.post(url("print_round", played_round))
    assert response.status_code == 302 and len(callbacks) == 1

    page = organiser_client.get(url("print_round", played_round))
    assert b'data-status="ready"' in page.content and b'data-testid="pack-download"' in page.content
    download = organiser_client.get(url("print_pack", played_round))
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"
    assert "attachment" in download["Content-Disposition"]
    content = b"".join(download.streaming_content)
    assert len(pdf_pages(content)) == 2 + 2 * played_round.tables.count()


@pytest.mark.django_db
def test_htmx_post_answers_with_the_fragment_that_polls(
    organiser_client, played_round, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False):  # no worker picks it up yet
        response = organiser_client.post(url("print_round", played_round), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and 'data-status="pending"' in html
    assert 'hx-trigger="every 1s"' in html and url("print_status", played_round) in html
    assert "<html" not in html


@pytest.mark.django_db
def test_status_fragment_shows_progress_then_stops_polling(organiser_client, played_round):
    # the page asks in the request's language (German, the default), so does this test
    state = printing.round_print_pack_state(round=played_round, url_base="http://testserver/", language="de")
    PrintPack.objects.update_or_create(
        round=played_round, defaults={"status": "running", "fingerprint": state.fingerprint, "done": 3, "total": 5}
    )
    html = organiser_client.get(url("print_status", played_round)).content.decode()
    assert 'data-status="running"' in html and "<progress" in html and 'value="3"' in html
    assert 'hx-trigger="every 1s"' in html
    printing.round_print_pack_build(round=played_round, url_base="http://testserver/", language="de")
    html = organiser_client.get(url("print_status", played_round)).content.decode()
    assert 'data-status="ready"' in html and "hx-trigger" not in html


@pytest.mark.django_db
def test_download_without_a_pack_is_404(organiser_client, played_round):
    assert organiser_client.get(url("print_pack", played_round)).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("doc", ["spielliste-leer", "spielliste", "sitzplan", "tischkarten"])
def test_single_documents(organiser_client, played_round, doc):
    response = organiser_client.get(url("print_document", played_round, doc=doc))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"].startswith("inline;")
    pages = pdf_pages(response.content)
    tables = played_round.tables.count()
    assert len(pages) == (2 if doc == "sitzplan" else tables)
    names = {
        s.registration.player.name
        for s in Seat.objects.filter(round=played_round).select_related("registration__player")
    }
    text = "\n".join(line for page in pages for line in page)
    if doc != "sitzplan":
        assert "http://testserver/tisch/" not in text  # the link is in the QR code, not printed
    assert all(name in text or name.split(" ")[-1] in text for name in names)


@pytest.mark.django_db
def test_unknown_document_is_404(organiser_client, played_round):
    assert organiser_client.get(url("print_document", played_round, doc="geheim")).status_code == 404
    assert organiser_client.get(url("print_table_document", played_round, table=1, doc="sitzplan")).status_code == 404
    missing_table = url("print_table_document", played_round, table=99, doc="spielliste")
    assert organiser_client.get(missing_table).status_code == 404
    assert (
        organiser_client.get(
            reverse("tournaments:print_round", kwargs={"slug": played_round.tournament.slug, "number": 9})
        ).status_code
        == 404
    )


@pytest.mark.django_db
def test_one_tables_sheet_through_the_form(organiser_client, played_round):
    response = organiser_client.get(url("print_table_pick", played_round), {"table": "2", "doc": "spielliste-leer"})
    assert response.status_code == 302
    assert response["Location"] == url("print_table_document", played_round, table=2, doc="spielliste-leer")
    pages = pdf_pages(organiser_client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="en").content)
    assert len(pages) == 1 and "Table 2" in pages[0]

    bad = organiser_client.get(url("print_table_pick", played_round), {"table": "77", "doc": "spielliste"})
    assert bad.status_code == 400 and b'data-testid="pick-error"' in bad.content
