"""The table API: a tablet enters, corrects and confirms its table's games with the key as credential."""

import uuid

import pytest
from django.utils import translation

from tests.api.conftest import entry, rufspiel
from tournaments.models import Hand, HandRevision, Round, TableConfirmation
from tournaments.services.hands import table_sheet_record

pytestmark = pytest.mark.django_db


def url(table, rest: str = "") -> str:
    return f"/api/tisch/{table.entry_key}/{rest}"


def test_the_sheet_shows_seats_games_totals_and_the_next_dealer(tablet, table):
    tablet.post(url(table, "hands/"), entry(1), format="json")
    response = tablet.get(url(table))
    assert response.status_code == 200
    sheet = response.json()
    seats = table.seats.select_related("registration__player").order_by("number")
    assert [(s["seat"], s["start_number"], s["name"]) for s in sheet["seats"]] == [
        (s.number, s.registration.start_number, s.registration.player.name) for s in seats
    ]
    assert sheet["round"] == 1 and sheet["round_status"] == "published" and sheet["table"] == 1
    assert sheet["size"] == 4
    assert [h["number"] for h in sheet["hands"]] == [1]
    assert sheet["hands"][0]["points"] == {"1": 1, "2": -1, "3": 1, "4": -1}
    assert sheet["totals"] == {"1": 1, "2": -1, "3": 1, "4": -1}
    assert [s["total"] for s in sheet["seats"]] == [1, -1, 1, -1]
    assert (sheet["games_entered"], sheet["games_required"]) == (1, 32)
    assert (sheet["next_number"], sheet["next_dealer"], sheet["sitting_out"]) == (2, 2, None)
    assert sheet["confirmations"] == [] and sheet["complete"] is False and sheet["paper_totals"] is None


def test_a_game_is_stored_with_201_and_a_retry_gives_200_and_the_same_game(tablet, table):
    body = entry(1)
    first = tablet.post(url(table, "hands/"), body, format="json")
    again = tablet.post(url(table, "hands/"), body, format="json")
    assert (first.status_code, again.status_code) == (201, 200)
    assert first.json() == again.json()
    stored = first.json()
    assert stored["number"] == 1 and stored["dealer"] == 1 and stored["client_id"] == body["client_id"]
    assert stored["contract"] == "rufspiel" and stored["augen"] == 72 and stored["trump"] is None
    assert Hand.objects.filter(table=table).count() == 1


def test_a_sie_is_stored_without_a_trump_suit(tablet, table):
    body = {"contract": "solo", "declarer": 3, "sie": True, "client_id": str(uuid.uuid4()), "number": 1}
    response = tablet.post(url(table, "hands/"), body, format="json")
    assert response.status_code == 201, response.json()
    stored = response.json()
    assert (stored["contract"], stored["sie"], stored["trump"]) == ("solo", True, None)
    assert stored["points"] == {"1": -36, "2": -36, "3": 108, "4": -36}


def test_without_a_number_the_next_game_is_taken(tablet, table):
    numbers = [tablet.post(url(table, "hands/"), entry(), format="json").json()["number"] for _ in range(3)]
    assert numbers == [1, 2, 3]


def test_a_taken_game_number_is_a_409_naming_the_number(tablet, table):
    assert tablet.post(url(table, "hands/"), entry(1), format="json").status_code == 201
    response = tablet.post(url(table, "hands/"), entry(1, augen=30), format="json")
    assert response.status_code == 409
    assert list(response.json()) == ["number"]


def test_an_invalid_game_is_a_400_naming_each_field_and_nothing_is_stored(tablet, table):
    response = tablet.post(url(table, "hands/"), entry(1, augen=130), format="json")
    assert response.status_code == 400
    assert list(response.json()) == ["augen"]
    response = tablet.post(url(table, "hands/"), entry(1, partner=1), format="json")
    assert response.status_code == 400 and list(response.json()) == ["partner"]
    assert not Hand.objects.exists() and not HandRevision.objects.exists()


@pytest.mark.parametrize(
    ("change", "fields"),
    [
        ({"augen": "viel"}, ["augen"]),
        ({"declarer": True}, ["declarer"]),
        ({"tout": "vielleicht"}, ["tout"]),
        ({"client_id": "not-a-uuid"}, ["client_id"]),
        ({"number": 0}, ["number"]),
        ({"contract": None}, ["contract"]),
        ({"auge": 61}, ["auge"]),  # a typo is an error, never silently dropped
        ({"augen": "viel", "geier": True}, ["augen", "geier"]),
        ({"contract": "geier"}, ["contract"]),
        ({"contract": "solo", "partner": None, "called": None}, ["trump"]),
        (
            {
                "contract": "wenz",
                "partner": None,
                "called": None,
                "tout": True,
                "augen": None,
                "won": True,
                "sie": True,
            },
            ["sie"],
        ),
        ({"laufende": 20}, ["laufende"]),
        ({"schwarz": True, "augen": 37}, ["schwarz"]),
    ],
)
def test_every_validation_error_names_its_field(tablet, table, change, fields):
    body = {**entry(1), **change}
    response = tablet.post(url(table, "hands/"), body, format="json")
    assert response.status_code == 400, response.json()
    errors = response.json()
    assert sorted(errors) == sorted(fields)
    assert all(
        isinstance(messages, list) and messages and all(isinstance(m, str) and m for m in messages)
        for messages in errors.values()
    )


