"""The table's tablet page, its JSON answers for entry.js, the preview, the organiser's tables and paper mode."""

import re
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from tests.tournaments.test_services_hands import RUF, close, fill, make_table, rufspiel
from tournaments.links import table_link_key
from tournaments.models import ClubMembership, Hand, HandRevision, Round, TableConfirmation
from tournaments.services.hands import hand_correct, table_confirm

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
NAMES = [("Anna", "Huber"), ("Bernd", "Maier"), ("Christa", "Wimmer"), ("Dieter", "Gruber"), ("Eva", "Moser")]


@pytest.fixture(autouse=True)
def _english(client):
    """English messages, in the test and in the pages (German is the default, see tests/test_i18n.py)."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    with translation.override("en"):
        yield


def url(name, *args):
    return reverse(f"tournaments:{name}", args=args)


def post_game(client, table, fields, *, number=None, client_id=None, json=True):
    data = {"number": number or "", "client_id": str(client_id or uuid.uuid4()), "device": "tablet-1", **fields}
    return client.post(url("entry_record", table.entry_key), data, **(JSON if json else {}))


RUF_FIELDS = {
    "contract": "rufspiel",
    "called": "eichel",
    "declarer": "1",
    "partner": "3",
    "augen": "72",
    "laufende": "0",
}


# --- the page -------------------------------------------------------------------------------------------


def test_the_link_opens_the_table_with_seats_start_numbers_dealer_and_the_next_game(client):
    table = make_table(names=NAMES[:4])
    response = client.get(url("entry_table", table.entry_key))
    assert response.status_code == 200
    html = response.content.decode()
    for name in ("Anna Huber", "Bernd Maier", "Christa Wimmer", "Dieter Gruber"):
        assert name in html
    assert "No. 11" in html and "No. 14" in html
    assert "Game 1" in html and "Anna Huber deals" in html
    assert 'data-testid="game-form"' in html
    assert response.context["number"] == 1 and response.context["dealer"] == 1


def test_a_wrong_key_and_an_unpublished_round_are_404(client):
    assert client.get(url("entry_table", "not-a-key")).status_code == 404
    table = make_table(status=Round.Status.DRAWN)
    assert client.get(url("entry_table", table.entry_key)).status_code == 404
    assert post_game(client, table, RUF_FIELDS).status_code == 404


def test_a_link_opens_only_its_own_table(client):
    table, other = make_table(), make_table()
    fill(other, 2)
    assert client.get(url("entry_game", table.entry_key, 1)).status_code == 404
    assert client.post(url("entry_delete", table.entry_key, 1)).status_code == 404
    assert other.hands.count() == 2


def test_the_running_totals_and_the_games_so_far(client):
    table = make_table(names=NAMES[:4])
    fill(table, 3)
    response = client.get(url("entry_table", table.entry_key))
    entry = response.context["entry"]
    assert [row.number for row in entry.rows] == [1, 2, 3]
    sums = [sum(h.points[str(seat)] for h in table.hands.all()) for seat in range(1, 5)]
    assert [c.running for c in entry.rows[-1].cells] == sums
    # newest first while the table plays
    assert [r["row"].number for r in response.context["rows"]] == [3, 2, 1]
    assert response.context["dealer"] == 4


def test_at_a_table_of_five_the_dealer_sits_out_and_cannot_be_tapped(client):
    table = make_table(size=5, names=NAMES)
    fill(table, 2)
    html = client.get(url("entry_table", table.entry_key)).content.decode()
    assert "Christa Wimmer deals and sits out" in html
    assert 'id="d-3" value="3" disabled' in html and 'id="p-3" value="3" disabled' in html
    assert "of 40" in html


# --- entering a game ------------------------------------------------------------------------------------


def test_a_game_is_saved_with_the_engines_points_and_the_client_id(client):
    table = make_table()
    client_id = uuid.uuid4()
    response = post_game(client, table, RUF_FIELDS, number=1, client_id=client_id)
    assert response.status_code == 200
    answer = response.json()
    parts, etag = answer.pop("parts"), answer.pop("etag")
    assert answer == {"ok": True, "redirect": url("entry_table", table.entry_key), "message": "Game 1 saved."}
    # the page's new parts come with the answer (no second request), and the page's next poll is unchanged
    assert 'data-testid="game-1"' in parts and 'id="entry-root"' in parts
    assert client.get(url("entry_table", table.entry_key), HTTP_IF_NONE_MATCH=etag).status_code == 304
    hand = table.hands.get()
    assert (hand.contract, hand.called, hand.declarer, hand.partner, hand.augen, hand.laufende) == (
        "rufspiel",
        "eichel",
        1,
        3,
        72,
        0,
    )
    assert hand.client_id == client_id and hand.points == {"1": 1, "2": -1, "3": 1, "4": -1}
    assert hand.device.startswith("tablet-1")


def test_a_retry_with_the_same_client_id_is_not_stored_twice(client):
    table = make_table()
    client_id = uuid.uuid4()
    assert post_game(client, table, RUF_FIELDS, number=1, client_id=client_id).status_code == 200
    assert post_game(client, table, RUF_FIELDS, number=1, client_id=client_id).status_code == 200
    assert table.hands.count() == 1


def test_a_number_taken_on_another_device_is_a_409_that_tells_the_table(client):
    table = make_table()
    post_game(client, table, RUF_FIELDS, number=1)
    response = post_game(client, table, {**RUF_FIELDS, "augen": "20"}, number=1)
    assert response.status_code == 409
    assert response.json()["code"] == "number_taken"
    assert "already been entered" in response.json()["errors"]["form"][0]
    assert table.hands.get().augen == 72


def test_invalid_input_is_explained_next_to_its_field(client):
    table = make_table()
    response = post_game(client, table, {**RUF_FIELDS, "partner": "1"}, number=1)
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["partner"]
    response = post_game(client, table, {**RUF_FIELDS, "augen": "130"}, number=1)
    assert list(response.json()["errors"]) == ["augen"]
    response = post_game(client, table, {**RUF_FIELDS, "augen": "zwölf"}, number=1)
    assert list(response.json()["errors"]) == ["augen"]
    response = post_game(client, table, {"contract": "wenz", "declarer": "2"}, number=1)
    assert list(response.json()["errors"]) == ["augen"]
    assert not table.hands.exists()


def test_without_javascript_an_error_renders_the_page_with_the_message_next_to_the_field(client):
    table = make_table()
    response = post_game(client, table, {**RUF_FIELDS, "partner": "1"}, number=1, json=False)
    assert response.status_code == 400
    assert response.context["errors"]["partner"]
    assert 'id="err-partner" role="alert">The partner must be another player' in response.content.decode()
    response = post_game(client, table, RUF_FIELDS, number=1, json=False)
    assert response.status_code == 302 and response["Location"] == url("entry_table", table.entry_key)


@pytest.mark.parametrize(
    "fields, record",
    [
        (
            {
                "contract": "muss",
                "declarer": "2",
                "partner": "4",
                "called": "gras",
                "called_card": "sau",
                "renonce": "on",
                "augen": "60",
                "laufende": "0",
            },
            {
                "contract": "rufspiel",
                "muss": True,
                "declarer": 2,
                "partner": 4,
                "called": "gras",
                "called_card": "sau",
                "renonce": True,
                "augen": 60,
                "laufende": 0,
            },
        ),
        (
            {"contract": "wenz", "declarer": "1", "augen": "75", "laufende": "2", "trump": "herz", "partner": "2"},
            {"contract": "wenz", "declarer": 1, "augen": 75, "laufende": 2},
        ),
        (
            {"contract": "solo", "declarer": "3", "trump": "herz", "augen": "120", "schwarz": "on", "laufende": "4"},
            {"contract": "solo", "declarer": 3, "trump": "herz", "augen": 120, "schwarz": True, "laufende": 4},
        ),
        (
            {
                "contract": "solo",
                "declarer": "3",
                "trump": "gras",
                "announce": "tout",
                "won": "1",
                "augen": "99",
                "laufende": "5",
            },
            {"contract": "solo", "declarer": 3, "trump": "gras", "tout": True, "won": True, "laufende": 5},
        ),
        (
            {
                "contract": "sie",
                "declarer": "4",
                "trump": "eichel",
                "announce": "tout",
                "augen": "80",
                "laufende": "3",
                "kontra": "1",
            },
            {"contract": "solo", "declarer": 4, "sie": True},
        ),  # a Sie is its own button: no trump suit to tap
    ],
)
def test_each_contract_keeps_only_its_own_fields(client, fields, record):
    from scoring.storage import stored_record as stored

    table = make_table()
    response = post_game(client, table, fields, number=1)
    assert response.status_code == 200, response.content
    assert stored(table.hands.get(), 4) == record


def test_tout_and_sie_only_when_the_ruleset_allows_them(client):
    table = make_table(rules={"tout_allowed": False, "sie_allowed": False})
    html = client.get(url("entry_table", table.entry_key)).content.decode()
    assert 'data-testid="tout"' not in html and 'data-testid="contract-sie"' not in html
    assert 'data-testid="contract-sie"' in client.get(url("entry_table", make_table().entry_key)).content.decode()
    response = post_game(client, table, {"contract": "wenz", "declarer": "1", "announce": "tout", "won": "1"}, number=1)
    assert response.status_code == 400 and list(response.json()["errors"]) == ["announce"]


def test_the_contract_buttons_follow_the_all_pass_rule(client):
    html = client.get(url("entry_table", make_table().entry_key)).content.decode()
    assert 'data-testid="contract-muss"' in html and 'data-testid="contract-weiter"' not in html
    table = make_table(rules={"all_pass": "redeal"})
    html = client.get(url("entry_table", table.entry_key)).content.decode()
    assert 'data-testid="contract-muss"' not in html and 'data-testid="contract-weiter"' in html
    assert post_game(client, table, {"contract": "weiter", "declarer": "2", "augen": "50"}, number=1).status_code == 200
    assert table.hands.get().contract == "weiter"


# --- the preview ----------------------------------------------------------------------------------------


def test_the_preview_shows_every_players_points_from_the_rules_engine(client):
    table = make_table(names=NAMES[:4])
    response = client.post(
        url("entry_preview", table.entry_key),
        {**RUF_FIELDS, "augen": "95", "laufende": "3", "number": "1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    p = response.context["p"]
    assert p["state"] == "ok"
    assert [(s["name"], s["points"]) for s in p["seats"]] == [
        ("Anna Huber", 5),
        ("Bernd Maier", -5),
        ("Christa Wimmer", 5),
        ("Dieter Gruber", -5),
    ]
    html = response.content.decode()
    assert "+5" in html and "Schneider" in html and "players 95 : 25 defenders" in html
    assert not table.hands.exists()


def test_the_preview_says_what_is_missing_and_marks_a_wrong_field(client):
    table = make_table()
    preview = url("entry_preview", table.entry_key)
    p = client.post(preview, {"contract": "rufspiel", "declarer": "1"}).context["p"]
    assert p["state"] == "missing" and str(p["missing"]) == "the partner"
    response = client.post(preview, {"contract": "rufspiel", "declarer": "1", "partner": "1", "augen": "70"})
    assert response.context["p"]["state"] == "invalid"
    html = response.content.decode()
    assert '<div class="field-error" id="err-partner" role="alert" hx-swap-oob="true">The partner must be' in html
    assert '<div class="field-error" id="err-augen" role="alert" hx-swap-oob="true"></div>' in html


def test_the_preview_of_a_table_of_five_scores_the_sitting_out_dealer_zero(client):
    table = make_table(size=5, names=NAMES)
    p = client.post(
        url("entry_preview", table.entry_key), {"contract": "wenz", "declarer": "2", "augen": "80", "number": "1"}
    ).context["p"]
    assert [(s["seat"], s["points"], s["sits_out"]) for s in p["seats"]] == [
        (1, 0, True),
        (2, 15, False),
        (3, -5, False),
        (4, -5, False),
        (5, -5, False),
    ]


# --- corrections ----------------------------------------------------------------------------------------


def test_a_game_opens_prefilled_and_a_correction_keeps_a_revision(client):
    table = make_table()
    fill(table, 3)
    page = client.get(url("entry_game", table.entry_key, 2))
    assert page.status_code == 200
    assert page.context["values"]["declarer"] == "1" and page.context["values"]["augen"] == "42"
    assert page.context["preview"]["state"] == "ok"
    response = client.post(
        url("entry_game", table.entry_key, 2), {**RUF_FIELDS, "augen": "100", "device": "tablet-2"}, **JSON
    )
    assert response.status_code == 200 and response.json()["message"] == "Game 2 corrected."
    revision = HandRevision.objects.get(action="update")
    assert revision.old["augen"] == 42 and revision.new["augen"] == 100 and revision.device.startswith("tablet-2")


def test_a_game_is_deleted_with_a_revision(client):
    table = make_table()
    fill(table, 3)
    response = client.post(url("entry_delete", table.entry_key, 3))
    assert response.status_code == 302
    assert list(table.hands.values_list("number", flat=True)) == [1, 2]
    assert HandRevision.objects.filter(action="delete", number=3).exists()


def test_a_closed_round_shows_the_final_sheet_read_only(client):
    table = make_table(rules={"games_per_round": 8})
    fill(table, 8)
    close(table)
    response = client.get(url("entry_table", table.entry_key))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'data-testid="closed-banner"' in html and 'data-testid="game-form"' not in html
    assert url("entry_game", table.entry_key, 1) not in html  # no game opens for a correction
    assert client.get(url("entry_game", table.entry_key, 1)).status_code == 302
    response = client.post(url("entry_game", table.entry_key, 1), {**RUF_FIELDS, "augen": "10"}, **JSON)
    assert response.status_code == 409 and response.json()["code"] == "round_closed"
    assert client.post(url("entry_delete", table.entry_key, 1), **JSON).status_code == 409
    assert table.hands.count() == 8


# --- confirmation ---------------------------------------------------------------------------------------


def test_the_confirmation_panel_appears_when_all_games_are_in(client):
    table = make_table(rules={"games_per_round": 8}, names=NAMES[:4])
    fill(table, 7)
    html = client.get(url("entry_table", table.entry_key)).content.decode()
    assert 'data-testid="confirm-panel"' not in html
    fill_more = rufspiel(8)
    post_game(client, table, {k: str(v) for k, v in fill_more.items()}, number=8)
    html = client.get(url("entry_table", table.entry_key)).content.decode()
    assert 'data-testid="confirm-panel"' in html and 'data-testid="game-form"' not in html
    for seat in range(1, 5):
        response = client.post(url("entry_confirm", table.entry_key), {"seat": seat})
        assert response.status_code == 302
    table.refresh_from_db()
    assert table.completed_at is not None
    html = client.get(url("entry_table", table.entry_key)).content.decode()
    assert 'data-testid="complete-banner"' in html and html.count('data-testid="confirmed-') == 4


def test_the_correction_form_sent_unchanged_keeps_the_confirmations(client):
    """Issue 33: the page's correction form sent as it opened wrote a revision and un-completed the table."""
    table = make_table(rules={"games_per_round": 8}, names=NAMES[:4])
    fill(table, 8)
    for seat in range(1, 5):
        assert client.post(url("entry_confirm", table.entry_key), {"seat": seat}).status_code == 302
    revisions = HandRevision.objects.count()
    values = client.get(url("entry_game", table.entry_key, 2)).context["values"]
    response = client.post(url("entry_game", table.entry_key, 2), {**values, "device": "tablet-2"}, **JSON)
    assert response.status_code == 200, response.content
    assert HandRevision.objects.count() == revisions
    table.refresh_from_db()
    assert table.completed_at is not None and table.confirmations.count() == 4 and table.reconfirm_game is None


