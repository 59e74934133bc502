"""A mistyped address shows the project's own page, in German first, as production serves it (DEBUG off, as
``make run`` serves the demo too): never Django's debug page, never a bare "Not Found"."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_a_mistyped_address_shows_the_project_s_german_404(production):
    response = Client().get("/turnierr/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 404
    page = response.content.decode()
    assert '<h1 data-testid="not-found">Seite nicht gefunden</h1>' in page
    assert "Zur Startseite" in page and 'class="topbar"' in page  # the project's layout, with its way home
    assert "URLconf" not in page and "DEBUG = True" not in page  # not Django's debug page


def test_in_english_too(production):
    response = Client().get("/turnierr/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404
    assert '<h1 data-testid="not-found">Page not found</h1>' in response.content.decode()
