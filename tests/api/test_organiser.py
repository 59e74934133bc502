"""The organiser API: registrations, rounds and tables, with club roles; another club's tournament is a 404."""

import pytest

from tests.api.conftest import client_for, make_tournament, publish_first_round, rufspiel
from tests.factories import ClubFactory, PlayerFactory
from tournaments.models import Club, Hand, HandRevision, Registration, Round
from tournaments.services.hands import table_confirm, table_sheet_record

pytestmark = pytest.mark.django_db

BASE = "/api/tournaments/fruehjahr/"


# --- who may do what ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path", ["registrations/", "registrations/1/", "rounds/", "rounds/1/", "rounds/1/tables/", "rounds/1/tables/1/"]
)
def test_another_clubs_tournament_is_a_404(outsider, published, path):
    response = client_for(outsider).get(BASE + path)
    assert response.status_code == 404 and list(response.json()) == ["detail"]


def test_another_clubs_tournament_cannot_be_changed(outsider, tournament):
    api = client_for(outsider)
    assert api.post(BASE + "registrations/", {"last_name": "Fremd"}, format="json").status_code == 404
    assert api.post(BASE + "rounds/", {}, format="json").status_code == 404
    assert not tournament.rounds.exists() and tournament.registrations.count() == 8


def test_without_login_nothing_is_shown(tournament):
    response = client_for().get(BASE + "registrations/")
    assert response.status_code in (401, 403) and list(response.json()) == ["detail"]


def test_token_auth_works_and_basic_auth_is_gone(organiser, tournament):
    from rest_framework.test import APIClient

    from tournaments.services.account import api_token_create

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION="Token " + api_token_create(user=organiser))
    assert api.get(BASE + "registrations/").status_code == 200
    basic = APIClient()
    basic.credentials(
        HTTP_AUTHORIZATION="Basic " + __import__("base64").b64encode(b"organiser-%d:pw" % tournament.club_id).decode()
    )
    assert basic.get(BASE + "registrations/").status_code in (401, 403)


def test_a_viewer_reads_but_changes_nothing(viewer, tournament):
    api = client_for(viewer)
    assert api.get(BASE + "registrations/").status_code == 200
    assert api.get(BASE + "rounds/").status_code == 200
    for response in (
        api.post(BASE + "registrations/", {"last_name": "Neu"}, format="json"),
        api.patch(BASE + "registrations/1/", {"paid": False}, format="json"),
        api.post(BASE + "rounds/", {}, format="json"),
    ):
        assert response.status_code == 403 and list(response.json()) == ["detail"]
    assert not tournament.rounds.exists()


def test_a_desk_helper_registers_but_does_not_draw(desk, tournament):
    api = client_for(desk)
    assert api.post(BASE + "registrations/", {"last_name": "Neu"}, format="json").status_code == 201
    assert api.patch(BASE + "registrations/1/", {"paid": False}, format="json").status_code == 200
    assert api.post(BASE + "rounds/", {}, format="json").status_code == 403
    (rnd,) = __import__("tournaments.services.rounds", fromlist=["round_draw"]).round_draw(tournament=tournament)
    for action in ("publish", "redraw", "close"):
        assert api.post(BASE + f"rounds/1/{action}/", {}, format="json").status_code == 403
    assert api.get(BASE + "rounds/1/tables/").status_code == 200


# --- registrations ------------------------------------------------------------------------------


def test_registrations_are_listed_by_start_number(organiser, tournament):
    response = client_for(organiser).get(BASE + "registrations/")
    assert response.status_code == 200
    rows = response.json()
    assert [r["start_number"] for r in rows] == list(range(1, 9))
    first = rows[0]
    reg = Registration.objects.get(tournament=tournament, start_number=1)
    assert first == {
        "start_number": 1,
        "player_id": reg.player_id,
        "first_name": "Vor1",
        "last_name": "Nach1",
        "name": "Vor1 Nach1",
        "club": "SK Musterdorf",
        "paid": True,
        "checked_in": True,
        "withdrawn": False,
        "withdrawn_after_round": None,
        "substitute_for": None,
        "substitute_for_name": None,
        "display_name": "Vor1 Nach1",
        "fee_due": True,
        "left_during_round": False,
    }


def test_an_existing_player_is_registered_with_the_next_start_number(organiser, tournament):
    player = PlayerFactory(club=tournament.club, first_name="Zenzi", last_name="Huber")
    response = client_for(organiser).post(
        BASE + "registrations/", {"player_id": player.pk, "paid": True}, format="json"
    )
    assert response.status_code == 201
    assert (response.json()["start_number"], response.json()["name"], response.json()["paid"]) == (
        9,
        "Zenzi Huber",
        True,
    )
    assert response.json()["checked_in"] is False
    again = client_for(organiser).post(BASE + "registrations/", {"player_id": player.pk}, format="json")
    assert again.status_code == 409 and list(again.json()) == ["player"]


