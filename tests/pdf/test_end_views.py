"""The documents of the tournament's end on the web: who may fetch them, parameters, links on the organiser pages."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import ClubFactory, TournamentFactory
from tests.pdf.conftest import pdf_pages
from tournaments.models import ClubMembership

DOCUMENTS = ("print_standings", "print_prizes", "print_cash", "print_certificates")


def url(name: str, tournament) -> str:
    return reverse(f"tournaments:{name}", kwargs={"slug": tournament.slug})


def member(tournament, role: str, club=None):
    user = get_user_model().objects.create_user(f"u-{role}-{club.pk if club else 0}", password="pw")
    ClubMembership.objects.create(user=user, club=club or tournament.club, role=role)
    return user


@pytest.fixture
def organiser_client(client, finished_tournament):
    client.force_login(member(finished_tournament, "organiser"))
    return client


def test_the_addresses():
    tournament = TournamentFactory.build(slug="herbst")
    assert [url(name, tournament) for name in DOCUMENTS] == [
        "/o/herbst/druck/rangliste.pdf",
        "/o/herbst/druck/preisliste.pdf",
        "/o/herbst/druck/kassenliste.pdf",
        "/o/herbst/druck/urkunden.pdf",
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "name, filename, pages",
    [
        ("print_standings", "rangliste-ende-21.pdf", 3),
        ("print_prizes", "preisliste-ende-21.pdf", 1),
        ("print_cash", "kassenliste-ende-21.pdf", 2),
        ("print_certificates", "urkunden-ende-21.pdf", 3),
    ],
)
def test_organiser_gets_each_document(organiser_client, finished_tournament, name, filename, pages):
    response = organiser_client.get(url(name, finished_tournament))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'inline; filename="{filename}"'
    assert response["Cache-Control"] == "private, no-store"
    assert len(pdf_pages(response.content)) == pages


@pytest.mark.django_db
def test_anonymous_is_sent_to_the_login(client, finished_tournament):
    for name in DOCUMENTS:
        response = client.get(url(name, finished_tournament))
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


@pytest.mark.django_db
@pytest.mark.parametrize("role, status", [("organiser", 200), ("desk", 200), ("viewer", 404)])
def test_roles(client, finished_tournament, role, status):
    client.force_login(member(finished_tournament, role))
    for name in DOCUMENTS:
        assert client.get(url(name, finished_tournament)).status_code == status


@pytest.mark.django_db
def test_another_clubs_organiser_gets_404(client, finished_tournament):
    client.force_login(member(finished_tournament, "organiser", club=ClubFactory(name="Anderer Verein")))
    for name in DOCUMENTS:
        assert client.get(url(name, finished_tournament)).status_code == 404


@pytest.mark.django_db
def test_standings_of_one_round(organiser_client, finished_tournament):
    response = organiser_client.get(
        url("print_standings", finished_tournament), {"runde": "2"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response["Content-Disposition"] == 'inline; filename="rangliste-ende-21-runde-2.pdf"'
    (page,) = pdf_pages(response.content)
    assert page[:2] == ["Standings", "Round 2"]
    for bad in ("3", "0", "zwei", "-1"):
        assert organiser_client.get(url("print_standings", finished_tournament), {"runde": bad}).status_code == 404


@pytest.mark.django_db
def test_certificates_for_a_number_of_places(organiser_client, finished_tournament):
    response = organiser_client.get(url("print_certificates", finished_tournament), {"plaetze": "5"})
    assert len(pdf_pages(response.content)) == 5
    for bad in ("0", "fünf", "5000"):
        response = organiser_client.get(url("print_certificates", finished_tournament), {"plaetze": bad})
        assert response.status_code == 400 and b"plaetze" in response.content


@pytest.mark.django_db
def test_the_organiser_pages_link_the_documents(organiser_client, finished_tournament):
    slug = finished_tournament.slug
    prizes = organiser_client.get(reverse("tournaments:prizes", kwargs={"slug": slug})).content.decode()
    assert f'href="/o/{slug}/druck/preisliste.pdf" data-testid="prizes-pdf"' in prizes
    assert f'href="/o/{slug}/druck/urkunden.pdf" data-testid="certificates-pdf"' in prizes
    cash = organiser_client.get(reverse("tournaments:cash", kwargs={"slug": slug})).content.decode()
    assert f'href="/o/{slug}/druck/kassenliste.pdf" data-testid="cash-pdf"' in cash
    control = organiser_client.get(reverse("tournaments:control", kwargs={"slug": slug})).content.decode()
    assert f'href="/o/{slug}/druck/rangliste.pdf" data-testid="standings-pdf"' in control


@pytest.mark.django_db
def test_no_standings_link_before_the_first_round_nor_for_a_viewer(client, finished_tournament):
    fresh = TournamentFactory(club=finished_tournament.club, slug="noch-nichts")
    client.force_login(member(finished_tournament, "organiser"))
    assert (
        b'data-testid="standings-pdf"'
        not in client.get(reverse("tournaments:control", kwargs={"slug": fresh.slug})).content
    )
    client.force_login(member(finished_tournament, "viewer"))
    page = client.get(reverse("tournaments:control", kwargs={"slug": finished_tournament.slug}))
    assert page.status_code == 200 and b'data-testid="standings-pdf"' not in page.content
    prizes = client.get(reverse("tournaments:prizes", kwargs={"slug": finished_tournament.slug})).content
    assert b'data-testid="prizes-pdf"' not in prizes
