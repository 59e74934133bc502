"""A player's personal data: an organiser exports it as JSON and anonymises the player; results stay."""

import io
import json
import pathlib

import pypdf
import pytest
from django.test import Client

from tests.api.conftest import make_tournament, member
from tests.factories import ClubFactory
from tests.pdf.conftest import pdf_pages
from tests.tournaments.test_audit import play_round
from tests.tournaments.test_links import player_url
from tournaments.models import AuditEntry, ClubMembership, SeatSwap
from tournaments.services.personal_data import player_anonymise
from tournaments.services.printing import round_print_pack_build
from tournaments.services.prizes import tournament_standings_publish
from tournaments.services.registration import registration_update
from tournaments.services.rounds import round_close, round_draw, round_publish, seat_swap
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db
Role = ClubMembership.Role


@pytest.fixture
def played():
    club = ClubFactory(name="SK Musterdorf")
    orga = member(club, Role.ORGANISER, "sepp")
    tournament = make_tournament(club, players=8, slug="herbst")
    reg = tournament.registrations.select_related("player").get(start_number=2)
    reg.player.contact = "0171 555 1234, vor2@example.org"
    reg.player.save()
    registration_update(registration=reg, paid=False, by=orga)
    (rnd,) = round_draw(tournament=tournament, seed=4, by=orga)
    other = tournament.registrations.exclude(pk=reg.pk).first()
    seat_swap(round=rnd, first=reg, second=other, by=orga)
    round_publish(round=rnd, by=orga)
    play_round(rnd)
    round_close(round=rnd, by=orga)
    standings_recompute(tournament_id=tournament.pk)
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(orga)
    return tournament, reg, orga, client


def test_an_organiser_exports_everything_about_one_player(played):
    tournament, reg, orga, client = played
    response = client.get(f"/o/spieler/{reg.player.pk}/daten.json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert data["player"] == {
        "id": reg.player.pk,
        "first_name": "Vor2",
        "last_name": "Nach2",
        "club": "SK Musterdorf",
        "contact": "0171 555 1234, vor2@example.org",
    }
    (entry,) = data["registrations"]
    assert entry["tournament"]["slug"] == "herbst" and entry["start_number"] == 2 and entry["paid"] is False
    (played_round,) = entry["rounds"]
    assert played_round["round"] == 1 and played_round["games"] > 0
    snapshot = tournament.standings_snapshot.data
    assert json.dumps(snapshot)  # the points in the export are the standings' points
    assert [e["action"] for e in data["log"]] == ["registration.paid"]
    assert AuditEntry.objects.filter(action="player.export", subject="Vor2 Nach2", by=orga).exists()


def test_anonymising_keeps_the_results_and_forgets_the_person(played):
    tournament, reg, orga, client = played
    player = reg.player
    points_before = client.get(f"/o/spieler/{player.pk}/daten.json").json()["registrations"][0]["rounds"]
    standings_before = [(s["start_number"], s["points"]) for s in _overall(tournament)]

    # Without the tick nothing happens.
    client.post(f"/o/spieler/{player.pk}/anonymisieren/")
    player.refresh_from_db()
    assert player.last_name == "Nach2"

    response = client.post(f"/o/spieler/{player.pk}/anonymisieren/", {"confirm": "1"}, follow=True)
    assert f"Spieler {player.pk}" in response.content.decode()
    player.refresh_from_db()
    assert (player.first_name, player.last_name, player.contact) == ("", f"Spieler {player.pk}", "")
    assert player.name == f"Spieler {player.pk}"
    # Results stay: the same points in the export and the same standings, now under the new name.
    assert client.get(f"/o/spieler/{player.pk}/daten.json").json()["registrations"][0]["rounds"] == points_before
    tournament.standings_snapshot.refresh_from_db()
    assert [(s["start_number"], s["points"]) for s in _overall(tournament)] == standings_before
    names = {s["start_number"]: s["name"] for s in _overall(tournament)}
    assert names[2] == f"Spieler {player.pk}"
    # The old name is gone from the log, the seat swaps, the standings and the public pages.
    texts = [
        json.dumps([e.subject, e.before, e.after, e.reason], ensure_ascii=False)
        for e in AuditEntry.objects.filter(tournament=tournament)
    ]
    texts += [s.description for s in SeatSwap.objects.filter(round__tournament=tournament)]
    texts.append(
        json.dumps([tournament.standings_snapshot.overall, tournament.standings_snapshot.data], ensure_ascii=False)
    )
    assert not [t for t in texts if "Nach2" in t]
    assert "Nach2" not in Client().get(f"/t/{tournament.slug}/sitzplan/").content.decode()
    assert AuditEntry.objects.filter(action="player.anonymise", subject=f"Spieler {player.pk}", by=orga).exists()
    # Only whole names were replaced: the other players' names are untouched.
    assert "Nach1" in json.dumps(tournament.standings_snapshot.overall)


