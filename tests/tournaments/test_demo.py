import io

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.checks import run_checks
from django.core.management import CommandError, call_command

from scoring.models import StandingsSnapshot
from tests.points import points_from_hands
from tournaments.models import Registration, Round, Seat, Tournament
from tournaments.seating import draw_tables
from tournaments.selectors.public import round_current_public
from tournaments.selectors.tables import table_progress, tournament_games_required
from tournaments.services.demo import DEMO_PASSWORD, DEMO_SLUG, DEMO_USERNAME

pytestmark = pytest.mark.django_db


def test_demo_is_idempotent_and_prints_the_login(capsys):
    call_command("demo", allow_without_debug=True)
    call_command("demo", allow_without_debug=True)
    out = capsys.readouterr().out
    assert "organisator" in out
    tournament = Tournament.objects.get(slug="herbstrennen")
    assert tournament.club.name == "Schafkopffreunde Musterdorf"
    regs = Registration.objects.filter(tournament=tournament)
    assert regs.count() == 22
    assert all(r.checked_in for r in regs)
    assert sorted(r.start_number for r in regs) == list(range(1, 23))


def test_admin_shows_the_demo_tournament_with_22_registrations(client):
    call_command("demo", allow_without_debug=True)
    assert client.login(username="organisator", password="herbstrennen-demo")
    tournament = Tournament.objects.get(slug="herbstrennen")
    page = client.get("/admin/tournaments/tournament/")
    assert page.status_code == 200
    assert "Herbstrennen" in page.content.decode()
    detail = client.get(f"/admin/tournaments/tournament/{tournament.pk}/change/").content.decode()
    assert detail.count('name="registrations-') >= 22 * 4
    assert "Anna Huber" in detail or "Huber" in detail


def test_home_page_lists_the_demo(client):
    call_command("demo", allow_without_debug=True)
    page = client.get("/")
    assert page.status_code == 200
    body = page.content.decode()
    assert "Herbstrennen" in body
    assert "22 Spieler" in body or "22 players" in body


# --- round 1: drawn, published, half played, standings public ----------------------------------


@pytest.fixture
def demo(django_capture_on_commit_callbacks):
    """demo() runs the command and then what it scheduled for after the commit (the recompute)."""

    def run():
        with django_capture_on_commit_callbacks(execute=True):
            call_command("demo", allow_without_debug=True)
        return Tournament.objects.get(slug=DEMO_SLUG)

    return run


def test_demo_draws_and_publishes_round_one(demo, client):
    tournament = demo()

    (rnd,) = Round.objects.filter(tournament=tournament)
    assert rnd.number == 1
    assert rnd.status == Round.Status.PUBLISHED and rnd.published_at is not None
    # 22 players: 22 mod 4 = 2 tables of five, then three of four; everyone seated once
    assert list(rnd.tables.order_by("number").values_list("size", flat=True)) == [5, 5, 4, 4, 4]
    registrations = Registration.objects.filter(tournament=tournament).select_related("player")
    seated = Seat.objects.filter(round=rnd).values_list("registration_id", flat=True)
    assert sorted(seated) == sorted(reg.pk for reg in registrations)
    # the seats are the draw of the round's stored seed
    again = draw_tables(
        [reg.pk for reg in registrations],
        seed=rnd.seed,
        clubs={reg.pk: reg.player.club_id for reg in registrations},
        keep_clubs_apart=tournament.ruleset.keep_clubs_apart,
    )
    stored = [
        list(table.seats.order_by("number").values_list("registration_id", flat=True))
        for table in rnd.tables.order_by("number")
    ]
    assert stored == [list(table) for table in again.tables]
    # the public seat list shows it
    assert round_current_public(tournament) == rnd
    page = client.get(f"/t/{DEMO_SLUG}/sitzplan/")
    assert page.status_code == 200 and "Huber" in page.content.decode()


