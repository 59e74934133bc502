"""The tablet under all_pass = kreuz: a Kreuz button where Muss would be, the Vorhand's pair proposed,
a replayed 60:60 saved as thrown in (same dealer, the game does not count). And the services' side."""

import uuid

import pytest
from django.utils import translation

from tests.tournaments.test_services_hands import make_table
from tests.tournaments.test_views_entry import NAMES, post_game, url
from tournaments.services.errors import ServiceError
from tournaments.services.hands import hand_correct, hand_delete, hand_record, table_confirm, table_sheet_record

pytestmark = pytest.mark.django_db

KREUZ = {"all_pass": "kreuz"}
REPLAY = {"all_pass": "kreuz", "kreuz_tie": "replay", "games_per_round": 8}


@pytest.fixture(autouse=True)
def _english(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    with translation.override("en"):
        yield


def test_the_kreuz_button_stands_where_muss_would_be_and_proposes_the_vorhands_pair(client):
    table = make_table(size=5, rules=KREUZ, names=NAMES)
    response = client.get(url("entry_table", table.entry_key))
    html = response.content.decode()
    labels = [value for value, _label in response.context["contracts"]]
    assert labels == ["rufspiel", "kreuz", "wenz", "solo", "sie"]  # no Muss, no thrown in; a Sie is its own button
    # Game 1: seat 1 deals and sits out, Vorhand is seat 2: the pair 2+4 against 3+5.
    assert [p["seats"] for p in response.context["kreuz_pairs"]] == [(2, 4), (3, 5)]
    assert 'data-testid="pair-2-4"' in html and "Bernd Maier + Dieter Gruber" in html
    assert response.context["values"]["pair"] == "2"  # proposed
    assert 'id="pair-2" value="2" checked' in html


def test_the_contract_buttons_under_muss_and_redeal_have_no_kreuz(client):
    for rules, shown in (({}, "muss"), ({"all_pass": "redeal"}, "weiter")):
        response = client.get(url("entry_table", make_table(rules=rules).entry_key))
        values = [value for value, _label in response.context["contracts"]]
        assert "kreuz" not in values and shown in values


def test_a_kreuz_is_entered_with_the_pair_augen_schwarz_and_laufende_only(client):
    table = make_table(size=5, rules=KREUZ, names=NAMES)
    preview = client.post(
        url("entry_preview", table.entry_key),
        {
            "contract": "kreuz",
            "pair": "2",
            "augen": "95",
            "laufende": "3",
            "number": "1",
            "declarer": "5",
            "called": "gras",
        },
        HTTP_HX_REQUEST="true",
    )
    p = preview.context["p"]
    assert p["state"] == "ok" and p["kreuz_pair"] == (2, 4)
    assert [(s["seat"], s["points"], s["plays"]) for s in p["seats"]] == [
        (1, 0, False),
        (2, 5, True),
        (3, -5, False),
        (4, 5, True),
        (5, -5, False),
    ]
    assert "2+4 über Kreuz" in preview.content.decode()

    response = post_game(
        client,
        table,
        {"contract": "kreuz", "pair": "2", "augen": "95", "laufende": "3", "declarer": "5", "called": "gras"},
        number=1,
    )
    assert response.status_code == 200, response.content
    hand = table.hands.get()
    assert (hand.contract, hand.declarer, hand.partner, hand.called, hand.augen, hand.laufende) == (
        "kreuz",
        2,
        None,
        None,
        95,
        3,
    )  # only what a Kreuz has; the partner sits opposite
    assert hand.points == {"1": 0, "2": 5, "3": -5, "4": 5, "5": -5} and not hand.thrown_in
    sheet = client.get(url("entry_table", table.entry_key))
    row = sheet.context["rows"][0]
    assert (row["declarer"], row["partner"]) == ("Bernd Maier", "Dieter Gruber")
    assert [cell.plays for cell in row["row"].cells] == [False, True, False, True, False]


def test_a_replayed_60_to_60_is_thrown_in_and_the_same_dealer_deals_again(client):
    table = make_table(size=5, rules=REPLAY, names=NAMES)
    post_game(client, table, {"contract": "kreuz", "pair": "2", "augen": "70"}, number=1)
    before = client.get(url("entry_table", table.entry_key)).context
    assert (before["dealer"], before["sheet"].games_entered) == (2, 1)

    preview = client.post(
        url("entry_preview", table.entry_key),
        {"contract": "kreuz", "pair": "3", "augen": "60", "number": "2"},
        HTTP_HX_REQUEST="true",
    )
    assert preview.context["p"]["score"].thrown_in
    assert "thrown in without Weitergeld" in preview.content.decode()
    assert post_game(client, table, {"contract": "kreuz", "pair": "3", "augen": "60"}, number=2).status_code == 200

    replayed = table.hands.get(number=2)
    assert replayed.thrown_in and replayed.points == {} and replayed.outcome["weitergeld"] == {}
    assert (replayed.contract, replayed.augen) == ("kreuz", 60)
    after = client.get(url("entry_table", table.entry_key))
    assert (after.context["dealer"], after.context["sheet"].games_entered) == (2, 1)  # same dealer, no game counted
    assert after.context["entry"].thrown_in == 1
    assert "Kreuz 60:60, dealt again" in after.content.decode()
    post_game(client, table, {"contract": "kreuz", "pair": "3", "augen": "61"}, number=3)
    assert table.hands.get(number=3).dealer == 2
    assert client.get(url("entry_table", table.entry_key)).context["dealer"] == 3


def test_under_lost_a_60_to_60_is_lost_and_counts():
    table = make_table(rules=KREUZ)
    hand, _ = hand_record(
        table=table, record={"contract": "kreuz", "declarer": 1, "augen": 60}, client_id=uuid.uuid4(), number=1
    )
    assert not hand.thrown_in and hand.points == {"1": -1, "2": 1, "3": -1, "4": 1}


def test_a_replayed_kreuz_only_as_the_latest_game_and_never_swapped_with_a_played_one():
    table = make_table(rules=REPLAY)
    table_sheet_record(table=table, records=[{"contract": "kreuz", "declarer": 1, "augen": 70}] * 3)
    hand_delete(hand=table.hands.get(number=2))
    with pytest.raises(ServiceError) as err:
        hand_record(
            table=table, record={"contract": "kreuz", "declarer": 1, "augen": 60}, client_id=uuid.uuid4(), number=2
        )
    assert err.value.code == "weiter_not_last"
    with pytest.raises(ServiceError) as err:
        hand_correct(hand=table.hands.get(number=3), record={"contract": "kreuz", "declarer": 1, "augen": 60})
    assert err.value.field == "contract"


def test_a_round_of_kreuz_needs_its_games_played_not_counting_the_replays():
    table = make_table(rules=REPLAY)
    records = [{"contract": "kreuz", "declarer": 1, "augen": 60 if n % 3 == 0 else 65} for n in range(1, 12)]
    hands = table_sheet_record(table=table, records=records)
    assert sum(h.thrown_in for h in hands) == 3
    assert [h.dealer for h in hands] == [1, 2, 3, 3, 4, 1, 1, 2, 3, 3, 4]
    table_confirm(table=table, seat=1)  # 11 entries, 3 replayed: the round's 8 games are all there
    with pytest.raises(ServiceError) as err:
        hand_record(table=table, record=records[0], client_id=uuid.uuid4())
    assert err.value.code == "round_complete"


def test_the_preview_of_a_thrown_in_game_at_five_says_the_dealer_does_not_pay(client):
    table = make_table(size=5, rules={"all_pass": "redeal"}, names=NAMES)
    preview = client.post(
        url("entry_preview", table.entry_key), {"contract": "weiter", "number": "1"}, HTTP_HX_REQUEST="true"
    )
    p = preview.context["p"]
    assert p["score"].weitergeld == {2: 10, 3: 10, 4: 10, 5: 10} and p["weitergeld"] == 10
    assert "pays 10 ct Weitergeld; the dealer sat out" in preview.content.decode()