def test_only_the_players_club_organisers_may(played):
    tournament, reg, orga, _ = played
    for role in (Role.DESK, Role.VIEWER):
        helper = Client()
        helper.force_login(member(tournament.club, role, f"h-{role}"))
        assert helper.get(f"/o/spieler/{reg.player.pk}/daten.json").status_code == 404
        assert helper.post(f"/o/spieler/{reg.player.pk}/anonymisieren/", {"confirm": "1"}).status_code == 404
    stranger = Client()
    stranger.force_login(member(ClubFactory(), Role.ORGANISER, "fremd"))
    assert stranger.get(f"/o/spieler/{reg.player.pk}/daten.json").status_code == 404
    reg.player.refresh_from_db()
    assert reg.player.last_name == "Nach2"
    # The player page shows the section to organisers only.
    desk = Client()
    desk.force_login(member(tournament.club, Role.DESK, "desk2"))
    assert 'data-testid="personal-data"' not in desk.get(f"/o/spieler/{reg.player.pk}/").content.decode()
    own = Client()
    own.force_login(orga)
    assert 'data-testid="personal-data"' in own.get(f"/o/spieler/{reg.player.pk}/").content.decode()


def _overall(tournament):
    return tournament.standings_snapshot.overall


def _texts_under(root) -> list[str]:
    """Every file under ``root`` as text (a PDF's extracted text and its raw bytes)."""
    texts = []
    for path in pathlib.Path(root).rglob("*"):
        if path.is_file():
            raw = path.read_bytes()
            texts.append(raw.decode("latin-1"))
            if raw.startswith(b"%PDF"):
                texts.extend(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(raw)).pages)
    return texts


def test_erasing_leaves_the_name_nowhere_not_in_the_log_the_files_or_the_caches(
    played, settings, tmp_path, django_capture_on_commit_callbacks
):
    """Issue 33.10: right after the erase, in the same process, no log entry, file under MEDIA_ROOT,
    cached list or page (polled with the tag it had before) names him."""
    settings.MEDIA_ROOT = tmp_path
    tournament, reg, orga, client = played
    tournament_standings_publish(tournament=tournament, public=True)
    rnd = tournament.rounds.get()
    mate = tournament.registrations.filter(seats__table__seats__registration=reg).exclude(pk=reg.pk).first()
    assert client.get(f"/o/spieler/{reg.player.pk}/daten.json").status_code == 200  # logs "player.export"
    round_print_pack_build(round=rnd)
    phone = Client(HTTP_ACCEPT_LANGUAGE="de")
    pages = [
        f"/t/{tournament.slug}/rangliste/",
        f"/t/{tournament.slug}/rangliste/?runde=1",
        f"/t/{tournament.slug}/rangliste/beamer/",
        f"/t/{tournament.slug}/sitzplan/",
        player_url(mate),
        player_url(reg),
    ]
    tags = {}
    for url in pages:  # read once: every cache holds what the page showed
        response = phone.get(url)
        assert response.status_code == 200
        tags[url] = response.get("ETag")
    assert "Nach2" in phone.get(player_url(mate)).content.decode()
    assert any("Nach2" in t for t in _texts_under(tmp_path))

    with django_capture_on_commit_callbacks(execute=True):  # as in a request: the erase commits
        player_anonymise(player=reg.player, club=tournament.club, by=orga)

    for url in pages:  # a phone that kept nothing: the process's caches (lists, rounds, rendered rows)
        assert "Nach2" not in Client(HTTP_ACCEPT_LANGUAGE="de").get(url).content.decode(), url
    for url in pages:  # a phone that kept the page: it is not "unchanged"
        response = phone.get(url, **({"HTTP_IF_NONE_MATCH": tags[url]} if tags[url] else {}))
        assert response.status_code == 200, url  # not "unchanged": the page the phone kept names him
        assert "Nach2" not in response.content.decode(), url
    seat_list = client.get(f"/o/{tournament.slug}/runde/1/druck/sitzplan.pdf")
    assert seat_list.status_code == 200 and "Nach2" not in str(pdf_pages(seat_list.content))
    assert not [t for t in _texts_under(tmp_path) if "Nach2" in t]
    assert client.get(f"/o/{tournament.slug}/runde/1/druck/druckpaket.pdf").status_code == 404  # built again on request
    log = AuditEntry.objects.filter(club=tournament.club)
    assert log.filter(action="player.export").exists()
    assert not [e for e in log if "Nach2" in json.dumps([e.subject, e.before, e.after, e.reason], ensure_ascii=False)]