def test_demo_plays_half_of_every_tables_games(demo):
    tournament = demo()
    rnd = Round.objects.get(tournament=tournament, number=1)

    progress = table_progress(rnd)
    assert len(progress) == 5
    for table in progress:
        # 32 games at a table of four, 40 at five: half of them entered, none confirmed yet
        assert table.games_required == 32 * table.size // 4
        assert table.games_entered == table.games_required // 2
        assert not table.complete and table.confirmations == 0
    for table in rnd.tables.all():
        numbers = list(table.hands.order_by("number").values_list("number", flat=True))
        assert numbers == list(range(1, tournament_games_required(tournament, table.size) // 2 + 1))
        # the deal passes clockwise from seat 1
        dealers = list(table.hands.order_by("number").values_list("dealer", flat=True))
        assert dealers == [(n - 1) % table.size + 1 for n in numbers]


def test_demo_shows_public_standings_of_the_games_played(demo, client):
    tournament = demo()
    assert tournament.standings_public

    snapshot = StandingsSnapshot.objects.get(tournament=tournament)
    expected = points_from_hands(tournament)
    assert {row["registration"]: row["points"] for row in snapshot.overall} == expected
    assert len(expected) == 22 and any(expected.values())

    # anyone (not logged in) sees them, one row per player
    page = client.get(f"/t/{DEMO_SLUG}/rangliste/").content.decode()
    assert 'data-testid="standings-table"' in page
    assert page.count("data-start-number=") == 22


def _everything() -> dict[str, list[dict]]:
    """Every row of the project's tables and the users, to compare before and after."""
    models = [
        *apps.get_app_config("tournaments").get_models(),
        *apps.get_app_config("scoring").get_models(),
        get_user_model(),
    ]
    return {model._meta.label: list(model.objects.order_by("pk").values()) for model in models}


def test_running_the_demo_twice_changes_nothing(demo):
    demo()
    before = _everything()
    assert before["tournaments.Hand"] and before["scoring.StandingsSnapshot"]

    demo()

    assert _everything() == before


def test_the_demo_refuses_to_run_with_debug_off_unless_asked(settings):
    """Issue 33.11c: the demo's superuser has a published password; with DEBUG off it is not made by mistake."""
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG is off"):
        call_command("demo")
    assert not get_user_model().objects.filter(username=DEMO_USERNAME).exists()
    assert not Tournament.objects.filter(slug=DEMO_SLUG).exists()
    settings.DEBUG = True
    call_command("demo", stdout=io.StringIO())  # on one's own machine
    assert get_user_model().objects.filter(username=DEMO_USERNAME).exists()


def test_check_deploy_warns_while_a_login_has_the_demo_password():
    """Issue 33.11c: ``check --deploy`` names the logins the demo's published password opens."""

    def warned() -> list:
        return [m for m in run_checks(include_deployment_checks=True) if m.id == "schafkopfrennen.W002"]

    users = get_user_model().objects
    users.create_user("kassier", password="ein-eigenes-langes-passwort", is_staff=True)
    assert warned() == []
    user = users.create_user(DEMO_USERNAME, password=DEMO_PASSWORD, is_staff=True, is_superuser=True)
    users.create_user("vorstand", password=DEMO_PASSWORD, is_staff=True)
    (warning,) = warned()
    assert f"{DEMO_USERNAME}, vorstand" in warning.msg and "kassier" not in warning.msg
    assert "changepassword" in warning.hint
    for name in (DEMO_USERNAME, "vorstand"):
        user = users.get(username=name)
        user.set_password("ein-neues-langes-passwort")
        user.save()
    assert warned() == []


def test_the_demo_shows_an_evening_in_three_venues_and_a_qualification_with_its_final(db):
    """Issue 38: a 3-venue evening drawn over its inns, and a 4-evening qualification (two hosted by another
    club) whose final is filled from the list."""
    from tournaments.models import Series, Venue
    from tournaments.selectors.qualification import qualification_list
    from tournaments.services.demo import DEMO_FINAL_SLUG, DEMO_QUALIFIER_SLUG, DEMO_VENUES_SLUG, demo_create

    demo_create()
    evening = Tournament.objects.get(slug=DEMO_VENUES_SLUG)
    venues = list(Venue.objects.filter(tournament=evening).order_by("first_table"))
    assert [v.name for v in venues] == ["Gasthaus zur Post", "Gasthof Kreuz", "Bräustüberl"]
    rnd = evening.rounds.get(number=1)
    for table in rnd.tables.all():
        venue = next(v for v in venues if v.first_table <= table.number <= v.last_table)
        assert set(table.seats.values_list("registration__venue_id", flat=True)) == {venue.pk}
    assert venues[0].helpers.filter(username="wirt-post").exists()
    series = Series.objects.get(slug=DEMO_QUALIFIER_SLUG)
    assert series.kind == Series.Kind.QUALIFIER
    hosts = {t.club.name for t in series.tournaments.exclude(slug=DEMO_FINAL_SLUG)}
    assert len(hosts) == 2
    data = qualification_list(series)
    final = Tournament.objects.get(slug=DEMO_FINAL_SLUG)
    assert set(final.registrations.values_list("player_id", flat=True)) == {r.player.pk for r in data.rows}
    assert {r.how for r in data.rows} == {"wildcard", "evening", "lottery"}
    demo_create()  # again: nothing new
    assert Venue.objects.filter(tournament=evening).count() == 3
