"""A table page's poll (entry.js asks its own page again, with the ETag it got) costs almost nothing while
nothing changes: a 304 in one small query and no template rendered; from a tablet without a session it
is answered in front of Django (``UnchangedPolls``), as the phones' standings polls are.
"""

import uuid

import pytest
from django.db import connection
from django.test import signals
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from schafkopfrennen.polling import UnchangedPolls
from tests.test_polling import Django, get
from tests.tournaments.test_services_hands import RUF, make_table
from tournaments.models import Round
from tournaments.services.hands import hand_record


@pytest.fixture
def rendered():
    """The templates rendered meanwhile."""
    names = []

    def seen(sender, template, context, **kwargs):
        names.append(template.name)

    signals.template_rendered.connect(seen)
    yield names
    signals.template_rendered.disconnect(seen)


@pytest.mark.django_db
def test_an_unchanged_poll_of_the_table_page_is_a_304_in_one_query_rendering_nothing(client, rendered):
    table = make_table()
    url = reverse("tournaments:entry_table", args=[table.entry_key])
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"] and rendered
    rendered.clear()
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and not again.content
    assert len(queries) == 1 and not rendered
    hand_record(table=table, record=RUF, client_id=uuid.uuid4())  # another device's game: the page changed
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


@pytest.mark.django_db(transaction=True)
def test_a_tablets_unchanged_poll_is_answered_before_django():
    table = make_table()
    django_app = Django()
    entry = UnchangedPolls(django_app)
    url = reverse("tournaments:entry_table", args=[table.entry_key])
    status, first, _ = get(entry, url, HTTP_ACCEPT="text/html")
    assert status == 200 and django_app.calls == 1
    with CaptureQueriesContext(connection) as queries:
        status, _headers, body = get(
            entry, url, HTTP_IF_NONE_MATCH=first["ETag"], HTTP_ACCEPT="text/html", cookies="csrftoken=abc"
        )
    assert status == 304 and not body and django_app.calls == 1  # Django never saw it
    assert len(queries) == 1


@pytest.mark.django_db
def test_a_wrong_key_and_an_unpublished_round_are_still_404(client):
    assert client.get(reverse("tournaments:entry_table", args=["nope"]), HTTP_IF_NONE_MATCH='"x"').status_code == 404
    drawn = make_table(status=Round.Status.DRAWN)
    assert client.get(reverse("tournaments:entry_table", args=[drawn.entry_key])).status_code == 404