def test_a_new_player_is_added_by_name_with_a_new_or_known_club(organiser, tournament):
    api = client_for(organiser)
    response = api.post(
        BASE + "registrations/",
        {"first_name": "Wastl", "last_name": "Gruber", "club": "SC Hintertupfing", "checked_in": True},
        format="json",
    )
    assert response.status_code == 201
    assert (response.json()["name"], response.json()["club"], response.json()["checked_in"]) == (
        "Wastl Gruber",
        "SC Hintertupfing",
        True,
    )
    # a club not the tournament's is a text on the registration, no club record (issue 33) ...
    assert not Club.objects.filter(name__iexact="sc hintertupfing").exists()
    assert Registration.objects.get(player__first_name="Wastl").club_name == "SC Hintertupfing"
    ClubFactory(name="SC Hintertupfing")  # ... in the list's spelling when the list has it
    response = api.post(
        BASE + "registrations/",
        {"first_name": "Vroni", "last_name": "Gruber", "club": "sc hintertupfing"},
        format="json",
    )
    assert response.json()["club"] == "SC Hintertupfing"
    assert Club.objects.filter(name__iexact="sc hintertupfing").count() == 1
    assert Registration.objects.get(player__first_name="Vroni").player.club is None


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"first_name": "Ohne"}, "last_name"),
        ({"last_name": "   "}, "last_name"),
        ({"player_id": 999999}, "player_id"),
        ({"player_id": "eins"}, "player_id"),
        ({"player_id": None, "last_name": "x" * 101}, "last_name"),
        ({"last_name": "Gruber", "paid": "vielleicht"}, "paid"),
    ],
)
def test_registration_errors_name_their_field(organiser, tournament, body, field):
    response = client_for(organiser).post(BASE + "registrations/", body, format="json")
    assert response.status_code == 400 and list(response.json()) == [field]
    assert tournament.registrations.count() == 8


def test_an_existing_player_and_a_new_name_at_once_is_refused(organiser, tournament):
    response = client_for(organiser).post(
        BASE + "registrations/", {"player_id": PlayerFactory().pk, "last_name": "Gruber"}, format="json"
    )
    assert response.status_code == 400 and list(response.json()) == ["player_id"]


def test_a_registration_is_updated_and_withdrawn(organiser, tournament):
    api = client_for(organiser)
    response = api.patch(BASE + "registrations/3/", {"paid": False, "checked_in": False}, format="json")
    assert response.status_code == 200
    assert (response.json()["paid"], response.json()["checked_in"]) == (False, False)
    response = api.patch(BASE + "registrations/3/", {"withdrawn": True}, format="json")
    assert response.status_code == 200
    assert (response.json()["withdrawn"], response.json()["withdrawn_after_round"]) == (True, 0)
    response = api.patch(BASE + "registrations/3/", {"withdrawn": False}, format="json")
    assert response.status_code == 409 and list(response.json()) == ["withdrawn"]
    assert api.get(BASE + "registrations/3/").json()["withdrawn"] is True
    assert api.get(BASE + "registrations/99/").status_code == 404


def test_a_seated_player_is_not_checked_out_and_nothing_else_changes(organiser, published):
    response = client_for(organiser).patch(
        BASE + "registrations/1/", {"paid": False, "checked_in": False}, format="json"
    )
    assert response.status_code == 409 and list(response.json()) == ["checked_in"]
    assert Registration.objects.get(tournament=published.tournament, start_number=1).paid is True


# --- rounds -------------------------------------------------------------------------------------


def test_the_organiser_draws_publishes_and_lists_a_round(organiser, tournament):
    api = client_for(organiser)
    response = api.post(BASE + "rounds/", {"seed": 42}, format="json")
    assert response.status_code == 201
    (drawn,) = response.json()
    assert (drawn["number"], drawn["status"], drawn["published_at"]) == (1, "drawn", None)
    again = api.post(BASE + "rounds/", {"seed": 42}, format="json")
    assert again.status_code == 409 and list(again.json()) == ["round"]
    response = api.post(BASE + "rounds/1/publish/")
    assert response.status_code == 200
    assert response.json()["status"] == "published" and response.json()["published_at"]
    assert [(t["number"], t["size"], t["games_entered"], t["complete"]) for t in response.json()["tables"]] == [
        (1, 4, 0, False),
        (2, 4, 0, False),
    ]
    assert api.post(BASE + "rounds/1/publish/").status_code == 409
    assert [r["number"] for r in api.get(BASE + "rounds/").json()] == [1]
    assert api.get(BASE + "rounds/2/").status_code == 404


