"""The organiser's evening (issue 15): the warnings, corrections and closing actions of the console."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, TournamentFactory
from tournaments.models import ClubMembership, Round

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def tournament(client):
    club = ClubFactory(name="Schafkopffreunde Musterdorf")
    user = get_user_model().objects.create_user("orga", password="pw-12345-x")
    ClubMembership.objects.create(user=user, club=club, role=ClubMembership.Role.ORGANISER)
    client.force_login(user)
    tournament = TournamentFactory(club=club)
    for number in range(1, 9):
        RegistrationFactory(
            tournament=tournament,
            start_number=number,
            paid=number != 5,
            player=PlayerFactory(club=club, first_name="Spieler", last_name=f"Nummer{number}"),
        )
    return tournament


def test_the_console_and_the_rounds_page_warn_about_unpaid_players_before_the_draw(client, tournament):
    for url in (f"/o/{tournament.slug}/", f"/o/{tournament.slug}/runden/"):
        page = client.get(url, **EN).content.decode()
        assert 'data-testid="unpaid-warning"' in page, url
        assert "1 checked-in player has not paid:" in page and "5 Spieler Nummer5" in page
    response = client.post(f"/o/{tournament.slug}/runden/auslosen/", **EN, follow=True)
    assert Round.objects.filter(tournament=tournament).count() == 1
    text = response.content.decode()
    assert "Not paid yet: 5 Spieler Nummer5. Collect the entry fee at the desk." in text


def test_no_warning_when_everybody_paid(client, tournament):
    tournament.registrations.update(paid=True)
    assert 'data-testid="unpaid-warning"' not in client.get(f"/o/{tournament.slug}/", **EN).content.decode()


def test_money_fields_speak_german_a_decimal_comma_shown_and_accepted(client, tournament):
    page = client.get(f"/o/{tournament.slug}/einstellungen/").content.decode()
    assert 'name="entry_fee" value="10,00"' in page
    response = client.post(
        f"/o/{tournament.slug}/preise/",
        {
            "prize-TOTAL_FORMS": "1",
            "prize-INITIAL_FORMS": "0",
            "prize-0-place": "1",
            "prize-0-amount_euro": "12,50",
            "prize-0-goods": "",
        },
    )
    assert response.status_code == 302
    assert tournament.prizes.get().amount_cents == 1250
    assert 'value="12,50"' in client.get(f"/o/{tournament.slug}/preise/").content.decode()


def test_an_empty_tournament_leads_to_the_desk_not_the_draw(client, tournament):
    tournament.registrations.update(checked_in=False)
    page = client.get(f"/o/{tournament.slug}/", **EN).content.decode()
    assert 'data-testid="next-to-desk"' in page and 'data-testid="draw-next"' not in page
    settings = client.get(f"/o/{tournament.slug}/einstellungen/", **EN).content.decode()
    assert 'data-testid="settings-to-desk"' in settings
    tournament.registrations.update(checked_in=True)
    page = client.get(f"/o/{tournament.slug}/", **EN).content.decode()
    assert 'data-testid="draw-next"' in page and 'data-testid="next-to-desk"' not in page
    assert page.count('data-testid="help"') >= 1


def test_forms_that_no_longer_apply_are_gone(client, tournament):
    import random

    from tournaments.models import Tournament
    from tournaments.services.hands import table_sheet_record
    from tournaments.services.rounds import round_draw, round_publish
    from tournaments.simulation import random_hand

    (rnd,) = round_draw(tournament=tournament, seed=1)
    assert 'data-testid="swap-1"' in client.get(f"/o/{tournament.slug}/runden/").content.decode()
    round_publish(round=rnd)
    table = rnd.tables.first()
    table_sheet_record(table=table, records=[random_hand(random.Random(1), table_size=4, dealer=1)])
    assert 'data-testid="swap-1"' not in client.get(f"/o/{tournament.slug}/runden/").content.decode()
    assert 'data-testid="withdraw-1"' in client.get(f"/o/{tournament.slug}/meldestelle/").content.decode()
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    assert 'data-testid="withdraw-1"' not in client.get(f"/o/{tournament.slug}/meldestelle/").content.decode()


def test_german_wording_anmelden_is_log_in_registrieren_and_zurueckziehen_are_the_desk():
    from django.utils import translation

    with translation.override("de"):
        assert translation.gettext("Register") == "Registrieren"
        assert translation.gettext("Withdraw") == "Zurückziehen"
        assert translation.gettext("Log in") == "Anmelden" and translation.gettext("Log out") == "Abmelden"
    catalogue = (Path(__file__).resolve().parents[2] / "locale/de/LC_MESSAGES/django.po").read_text()
    for msgid, msgstr in re.findall(r'^msgid "(.*)"\nmsgstr "(.*)"', catalogue, re.M):
        if re.search(r"\b(an|ab)meld", msgstr, re.I) and "Anmeldung" not in msgstr:
            assert re.search(r"\blog (in|out)\b", msgid, re.I), (msgid, msgstr)  # anmelden: only a login


def test_make_run_prints_the_console_address(tmp_path):
    """``make run``'s own recipe (the demo already made, Python replaced by ``true``) in a scratch folder."""
    shutil.copy(Path(__file__).resolve().parents[2] / "Makefile", tmp_path / "Makefile")
    out = subprocess.run(
        ["make", "-o", "demo", "run", "HOST=127.0.0.1:8160", "PY=true"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    ).stdout
    assert "http://127.0.0.1:8160/ " in out
    assert "http://127.0.0.1:8160/o/" in out