def test_one_device_confirming_every_seat_is_shown_to_the_table_and_the_organiser(client, organiser_client):
    """Issue 33: four taps on one phone looked exactly like four players confirming on their own."""
    from django.test import Client

    table = make_table(rules={"games_per_round": 8}, names=NAMES[:4])
    fill(table, 8)
    note = 'data-testid="one-device"'
    for seat in range(1, 5):  # each player on his own phone
        Client().post(url("entry_confirm", table.entry_key), {"seat": seat})
    page = client.get(url("entry_table", table.entry_key)).content.decode()
    assert 'data-testid="complete-banner"' in page and note not in page
    hand_correct(hand=table.hands.get(number=2), record={**rufspiel(2), "augen": 100})  # the players confirm anew
    for seat in range(1, 5):  # now one phone taps every name
        assert client.post(url("entry_confirm", table.entry_key), {"seat": seat}).status_code == 302
    page = client.get(url("entry_table", table.entry_key)).content.decode()
    assert note in page and "All seats confirmed from one device" in page
    german = Client().get(url("entry_table", table.entry_key)).content.decode()
    assert "Alle Plätze von einem Gerät bestätigt" in german
    assert {c.device_id for c in table.confirmations.all()} == {client.session["device_id"]}
    organiser_client(table)
    tables = client.get(url("entry_tables", table.round.tournament.slug)).content.decode()
    assert 'data-testid="one-device-1"' in tables
    assert note in client.get(url("paper", table.round.tournament.slug, table.pk)).content.decode()


