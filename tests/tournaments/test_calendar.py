"""The public calendar (issue 39): /kalender/ and both iCal feeds list exactly the upcoming tournaments clubs
listed (never a hidden, past, finished or suspended club's one); filters by date, postcode area, distance; the
schema.org markup and the share image; the clash warning at 10 km on the same day."""

import datetime
import io
import json
import re

import icalendar
import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from PIL import Image

from tests.factories import ClubFactory, TournamentFactory
from tournaments.models import Club, ClubMembership, Prize, SignUpOptions, Tournament
from tournaments.postcodes import distance_km

pytestmark = pytest.mark.django_db
DAY = datetime.date(2099, 6, 13)


@pytest.fixture
def world():
    regensburg = ClubFactory(name="Schafkopffreunde Regensburg", town="Regensburg", postcode="93047")
    muenchen = ClubFactory(name="SK München", town="München", postcode="80331")
    gesperrt = ClubFactory(name="SC Gesperrt", postcode="93059", status=Club.Status.SUSPENDED)
    shown = TournamentFactory(
        club=regensburg,
        slug="sommerrennen",
        name="Sommerrennen",
        date=DAY,
        listed=True,
        venue="Gasthof Kneitinger",
        entry_fee_cents=1500,
        rules={**TournamentFactory.build().rules, "rounds": 3},
    )
    SignUpOptions.objects.create(tournament=shown, open=True, capacity=40, start_time=datetime.time(19, 30))
    Prize.objects.create(tournament=shown, place=1, amount_cents=20000)
    Prize.objects.create(tournament=shown, place=2, goods="Geräuchertes")
    TournamentFactory(
        club=muenchen, slug="isarrennen", name="Isarrennen", date=DAY + datetime.timedelta(days=30), listed=True
    )
    TournamentFactory(club=regensburg, slug="vereinsabend", name="Vereinsabend", date=DAY, listed=False)
    TournamentFactory(club=regensburg, slug="vorjahr", name="Vorjahr", date=datetime.date(2020, 6, 13), listed=True)
    TournamentFactory(
        club=muenchen, slug="vorbei", name="Vorbei", date=DAY, listed=True, status=Tournament.Status.FINISHED
    )
    TournamentFactory(club=gesperrt, slug="gesperrt", name="Gesperrtes Rennen", date=DAY, listed=True)
    return regensburg, muenchen


def slugs_on_page(content: str) -> list[str]:
    return re.findall(r'data-testid="calendar-entry" data-slug="([^"]+)"', content)


def german() -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="de")


def events(body: bytes) -> dict[str, icalendar.Event]:
    calendar = icalendar.Calendar.from_ical(body)
    return {str(e["summary"]): e for e in calendar.walk("VEVENT")}


def test_the_calendar_lists_exactly_the_listed_upcoming_tournaments(world):
    response = german().get(reverse("tournaments:calendar"))
    assert response.status_code == 200
    content = response.content.decode()
    assert slugs_on_page(content) == ["sommerrennen", "isarrennen"]
    card = content[content.index('data-slug="sommerrennen"') : content.index('data-slug="isarrennen"')]
    for fact in (
        "19:30",
        "Gasthof Kneitinger",
        "93047 Regensburg",
        "3 Runden × 32 Spiele",
        "Muss",
        "15,00 €",
        "1. 200,00 €",
        "2. Geräuchertes",
        "noch 40 Plätze frei",
        "Schafkopffreunde Regensburg",
    ):
        assert fact in card, fact
    assert "https://www.openstreetmap.org/search?query=Gasthof+Kneitinger%2C+93047%2C+Regensburg" in card
    assert reverse("tournaments:signup", args=["sommerrennen"]) in card
    # the one without open sign-up has no button
    rest = content[content.index('data-slug="isarrennen"') :]
    assert 'data-testid="calendar-signup"' not in rest


def test_both_ical_feeds_list_exactly_the_listed_upcoming_tournaments_and_parse(world):
    regensburg, muenchen = world
    response = german().get(reverse("tournaments:calendar_ics"))
    assert response["Content-Type"].startswith("text/calendar")
    found = events(response.content)
    assert set(found) == {"Sommerrennen (Schafkopffreunde Regensburg)", "Isarrennen (SK München)"}
    summer = found["Sommerrennen (Schafkopffreunde Regensburg)"]
    start = summer.decoded("dtstart")
    assert (start.date(), start.hour, start.minute) == (DAY, 19, 30) and start.tzinfo is not None
    assert "Gasthof Kneitinger" in str(summer["location"])
    assert str(summer["url"]).endswith(reverse("tournaments:signup", args=["sommerrennen"]))
    assert found["Isarrennen (SK München)"].decoded("dtstart") == DAY + datetime.timedelta(days=30)  # a whole day

    club_feed = events(german().get(reverse("tournaments:club_calendar_ics", args=[regensburg.pk])).content)
    assert set(club_feed) == {"Sommerrennen (Schafkopffreunde Regensburg)"}
    assert set(events(german().get(reverse("tournaments:club_calendar_ics", args=[muenchen.pk])).content)) == {
        "Isarrennen (SK München)"
    }
    suspended = Club.objects.get(name="SC Gesperrt")
    assert german().get(reverse("tournaments:club_calendar_ics", args=[suspended.pk])).status_code == 404


