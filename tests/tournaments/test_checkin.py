"""Check-in at the door (issue 19): a code from the scanner or the camera, the name search, the counts,
several devices at once, and closing check-in before the draw."""

import datetime
import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tournaments.models import AuditEntry, ClubMembership, Registration, Seat, SignUp, SignUpOptions
from tournaments.services.errors import ServiceError
from tournaments.services.registration import registration_create
from tournaments.services.rounds import round_draw
from tournaments.services.signups import CheckIn, checkin_close, checkin_scan, signup_create

SCAN = {"HTTP_X_CHECKIN": "1"}  # what checkin.js sends: the answer comes as a fragment


@pytest.fixture
def en():
    with translation.override("en"):
        yield


def setup_tournament(capacity=8):
    club = ClubFactory(name="Schafkopffreunde Musterdorf")
    tournament = TournamentFactory(club=club, slug="herbst", entry_fee_cents=1000, date=datetime.date(2030, 11, 21))
    SignUpOptions.objects.create(tournament=tournament, open=True, capacity=capacity, waiting_list=True)
    return tournament


def sign_up(tournament, n, start=0):
    return [
        signup_create(tournament=tournament, first_name="Spieler", last_name=f"Nummer{i}", consent=True)
        for i in range(start, start + n)
    ]


def desk_client(tournament, name="desk", role=ClubMembership.Role.DESK):
    user = get_user_model().objects.create_user(name)
    ClubMembership.objects.create(user=user, club=tournament.club, role=role)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def scan(client, code, collect=True):
    return client.post(
        reverse("tournaments:checkin_code", args=["herbst"]), {"code": code, "collect": "on" if collect else ""}, **SCAN
    )