def test_confirming_before_the_end_is_refused_with_a_message(client):
    table = make_table(rules={"games_per_round": 8})
    fill(table, 3)
    response = client.post(url("entry_confirm", table.entry_key), {"seat": 1}, follow=True)
    assert "3 of 8 games are entered" in response.content.decode()
    assert not TableConfirmation.objects.exists()


# --- organiser: tables with QR codes, paper mode ---------------------------------------------------------


@pytest.fixture
def organiser_client(client):
    def login(table, role=ClubMembership.Role.ORGANISER):
        user = get_user_model().objects.create_user(f"orga-{uuid.uuid4().hex[:6]}", password="x")
        ClubMembership.objects.create(user=user, club=table.round.tournament.club, role=role)
        client.force_login(user)
        return user

    return login


def test_the_tables_page_lists_links_qr_codes_games_and_confirmations(client, organiser_client):
    table = make_table(rules={"games_per_round": 8}, names=NAMES[:4])
    fill(table, 8)
    table_confirm(table=table, seat=2)
    slug = table.round.tournament.slug
    assert client.get(url("entry_tables", slug)).status_code == 302  # login first
    organiser_client(table)
    response = client.get(url("entry_tables", slug))
    assert response.status_code == 200
    html = response.content.decode()
    assert f"http://testserver/tisch/{table.entry_key}/" in html
    evening = url("table_link", table_link_key(table.round.tournament_id, table.number))
    assert f'data-testid="evening-link-1">http://testserver{evening}</a>' in html  # the table card's link
    assert url("entry_table_qr", slug, table.pk) in html
    assert 'data-testid="games-1"><b>8</b> / 8' in html and 'data-testid="confirmations-1"><b>1</b> / 4' in html
    qr = client.get(url("entry_table_qr", slug, table.pk))
    assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml" and b"<svg" in qr.content


