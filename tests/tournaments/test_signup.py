"""Online sign-up (issue 19): places and the waiting list, refusals with their reasons, spam, mails,
withdrawal through the personal link, returning players, consent and next year's invitations."""

import csv
import datetime
import io

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone, translation
from pypdf import PdfReader
from rest_framework.test import APIClient

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tournaments.models import AuditEntry, ClubMembership, Player, Registration, SignUp, SignUpOptions
from tournaments.selectors.personal import player_data_export
from tournaments.selectors.signup import invitations
from tournaments.services.errors import ServiceError
from tournaments.services.personal_data import player_anonymise
from tournaments.services.registration import registration_create
from tournaments.services.signups import (
    code_key,
    registration_leave,
    signup_consent_withdraw,
    signup_create,
    signup_match_resolve,
    signup_options_update,
    signup_withdraw,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()  # the rate limit counts in the cache
    yield
    cache.clear()


@pytest.fixture
def en(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def tournament():
    club = ClubFactory(name="Schafkopffreunde Musterdorf")
    t = TournamentFactory(
        club=club,
        name="Herbstrennen",
        slug="herbst",
        venue="Gasthof Post, Musterdorf",
        entry_fee_cents=1200,
        date=datetime.date(2030, 11, 21),
    )
    SignUpOptions.objects.create(
        tournament=t, open=True, capacity=4, waiting_list=True, start_time=datetime.time(19, 0)
    )
    return t


def sign_up(tournament, first, last, **kwargs):
    kwargs.setdefault("consent", True)
    kwargs.setdefault("url_base", "http://testserver/")
    return signup_create(tournament=tournament, first_name=first, last_name=last, **kwargs)


def form_data(**extra):
    return {
        "first_name": "Sepp",
        "last_name": "Huber",
        "club_name": "Schafkopffreunde Musterdorf",
        "email": "",
        "phone": "",
        "consent": "on",
        "website": "",
        **extra,
    }


# --- places, the waiting list, refusals -------------------------------------------------------------


def test_places_in_order_then_the_waiting_list(tournament):
    entries = [
        sign_up(tournament, "Spieler", f"Nummer{i}", club_name="SCHAFKOPFFREUNDE Musterdorf" if i == 0 else "")
        for i in range(6)
    ]
    for entry in entries:
        entry.refresh_from_db()
    assert [e.status for e in entries] == ["place"] * 4 + ["waiting"] * 2
    assert [e.registration.start_number for e in entries[:4]] == [1, 2, 3, 4]
    assert all(e.registration is None for e in entries[4:])
    # One key for the sign-up page and the player's page of the evening.
    assert entries[0].registration.key == entries[0].key
    assert entries[0].registration.player.club == tournament.club


def test_a_withdrawal_moves_the_first_of_the_waiting_list_up(tournament, django_capture_on_commit_callbacks):
    entries = [sign_up(tournament, "Spieler", f"Nummer{i}", email=f"s{i}@example.org") for i in range(6)]
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        signup_withdraw(signup=entries[1], url_base="http://testserver/")
    first_waiting, second_waiting = (SignUp.objects.get(pk=e.pk) for e in entries[4:])
    assert first_waiting.status == "place" and first_waiting.registration.start_number == 5
    assert second_waiting.status == "waiting"
    assert Registration.objects.get(pk=entries[1].registration_id).withdrawn_after_round == 0
    assert [m.to for m in mail.outbox] == [["s4@example.org"]]
    assert "5" in mail.outbox[0].body and first_waiting.key in mail.outbox[0].body
    assert AuditEntry.objects.filter(action="signup.move_up").count() == 1


def test_a_withdrawal_at_the_desk_moves_the_waiting_list_up_too(tournament):
    entries = [sign_up(tournament, "Spieler", f"Nummer{i}") for i in range(5)]
    desk_player = registration_create(tournament=tournament, player=PlayerFactory(club=tournament.club))
    assert SignUp.objects.get(pk=entries[4].pk).status == "waiting"
    registration_leave(registration=desk_player)  # registered at the desk beyond the places: none is free
    assert SignUp.objects.get(pk=entries[4].pk).status == "waiting"
    registration_leave(registration=entries[0].registration)
    assert SignUp.objects.get(pk=entries[0].pk).status == "withdrawn"
    assert SignUp.objects.get(pk=entries[4].pk).status == "place"


def test_a_withdrawal_through_the_api_moves_the_waiting_list_up_too(tournament):
    orga = get_user_model().objects.create_user("orga")
    ClubMembership.objects.create(user=orga, club=tournament.club, role=ClubMembership.Role.ORGANISER)
    entries = [sign_up(tournament, "Spieler", f"Nummer{i}") for i in range(5)]
    assert SignUp.objects.get(pk=entries[4].pk).status == "waiting"
    api = APIClient()
    api.force_authenticate(orga)
    number = entries[1].registration.start_number
    response = api.patch(f"/api/tournaments/herbst/registrations/{number}/", {"withdrawn": True}, format="json")
    assert response.status_code == 200, response.content
    assert SignUp.objects.get(pk=entries[1].pk).status == "withdrawn"
    assert SignUp.objects.get(pk=entries[4].pk).status == "place"


def test_full_without_waiting_list_is_refused_with_its_reason(tournament, en):
    SignUpOptions.objects.filter(tournament=tournament).update(waiting_list=False)
    for i in range(4):
        sign_up(tournament, "Spieler", f"Nummer{i}")
    with pytest.raises(ServiceError) as err:
        sign_up(tournament, "Zu", "Spät")
    assert err.value.code == "full"
    assert err.value.message == "The tournament is full: all 4 places are taken."
    assert SignUp.objects.count() == 4


def test_full_without_waiting_list_through_the_form(client, tournament, en):
    SignUpOptions.objects.filter(tournament=tournament).update(waiting_list=False, capacity=1)
    sign_up(tournament, "Erster", "Spieler")
    response = client.post(reverse("tournaments:signup", args=["herbst"]), form_data())
    assert response.status_code == 409
    assert "The tournament is full: all 1 places are taken." in response.content.decode()
    assert not SignUp.objects.filter(last_name="Huber").exists()


def test_after_the_closing_date_the_form_says_so_and_refuses(client, tournament, en):
    closes = timezone.now() - datetime.timedelta(minutes=1)
    SignUpOptions.objects.filter(tournament=tournament).update(closes_at=closes)
    page = client.get(reverse("tournaments:signup", args=["herbst"]))
    assert page.status_code == 200 and "The sign-up closed on" in page.content.decode()
    assert 'data-testid="signup-form"' not in page.content.decode()
    response = client.post(reverse("tournaments:signup", args=["herbst"]), form_data())
    assert response.status_code == 409
    assert "The sign-up closed on" in response.content.decode()
    with pytest.raises(ServiceError) as err:
        sign_up(tournament, "Zu", "Spät")
    assert err.value.code == "closed"
    assert SignUp.objects.count() == 0


def test_a_sign_up_not_switched_on_is_not_there(client, tournament):
    SignUpOptions.objects.filter(tournament=tournament).update(open=False)
    assert client.get(reverse("tournaments:signup", args=["herbst"])).status_code == 404
    with pytest.raises(ServiceError):
        sign_up(tournament, "Sepp", "Huber")


def test_consent_and_last_name_are_needed(client, tournament, en):
    response = client.post(reverse("tournaments:signup", args=["herbst"]), form_data(consent="", last_name=""))
    assert response.status_code == 400
    text = response.content.decode()
    assert "Please enter a last name." in text and "Please agree to the storing of your data" in text
    assert SignUp.objects.count() == 0


def test_the_same_person_twice_is_refused(tournament, en):
    sign_up(tournament, "Sepp", "Huber", club_name="schafkopffreunde musterdorf")
    with pytest.raises(ServiceError) as err:
        sign_up(tournament, "sepp", "HUBER", club_name="Schafkopffreunde Musterdorf")
    assert err.value.code == "duplicate"


# --- spam ---------------------------------------------------------------------------------------


def test_the_honeypot_filled_in_is_refused_with_a_clear_message(client, tournament, en):
    response = client.post(reverse("tournaments:signup", args=["herbst"]), form_data(website="http://spam.example"))
    assert response.status_code == 400
    text = response.content.decode()
    assert "Not sent: the hidden field “Leave this field empty” was filled in, as programs that send spam do." in text
    assert SignUp.objects.count() == 0 and Player.objects.count() == 0


def test_fifty_sign_ups_from_one_address_in_a_minute_are_refused_with_a_clear_message(client, tournament, en, settings):
    settings.SIGNUP_RATE = "20/min"
    SignUpOptions.objects.filter(tournament=tournament).update(capacity=None)
    statuses = []
    for i in range(50):
        response = client.post(
            reverse("tournaments:signup", args=["herbst"]),
            form_data(first_name="Bot", last_name=f"Nummer{i}"),
            REMOTE_ADDR="203.0.113.9",
        )
        statuses.append(response.status_code)
    assert statuses[:20] == [302] * 20
    assert statuses[20:] == [429] * 30
    assert int(response["Retry-After"]) >= 1
    assert "Too many sign-ups from your address in a short time: please wait" in response.content.decode()
    assert SignUp.objects.count() == 20
    # Another address is not held up by it.
    other = client.post(
        reverse("tournaments:signup", args=["herbst"]),
        form_data(first_name="Anna", last_name="Echt"),
        REMOTE_ADDR="198.51.100.7",
    )
    assert other.status_code == 302


# --- confirmation page and mail -------------------------------------------------------------------


def test_the_form_leads_to_the_confirmation_and_a_mail(client, tournament, en, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("tournaments:signup", args=["herbst"]), form_data(email="sepp@example.org", phone="0171 1234567")
        )
    entry = SignUp.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/anmeldung/{entry.key}/"
    page = client.get(response["Location"]).content.decode()
    assert 'data-testid="start-number">1<' in page
    assert "12.00 €" in page or "12,00 €" in page
    assert "Gasthof Post, Musterdorf" in page and "19:00" in page
    assert reverse("tournaments:rules_pdf", args=["herbst"]) in page
    assert reverse("tournaments:signup_qr", args=[entry.key]) in page
    (sent,) = mail.outbox
    assert sent.to == ["sepp@example.org"]
    assert sent.subject == "Herbstrennen: your sign-up"
    assert "Your start number: 1" in sent.body
    assert f"http://testserver/anmeldung/{entry.key}/" in sent.body
    assert "http://testserver/t/herbst/regeln.pdf" in sent.body
    assert "Gasthof Post, Musterdorf" in sent.body and "19:00" in sent.body and "12" in sent.body
    qr = client.get(reverse("tournaments:signup_qr", args=[entry.key]))
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"


def test_no_mail_without_an_address_and_the_waiting_list_mail(tournament, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        for i in range(4):
            sign_up(tournament, "Spieler", f"Nummer{i}")
        sign_up(tournament, "Warte", "Liste", email="w@example.org", language="en")
    (sent,) = mail.outbox
    assert sent.subject == "Herbstrennen: you are on the waiting list"
    assert "number 1 on the waiting list" in sent.body


def test_the_mail_in_german_by_default(tournament, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        sign_up(tournament, "Sepp", "Huber", email="sepp@example.org", language="de")
    (sent,) = mail.outbox
    assert "Startnummer" in sent.body
    # the tournament's name stands in quotes after "Turnier", so no article has to agree with it ("für das Großes …")
    assert "Sie sind zum Turnier „Herbstrennen“ angemeldet." in sent.body


def test_the_german_waiting_list_mails_name_the_tournament_without_an_article(
    tournament, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        for i in range(4):
            sign_up(tournament, "Spieler", f"Nummer{i}")
        sign_up(tournament, "Warte", "Liste", email="w@example.org", language="de")
    (sent,) = mail.outbox
    assert "das Turnier „Herbstrennen“ ist ausgebucht" in sent.body


def test_withdraw_through_the_personal_link(client, tournament, en):
    entry = sign_up(tournament, "Sepp", "Huber")
    response = client.post(reverse("tournaments:signup_withdraw", args=[entry.key]))
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.status == "withdrawn" and entry.registration.withdrawn
    page = client.get(reverse("tournaments:signup_page", args=[entry.key])).content.decode()
    assert "You have withdrawn." in page and 'data-testid="signup-withdraw"' not in page
    again = client.post(reverse("tournaments:signup_withdraw", args=[entry.key]), follow=True)
    assert "You have withdrawn already." in again.content.decode()


def test_the_rules_pdf_has_the_tournaments_rules(client, tournament):
    response = client.get(reverse("tournaments:rules_pdf", args=["herbst"]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = PdfReader(io.BytesIO(response.content)).pages[0].extract_text()
    assert "Herbstrennen" in text and "Gasthof Post" in text and "19:00" in text
    assert "Rufspiel" in text


# --- returning players: matched, never merged silently -----------------------------------------------


def test_a_returning_player_is_matched_and_merged_only_when_the_desk_confirms(tournament):
    known = PlayerFactory(first_name="Sepp", last_name="Huber", club=tournament.club, contact="alt@example.org")
    entry = sign_up(tournament, "Sepp", "Huber", club_name="Schafkopffreunde Musterdorf")
    entry.refresh_from_db()
    assert entry.match == known and entry.match_state == "pending"
    assert entry.registration.player != known  # not merged by itself
    assert Player.objects.filter(first_name="Sepp", last_name="Huber").count() == 2
    signup_match_resolve(signup=entry, same=True)
    entry.refresh_from_db()
    assert entry.registration.player == known and entry.match_state == "confirmed"
    assert Player.objects.filter(first_name="Sepp", last_name="Huber").count() == 1


def test_two_people_of_one_name_stay_two(tournament):
    PlayerFactory(first_name="Sepp", last_name="Huber", club=tournament.club)
    entry = sign_up(tournament, "Sepp", "Huber")
    signup_match_resolve(signup=entry, same=False)
    assert Player.objects.filter(first_name="Sepp", last_name="Huber").count() == 2
    with pytest.raises(ServiceError):
        signup_match_resolve(signup=entry, same=True)


def test_the_desk_confirms_on_the_sign_ups_page(client, tournament):
    known = PlayerFactory(first_name="Sepp", last_name="Huber", club=tournament.club)
    entry = sign_up(tournament, "Sepp", "Huber")
    desk = get_user_model().objects.create_user("desk")
    ClubMembership.objects.create(user=desk, club=tournament.club, role=ClubMembership.Role.DESK)
    client.force_login(desk)
    checkin_page = client.get(reverse("tournaments:checkin", args=["herbst"])).content.decode()
    assert 'data-testid="to-confirm-note"' in checkin_page
    page = client.get(reverse("tournaments:signups", args=["herbst"])).content.decode()
    assert f'data-testid="match-{entry.pk}"' in page
    client.post(reverse("tournaments:signup_match", args=["herbst", entry.pk]), {"same": "1"})
    assert Registration.objects.get(pk=entry.registration_id).player == known


# --- consent and invitations -------------------------------------------------------------------


def test_invitations_export_only_who_consented_and_withdraw_through_the_link(client, tournament):
    old = TournamentFactory(club=tournament.club, slug="vorjahr", date=datetime.date(2029, 11, 21), name="Vorjahr")
    SignUpOptions.objects.create(tournament=old, open=True)
    a = sign_up(old, "Anna", "Adler", email="anna@example.org")
    sign_up(old, "Bert", "Berger", phone="0171 2")
    c = sign_up(old, "Cilli", "Clever", email="cilli@example.org")
    sign_up(old, "Dora", "Ohne")  # no contact
    sign_up(tournament, "Anna", "Adler", email="anna@example.org")  # this year again: one line
    response = client.post(reverse("tournaments:signup_consent", args=[c.key]))
    assert response.status_code == 302
    c.refresh_from_db()
    assert c.consent_withdrawn_at is not None and c.email == "" and c.registration.player.contact == ""
    assert [(i.first_name, i.email, i.phone) for i in invitations(tournament.club)] == [
        ("Anna", "anna@example.org", ""),
        ("Bert", "", "0171 2"),
    ]
    orga = get_user_model().objects.create_user("orga")
    ClubMembership.objects.create(user=orga, club=tournament.club, role=ClubMembership.Role.ORGANISER)
    client.force_login(orga)
    download = client.get(reverse("tournaments:invitations", args=[tournament.club_id]))
    assert download.status_code == 200 and download["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(download.content.decode("utf-8-sig")), delimiter=";"))
    assert [r[:2] for r in rows[1:]] == [["Anna", "Adler"], ["Bert", "Berger"]]
    assert rows[2][4] == "0171 2"
    assert "Cilli" not in download.content.decode("utf-8-sig")
    with pytest.raises(ServiceError):
        signup_consent_withdraw(signup=c)
    assert a.consent_withdrawn_at is None


def test_the_organiser_switches_the_sign_up_on(client, tournament):
    SignUpOptions.objects.filter(tournament=tournament).delete()
    orga = get_user_model().objects.create_user("orga")
    ClubMembership.objects.create(user=orga, club=tournament.club, role=ClubMembership.Role.ORGANISER)
    client.force_login(orga)
    assert client.get(reverse("tournaments:signup", args=["herbst"])).status_code == 404
    response = client.post(
        reverse("tournaments:signup_options", args=["herbst"]),
        {
            "open": "on",
            "capacity": "32",
            "waiting_list": "on",
            "start_time": "18:30",
            "closes_at": "2030-11-20T20:00",
            "consent_text": "",
        },
    )
    assert response.status_code == 302
    options = SignUpOptions.objects.get(tournament=tournament)
    assert options.open and options.capacity == 32 and options.start_time == datetime.time(18, 30)
    assert timezone.localtime(options.closes_at).hour == 20
    assert client.get(reverse("tournaments:signup", args=["herbst"])).status_code == 200
    assert (
        client.get(reverse("tournaments:public_tournament", args=["herbst"]))
        .content.decode()
        .count('data-testid="to-signup"')
        == 1
    )


def test_more_places_let_the_waiting_list_move_up(tournament):
    entries = [sign_up(tournament, "Spieler", f"Nummer{i}") for i in range(6)]
    signup_options_update(
        tournament=tournament,
        open=True,
        closes_at=None,
        capacity=5,
        waiting_list=True,
        consent_text="",
        start_time=None,
    )
    assert [SignUp.objects.get(pk=e.pk).status for e in entries[4:]] == ["place", "waiting"]


@pytest.mark.parametrize(
    ("typed", "key"),
    [
        ("http://rennen.example.org/anmeldung/AbCdEfGhIjKlMnOpQrStUvWx/", "AbCdEfGhIjKlMnOpQrStUvWx"),
        ("https://rennen.example.org/s/AbCdEfGhIjKlMnOpQr-_UvWx/", "AbCdEfGhIjKlMnOpQr-_UvWx"),
        ("  AbCdEfGhIjKlMnOpQrStUvWx\n", "AbCdEfGhIjKlMnOpQrStUvWx"),
        ("http://x/anmeldung/AbCdEfGhIjKlMnOpQrStUvWx/?utm=1", "AbCdEfGhIjKlMnOpQrStUvWx"),
        ("hallo", ""),
    ],
)
def test_the_key_in_what_a_scanner_typed(typed, key):
    assert code_key(typed) == key


def test_a_players_data_export_and_anonymising_cover_his_sign_ups(tournament):
    entry = sign_up(
        tournament, "Sepp", "Huber", club_name="Stammtisch Zur Post", email="sepp@example.org", phone="0171 1"
    )
    player = entry.registration.player
    (exported,) = player_data_export(player)["online_signups"]
    assert exported["email"] == "sepp@example.org" and exported["club"] == "Stammtisch Zur Post"
    assert exported["consent_text"].startswith("I agree") or exported["consent_text"].startswith("Ich willige")
    player_anonymise(player=player, club=tournament.club)
    entry.refresh_from_db()
    assert (entry.first_name, entry.last_name, entry.club_name, entry.email, entry.phone) == (
        "",
        f"Spieler {player.pk}",
        "",
        "",
        "",
    )
    assert invitations(tournament.club) == []


def test_the_invitations_csv_neutralises_what_the_public_typed(client, tournament):
    """Issue 13, fix 8 for the one CSV the public writes into: a name or club typed as a formula stays text."""
    sign_up(tournament, "=cmd|' /C calc'!A0", "+Huber", club_name="@SUM(A1:A9)", phone="+49 171 2")
    orga = get_user_model().objects.create_user("orga")
    ClubMembership.objects.create(user=orga, club=tournament.club, role=ClubMembership.Role.ORGANISER)
    client.force_login(orga)
    download = client.get(reverse("tournaments:invitations", args=[tournament.club_id]))
    rows = list(csv.reader(io.StringIO(download.content.decode("utf-8-sig")), delimiter=";"))
    assert rows[1][:5] == ["'=cmd|' /C calc'!A0", "'+Huber", "'@SUM(A1:A9)", "", "'+49 171 2"]


def test_an_unconfirmed_address_gets_one_confirmation_mail_a_day(
    client, tournament, django_capture_on_commit_callbacks
):
    """Issue 33.11f: a second sign-up with the same address within 24 h sends no second mail, and its page says so."""
    with django_capture_on_commit_callbacks(execute=True):
        first = client.post(
            reverse("tournaments:signup", args=["herbst"]),
            form_data(first_name="Sepp", last_name="Huber", email="sepp@example.org"),
        )
        second = client.post(
            reverse("tournaments:signup", args=["herbst"]),
            form_data(first_name="Anna", last_name="Huber", email="SEPP@example.org "),
        )
    assert [m.to for m in mail.outbox] == [["sepp@example.org"]]
    page = client.get(second["Location"], HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'data-testid="mail-withheld"' in page and "in den letzten 24 Stunden schon eine Bestätigung" in page
    assert 'data-testid="mail-withheld"' not in client.get(first["Location"]).content.decode()
    # A day later the address gets its mail again.
    SignUp.objects.update(created_at=timezone.now() - datetime.timedelta(hours=25))
    with django_capture_on_commit_callbacks(execute=True):
        sign_up(tournament, "Toni", "Huber", email="sepp@example.org")
    assert len(mail.outbox) == 2


def test_a_genuine_namesake_signs_up_when_he_says_he_is_another_person(client, tournament, en):
    """The refusal of a name taken points to the box; ticked, the second Sepp Huber gets his own place."""
    first = sign_up(tournament, "Sepp", "Huber", club_name="Schafkopffreunde Musterdorf")
    response = client.post(reverse("tournaments:signup", args=["herbst"]), form_data())
    text = response.content.decode()
    assert response.status_code in (400, 409) and "Sepp Huber is signed up already" in text
    assert "Another person of the same name? Tick “I am another person of the same name”" in text
    assert 'data-testid="another-person"' in text and SignUp.objects.count() == 1

    response = client.post(reverse("tournaments:signup", args=["herbst"]), form_data(another_person="on"))
    assert response.status_code == 302
    second = SignUp.objects.exclude(pk=first.pk).get()
    assert (second.first_name, second.last_name) == ("Sepp", "Huber")
    assert second.registration.start_number != first.registration.start_number
    # the desk confirms at check-in whether he is the one signed up before (the sign-up's match question)
    assert (second.match_id, second.match_state) == (first.registration.player_id, SignUp.Match.PENDING)
