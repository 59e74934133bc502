"""The biggest evenings in a browser (issue 38): three inns' desks on three browser contexts check their players
in and type their tables' totals, the organiser draws, the central projector shows the joint standings; a
qualifier series' final is filled from its list."""

import datetime
import re

import pytest
from django.contrib.auth import get_user_model

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tournaments.models import ClubMembership, Registration, Series
from tournaments.services.registration import registration_create
from tournaments.services.series import series_create, series_tournament_add
from tournaments.services.simulation import tournament_play
from tournaments.services.tournament import tournament_create
from tournaments.services.venues import venue_create, venue_helper_add

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 360, "height": 640}
PASSWORD = "geheim-123"


def _user(name: str):
    return get_user_model().objects.create_user(name, password=PASSWORD)


def _log_in(page, username: str, next_url: str) -> None:
    page.context.add_cookies([{"name": "django_language", "value": "de", "url": page.base_url}])
    page.goto(f"{page.base_url}/accounts/login/?next={next_url}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_url(f"**{next_url}")


def test_three_venue_desks_check_in_and_enter_the_projector_shows_the_joint_standings(browser, live_server, screenshot):
    club = ClubFactory(name="SK Pfaffenhausen")
    rules = {**TournamentFactory.build().rules, "rounds": 1, "games_per_round": 8}
    tournament = TournamentFactory(
        club=club, slug="herz-ist-trumpf", name="Herz ist Trumpf", rules=rules, standings_public=True
    )
    venues = [
        venue_create(tournament=tournament, name=name, first_table=a, last_table=b)
        for name, a, b in (("Gasthof Post", 1, 2), ("Gasthof Kreuz", 3, 4), ("Bräustüberl", 5, 6))
    ]
    for i in range(24):
        registration_create(
            tournament=tournament, player=PlayerFactory(club=club, last_name=f"Wirtsgast{i:02d}"), paid=True
        )
    for i, venue in enumerate(venues):
        _user(f"wirt{i}")
        venue_helper_add(venue=venue, username=f"wirt{i}")
    organiser = _user("chef")
    ClubMembership.objects.create(user=organiser, club=club, role=ClubMembership.Role.ORGANISER)

    desks = []
    for i, venue in enumerate(venues):
        context = browser.new_context(viewport=PHONE, base_url=live_server.url)
        page = context.new_page()
        page.base_url = live_server.url
        url = f"/o/{tournament.slug}/ort/{venue.pk}/"
        _log_in(page, f"wirt{i}", url)
        for number in range(1 + 8 * i, 9 + 8 * i):  # each inn checks in its eight guests
            page.get_by_test_id("venue-start-number").fill(str(number))
            page.get_by_test_id("venue-checkin").click()
            page.wait_for_url(re.compile(rf"/ort/{venue.pk}/$"))
        desks.append((page, venue))
    screenshot(desks[0][0], "venue-desk-phone")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for venue in venues:
        assert Registration.objects.filter(venue=venue, checked_in=True).count() == 8

    # the central desk draws and publishes; nobody leaves his inn
    central = browser.new_context(viewport={"width": 1366, "height": 768}, base_url=live_server.url).new_page()
    central.base_url = live_server.url
    _log_in(central, "chef", f"/o/{tournament.slug}/")
    central.get_by_test_id("draw-next").click()
    central.get_by_test_id("publish-1").click()
    central.wait_for_load_state()
    central.goto(f"{live_server.url}/o/{tournament.slug}/")
    central.get_by_test_id(f"venue-row-{venues[0].pk}").wait_for()
    screenshot(central, "venue-console")
    rnd = tournament.rounds.get(number=1)
    for venue in venues:
        numbers = set(Registration.objects.filter(venue=venue).values_list("pk", flat=True))
        for table in rnd.tables.filter(number__gte=venue.first_table, number__lte=venue.last_table):
            assert set(table.seats.values_list("registration_id", flat=True)) <= numbers

    # each inn types its tables' totals from the paper sheets
    for page, venue in desks:
        page.reload()
        for table in rnd.tables.filter(number__gte=venue.first_table, number__lte=venue.last_table):
            page.get_by_test_id(f"venue-totals-{table.number}").click()
            totals = [30, -10, -10, -10, 0][: table.size]
            totals[-1] -= sum(totals)  # they make 0
            for seat, value in enumerate(totals, start=1):
                page.fill(f"#id_seat_{seat}", str(value))
            page.get_by_test_id("venue-totals-save").click()
            page.wait_for_url(re.compile(rf"/ort/{venue.pk}/$"))
        assert "2 von 2 Tischen fertig" in page.get_by_test_id("venue-tables").inner_text()

    # the central projector: one list of all 24, the venue's projector its own eight
    central.goto(f"{live_server.url}/t/{tournament.slug}/rangliste/beamer/")
    central.wait_for_function("document.querySelectorAll('[data-start-number]').length === 24", timeout=30000)
    screenshot(central, "venue-joint-projector", full_page=False)
    page, venue = desks[1]
    page.goto(f"{live_server.url}/o/{tournament.slug}/ort/{venue.pk}/beamer/")
    page.wait_for_function("document.querySelectorAll('[data-start-number]').length === 8", timeout=30000)
    shown = {
        int(n) for n in page.locator("[data-start-number]").evaluate_all("rows => rows.map(r => r.dataset.startNumber)")
    }
    assert shown == set(range(9, 17))
    # another inn's desk stays shut to him
    assert page.goto(f"{live_server.url}/o/{tournament.slug}/ort/{venues[0].pk}/").status == 404


def test_a_qualifier_series_final_is_filled_from_the_list(page, live_server, screenshot):
    club = ClubFactory(name="Wieninger Meisterschaft")
    organiser = _user("orga")
    ClubMembership.objects.create(user=organiser, club=club, role=ClubMembership.Role.ORGANISER)
    people = [PlayerFactory(club=club, last_name=f"Vorrundler{i:02d}") for i in range(12)]
    series = series_create(
        club=club, name="Qualifikation 2026", slug="quali-2026", kind=Series.Kind.QUALIFIER, public=True
    )
    for n, field in enumerate((people[:8], people[4:])):
        evening = tournament_create(
            club=club,
            name=f"Vorrunde {n + 1}",
            slug=f"vorrunde-{n + 1}",
            date=datetime.date(2026, 10, 3 + 7 * n),
            rules={"rounds": 1, "games_per_round": 8},
        )
        for person in field:
            registration_create(tournament=evening, player=person, paid=True, checked_in=True)
        tournament_play(tournament=evening, seed=n + 1)
        series_tournament_add(series=series, tournament=evening)
    final = tournament_create(club=club, name="Finale", slug="finale-2026", date=datetime.date(2026, 12, 1))
    page.set_viewport_size({"width": 800, "height": 1280})
    url = f"/o/serien/{series.slug}/qualifikation/"
    _log_in(page, "orga", url)
    page.select_option("#id_final", str(final.pk))
    page.fill("#id_per_evening", "2")
    page.get_by_test_id("qualification-save").click()
    page.wait_for_url(f"**{url}")
    page.get_by_test_id("final-fill").click()
    page.wait_for_url(f"**{url}")
    screenshot(page, "qualification-manage")
    assert final.registrations.count() == 4
    page.goto(f"{live_server.url}/serie/{series.slug}/qualifikation/")
    assert page.get_by_test_id("qualification-list").locator("tbody tr").count() == 4
    screenshot(page, "qualification-public")
