"""The organiser's evening (issue 15): the warnings, corrections and closing actions of the console."""
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
        RegistrationFactory(tournament=tournament, start_number=number, paid=number != 5,
                            player=PlayerFactory(club=club, first_name="Spieler", last_name=f"Nummer{number}"))
    return tournament


def test_the_console_and_the_rounds_page_warn_about_unpaid_players_before_the_draw(client, tournament):
    for url in (f"/o/{tournament.slug}/", f"/o/{tournament.slug}/rounds/"):
        page = client.get(url, **EN).content.decode()
        assert 'data-testid="unpaid-warning"' in page, url
        assert "1 checked-in player has not paid:" in page and "5 Spieler Nummer5" in page
    response = client.post(f"/o/{tournament.slug}/rounds/draw/", **EN, follow=True)
    assert Round.objects.filter(tournament=tournament).count() == 1
    text = response.content.decode()
    assert "Not paid yet: 5 Spieler Nummer5. Collect the entry fee at the desk." in text


def test_no_warning_when_everybody_paid(client, tournament):
    tournament.registrations.update(paid=True)
    assert 'data-testid="unpaid-warning"' not in client.get(f"/o/{tournament.slug}/", **EN).content.decode()


def test_money_fields_speak_german_a_decimal_comma_shown_and_accepted(client, tournament):
    page = client.get(f"/o/{tournament.slug}/einstellungen/").content.decode()
    assert 'name="entry_fee" value="10,00"' in page
    response = client.post(f"/o/{tournament.slug}/preise/", {
        "prize-TOTAL_FORMS": "1", "prize-INITIAL_FORMS": "0", "prize-0-place": "1", "prize-0-amount_euro": "12,50",
        "prize-0-goods": ""})
    assert response.status_code == 302
    assert tournament.prizes.get().amount_cents == 1250
    assert 'value="12,50"' in client.get(f"/o/{tournament.slug}/preise/").content.decode()