def test_the_same_seed_draws_the_same_tables(organiser, club):
    def seats(slug: str) -> list:
        make_tournament(club, slug=slug)
        api = client_for(organiser)
        api.post(f"/api/tournaments/{slug}/rounds/", {"seed": 5}, format="json")
        return [
            [s["start_number"] for s in t["seats"]] for t in api.get(f"/api/tournaments/{slug}/rounds/1/tables/").json()
        ]

    assert seats("a") == seats("b")


def test_a_drawn_round_is_redrawn_before_it_is_published(organiser, tournament):
    api = client_for(organiser)
    api.post(BASE + "rounds/", {"seed": 1}, format="json")
    response = api.post(BASE + "rounds/1/redraw/", {"seed": 99}, format="json")
    assert response.status_code == 200 and response.json()["seed"] == 99
    bad = api.post(BASE + "rounds/1/redraw/", {"seed": -1}, format="json")
    assert bad.status_code == 400 and list(bad.json()) == ["seed"]
    api.post(BASE + "rounds/1/publish/")
    response = api.post(BASE + "rounds/1/redraw/", {}, format="json")
    assert response.status_code == 409 and list(response.json()) == ["round"]


def test_players_that_cannot_be_seated_are_a_409(organiser, club):
    make_tournament(club, players=6, slug="sechs")
    response = client_for(organiser).post("/api/tournaments/sechs/rounds/", {}, format="json")
    assert response.status_code == 409 and list(response.json()) == ["players"]


def test_the_tables_show_their_seats_progress_and_entry_keys(organiser, viewer, published):
    table = published.tables.get(number=1)
    table_sheet_record(table=table, records=[rufspiel(n) for n in range(1, 4)])
    response = client_for(organiser).get(BASE + "rounds/1/tables/")
    assert response.status_code == 200
    first = response.json()[0]
    seats = table.seats.select_related("registration__player").order_by("number")
    assert first["seats"] == [
        {
            "seat": s.number,
            "start_number": s.registration.start_number,
            "name": s.registration.player.name,
            "club": "SK Musterdorf",
        }
        for s in seats
    ]
    assert (
        first["number"],
        first["size"],
        first["games_entered"],
        first["games_required"],
        first["confirmations"],
        first["complete"],
        first["paper_totals"],
    ) == (1, 4, 3, 32, 0, False, False)
    assert first["entry_key"] == table.entry_key
    assert "entry_key" not in client_for(viewer).get(BASE + "rounds/1/tables/").json()[0]


def test_a_round_is_closed_when_every_table_is_complete(organiser, published):
    api = client_for(organiser)
    response = api.post(BASE + "rounds/1/close/")
    assert response.status_code == 409 and list(response.json()) == ["round"]
    for table in published.tables.all():
        table_sheet_record(table=table, records=[rufspiel(n) for n in range(1, 33)])
        for seat in range(1, 5):
            table_confirm(table=table, seat=seat)
    response = api.post(BASE + "rounds/1/close/")
    assert response.status_code == 200 and response.json()["status"] == "closed"
    assert all(t["complete"] for t in response.json()["tables"])


def test_the_organiser_reads_a_tables_sheet(organiser, table):
    table_sheet_record(table=table, records=[rufspiel(1)])
    response = client_for(organiser).get(BASE + "rounds/1/tables/1/")
    assert response.status_code == 200 and response.json()["totals"] == {"1": 1, "2": -1, "3": 1, "4": -1}
    assert client_for(organiser).get(BASE + "rounds/1/tables/9/").status_code == 404


# --- corrections by the organiser ---------------------------------------------------------------


@pytest.fixture
def closed_table(published):
    for table in published.tables.all():
        table_sheet_record(table=table, records=[rufspiel(n) for n in range(1, 33)])
        for seat in range(1, 5):
            table_confirm(table=table, seat=seat)
    Round.objects.filter(pk=published.pk).update(status=Round.Status.CLOSED)
    return published.tables.get(number=1)