def test_organiser_pages_are_404_for_another_club_and_for_desk_helpers(client, organiser_client):
    table, other = make_table(), make_table()
    organiser_client(other)
    slug = table.round.tournament.slug
    assert client.get(url("entry_tables", slug)).status_code == 404
    assert client.get(url("paper", slug, table.pk)).status_code == 404
    assert client.get(url("paper", other.round.tournament.slug, table.pk)).status_code == 404  # not its table
    organiser_client(table, role=ClubMembership.Role.DESK)
    assert client.get(url("entry_tables", slug)).status_code == 404


def test_paper_mode_enters_games_as_the_organiser(client, organiser_client):
    table = make_table()
    user = organiser_client(table)
    slug = table.round.tournament.slug
    assert client.get(url("paper", slug, table.pk)).status_code == 200
    response = client.post(url("paper_record", slug, table.pk), {**RUF_FIELDS, "number": "1"})
    assert response.status_code == 302
    hand = table.hands.get()
    assert hand.entered_by == user and HandRevision.objects.get().by == user
    preview = client.post(url("paper_preview", slug, table.pk), {**RUF_FIELDS, "number": "2"})
    assert preview.context["p"]["state"] == "ok"


def test_paper_mode_corrects_a_closed_round_only_with_a_reason(client, organiser_client):
    table = make_table(rules={"games_per_round": 8})
    fill(table, 8)
    close(table)
    user = organiser_client(table)
    slug = table.round.tournament.slug
    page = client.get(url("paper_game", slug, table.pk, 4)).content.decode()
    assert 'name="reason"' in page
    # the page says which step this is: a logged correction with a reason (or reopening the round), not "read only"
    assert "can only be read" not in page
    assert "you correct a game only with a reason; the correction is logged" in page
    assert url("rounds", slug) in page
    response = client.post(url("paper_game", slug, table.pk, 4), {**RUF_FIELDS, "number": "4"}, **JSON)
    assert response.status_code == 400 and "reason" in response.json()["errors"]
    response = client.post(
        url("paper_game", slug, table.pk, 4), {**RUF_FIELDS, "number": "4", "reason": "Schreibfehler"}, **JSON
    )
    assert response.status_code == 200
    revision = HandRevision.objects.get(action="update")
    assert (revision.by, revision.reason) == (user, "Schreibfehler")


