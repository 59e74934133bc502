"""Pay at sign-up without a payment provider (issue 39): the GiroCode (EPC-QR) on the confirmation page and in
the mail, the club's IBAN validated, a bank statement's transfers marked paid by their reference, unpaid places
released to the waiting list after the deadline."""

import datetime
import io
from decimal import Decimal

import pytest
import zxingcpp
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tournaments.models import ClubMembership, Registration, SignUp, SignUpOptions
from tournaments.payments import iban_valid
from tournaments.services.registration import registration_create
from tournaments.services.signups import signup_create

pytestmark = pytest.mark.django_db
IBAN = "DE89370400440532013000"


@pytest.fixture
def tournament():
    club = ClubFactory(name="SK Zahltag", iban=IBAN, account_holder="SK Zahltag e. V.")
    tournament = TournamentFactory(
        club=club, slug="zahltag-2099", name="Zahltagrennen", date=datetime.date(2099, 5, 1), entry_fee_cents=1500
    )
    SignUpOptions.objects.create(tournament=tournament, open=True, capacity=40)
    return tournament


def organiser(tournament) -> Client:
    user, created = get_user_model().objects.get_or_create(username=f"kassier-{tournament.pk}")
    if created:
        ClubMembership.objects.create(user=user, club=tournament.club, role=ClubMembership.Role.ORGANISER)
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(user)
    return client


def epc_fields(png: bytes) -> list[str]:
    (code,) = [
        c for c in zxingcpp.read_barcodes(Image.open(io.BytesIO(png))) if c.format == zxingcpp.BarcodeFormat.QRCode
    ]
    return code.text.split("\n")