def test_the_organiser_corrects_a_closed_round_only_with_a_reason(organiser, closed_table):
    api = client_for(organiser)
    hand_url = BASE + "rounds/1/tables/1/hands/5/"
    response = api.patch(hand_url, {"augen": 30}, format="json")
    assert response.status_code == 400 and list(response.json()) == ["reason"]
    response = api.patch(hand_url, {"augen": 30, "reason": "  "}, format="json")
    assert response.status_code == 400 and list(response.json()) == ["reason"]
    response = api.patch(hand_url, {"augen": 30, "reason": "Sheet says 30"}, format="json")
    assert response.status_code == 200
    assert response.json()["augen"] == 30 and response.json()["points"] == {"1": -2, "2": 2, "3": -2, "4": 2}
    response = api.put(hand_url, {**rufspiel(5, augen=61), "reason": "Recounted"}, format="json")
    assert response.status_code == 200 and response.json()["augen"] == 61
    revision = HandRevision.objects.filter(number=5, table=closed_table).order_by("-id").first()
    assert (revision.action, revision.reason, revision.by.username, revision.old["augen"], revision.new["augen"]) == (
        "update",
        "Recounted",
        organiser.username,
        30,
        61,
    )


def test_the_organiser_deletes_a_game_with_a_reason(organiser, closed_table):
    api = client_for(organiser)
    hand_url = BASE + "rounds/1/tables/1/hands/32/"
    response = api.delete(hand_url)
    assert response.status_code == 400 and list(response.json()) == ["reason"]
    assert api.delete(hand_url + "?reason=Entered+twice").status_code == 204
    assert not Hand.objects.filter(table=closed_table, number=32).exists()
    assert api.delete(hand_url + "?reason=again").status_code == 404


def test_only_organisers_correct(desk, closed_table):
    response = client_for(desk).patch(BASE + "rounds/1/tables/1/hands/5/", {"augen": 30, "reason": "x"}, format="json")
    assert response.status_code == 403


def test_an_organiser_correction_is_still_a_400_per_field(organiser, closed_table):
    response = client_for(organiser).patch(
        BASE + "rounds/1/tables/1/hands/5/", {"augen": 300, "reason": "typo"}, format="json"
    )
    assert response.status_code == 400 and list(response.json()) == ["augen"]


def test_other_tournaments_games_are_not_reachable(organiser, club, closed_table):
    other = make_tournament(club, slug="anderes")
    publish_first_round(other)
    response = client_for(organiser).patch(
        "/api/tournaments/anderes/rounds/1/tables/1/hands/5/", {"augen": 30, "reason": "x"}, format="json"
    )
    assert response.status_code == 404


# --- paper mode: a table's round totals ---------------------------------------------------------


def test_the_organiser_enters_a_paper_tables_round_totals_with_a_revision(organiser, table):
    api = client_for(organiser)
    totals_url = BASE + "rounds/1/tables/1/totals/"
    response = api.put(totals_url, {"totals": {"1": 12, "2": -5, "3": -4, "4": -3}}, format="json")
    assert response.status_code == 200
    sheet = response.json()
    assert sheet["paper_totals"] == {"1": 12, "2": -5, "3": -4, "4": -3}
    assert sheet["totals"] == {"1": 12, "2": -5, "3": -4, "4": -3} and sheet["complete"] is True
    response = api.put(totals_url, {"totals": {"1": 10, "2": -5, "3": -2, "4": -3}}, format="json")
    assert response.status_code == 200
    revisions = HandRevision.objects.filter(table=table, action="totals").order_by("id")
    assert [(r.old, r.new["1"], r.by.username) for r in revisions] == [
        (None, 12, organiser.username),
        ({"1": 12, "2": -5, "3": -4, "4": -3}, 10, organiser.username),
    ]


@pytest.mark.parametrize(
    "body, field",
    [
        ({"totals": {"1": 12, "2": -5, "3": -4, "4": -2}}, "totals"),  # adds up to +1
        ({"totals": {"1": 12, "2": -5, "3": -7}}, "totals"),  # seat 4 missing
        ({"totals": {"1": "zwölf", "2": -5, "3": -4, "4": -3}}, "totals.1"),
        ({}, "totals"),
    ],
)
def test_paper_totals_that_do_not_fit_are_a_400_naming_the_field(organiser, table, body, field):
    response = client_for(organiser).put(BASE + "rounds/1/tables/1/totals/", body, format="json")
    assert response.status_code == 400 and list(response.json()) == [field]
    table.refresh_from_db()
    assert table.paper_totals is None and not HandRevision.objects.filter(table=table).exists()


def test_paper_totals_are_refused_where_games_were_entered_and_for_desk_helpers(organiser, desk, table):
    body = {"totals": {"1": 1, "2": -1, "3": 1, "4": -1}}
    assert client_for(desk).put(BASE + "rounds/1/tables/1/totals/", body, format="json").status_code == 403
    table_sheet_record(table=table, records=[rufspiel(1)])
    response = client_for(organiser).put(BASE + "rounds/1/tables/1/totals/", body, format="json")
    assert response.status_code == 409 and list(response.json()) == ["totals"]
