"""A club joins a hosted instance itself (issue 39): "Verein anlegen", the mail's link, the operator's approval,
then its first tournament; a suspended club's pages and logins stop, its data stays."""

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.factories import ClubFactory, TournamentFactory
from tournaments.models import AuditEntry, Club, ClubMembership, Tournament
from tournaments.services.clubs import club_status_set

pytestmark = pytest.mark.django_db
PASSWORD = "Kreuz-Ober-1957"
FORM = {
    "name": "Schafkopfclub Hinterdupfing",
    "town": "Hinterdupfing",
    "postcode": "84028",
    "username": "sepp",
    "email": "sepp@hinterdupfing.example",
    "password": PASSWORD,
    "password_again": PASSWORD,
}


@pytest.fixture
def register(django_capture_on_commit_callbacks):
    """Sends the form; the confirmation mail goes after the commit, as the request ends."""

    def send(client: Client, data: dict):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(reverse("tournaments:club_register"), data)

    return send


@pytest.fixture
def operator():
    return get_user_model().objects.create_user("betreiber", password="x", is_staff=True)


def german() -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="de")


def confirm_link() -> str:
    (message,) = mail.outbox
    return re.search(r"https?://\S+/verein-anlegen/bestaetigen/\S+/", message.body).group(0)


def log_in(client: Client, username="sepp", password=PASSWORD):
    return client.post(reverse("login"), {"username": username, "password": password})


def test_a_club_registers_is_approved_and_creates_its_first_tournament(settings, operator, register):
    settings.CLUB_REGISTRATION = "approved"
    client = german()
    response = register(client, FORM)
    assert response.status_code == 200
    assert "sepp@hinterdupfing.example" in response.content.decode()
    club = Club.objects.get(name="Schafkopfclub Hinterdupfing")
    assert club.status == Club.Status.PENDING and club.postcode == "84028"
    user = get_user_model().objects.get(username="sepp")
    assert not user.is_active
    assert ClubMembership.objects.get(user=user).role == ClubMembership.Role.ORGANISER
    assert mail.outbox[0].to == ["sepp@hinterdupfing.example"]

    # before the mail's link: no login
    assert log_in(client).status_code == 200 and "_auth_user_id" not in client.session
    link = confirm_link()
    page = client.get(link.split("testserver", 1)[1])
    assert page.status_code == 200 and "freigegeben" in page.content.decode()
    club.refresh_from_db()
    user.refresh_from_db()
    assert club.email_confirmed_at is not None and club.status == Club.Status.PENDING and user.is_active

    # waiting for approval: the right password is told why it does not open
    refused = log_in(client)
    assert "_auth_user_id" not in client.session
    assert "wartet auf die Freigabe" in refused.content.decode()

    # the operator's page lists it first and approves it
    op = german()
    op.force_login(operator)
    listing = op.get(reverse("tournaments:operator_clubs"))
    assert listing.status_code == 200 and "Schafkopfclub Hinterdupfing" in listing.content.decode()
    op.post(reverse("tournaments:operator_club_status", args=[club.pk]), {"status": "active"})
    club.refresh_from_db()
    assert club.status == Club.Status.ACTIVE
    assert AuditEntry.objects.filter(club=club, action="club.status").exists()

    # now the organiser logs in and creates the club's first tournament
    assert log_in(client).status_code == 302 and "_auth_user_id" in client.session
    created = client.post(
        reverse("tournaments:tournament_new"),
        {
            "club": club.pk,
            "name": "Erstes Rennen",
            "slug": "",
            "date": "2031-03-14",
            "venue": "Gasthof Post",
            "postcode": "",
            "listed": "on",
            "entry_fee": "12,00",
            "payout_percent": 100,
            "preset": "default",
        },
    )
    assert created.status_code == 302
    tournament = Tournament.objects.get(name="Erstes Rennen")
    assert tournament.club == club and tournament.listed
    assert client.get(reverse("tournaments:settings", args=[tournament.slug])).status_code == 200