def test_the_confirmation_page_and_mail_carry_the_girocode(tournament, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        entry = signup_create(
            tournament=tournament,
            first_name="Vroni",
            last_name="Zahler",
            email="vroni@example.org",
            consent=True,
            url_base="http://testserver/",
        )
    page = Client(HTTP_ACCEPT_LANGUAGE="de").get(reverse("tournaments:signup_page", args=[entry.key])).content.decode()
    assert 'data-testid="girocode"' in page
    assert "DE89 3704 0044 0532 0130 00" in page and "zahltag-2099 Nr 1" in page and "15,00 €" in page
    svg = Client().get(reverse("tournaments:signup_girocode", args=[entry.key]))
    assert svg["Content-Type"] == "image/svg+xml" and svg.content.startswith(b"<svg")

    (message,) = mail.outbox
    assert "DE89 3704 0044 0532 0130 00" in message.body and "zahltag-2099 Nr 1" in message.body
    ((filename, png, kind),) = message.attachments
    assert (filename, kind) == ("girocode.png", "image/png")
    fields = epc_fields(png)
    # EPC069-12: service tag, version, encoding, SCT, BIC, name, IBAN, amount, purpose, reference, text
    assert fields[0] == "BCD" and fields[3] == "SCT"
    assert fields[5] == "SK Zahltag e. V." and fields[6] == IBAN
    assert fields[7].startswith("EUR") and Decimal(fields[7][3:]) == Decimal("15.00")
    assert "zahltag-2099 Nr 1" in fields[9:]


def test_no_girocode_without_an_iban_or_on_the_waiting_list(tournament):
    SignUpOptions.objects.filter(tournament=tournament).update(capacity=4)
    for _n in range(4):
        registration_create(tournament=tournament, player=PlayerFactory(club=tournament.club))
    waiting = signup_create(tournament=tournament, first_name="Wart", last_name="Ende", consent=True)
    assert waiting.status == SignUp.Status.WAITING
    assert Client().get(reverse("tournaments:signup_girocode", args=[waiting.key])).status_code == 404
    SignUpOptions.objects.filter(tournament=tournament).update(capacity=10)
    tournament.club.__class__.objects.filter(pk=tournament.club_id).update(iban="")
    placed = signup_create(tournament=tournament, first_name="Ohne", last_name="Konto", consent=True)
    assert placed.status == SignUp.Status.PLACE
    assert Client().get(reverse("tournaments:signup_girocode", args=[placed.key])).status_code == 404
    assert (
        'data-testid="girocode"'
        not in Client().get(reverse("tournaments:signup_page", args=[placed.key])).content.decode()
    )


@pytest.mark.parametrize(
    "iban, valid",
    [
        ("DE89 3704 0044 0532 0130 00", True),
        ("de89370400440532013000", True),
        ("DE89370400440532013001", False),
        ("DE8937040044053201300", False),
        ("AT611904300234573201", True),
        ("", False),
        ("IBAN", False),
    ],
)
def test_the_iban_check(iban, valid):
    assert iban_valid(iban) is valid


def test_the_club_settings_refuse_a_wrong_iban_at_its_field(tournament):
    client = organiser(tournament)
    club = tournament.club
    response = client.post(
        reverse("tournaments:club_details", args=[club.pk]),
        {
            "name": club.name,
            "town": "",
            "postcode": "",
            "account_holder": "SK Zahltag e. V.",
            "iban": "DE89 3704 0044 0532 0130 01",
        },
    )
    assert response.status_code == 400 and "IBAN ist nicht gültig" in response.content.decode()
    club.refresh_from_db()
    assert club.iban == IBAN
    client.post(
        reverse("tournaments:club_details", args=[club.pk]),
        {
            "name": club.name,
            "town": "",
            "postcode": "",
            "account_holder": "Neuer Kassier",
            "iban": "AT61 1904 3002 3457 3201",
        },
    )
    club.refresh_from_db()
    assert (club.iban, club.account_holder) == ("AT611904300234573201", "Neuer Kassier")


def statement(rows: list[tuple[str, str, str]]) -> bytes:
    """A bank's CSV export: a preamble, a header, ``;``-separated, German amounts, Windows-1252."""
    lines = [
        "Kontoumsätze SK Zahltag;;;;",
        "Zeitraum: 01.04.2099 - 30.04.2099;;;;",
        "",
        "Buchungstag;Valuta;Auftraggeber/Empfänger;Verwendungszweck;Betrag (EUR)",
    ]
    lines += [
        f"0{n % 9 + 1}.04.2099;0{n % 9 + 1}.04.2099;{who};{why};{amount}" for n, (who, why, amount) in enumerate(rows)
    ]
    return "\r\n".join(lines).encode("cp1252")


def test_a_statement_of_20_transfers_marks_18_paid_and_lists_2(tournament):
    for n in range(20):
        registration_create(tournament=tournament, player=PlayerFactory(club=tournament.club, last_name=f"Zahler{n}"))
    rows = []
    for number in range(1, 19):
        why = [
            f"zahltag-2099 Nr {number}",
            f"ZAHLTAG-2099 NR {number} Startgeld",
            f"SVWZ+zahltag- 2099 Nr {number}",
        ][number % 3]
        rows.append((f"Zahler {number}", why, "15,00"))
    rows.append(("Onkel Sepp", "Startgeld fuer meinen Neffen", "15,00"))  # no reference
    rows.append(("Irrläufer", "zahltag-2099 Nr 77", "15,00"))  # no such start number
    rows.append(("Stadtwerke", "Strom April", "-84,20"))  # a debit: not a transfer to us
    response = organiser(tournament).post(
        reverse("tournaments:bank_statement", args=[tournament.slug]),
        {"file": SimpleUploadedFile("umsaetze.csv", statement(rows))},
    )
    assert response.status_code == 200
    paid = set(Registration.objects.filter(tournament=tournament, paid=True).values_list("start_number", flat=True))
    assert paid == set(range(1, 19))
    content = response.content.decode()
    assert content.count('data-testid="bank-unmatched-row"') == 2
    assert "Startgeld fuer meinen Neffen" in content and "Startnummer 77 ist nicht vergeben" in content
    assert "18 Überweisungen als bezahlt markiert" in content

    again = organiser(tournament).post(
        reverse("tournaments:bank_statement", args=[tournament.slug]),
        {"file": SimpleUploadedFile("umsaetze.csv", statement(rows))},
    )
    assert "18 Überweisungen waren für Startgelder, die schon als bezahlt markiert sind" in again.content.decode()


def test_a_file_that_is_no_statement_is_refused_at_its_field(tournament):
    response = organiser(tournament).post(
        reverse("tournaments:bank_statement", args=[tournament.slug]),
        {"file": SimpleUploadedFile("x.csv", b"Name;Datum\nHuber;1.4.")},
    )
    assert response.status_code == 400 and "Verwendungszweck" in response.content.decode()


def test_unpaid_places_go_to_the_waiting_list_after_the_deadline(tournament):
    SignUpOptions.objects.filter(tournament=tournament).update(capacity=3)
    placed = [
        signup_create(tournament=tournament, first_name="P", last_name=f"Platz{n}", consent=True) for n in range(3)
    ]
    waiting = [
        signup_create(tournament=tournament, first_name="W", last_name=f"Warte{n}", consent=True) for n in range(2)
    ]
    Registration.objects.filter(pk=placed[0].registration_id).update(paid=True)
    client = organiser(tournament)
    release = reverse("tournaments:unpaid_release", args=[tournament.slug])

    SignUpOptions.objects.filter(tournament=tournament).update(pay_until=timezone.now() + datetime.timedelta(days=1))
    client.post(release)
    assert SignUp.objects.filter(tournament=tournament, status=SignUp.Status.PLACE).count() == 3  # not yet

    SignUpOptions.objects.filter(tournament=tournament).update(pay_until=timezone.now() - datetime.timedelta(hours=1))
    client.post(release)
    states = {s.last_name: s.status for s in SignUp.objects.filter(tournament=tournament)}
    assert states == {
        "Platz0": "place",
        "Platz1": "withdrawn",
        "Platz2": "withdrawn",
        "Warte0": "place",
        "Warte1": "place",
    }
    assert all(Registration.objects.get(pk=s.registration_id).withdrawn for s in placed[1:])
    assert waiting[0].key != waiting[1].key