def test_a_body_that_is_not_an_object_is_a_400(tablet, table):
    response = tablet.post(url(table, "hands/"), [1, 2], format="json")
    assert response.status_code == 400 and list(response.json()) == ["non_field_errors"]
    response = tablet.post(url(table, "hands/"), "{nope", content_type="application/json")
    assert response.status_code == 400 and list(response.json()) == ["non_field_errors"]  # the documented shape


def test_a_wrong_key_is_a_404(tablet, table):
    for method, rest in (
        ("get", ""),
        ("post", "hands/"),
        ("get", "hands/1/"),
        ("post", "preview/"),
        ("post", "confirm/"),
        ("delete", "hands/1/"),
    ):
        response = getattr(tablet, method)(f"/api/tisch/{table.entry_key}x/{rest}", entry(1), format="json")
        assert response.status_code == 404, (method, rest)
        assert list(response.json()) == ["detail"]


def test_another_tables_key_can_neither_read_nor_change_this_tables_games(tablet, table, other_table):
    created = tablet.post(url(table, "hands/"), entry(1), format="json").json()
    foreign = url(other_table, "hands/1/")
    assert tablet.get(foreign).status_code == 404
    assert tablet.put(foreign, rufspiel(1, augen=30), format="json").status_code == 404
    assert tablet.patch(foreign, {"augen": 30}, format="json").status_code == 404
    assert tablet.delete(foreign).status_code == 404
    # the other table's sheet shows none of this table's games
    assert tablet.get(url(other_table)).json()["hands"] == []
    # and this table's submission id cannot be replayed at the other table
    replay = tablet.post(url(other_table, "hands/"), {**rufspiel(1), "client_id": created["client_id"]}, format="json")
    assert replay.status_code == 409 and list(replay.json()) == ["client_id"]
    assert Hand.objects.get().augen == 72 and Hand.objects.get().table == table


def test_a_game_is_corrected_with_put_and_patch_and_deleted(tablet, table):
    tablet.post(url(table, "hands/"), entry(1), format="json")
    response = tablet.put(url(table, "hands/1/"), rufspiel(1, augen=30), format="json")
    assert response.status_code == 200
    assert response.json()["augen"] == 30 and response.json()["points"] == {"1": -2, "2": 2, "3": -2, "4": 2}
    response = tablet.patch(url(table, "hands/1/"), {"augen": 95, "laufende": 3}, format="json")
    assert response.status_code == 200
    assert (response.json()["augen"], response.json()["laufende"], response.json()["partner"]) == (95, 3, 3)
    assert response.json()["points"] == {"1": 5, "2": -5, "3": 5, "4": -5}
    response = tablet.patch(url(table, "hands/1/"), {"partner": None}, format="json")
    assert response.status_code == 400 and list(response.json()) == ["partner"]
    assert tablet.get(url(table, "hands/1/")).json()["augen"] == 95
    assert tablet.delete(url(table, "hands/1/")).status_code == 204
    assert tablet.get(url(table, "hands/1/")).status_code == 404
    assert list(HandRevision.objects.order_by("id").values_list("action", flat=True)) == [
        "create",
        "update",
        "update",
        "delete",
    ]


def test_put_needs_the_whole_record(tablet, table):
    tablet.post(url(table, "hands/"), entry(1), format="json")
    response = tablet.put(url(table, "hands/1/"), {"augen": 30}, format="json")
    assert response.status_code == 400 and list(response.json()) == ["contract"]


