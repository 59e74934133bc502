"""The series pages, downloads, histories and organiser setup, on the demo's season and a season of four."""

import csv
import io
import json

import pypdf
import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from tournaments.models import ClubMembership, Player, Series, SeriesTournament, Tournament
from tournaments.selectors.series import series_standings
from tournaments.services.demo import DEMO_SERIES_SLUG, demo_create
from tournaments.services.players import players_merge

from .conftest import make_series

pytestmark = pytest.mark.django_db
MINUS = "\u2212"


@pytest.fixture
def demo():
    demo_create()
    return Series.objects.get(slug=DEMO_SERIES_SLUG)


def url(name, *args):
    return reverse(f"tournaments:{name}", args=args)


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(content)).pages)


def printed(points: int) -> str:
    return f"+{points}" if points > 0 else f"{MINUS}{-points}" if points < 0 else "0"


def test_the_demo_has_a_finished_season_best_two_of_three(demo, client):
    assert (demo.scoring, demo.best, demo.public) == ("best_n", 2, True)
    data = series_standings(demo)
    assert len(data.played) == 3 and all(t.status == Tournament.Status.FINISHED for t in data.played)
    assert all(len(row.counted) <= 2 for row in data.rows)
    assert any(row.participations == 3 for row in data.rows)  # someone's worst result is struck
    assert any(row.club == "SK Nachbarort" for row in data.rows)  # the guest, with his club
    home = client.get("/").content.decode()
    assert url("series", DEMO_SERIES_SLUG) in home  # a newcomer sees the season from the start page