def test_paper_totals_are_refused_unless_they_sum_to_zero(client, organiser_client):
    table = make_table(names=NAMES[:4])
    organiser_client(table)
    slug = table.round.tournament.slug
    totals = url("paper_totals", slug, table.pk)
    response = client.post(totals, {"seat_1": "10", "seat_2": "-3", "seat_3": "-3", "seat_4": "-3"})
    assert response.status_code == 400
    assert "add up to +1" in response.content.decode()
    table.refresh_from_db()
    assert table.paper_totals is None
    response = client.post(totals, {"seat_1": "9", "seat_2": "-3", "seat_3": "-3", "seat_4": "-3"})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.paper_totals == {"1": 9, "2": -3, "3": -3, "4": -3}
    html = client.get(url("entry_table", table.entry_key)).content.decode()
    assert 'data-testid="game-form"' not in html and 'data-testid="total-1">9<' in html
    assert not Hand.objects.exists() and RUF


def test_a_won_tout_says_won_once_on_the_sheet(client):
    """The badge says it; the result beside the game's name does not say it again ("won ✓ won")."""
    table = make_table()
    post_game(
        client,
        table,
        {"contract": "solo", "declarer": "3", "trump": "gras", "announce": "tout", "won": "1", "laufende": "5"},
        number=1,
    )
    html = client.get(url("entry_table", table.entry_key)).content.decode()
    row = html[html.index('data-testid="game-1"') + len('data-testid="game-1">') :]
    row = row[: row.index('<span class="who"')]
    text = " ".join(re.sub(r"<[^>]+>", " ", row).split())
    assert text == "1 Gras-Solo Tout 5 Lf. ✓ won", text


def test_the_unsent_games_line_is_worded_for_one_and_for_several_games(client):
    """ngettext's two forms for entry.js (which picks by the count), not "Spiel(e)"."""
    table = make_table()
    with translation.override("de"):
        html = client.get(url("entry_table", table.entry_key), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "(e)" not in html
    assert '<span data-text="pending-one">Noch nicht gesendet: {n} Spiel.</span>' in html
    assert '<span data-text="pending-other">Noch nicht gesendet: {n} Spiele.</span>' in html