@pytest.mark.parametrize(
    "query, expected",
    [
        ({"plz": "9"}, ["sommerrennen"]),
        ({"plz": "80"}, ["isarrennen"]),
        ({"plz": "93047", "km": "10"}, ["sommerrennen"]),
        ({"plz": "85354", "km": "40"}, ["isarrennen"]),  # Freising: 30 km from Munich, 80 from Regensburg
        ({"plz": "85354", "km": "100"}, ["sommerrennen", "isarrennen"]),
        ({"von": (DAY + datetime.timedelta(days=1)).isoformat()}, ["isarrennen"]),
        ({"bis": DAY.isoformat()}, ["sommerrennen"]),
        ({"plz": "00000", "km": "50"}, []),
    ],
)
def test_the_filters(world, query, expected):
    response = german().get(reverse("tournaments:calendar"), query)
    assert response.status_code == 200
    assert slugs_on_page(response.content.decode()) == expected


def test_a_wrong_filter_is_named_at_its_field():
    response = german().get(reverse("tournaments:calendar"), {"plz": "930", "km": "10"})
    assert response.status_code == 400
    assert "vollständige fünfstellige Postleitzahl" in response.content.decode()


def test_schema_org_events_open_graph_and_the_share_image(world):
    content = german().get(reverse("tournaments:calendar")).content.decode()
    data = json.loads(re.search(r'<script type="application/ld\+json">(.*?)</script>', content, re.S).group(1))
    assert [e["name"] for e in data] == ["Sommerrennen", "Isarrennen"]
    assert data[0]["@type"] == "Event" and data[0]["startDate"].startswith("2099-06-13T19:30")
    assert data[0]["offers"]["price"] == "15.00" and data[0]["location"]["address"]["postalCode"] == "93047"
    image_url = re.search(r'<meta property="og:image" content="([^"]+)"', content).group(1)
    assert image_url.endswith(reverse("tournaments:share_image", args=["sommerrennen"]))
    png = german().get(reverse("tournaments:share_image", args=["sommerrennen"]))
    assert png["Content-Type"] == "image/png"
    assert Image.open(io.BytesIO(png.content)).size == (1200, 630)
    assert german().get(reverse("tournaments:share_image", args=["gesperrt"])).status_code == 404


def organiser_of(club: Club) -> Client:
    user = get_user_model().objects.create_user(f"org-{club.pk}")
    ClubMembership.objects.create(user=user, club=club, role=ClubMembership.Role.ORGANISER)
    client = german()
    client.force_login(user)
    return client


def new_tournament(client, club, name, date, postcode):
    return client.post(
        reverse("tournaments:tournament_new"),
        {
            "club": club.pk,
            "name": name,
            "slug": "",
            "date": date.isoformat(),
            "venue": "",
            "postcode": postcode,
            "entry_fee": "10,00",
            "payout_percent": 100,
            "preset": "default",
        },
        follow=True,
    )


def test_the_clash_warning_at_10_km_on_the_same_day(world):
    neighbour = ClubFactory(name="SV Lappersdorf", postcode="93138")
    client = organiser_of(neighbour)
    assert distance_km("93073", "93047") < 10 < distance_km("93087", "93047")

    near = new_tournament(client, neighbour, "Nahes Rennen", DAY, "93073").content.decode()
    assert 'data-testid="clash-warning"' in near
    warning = near[near.index('data-testid="clash-warning"') : near.index("</section>", near.index("clash-warning"))]
    assert "Sommerrennen" in warning and "Schafkopffreunde Regensburg" in warning and "9 km" in warning
    assert "Vereinsabend" not in warning and "Gesperrtes Rennen" not in warning  # not listed; suspended

    far = new_tournament(client, neighbour, "Fernes Rennen", DAY, "93087").content.decode()
    assert 'data-testid="clash-warning"' not in far
    other_day = new_tournament(client, neighbour, "Anderer Tag", DAY + datetime.timedelta(days=1), "93073")
    assert 'data-testid="clash-warning"' not in other_day.content.decode()

    # moving the other day's tournament onto the day shows it
    moved = Tournament.objects.get(name="Anderer Tag")
    page = client.post(
        reverse("tournaments:settings", args=[moved.slug]),
        {
            "details": "1",
            "name": moved.name,
            "date": DAY.isoformat(),
            "venue": "",
            "postcode": "93073",
            "entry_fee": "10,00",
            "payout_percent": 100,
            "sponsored": "0,00",
        },
        follow=True,
    )
    assert 'data-testid="clash-warning"' in page.content.decode()
    moved.refresh_from_db()
    assert moved.date == DAY


def test_the_sign_up_link_shared_in_a_group_chat_shows_the_announcement(world):
    content = german().get(reverse("tournaments:signup", args=["sommerrennen"])).content.decode()
    assert '<meta property="og:title" content="Sommerrennen – Schafkopffreunde Regensburg">' in content
    image = re.search(r'<meta property="og:image" content="([^"]+)"', content).group(1)
    assert image == "http://testserver" + reverse("tournaments:share_image", args=["sommerrennen"])


def test_the_home_page_leads_to_the_calendar_and_the_club_registration(settings):
    content = german().get(reverse("tournaments:home")).content.decode()
    assert reverse("tournaments:calendar") in content and reverse("tournaments:club_register") in content
    settings.CLUB_REGISTRATION = "off"
    assert reverse("tournaments:club_register") not in german().get(reverse("tournaments:home")).content.decode()
