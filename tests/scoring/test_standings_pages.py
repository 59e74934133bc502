"""Cheap reads: an unchanged poll is a 304 before rendering, HTML is gzipped, the list comes in pages
with a search and the viewer's own row, and the rendered list is reused per snapshot version."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import StandingsSnapshot
from tournaments.services.prizes import tournament_standings_publish
from tournaments.services.simulation import tournament_simulate
from tournaments.views import standings as standings_views

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        tournament = tournament_simulate(slug="halle", players=61, rounds=1, games=8, seed=7)
    tournament_standings_publish(tournament=tournament, public=True)
    return tournament


def test_an_unchanged_poll_gets_304_without_rendering(client, field, monkeypatch):
    url = "/t/halle/rangliste/"
    first = client.get(url, HTTP_HX_REQUEST="true")
    assert first.status_code == 200 and first["ETag"] and "no-cache" in first["Cache-Control"]
    rendered = []
    monkeypatch.setattr(standings_views, "render_to_string", lambda *a, **k: rendered.append(a) or "")
    monkeypatch.setattr(standings_views, "render", lambda *a, **k: rendered.append(a))
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and not again.content and not rendered
    assert len(queries) <= 2  # the tournament with its snapshot's version, and "is a game newer?"
    monkeypatch.undo()
    # the whole page and the htmx fragment are different documents with different tags
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_a_counted_change_changes_the_etag(client, field):
    from tournaments.models import Round, Table, TableConfirmation

    url = "/t/halle/rangliste/"
    tag = client.get(url)["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    table = Table.objects.filter(round__tournament=field).first()
    # A closed round's confirmations are not on the page (its progress line is the round being played's).
    TableConfirmation.objects.filter(table=table).order_by("pk").first().delete()
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    Round.objects.filter(tournament=field).update(status=Round.Status.PUBLISHED)  # the round is played again
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 200
    tag = client.get(url)["ETag"]
    TableConfirmation.objects.filter(table=table).order_by("pk").first().delete()  # its progress line changes
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 200
    Round.objects.filter(tournament=field).update(status=Round.Status.CLOSED)
    tag = client.get(url)["ETag"]
    StandingsSnapshot.objects.filter(tournament=field).update(version=99)
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 200
    StandingsSnapshot.objects.filter(tournament=field).update(revision=0)  # a game not yet counted
    changed = client.get(url, HTTP_IF_NONE_MATCH=tag, HTTP_ACCEPT_LANGUAGE="en")
    assert changed.status_code == 200 and "Newer games are still being counted" in changed.content.decode()


def test_html_is_gzipped(client, field):
    page = client.get("/t/halle/rangliste/", HTTP_ACCEPT_ENCODING="gzip")
    assert page.status_code == 200 and page["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in page["Vary"] and "HX-Request" in page["Vary"]


def test_the_top_a_search_the_viewers_row_and_pages(client, field):
    rows = StandingsSnapshot.objects.get(tournament=field).overall
    assert len(rows) == 61
    top = client.get("/t/halle/rangliste/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert top.count("data-start-number=") == 50 and rows[0]["name"] in top and "Page 1 of 2 (61 players)" in top
    last = rows[-1]
    mine = client.get(f"/t/halle/rangliste/?ich={last['start_number']}", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-testid="standings-me"' in mine and last["name"] in mine  # pinned above the top 50
    second = client.get("/t/halle/rangliste/?seite=2", HTTP_HX_REQUEST="true").content.decode()
    assert second.count("data-start-number=") == 11 and last["name"] in second
    found = client.get(f"/t/halle/rangliste/?q={rows[30]['start_number']}", HTTP_HX_REQUEST="true").content.decode()
    assert found.count("data-start-number=") == 1 and rows[30]["name"] in found
    assert client.get("/t/halle/rangliste/?seite=999&ich=abc").status_code == 200  # clamped, ignored


def test_the_list_is_rendered_once_per_snapshot_version(client, field, monkeypatch):
    calls = []
    real = standings_views.render_to_string
    monkeypatch.setattr(
        standings_views, "render_to_string", lambda name, *a, **k: calls.append(name) or real(name, *a, **k)
    )
    for me in (1, 2, 3):  # three phones, each with its own row: one list for all of them
        assert client.get(f"/t/halle/rangliste/?seite=2&ich={me}", HTTP_HX_REQUEST="true").status_code == 200
    assert calls.count("standings/_rows.html") == 1 and calls.count("standings/_table.html") == 1
    assert calls.count("standings/_me.html") == 3
    calls.clear()
    # A new token on the same snapshot (a game not merged yet, a confirmation): the status and progress
    # lines are rendered again, the rows are not.
    from schafkopfrennen import polling

    another = ("another-token", *standings_views.standings_state("halle")[1:])  # as the WSGI entry hands it on
    client.get("/t/halle/rangliste/?seite=2", HTTP_HX_REQUEST="true", **{polling._STATE: another})
    assert calls == ["standings/_table.html"]
    calls.clear()
    StandingsSnapshot.objects.filter(tournament=field).update(version=77)
    client.get("/t/halle/rangliste/?seite=2", HTTP_HX_REQUEST="true")
    assert calls == ["standings/_rows.html", "standings/_table.html"]


def test_a_snapshot_list_is_read_and_decoded_once_per_version(field):
    """Changed polls between two writes share one decoded list: the document is read once per version."""
    from tournaments.selectors.standings import standings_view
    from tournaments.services.standings import standings_recompute

    def reads_of_the_list(round=None) -> tuple[int, object]:
        with CaptureQueriesContext(connection) as queries:
            view = standings_view(field, round=round)
        return sum('"overall"' in q["sql"] for q in queries), view

    first, view = reads_of_the_list()
    again, same = reads_of_the_list()
    assert first == 1 and again == 0 and same.rows == view.rows and len(view.rows) == 61
    # a round's list is ranked from the kept overall list, not read again
    reads, round_view = reads_of_the_list(round=1)
    assert (
        reads == 0
        and round_view.rows
        and {r["round_points"][0] for r in round_view.rows} <= {r["points"] for r in round_view.rows}
    )
    standings_recompute(tournament_id=field.pk)  # a new version: read again
    assert reads_of_the_list()[0] == 1


def test_another_tournaments_newer_game_does_not_make_these_standings_lag(field, django_capture_on_commit_callbacks):
    """The token asks this tournament's tables only when the newest revision of all is newer than its snapshot."""
    from tournaments.selectors.standings import standings_state

    token = standings_state("halle")[0]
    assert token.split("-")[1] == "1"  # current
    with django_capture_on_commit_callbacks(execute=True):
        tournament_simulate(slug="nachbar", players=8, rounds=1, games=8, seed=2)
    assert standings_state("halle")[0] == token
    StandingsSnapshot.objects.filter(tournament=field).update(revision=0)  # one of its own games not counted
    assert standings_state("halle")[0].split("-")[1] == "0"