def test_preview_scores_without_storing(tablet, table):
    response = tablet.post(
        url(table, "preview/"), {"contract": "wenz", "declarer": 1, "augen": 75, "laufende": 2}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["points"] == {"1": 21, "2": -7, "3": -7, "4": -7}
    assert (response.json()["number"], response.json()["dealer"], response.json()["value"]) == (1, 1, 7)
    assert response.json()["declarer_won"] is True and response.json()["reuegeld"] == {}
    lost = tablet.post(url(table, "preview/"), {"contract": "wenz", "declarer": 1, "augen": 50}, format="json").json()
    assert lost["points"] == {"1": -15, "2": 5, "3": 5, "4": 5} and lost["reuegeld"] == {"1": 50}
    response = tablet.post(url(table, "preview/"), {"contract": "wenz", "declarer": 1, "augen": 121}, format="json")
    assert response.status_code == 400 and list(response.json()) == ["augen"]
    assert not Hand.objects.exists()


def test_preview_of_a_later_game_uses_its_dealer(tablet, client_five):
    table, tablet = client_five
    # game 1 at a table of five: seat 1 deals and sits out, so seat 1 cannot declare
    response = tablet.post(url(table, "preview/"), {"contract": "wenz", "declarer": 1, "augen": 75}, format="json")
    assert response.status_code == 400 and list(response.json()) == ["declarer"]
    response = tablet.post(
        url(table, "preview/"), {"contract": "wenz", "declarer": 1, "augen": 75, "number": 2}, format="json"
    )
    assert response.status_code == 200 and response.json()["dealer"] == 2
    assert response.json()["points"]["2"] == 0


@pytest.fixture
def client_five(club, tablet):
    from tests.api.conftest import make_tournament, publish_first_round

    rnd = publish_first_round(make_tournament(club, players=5, slug="fuenf"))
    return rnd.tables.get(), tablet


def test_table_of_five_sheet_names_who_sits_out(client_five):
    table, tablet = client_five
    assert tablet.post(url(table, "hands/"), entry(1, size=5), format="json").status_code == 201
    sheet = tablet.get(url(table)).json()
    assert (sheet["size"], sheet["games_required"]) == (5, 40)
    assert (sheet["next_number"], sheet["next_dealer"], sheet["sitting_out"]) == (2, 2, 2)
    assert sheet["hands"][0]["dealer"] == 1 and sheet["hands"][0]["points"]["1"] == 0


def test_confirmation_when_every_game_is_entered(tablet, table):
    response = tablet.post(url(table, "confirm/"), {"seat": 1}, format="json")
    assert response.status_code == 409 and list(response.json()) == ["seat"]
    table_sheet_record(table=table, records=[rufspiel(n) for n in range(1, 33)])
    assert tablet.get(url(table)).json()["next_number"] is None
    response = tablet.post(url(table, "confirm/"), {"seat": 9}, format="json")
    assert response.status_code == 400 and list(response.json()) == ["seat"]
    for seat in (1, 2, 3, 4):
        response = tablet.post(url(table, "confirm/"), {"seat": seat}, format="json")
        assert response.status_code == 200
    sheet = response.json()
    assert sheet["confirmations"] == [1, 2, 3, 4] and sheet["complete"] is True
    assert all(seat["confirmed"] for seat in sheet["seats"])
    assert TableConfirmation.objects.filter(table=table).count() == 4


def test_a_game_sent_back_unchanged_is_no_change_and_keeps_the_confirmations(tablet, table):
    """Issue 33: ``PATCH {}`` or the same PUT wrote a revision and un-completed a confirmed table."""
    table_sheet_record(table=table, records=[rufspiel(n) for n in range(1, 33)])
    for seat in (1, 2, 3, 4):
        assert tablet.post(url(table, "confirm/"), {"seat": seat}, format="json").status_code == 200
    stored = tablet.get(url(table, "hands/5/")).json()
    revisions = HandRevision.objects.count()
    for response in (
        tablet.patch(url(table, "hands/5/"), {}, format="json"),
        tablet.put(url(table, "hands/5/"), rufspiel(5), format="json"),
        tablet.patch(url(table, "hands/5/"), {"augen": stored["augen"]}, format="json"),
    ):
        assert response.status_code == 200 and response.json() == stored
    assert HandRevision.objects.count() == revisions
    sheet = tablet.get(url(table)).json()
    assert sheet["confirmations"] == [1, 2, 3, 4] and sheet["complete"] is True
    # A real change still un-completes the table.
    assert tablet.patch(url(table, "hands/5/"), {"augen": 90}, format="json").status_code == 200
    assert HandRevision.objects.count() == revisions + 1 and tablet.get(url(table)).json()["confirmations"] == []


def test_a_closed_round_is_a_409_for_the_tablet(tablet, table):
    tablet.post(url(table, "hands/"), entry(1), format="json")
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.CLOSED)
    assert tablet.get(url(table)).json()["round_status"] == "closed"
    for response in (
        tablet.post(url(table, "hands/"), entry(2), format="json"),
        tablet.put(url(table, "hands/1/"), rufspiel(1, augen=30), format="json"),
        tablet.patch(url(table, "hands/1/"), {"augen": 30}, format="json"),
        tablet.delete(url(table, "hands/1/")),
        tablet.post(url(table, "confirm/"), {"seat": 1}, format="json"),
    ):
        assert response.status_code == 409
        assert list(response.json()) == ["round"]
    assert Hand.objects.get().augen == 72