@pytest.mark.django_db
def test_a_scanned_link_checks_in_and_collects(en):
    tournament = setup_tournament()
    (entry,) = sign_up(tournament, 1)
    desk = desk_client(tournament)
    response = scan(desk, f"https://rennen.example.org/anmeldung/{entry.key}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'data-outcome="checked_in"' in html and "Spieler Nummer0" in html and "is checked in." in html
    assert 'data-testid="count-present">1<' in html and 'data-testid="count-paid">1<' in html
    reg = Registration.objects.get(pk=entry.registration_id)
    assert reg.checked_in and reg.paid


@pytest.mark.django_db
def test_without_collecting_it_says_what_he_owes_and_the_paid_button_settles_it(en):
    tournament = setup_tournament()
    (entry,) = sign_up(tournament, 1)
    desk = desk_client(tournament)
    html = scan(desk, f"http://x/s/{entry.key}/", collect=False).content.decode()  # the start card's link
    assert "Owes 10.00 €" in html or "Owes 10,00 €" in html
    assert 'data-testid="pay-1"' in html
    reg = Registration.objects.get(pk=entry.registration_id)
    assert reg.checked_in and not reg.paid
    paid = desk.post(reverse("tournaments:checkin_paid", args=["herbst", 1]), **SCAN).content.decode()
    assert "has paid." in paid and 'data-testid="count-paid">1<' in paid
    reg.refresh_from_db()
    assert reg.paid


@pytest.mark.django_db
def test_the_same_code_at_two_devices_checks_in_once(en):
    tournament = setup_tournament()
    (entry,) = sign_up(tournament, 1)
    first, second = desk_client(tournament, "desk-1"), desk_client(tournament, "desk-2")
    one = scan(first, entry.key).content.decode()
    two = scan(second, entry.key).content.decode()
    assert 'data-outcome="checked_in"' in one
    assert 'data-outcome="already"' in two and "was checked in already." in two
    assert 'data-testid="count-present">1<' in two
    assert AuditEntry.objects.filter(action="registration.checked_in").count() == 1
    assert AuditEntry.objects.filter(action="registration.paid").count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_devices_scanning_at_the_same_moment_check_in_once():
    """Two threads (two desks) with their own database connections scan one code at once: the row lock lets
    one of them check the player in, the other finds him checked in."""
    tournament = setup_tournament()
    (entry,) = sign_up(tournament, 1)
    barrier = threading.Barrier(2)
    results, errors = [], []

    def desk():
        try:
            barrier.wait(timeout=10)
            results.append(checkin_scan(tournament=tournament, code=entry.key, collect=True).outcome)
        except Exception as err:
            errors.append(err)
        finally:
            connection.close()

    threads = [threading.Thread(target=desk) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not errors
    assert sorted(results) == [CheckIn.ALREADY, CheckIn.CHECKED_IN]
    assert AuditEntry.objects.filter(action="registration.checked_in").count() == 1


@pytest.mark.django_db
def test_an_unknown_code_and_a_start_number(en):
    tournament = setup_tournament()
    sign_up(tournament, 2)
    desk = desk_client(tournament)
    unknown = scan(desk, "https://elsewhere.example/s/XXXXXXXXXXXXXXXXXXXXXXXX/")
    assert unknown.status_code == 404
    assert 'data-outcome="unknown"' in unknown.content.decode()
    assert 'data-outcome="checked_in"' in scan(desk, "2").content.decode()
    assert Registration.objects.get(tournament=tournament, start_number=2).checked_in


@pytest.mark.django_db
def test_a_plain_form_without_script_comes_back_to_the_page(en):
    tournament = setup_tournament()
    (entry,) = sign_up(tournament, 1)
    desk = desk_client(tournament)
    response = desk.post(
        reverse("tournaments:checkin_code", args=["herbst"]), {"code": entry.key, "collect": "on"}, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("tournaments:checkin", args=["herbst"])
    assert "1 Spieler Nummer0: is checked in." in response.content.decode()


@pytest.mark.django_db
def test_the_name_search_and_the_counts(en):
    tournament = setup_tournament(capacity=2)
    entries = sign_up(tournament, 3)
    desk = desk_client(tournament)
    found = desk.get(
        reverse("tournaments:checkin", args=["herbst"]),
        {"q": "nummer"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="checkin-found",
    ).content.decode()
    assert 'data-testid="checkin-by-name-1"' in found and 'data-testid="checkin-by-name-2"' in found
    assert f'data-testid="found-waiting-{entries[2].pk}"' in found
    desk.post(reverse("tournaments:checkin_number", args=["herbst", 2]), {"collect": "on"}, **SCAN)
    desk.post(reverse("tournaments:checkin_waiting", args=["herbst", entries[2].pk]), **SCAN)
    counts = desk.get(reverse("tournaments:checkin_counts", args=["herbst"])).content.decode()
    for name, n in (("registered", 2), ("present", 1), ("paid", 1), ("missing", 1), ("waiting", 1)):
        assert f'data-testid="count-{name}">{n}<' in counts, name
    assert "(1 at the door)" in counts
    assert 'hx-trigger="every 5s"' in counts  # the polled answer keeps polling


@pytest.mark.django_db
def test_closing_check_in_leaves_out_who_did_not_come_and_fills_from_the_waiting_list(en):
    tournament = setup_tournament(capacity=8)
    places = sign_up(tournament, 8)
    waiting = sign_up(tournament, 3, start=8)
    for entry in places[:6]:  # two do not come
        checkin_scan(tournament=tournament, code=entry.key)
    assert checkin_scan(tournament=tournament, code=waiting[1].key).outcome == CheckIn.WAITING
    assert checkin_scan(tournament=tournament, code=waiting[2].key).outcome == CheckIn.WAITING
    closed = checkin_close(tournament=tournament, fill_from_waiting_list=True)
    assert {r.start_number for r in closed.no_shows} == {7, 8}
    assert [s.pk for s in closed.moved_up] == [waiting[1].pk, waiting[2].pk]  # the first one is not here
    assert SignUp.objects.get(pk=waiting[0].pk).status == "waiting"
    with pytest.raises(ServiceError):
        checkin_scan(tournament=tournament, code=places[6].key)  # closed
    (rnd,) = round_draw(tournament=tournament, seed=1)
    seated = set(Seat.objects.filter(round=rnd).values_list("registration__start_number", flat=True))
    assert seated == {1, 2, 3, 4, 5, 6, 9, 10}
    with pytest.raises(ServiceError):
        checkin_close(tournament=tournament, fill_from_waiting_list=False)


@pytest.mark.django_db
def test_closing_without_filling_and_only_before_the_draw(en):
    tournament = setup_tournament(capacity=4)
    places = sign_up(tournament, 4)
    waiting = sign_up(tournament, 1, start=4)
    checkin_scan(tournament=tournament, code=waiting[0].key)
    for entry in places[:3]:
        checkin_scan(tournament=tournament, code=entry.key)
    organiser = desk_client(tournament, "orga", ClubMembership.Role.ORGANISER)
    response = organiser.post(reverse("tournaments:checkin_close", args=["herbst"]), {}, follow=True)
    assert "Check-in is closed: 1 not here are left out of the draw, 0 moved up" in response.content.decode()
    assert SignUp.objects.get(pk=waiting[0].pk).status == "waiting"
    other = setup_other_started()
    with pytest.raises(ServiceError) as err:
        checkin_close(tournament=other, fill_from_waiting_list=True)
    assert "before the first draw" in err.value.message


def setup_other_started():
    tournament = TournamentFactory(slug="begonnen")
    for _ in range(4):
        registration_create(tournament=tournament, player=PlayerFactory(), checked_in=True)
    round_draw(tournament=tournament, seed=2)
    return tournament


@pytest.mark.django_db
def test_the_page_loads_the_scanner_scripts_as_files_and_lets_the_camera_decode():
    tournament = setup_tournament()
    desk = desk_client(tournament)
    response = desk.get(reverse("tournaments:checkin", args=["herbst"]))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'src="/static/js/checkin.js"' in html and 'src="/static/js/checkin-camera.js"' in html
    assert "vendor/qr-scanner-1.4.2/qr-scanner.min.js" in html
    policy = response["Content-Security-Policy"]
    assert "worker-src 'self' blob:" in policy and "script-src 'self';" in policy + ";"
    assert "unsafe" not in policy
    # Only this page lets a worker come from a blob.
    assert "blob:" not in desk.get(reverse("tournaments:desk", args=["herbst"]))["Content-Security-Policy"]


@pytest.mark.django_db
@pytest.mark.parametrize("mixup", ["us-scanner-on-german-computer", "german-scanner-on-us-computer"])
def test_a_scanner_with_the_other_keyboard_layout_still_checks_in(mixup):
    tournament = setup_tournament()
    (entry,) = sign_up(tournament, 1)
    SignUp.objects.filter(pk=entry.pk).update(key="AyZz_y-Z0123456789abcdXY")
    Registration.objects.filter(pk=entry.registration_id).update(key="AyZz_y-Z0123456789abcdXY")
    link = "https://rennen.example.org/anmeldung/AyZz_y-Z0123456789abcdXY/"
    if mixup == "us-scanner-on-german-computer":
        typed = link.translate(
            str.maketrans({"y": "z", "z": "y", "Y": "Z", "Z": "Y", "-": "ß", "_": "?", "/": "-", ":": "Ö"})
        )
    else:
        typed = link.translate(
            str.maketrans({"y": "z", "z": "y", "Y": "Z", "Z": "Y", "-": "/", "/": "&", ":": ">", "_": "?"})
        )
    assert typed != link
    result = checkin_scan(tournament=tournament, code=typed)
    assert result.outcome == CheckIn.CHECKED_IN and result.registration.start_number == 1