def test_a_row_is_rendered_once_for_what_it_shows(field, monkeypatch):
    """Rows a merge leaves as they were are not rendered again; a changed row is, in every language."""
    from dataclasses import replace

    from django.template.loader import render_to_string
    from django.utils import translation

    from tournaments.selectors.standings import standings_view
    from tournaments.templatetags import standings as tags

    view = standings_view(field, paged=True)
    rows = list(view.rows)
    context = {"view": view, "paged": True}
    tags._ROWS.clear()
    first = render_to_string("standings/_rows.html", context)
    rendered = []
    real = tags.render_to_string
    monkeypatch.setattr(tags, "render_to_string", lambda *a, **k: rendered.append(a[1]["row"]) or real(*a, **k))
    moved = {**rows[3], "points": rows[3]["points"] - 1000, "name": "Zenzi Umgezogen"}
    again = render_to_string(
        "standings/_rows.html", {**context, "view": replace(view, rows=[*rows[:3], moved, *rows[4:]])}
    )
    assert rendered == [moved]  # only the changed row
    assert "Zenzi Umgezogen" in again and "Zenzi Umgezogen" not in first
    assert again.count("<tr data-start-number") == len(rows)
    with translation.override("en"):
        english = render_to_string("standings/_rows.html", context)
    assert len(rendered) == 1 + len(rows) and english.count("<tr data-start-number") == len(rows)