def test_series_page_shows_standings_charts_and_statistics(demo, client):
    page = client.get(url("series", demo.slug), HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 200
    html = page.content.decode()
    data = series_standings(demo)
    for row in data.rows:
        assert row.name in html
    assert html.count('data-testid="progression-chart"') == 1 and html.count('data-testid="mix-chart"') == 1
    assert "<title id=" in html and "Rufspiel" in html
    assert "Solo-Gewinnquote" in html  # German first


def test_a_hidden_series_is_for_the_clubs_members_only(demo, client):
    Series.objects.filter(pk=demo.pk).update(public=False)
    assert client.get(url("series", demo.slug)).status_code == 404
    assert client.get(url("series_download", demo.slug, "json")).status_code == 404
    assert "jahreswertung" not in client.get("/").content.decode()
    user = get_user_model().objects.create_user("viewer", password="pw")
    ClubMembership.objects.create(user=user, club=demo.club, role=ClubMembership.Role.VIEWER)
    client.force_login(user)
    assert client.get(url("series", demo.slug)).status_code == 200


def test_pdf_holds_every_ranked_name_and_the_points(demo, client):
    with translation.override("en"):
        response = client.get(url("series_download", demo.slug, "pdf"))
    assert response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    data = series_standings(demo)
    lines = [line.strip() for line in text.splitlines()]
    for row in data.rows:  # each string drawn is a line: the name, the club (maybe two lines), the points
        at = lines.index(row.name)
        assert printed(row.points) in lines[at + 1 : at + 5], (row.name, row.points, lines[at : at + 5])
        assert lines[at - 1] == f"{row.rank}."
    assert "Contract mix" in text or "Spielarten" in text


def test_csv_and_json_downloads(demo, client):
    data = series_standings(demo)
    document = json.loads(client.get(url("series_download", demo.slug, "json")).content)
    assert [r["name"] for r in document["standings"]] == [r.name for r in data.rows]
    assert document["best"] == 2 and document["scoring"] == "best_n"
    text = client.get(url("series_download", demo.slug, "csv")).content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert rows[1][1] == data.rows[0].name and rows[1][3] == str(data.rows[0].points)


def test_player_history_in_the_series_and_by_his_key(demo, client):
    data = series_standings(demo)
    row = next(r for r in data.rows if r.participations == 3)
    html = client.get(url("series_player", demo.slug, row.player_id), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for t in data.played:
        assert t.name in html
    assert 'data-testid="history-chart"' in html
    assert "<h2>Games</h2>" in html and "Your games" not in html  # a public page does not speak to the player
    player = Player.objects.get(pk=row.player_id)
    registration = player.registrations.get(tournament__slug="herbstrennen")
    html = client.get(url("player_history", registration.key), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Herbstrennen" in html and all(t.name in html for t in data.played)
    assert "<h2>Your games</h2>" in html  # his own page, opened with his key
    assert client.get(url("player_history", "x" * 24)).status_code == 404
    stranger = Player.objects.create(first_name="Nie", last_name="Dabei", club=demo.club)
    assert client.get(url("series_player", demo.slug, stranger.pk)).status_code == 404


def test_tournament_statistics_page(demo, client):
    html = client.get(url("tournament_statistics", "fruehjahrsrennen-2026")).content.decode()
    assert 'data-testid="progression-chart"' in html and 'data-testid="mix-chart"' in html
    Tournament.objects.filter(slug="fruehjahrsrennen-2026").update(standings_public=False)
    assert (
        'data-testid="standings-hidden"'
        in client.get(url("tournament_statistics", "fruehjahrsrennen-2026")).content.decode()
    )


def test_tournament_statistics_as_a_pdf_with_reportlab_charts(demo, client):
    from tournaments.selectors.series import statistics_facts, tournament_statistics

    tournament = Tournament.objects.get(slug="fruehjahrsrennen-2026")
    page = client.get(url("tournament_statistics", tournament.slug), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert url("tournament_statistics_pdf", tournament.slug) in page
    response = client.get(url("tournament_statistics_pdf", tournament.slug), HTTP_ACCEPT_LANGUAGE="de")
    assert response["Content-Type"] == "application/pdf"
    text = pdf_text(response.content)
    stats = tournament_statistics(tournament)
    assert "Verlauf der Wertung" in text and "Spielarten" in text and "Runde" in text  # headings, the x axis
    for name, _line in stats.progression:  # the line plot's legend
        assert name in text
    for share in stats.games.mix:  # the bar chart's categories
        assert {
            "rufspiel": "Rufspiel",
            "wenz": "Wenz",
            "farbsolo": "Farbsolo",
            "tout": "Tout",
            "muss": "Muss",
            "sie": "Sie",
        }[share.category] in text
    with translation.override("de"):
        for label, value in statistics_facts(stats):
            assert label in text and value.split(" ")[0] in text
    Tournament.objects.filter(pk=tournament.pk).update(standings_public=False)
    assert client.get(url("tournament_statistics_pdf", tournament.slug)).status_code == 403
    user = get_user_model().objects.create_user("viewer", password="pw")
    ClubMembership.objects.create(user=user, club=tournament.club, role=ClubMembership.Role.VIEWER)
    client.force_login(user)
    assert client.get(url("tournament_statistics_pdf", tournament.slug)).status_code == 200


def test_certificates_for_the_series_winners(demo, client):
    user = get_user_model().objects.create_user("desk", password="pw")
    ClubMembership.objects.create(user=user, club=demo.club, role=ClubMembership.Role.DESK)
    client.force_login(user)
    with translation.override("en"):
        response = client.get(url("series_certificates", demo.slug))
    reader = pypdf.PdfReader(io.BytesIO(response.content))
    data = series_standings(demo)
    winners = [r for r in data.rows if r.rank <= 3]
    assert len(reader.pages) == len(winners)
    for page, row in zip(reader.pages, winners, strict=True):
        text = page.extract_text()
        assert row.name in text and demo.name in text
    assert client.get(url("series_certificates", demo.slug) + "?plaetze=x").status_code == 400


@pytest.fixture
def organiser(club, client):
    user = get_user_model().objects.create_user("orga", password="pw")
    ClubMembership.objects.create(user=user, club=club, role=ClubMembership.Role.ORGANISER)
    client.force_login(user)
    return user


def test_an_organiser_sets_up_a_series_and_adds_a_tournament(club, organiser, client, season_tournaments):
    response = client.post(
        url("series_manage_list"),
        {
            "club": club.pk,
            "name": "Cup 2026",
            "slug": "",
            "kind": "cup",
            "scoring": "placement",
            "placement_points": "25, 20, 16",
            "min_participations": 1,
            "tiebreaks": "participations,wins,best_result,lot",
        },
    )
    assert response.status_code == 302
    series = Series.objects.get(slug="cup-2026")
    assert series.placement_points == [25, 20, 16]
    client.post(url("series_manage", series.slug), {"action": "add", "tournament": season_tournaments[0].pk})
    assert SeriesTournament.objects.filter(series=series, tournament=season_tournaments[0]).exists()
    bad = client.post(
        url("series_manage", series.slug),
        {
            "action": "settings",
            "name": "Cup 2026",
            "kind": "cup",
            "scoring": "best_n",
            "best": "",
            "min_participations": 1,
            "tiebreaks": "lot",
        },
    )
    assert bad.status_code == 400 and "best" in bad.context["form"].errors
    assert Series.objects.get(pk=series.pk).scoring == "placement"  # nothing half-written
    bad = client.post(
        url("series_manage_list"),
        {
            "club": club.pk,
            "name": "X",
            "kind": "cup",
            "scoring": "placement",
            "placement_points": "25, zwanzig",
            "min_participations": 1,
            "tiebreaks": "lot",
        },
    )
    assert "placement_points" in bad.context["form"].errors


def test_another_clubs_organiser_adds_his_tournament_but_not_the_scoring(club, season_tournaments, client, people):
    from tournaments.models import Club
    from tournaments.services.registration import registration_create
    from tournaments.services.simulation import tournament_play
    from tournaments.services.tournament import tournament_create

    series = make_series(club, season_tournaments[:2], public=True)  # a cup open to other clubs
    private = make_series(club, [], slug="vereinsmeisterschaft")
    other = Club.objects.create(name="SC Anderswo")
    away = tournament_create(
        club=other,
        name="Gastspiel",
        slug="gastspiel",
        date=season_tournaments[1].date,
        rules={"rounds": 1, "games_per_round": 8},
    )
    for person in people[:8]:
        registration_create(tournament=away, player=person, paid=True, checked_in=True)
    tournament_play(tournament=away, seed=5)
    user = get_user_model().objects.create_user("orga-b", password="pw")
    ClubMembership.objects.create(user=user, club=other, role=ClubMembership.Role.ORGANISER)
    client.force_login(user)
    # another club's private series does not exist for him (issue 33)
    assert client.get(url("series_manage", private.slug)).status_code == 404
    assert client.post(url("series_manage", private.slug), {"action": "add", "tournament": away.pk}).status_code == 404
    assert not SeriesTournament.objects.filter(series=private).exists()
    # not his club's tournament: refused
    client.post(url("series_manage", series.slug), {"action": "add", "tournament": season_tournaments[2].pk})
    assert not SeriesTournament.objects.filter(series=series, tournament=season_tournaments[2]).exists()
    client.post(url("series_manage", series.slug), {"action": "add", "tournament": away.pk})
    assert SeriesTournament.objects.filter(series=series, tournament=away).exists()
    assert "gastspiel" in {t.slug for t in series_standings(series).played}
    response = client.post(
        url("series_manage", series.slug),
        {
            "action": "settings",
            "name": "Gekapert",
            "kind": "cup",
            "scoring": "sum",
            "min_participations": 1,
            "tiebreaks": "lot",
        },
    )
    assert response.status_code == 403 and Series.objects.get(pk=series.pk).name != "Gekapert"

    # the owning club's organiser may take the guest tournament out again (an unwanted addition)
    owner = get_user_model().objects.create_user("orga-a", password="pw")
    ClubMembership.objects.create(user=owner, club=club, role=ClubMembership.Role.ORGANISER)
    client.force_login(owner)
    page = client.get(url("series_manage", series.slug))
    assert f'name="tournament" value="{away.pk}"' in page.content.decode()
    client.post(url("series_manage", series.slug), {"action": "remove", "tournament": away.pk})
    assert not SeriesTournament.objects.filter(series=series, tournament=away).exists()
    bad = client.post(url("series_manage", series.slug), {"action": "remove", "tournament": "x"})
    assert bad.status_code == 400
    # but he adds only his own club's tournaments
    client.post(url("series_manage", series.slug), {"action": "add", "tournament": away.pk})
    assert not SeriesTournament.objects.filter(series=series, tournament=away).exists()


def test_the_merged_players_history_page_shows_both_records(club, people, season_tournaments, client):
    series = make_series(club, season_tournaments)
    series.public = True
    series.save()
    players_merge(keep=people[5], remove=people[11])
    html = client.get(url("series_player", series.slug, people[5].pk)).content.decode()
    for t in season_tournaments:  # 5 played the first three, 11 (merged in) the fourth
        assert t.name in html


def test_the_series_pdf_carries_the_clubs_logo_and_its_charts(demo, client, settings, tmp_path):
    from django.core.files.base import ContentFile

    from tests.pdf.test_end_documents import page_images, png

    settings.MEDIA_ROOT = tmp_path / "media"
    without = pypdf.PdfReader(io.BytesIO(client.get(url("series_download", demo.slug, "pdf")).content))
    assert not any(page_images(page) for page in without.pages)
    demo.club.logo.save("vereinslogo.png", ContentFile(png(600, 200)), save=True)
    with_logo = pypdf.PdfReader(io.BytesIO(client.get(url("series_download", demo.slug, "pdf")).content))
    assert all(len(page_images(page)) == 1 for page in with_logo.pages)
    charts = with_logo.pages[-1].extract_text()
    assert "Verlauf der Wertung" in charts  # German first
    assert "Rufspiel" in charts  # the bar chart's category axis


def _history_row(html: str, name: str) -> str:
    """The history table's row of the tournament ``name``."""
    return next(row for row in html.split("<tr>") if name in row and 'class="num rank"' in row)


def test_the_history_shows_no_place_of_a_tournament_whose_standings_are_hidden(demo, client):
    """Issue 33.11e: his history (by his key, and in the series) keeps hidden standings hidden."""
    data = series_standings(demo)
    row = next(r for r in data.rows if r.participations == 3)
    player = Player.objects.get(pk=row.player_id)
    hidden = data.played[0]
    registration = player.registrations.get(tournament__slug="herbstrennen")
    pages = [url("player_history", registration.key), url("series_player", demo.slug, row.player_id)]
    for page in pages:  # published: his place is there
        assert 'class="num rank">–' not in _history_row(client.get(page).content.decode(), hidden.name)
    Tournament.objects.filter(pk=hidden.pk).update(standings_public=False)
    for page in pages:
        html = client.get(page, HTTP_ACCEPT_LANGUAGE="de").content.decode()
        cells = _history_row(html, hidden.name)
        assert 'class="num rank">–' in cells and 'class="num points">–' in cells, page
        assert "Die Rangliste ist noch nicht veröffentlicht." in cells
        assert (
            'data-testid="history-chart"' not in html or hidden.name not in html.split('data-testid="history-chart"')[1]
        )
