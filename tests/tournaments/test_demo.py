import pytest
from django.core.management import call_command

from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def test_demo_is_idempotent_and_prints_the_login(capsys):
    call_command("demo")
    call_command("demo")
    out = capsys.readouterr().out
    assert "organisator" in out
    tournament = Tournament.objects.get(slug="herbstrennen")
    assert tournament.club.name == "Schafkopffreunde Musterdorf"
    regs = Registration.objects.filter(tournament=tournament)
    assert regs.count() == 22
    assert all(r.checked_in for r in regs)
    assert sorted(r.start_number for r in regs) == list(range(1, 23))


def test_admin_shows_the_demo_tournament_with_22_registrations(client):
    call_command("demo")
    assert client.login(username="organisator", password="herbstrennen-demo")
    tournament = Tournament.objects.get(slug="herbstrennen")
    page = client.get("/admin/tournaments/tournament/")
    assert page.status_code == 200
    assert "Herbstrennen" in page.content.decode()
    detail = client.get(f"/admin/tournaments/tournament/{tournament.pk}/change/").content.decode()
    assert detail.count('name="registrations-') >= 22 * 4
    assert "Anna Huber" in detail or "Huber" in detail


def test_home_page_lists_the_demo(client):
    call_command("demo")
    page = client.get("/")
    assert page.status_code == 200
    body = page.content.decode()
    assert "Herbstrennen" in body
    assert "22 Spieler" in body or "22 players" in body