def test_the_time_of_computing_is_shown_in_the_sites_time_zone_on_every_page(client, field):
    """The poll's plain read of the snapshot's time is as aware as the ORM's: on SQLite the driver hands
    back a naive datetime in UTC, which the standings page once showed as if it were local time."""
    from django.template.defaultfilters import time as time_filter
    from django.utils import timezone, translation

    from tournaments.selectors.standings import standings_state

    snapshot = StandingsSnapshot.objects.get(tournament=field)
    _tag, computed_at, poll = standings_state("halle")
    assert computed_at == snapshot.computed_at and timezone.is_aware(computed_at)
    assert poll.computed_at == snapshot.computed_at
    with translation.override("en"), timezone.override("Europe/Berlin"):
        shown = f"Computed at {time_filter(timezone.localtime(snapshot.computed_at), 'H:i:s')}."
        assert timezone.localtime(snapshot.computed_at).utcoffset()  # Berlin is never at UTC's time
        for url in ("/t/halle/rangliste/", "/t/halle/rangliste/beamer/", "/t/halle/rangliste/?runde=1"):
            page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
            assert shown in page, url


def test_standings_behind_for_more_than_a_minute_say_so_plainly_on_the_pages_and_in_the_csv(client, field):
    """Issue 33: "Neuere Spiele werden noch gezählt" while nothing counted (Redis away) misled the hall.
    Games waiting longer than a minute: the pages and the CSV say since when the list is behind."""
    import datetime

    from django.db.models import F
    from django.template.defaultfilters import time as time_filter
    from django.utils import timezone

    from tournaments.models import HandRevision

    revisions = HandRevision.objects.filter(table__round__tournament=field).order_by("pk")
    counted, waiting = revisions[0], revisions[1]
    StandingsSnapshot.objects.filter(tournament=field).update(revision=counted.pk)  # the later games not counted
    url, csv_url = "/t/halle/rangliste/", "/t/halle/rangliste.csv"
    young = client.get(url, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="de")
    assert "Neuere Spiele werden noch gezählt" in young.content.decode() and "Stand von" not in young.content.decode()
    assert "Stand von" not in client.get(csv_url, HTTP_ACCEPT_LANGUAGE="de").content.decode("utf-8-sig")

    revisions.update(at=F("at") - datetime.timedelta(minutes=2))  # two minutes later, still nothing counted
    since = time_filter(timezone.localtime(waiting.at - datetime.timedelta(minutes=2)), "H:i")
    german = f"Stand von {since} – die letzten Spiele sind noch nicht gezählt."
    polled = client.get(url, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="de", HTTP_IF_NONE_MATCH=young["ETag"])
    assert polled.status_code == 200  # a polling phone gets the new sentence, not a 304
    for page in (
        polled,
        client.get(url, HTTP_ACCEPT_LANGUAGE="de"),
        client.get(url + "beamer/", HTTP_ACCEPT_LANGUAGE="de"),
    ):
        text = page.content.decode()
        assert german in text and "Neuere Spiele werden noch gezählt" not in text
    lines = client.get(csv_url, HTTP_ACCEPT_LANGUAGE="de").content.decode("utf-8-sig").splitlines()
    assert lines[0] == german and lines[1].startswith("Platz;")
    english = client.get(csv_url, HTTP_ACCEPT_LANGUAGE="en").content.decode("utf-8-sig").splitlines()[0]
    assert english == f"Standings as of {since} – the latest games have not been counted yet."
    download = client.get("/t/halle/rangliste.json").json()
    assert download["current"] is False and download["not_counted_since"] == revisions[1].at.isoformat()