def test_an_unpublished_round_takes_no_games(tablet, tournament):
    from tournaments.services.rounds import round_draw

    (rnd,) = round_draw(tournament=tournament, seed=3)
    response = tablet.post(url(rnd.tables.first(), "hands/"), entry(1), format="json")
    assert response.status_code == 409 and list(response.json()) == ["round"]
    assert tablet.get(url(rnd.tables.first(), "")).status_code == 404  # the sheet, as the page: not yet


def test_the_table_api_needs_no_login_and_no_csrf_token(table):
    from rest_framework.test import APIClient

    strict = APIClient(enforce_csrf_checks=True)
    assert strict.post(url(table, "hands/"), entry(1), format="json").status_code == 201


def test_errors_are_translated_for_the_tablet(tablet, table):
    with translation.override("en"):
        response = tablet.post(url(table, "hands/"), entry(1, augen="viel"), format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.json() == {"augen": ["A valid integer is required."]}


def test_saving_a_game_takes_a_bounded_number_of_queries(tablet, table, django_assert_max_num_queries):
    tablet.post(url(table, "hands/"), entry(1), format="json")
    with django_assert_max_num_queries(12):  # the key; round, table locked; one check; 3 writes; savepoints
        response = tablet.post(url(table, "hands/"), entry(2), format="json")
    assert response.status_code == 201
    with django_assert_max_num_queries(7):  # the key, the locks, the check, the stored game, savepoints
        assert (
            tablet.post(
                url(table, "hands/"), {**entry(3), "client_id": response.json()["client_id"]}, format="json"
            ).status_code
            == 200
        )


def test_reading_the_sheet_takes_a_bounded_number_of_queries(tablet, table, django_assert_max_num_queries):
    table_sheet_record(table=table, records=[rufspiel(n) for n in range(1, 20)])
    with django_assert_max_num_queries(6):
        assert tablet.get(url(table)).status_code == 200


def test_a_retry_is_recognised_with_a_client_id_in_any_spelling(tablet, table):
    body = entry(1)
    assert tablet.post(url(table, "hands/"), body, format="json").status_code == 201
    upper = {**body, "client_id": str(uuid.UUID(body["client_id"])).upper()}
    assert tablet.post(url(table, "hands/"), upper, format="json").status_code == 200


def test_kreuz_at_a_table_of_five_and_a_replayed_60_to_60(club, tablet):
    from tests.api.conftest import make_tournament, publish_first_round

    tournament = make_tournament(club, players=5, slug="kreuz", rules={"all_pass": "kreuz", "kreuz_tie": "replay"})
    table = publish_first_round(tournament).tables.get()
    # game 1: seat 1 deals and sits out; über Kreuz 2+4 play against 3+5
    body = {"contract": "kreuz", "declarer": 2, "augen": 95, "laufende": 3, "client_id": str(uuid.uuid4())}
    response = tablet.post(url(table, "hands/"), body, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["points"] == {"1": 0, "2": 5, "3": -5, "4": 5, "5": -5}
    # game 2: seat 2 deals; 1+4 against 3+5, so seat 3's partner is 5, not 4
    wrong = tablet.post(
        url(table, "hands/"), {**body, "declarer": 3, "partner": 4, "client_id": str(uuid.uuid4())}, format="json"
    )
    assert wrong.status_code == 400 and list(wrong.json()) == ["partner"]

    preview = tablet.post(url(table, "preview/"), {"contract": "kreuz", "declarer": 3, "augen": 60}, format="json")
    assert preview.status_code == 200
    assert preview.json() | {} == {
        "number": 2,
        "dealer": 2,
        "partner": 5,
        "points": dict.fromkeys("12345", 0),
        "value": 0,
        "thrown_in": True,
        "weitergeld": {},
    }
    replay = {"contract": "kreuz", "declarer": 3, "augen": 60, "client_id": str(uuid.uuid4())}
    assert tablet.post(url(table, "hands/"), replay, format="json").status_code == 201
    sheet = tablet.get(url(table)).json()
    assert (sheet["games_entered"], sheet["next_number"], sheet["next_dealer"]) == (1, 3, 2)  # seat 2 deals again
    assert sheet["hands"][1]["thrown_in"] is True and sheet["hands"][1]["points"] == {}
    assert sheet["hands"][0]["thrown_in"] is False


def test_kreuz_is_refused_under_muss_rules(tablet, table):
    response = tablet.post(
        url(table, "hands/"),
        {"contract": "kreuz", "declarer": 2, "augen": 70, "client_id": str(uuid.uuid4())},
        format="json",
    )
    assert response.status_code == 400 and list(response.json()) == ["contract"]
    assert not Hand.objects.exists()
