"""Issue 35: the accessibility statement, in German and English, linked from every page's footer, says what is
met, what is not and whom to tell (DJANGO_ACCESSIBILITY_CONTACT, else the site's sender address)."""

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db


def test_the_statement_says_what_is_met_what_is_not_and_whom_to_tell_in_german(client, settings):
    settings.ACCESSIBILITY_CONTACT = "barrieren@rennen.example.org"
    page = client.get(reverse("tournaments:accessibility"), HTTP_ACCEPT_LANGUAGE="de")
    text = page.content.decode()
    assert page.status_code == 200
    for words in (
        "Barrierefreiheit",
        "Was erfüllt ist",
        "Was noch nicht erfüllt ist",
        "Eine Barriere melden",
        "keine getaggten PDFs",
    ):
        assert words in text
    assert 'href="mailto:barrieren@rennen.example.org"' in text


def test_the_statement_in_english_names_a_contact_that_is_not_an_address_as_it_is(client, settings):
    settings.ACCESSIBILITY_CONTACT = "Sepp Huber, 0171 234567"
    client.post(reverse("set_language"), {"language": "en"})
    text = client.get(reverse("tournaments:accessibility")).content.decode()
    assert "What is not met yet" in text and "Sepp Huber, 0171 234567" in text and "mailto:" not in text


def test_every_page_links_the_statement_from_its_footer_but_the_projector(client):
    tournament = TournamentFactory()
    link = f'href="{reverse("tournaments:accessibility")}"'
    for path in (
        reverse("tournaments:home"),
        reverse("login"),
        reverse("tournaments:public_tournament", args=[tournament.slug]),
    ):
        page = client.get(path, HTTP_ACCEPT_LANGUAGE="de")
        assert (
            page.status_code == 200
            and '<footer class="site-footer">' in page.content.decode()
            and link in page.content.decode()
        ), path