def test_open_registration_lets_the_club_in_with_the_mails_link(settings, register):
    settings.CLUB_REGISTRATION = "open"
    client = german()
    register(client, FORM)
    client.get(confirm_link().split("testserver", 1)[1])
    assert Club.objects.get(name=FORM["name"]).status == Club.Status.ACTIVE
    assert log_in(client).status_code == 302


def test_registration_off_offers_no_form(settings):
    settings.CLUB_REGISTRATION = "off"
    assert german().get(reverse("tournaments:club_register")).status_code == 404


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("name", "Schafkopffreunde musterdorf", "Ein Verein dieses Namens gibt es schon"),
        ("postcode", "8402", "fünf Ziffern"),
        ("postcode", "00000", "nicht bekannt"),
        ("username", "Vorhanden", "Benutzername ist vergeben"),
        ("password_again", "anders-1957-xy", "unterscheiden sich"),
        ("password", "1234", "Passwort"),
    ],
)
def test_bad_input_is_named_at_its_field_and_nothing_is_written(field, value, message, register):
    ClubFactory(name="Schafkopffreunde Musterdorf")
    get_user_model().objects.create_user("vorhanden")
    data = {**FORM, field: value}
    if field == "password":
        data["password_again"] = value
    response = register(german(), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Club.objects.filter(name=FORM["name"]).exists()
    assert not get_user_model().objects.filter(username="sepp").exists()
    assert not mail.outbox


def test_a_forged_or_wrong_link_is_refused():
    response = german().get(reverse("tournaments:club_confirm", args=["1:abc:def"]))
    assert response.status_code == 400 and "nicht gültig" in response.content.decode()


def test_a_suspended_clubs_pages_and_logins_stop_and_its_data_stays(operator):
    club = ClubFactory(name="SC Gesperrt", postcode="93047")
    user = get_user_model().objects.create_user("gesperrt", password=PASSWORD)
    ClubMembership.objects.create(user=user, club=club, role=ClubMembership.Role.ORGANISER)
    tournament = TournamentFactory(club=club, slug="gesperrt", listed=True, date=datetime.date(2099, 5, 1))
    client = german()
    assert log_in(client, "gesperrt").status_code == 302
    assert client.get(reverse("tournaments:control", args=["gesperrt"])).status_code == 200

    club_status_set(club=club, status=Club.Status.SUSPENDED, by=operator)
    # the session he had stops, the login is told why, the tournament's pages and the calendar show nothing
    assert client.get(reverse("tournaments:control", args=["gesperrt"])).status_code == 302
    again = german()
    refused = log_in(again, "gesperrt")
    assert "Ihr Verein ist gesperrt" in refused.content.decode() and "_auth_user_id" not in again.session
    anonymous = german()
    assert anonymous.get(reverse("tournaments:public_tournament", args=["gesperrt"])).status_code == 404
    assert anonymous.get(reverse("tournaments:standings", args=["gesperrt"])).status_code == 404
    assert "gesperrt" not in anonymous.get(reverse("tournaments:calendar")).content.decode()
    assert "gesperrt" not in anonymous.get(reverse("tournaments:home")).content.decode().lower().replace(
        "sc gesperrt", ""
    )
    assert Tournament.objects.filter(pk=tournament.pk).exists()  # the data stays

    club_status_set(club=club, status=Club.Status.ACTIVE, by=operator)
    assert log_in(client, "gesperrt").status_code == 302
    assert client.get(reverse("tournaments:control", args=["gesperrt"])).status_code == 200


def test_only_the_operator_reaches_the_page_of_clubs(operator):
    club = ClubFactory(name="SC Organisator")
    organiser = get_user_model().objects.create_user("org")
    ClubMembership.objects.create(user=organiser, club=club, role=ClubMembership.Role.ORGANISER)
    client = german()
    client.force_login(organiser)
    assert client.get(reverse("tournaments:operator_clubs")).status_code == 403
    assert (
        client.post(reverse("tournaments:operator_club_status", args=[club.pk]), {"status": "suspended"}).status_code
        == 403
    )
    club.refresh_from_db()
    assert club.status == Club.Status.ACTIVE
