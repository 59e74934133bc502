"""A table the organiser closes early is closed: no game, correction, deletion or confirmation until he reopens it.

Issue 34 (part A): table 7 closed at 24 of 32 games with a reason. Its phone said "Alle Spiele eingetragen ...
Danke!", still offered the next game, took game 25 and so silently reopened the table, and the round could not
be closed any more. Here a table closed at 5 of 8 games stands in for it.
"""

import uuid

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from scoring.rules.standings import scaled_points
from tests.api.conftest import make_tournament, publish_first_round
from tests.factories import ClubFactory
from tests.pdf.conftest import pdf_pages
from tests.tournaments.test_services_hands import fill, make_table, organiser, rufspiel
from tests.tournaments.test_table_actions import organiser_client
from tournaments.archive.build import archive_build
from tournaments.archive.load import archive_import
from tournaments.models import AuditEntry, HandRevision, Round, TableConfirmation
from tournaments.pdf.score_sheet import render_score_sheet
from tournaments.pdf.standings import render_standings
from tournaments.selectors.entry import table_entry_version
from tournaments.selectors.printing import score_sheet_data, standings_data
from tournaments.selectors.standings import standings_view
from tournaments.services.conflicts import hand_conflict_resolve
from tournaments.services.errors import StateConflict
from tournaments.services.hands import hand_correct, hand_delete, hand_record, table_confirm
from tournaments.services.rounds import round_close
from tournaments.services.standings import standings_recompute
from tournaments.services.tables import table_close, table_confirm_for, table_reopen
from tournaments.views.signup import rules_sheet_data

pytestmark = pytest.mark.django_db

REASON = "Spieler krank nach Spiel 5"
DE = {"HTTP_ACCEPT_LANGUAGE": "de"}
JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture
def closed():
    table = make_table(rules={"games_per_round": 8})
    fill(table, 5)
    table_close(table=table, by=None, reason=REASON)
    table.refresh_from_db()
    return table


def unchanged(table) -> tuple:
    table.refresh_from_db()
    return (
        table.closed_reason,
        list(table.hands.order_by("number").values_list("number", "augen")),
        HandRevision.objects.filter(table=table).count(),
        TableConfirmation.objects.filter(table=table).count(),
    )


WRITES = {
    "a new game": lambda t: hand_record(table=t, record=rufspiel(6), client_id=uuid.uuid4()),
    "a correction": lambda t: hand_correct(hand=t.hands.get(number=2), record={**rufspiel(2), "augen": 99}),
    "a deletion": lambda t: hand_delete(hand=t.hands.get(number=5)),
    "a confirmation": lambda t: table_confirm(table=t, seat=1),
    "a confirmation for a player": lambda t: table_confirm_for(table=t, seat=1, by=None, reason="x"),
    "a conflict's other version": lambda t: hand_conflict_resolve(
        hand=t.hands.get(number=5), record={**rufspiel(5), "augen": 100}, keep="rival", client_id=uuid.uuid4()
    ),
}


@pytest.mark.parametrize("write", WRITES.values(), ids=WRITES.keys())
def test_every_write_to_a_closed_table_is_a_409_with_the_reason_and_changes_nothing(closed, write):
    before = unchanged(closed)
    with pytest.raises(StateConflict) as err:
        write(closed)
    assert (err.value.field, err.value.code) == ("table", "table_closed")
    assert REASON in err.value.message
    assert unchanged(closed) == before and before[0] == REASON


def test_the_round_closes_at_once_although_the_phone_tried_game_6(closed):
    with pytest.raises(StateConflict):
        hand_record(table=closed, record=rufspiel(6), client_id=uuid.uuid4())
    assert round_close(round=closed.round).status == Round.Status.CLOSED


def test_every_api_write_of_the_tablet_is_a_409_naming_the_reason(closed):
    tablet, base = APIClient(), f"/api/tisch/{closed.entry_key}/"
    before = unchanged(closed)
    for response in (
        tablet.post(base + "hands/", {**rufspiel(6), "client_id": str(uuid.uuid4())}, format="json", **DE),
        tablet.put(base + "hands/1/", {**rufspiel(1), "augen": 30}, format="json", **DE),
        tablet.patch(base + "hands/1/", {"augen": 30}, format="json", **DE),
        tablet.delete(base + "hands/5/", **DE),
        tablet.post(base + "confirm/", {"seat": 1}, format="json", **DE),
    ):
        assert response.status_code == 409, response.content
        assert response.json() == {"table": [f"Tisch geschlossen von der Turnierleitung: {REASON}"]}
    assert unchanged(closed) == before


def test_the_phone_says_the_table_is_closed_and_why_and_offers_no_next_game(closed):
    client = Client()
    html = client.get(f"/tisch/{closed.entry_key}/", **DE).content.decode()
    assert f"Tisch geschlossen von der Turnierleitung: {REASON}" in html
    assert "Danke!" not in html and 'data-testid="complete-banner"' not in html
    assert 'data-testid="game-form"' not in html and "Spiel 6 speichern" not in html
    assert "5 von 8 Spielen" in html
    assert 'data-testid="confirm-1"' not in html  # nobody can confirm a closed table


def test_every_page_write_of_the_tablet_is_a_409_naming_the_reason(closed):
    client, base = Client(), f"/tisch/{closed.entry_key}/"
    before = unchanged(closed)
    game = {
        "contract": "rufspiel",
        "called": "gras",
        "declarer": "1",
        "partner": "3",
        "augen": "72",
        "laufende": "0",
        "client_id": str(uuid.uuid4()),
    }
    for response in (
        client.post(base + "spiel/", {**game, "number": "6"}, **JSON, **DE),
        client.post(base + "spiel/2/", game, **JSON, **DE),
        client.post(base + "spiel/5/loeschen/", {}, **JSON, **DE),
    ):
        assert response.status_code == 409, response.content
        assert f"Tisch geschlossen von der Turnierleitung: {REASON}" in str(response.json()["errors"])
        assert response.json()["code"] == "table_closed"
    confirm = client.post(base + "bestaetigen/", {"seat": "1"}, **DE)
    assert confirm.status_code == 409
    assert f"Tisch geschlossen von der Turnierleitung: {REASON}" in confirm.content.decode()
    assert unchanged(closed) == before


def test_closing_changes_the_pages_version_so_a_waiting_phone_reloads():
    table = make_table(rules={"games_per_round": 8})
    fill(table, 5)
    before = table_entry_version(table)
    table_close(table=table, by=organiser(), reason=REASON)
    assert table_entry_version(table) != before


def test_only_the_organiser_reopens_it_with_a_reason_logged_and_then_it_takes_games_again(closed):
    client, user = organiser_client(closed)
    slug = closed.round.tournament.slug
    page = client.get(f"/o/{slug}/tisch/{closed.pk}/papier/").content.decode()
    assert 'data-testid="table-reopen-form"' in page
    assert client.post(f"/o/{slug}/tisch/{closed.pk}/oeffnen/", {"reopen-reason": " "}).status_code == 400
    assert unchanged(closed)[0] == REASON
    assert (
        Client().post(f"/o/{slug}/tisch/{closed.pk}/oeffnen/", {"reopen-reason": "war ein Versehen"}).status_code == 302
    )
    assert unchanged(closed)[0] == REASON  # not logged in: the login page, nothing changed
    response = client.post(f"/o/{slug}/tisch/{closed.pk}/oeffnen/", {"reopen-reason": "war ein Versehen"})
    assert response.status_code == 302
    closed.refresh_from_db()
    assert closed.closed_reason == "" and closed.completed_at is None
    entry = AuditEntry.objects.get(action="table_reopen")
    assert (entry.by, entry.reason, entry.before) == (user, "war ein Versehen", {"closed_reason": REASON})
    hand, created = hand_record(table=closed, record=rufspiel(6), client_id=uuid.uuid4())
    assert created and hand.number == 6


def test_an_open_table_cannot_be_reopened(closed):
    table_reopen(table=closed, by=organiser(), reason="zurück")
    with pytest.raises(StateConflict) as err:
        table_reopen(table=closed, by=None, reason="nochmal")
    assert err.value.code == "table_open"


# --- what the standings and the printed sheets say of a table closed early ------------------------------


def pdf_text(content: bytes) -> str:
    return " ".join(" ".join(page) for page in pdf_pages(content))


def closed_in_a_round_of_two_tables(rules: dict, django_capture_on_commit_callbacks):
    """8 players, 8 games a round: table 1 plays all 8, table 2 is closed after 5 (rules.md section 2)."""
    tournament = make_tournament(ClubFactory(), rules={"games_per_round": 8, **rules}, standings_public=True)
    rnd = publish_first_round(tournament)
    first, second = rnd.tables.order_by("number")
    with django_capture_on_commit_callbacks(execute=True):
        fill(first, 8)
        fill(second, 5)
        table_close(table=second, by=None, reason=REASON)
    return tournament, second


def test_the_standings_mark_who_played_fewer_games_and_why_and_count_them_as_played(django_capture_on_commit_callbacks):
    tournament, short = closed_in_a_round_of_two_tables({}, django_capture_on_commit_callbacks)
    seated = set(short.seats.values_list("registration__start_number", flat=True))
    with translation.override("en"):
        view = standings_view(tournament)
    assert set(view.short) == seated
    assert view.short[min(seated)] == f"Round 1: 5 of 8 games (table 2: {REASON})"
    games = {
        n: sum(h.points.get(str(seat), 0) for h in short.hands.all())
        for seat, n in short.seats.values_list("number", "registration__start_number")
    }
    assert {r["start_number"]: r["points"] for r in view.rows if r["start_number"] in seated} == games
    html = Client().get(f"/t/{tournament.slug}/rangliste/", **DE).content.decode()
    assert html.count(f"Runde 1: 5 von 8 Spielen (Tisch 2: {REASON})") == 4


def test_scaled_to_the_full_round_as_a_ruleset_option(django_capture_on_commit_callbacks):
    tournament, short = closed_in_a_round_of_two_tables(
        {"closed_table_points": "scaled"}, django_capture_on_commit_callbacks
    )
    played = {
        n: sum(h.points.get(str(seat), 0) for h in short.hands.all())
        for seat, n in short.seats.values_list("number", "registration__start_number")
    }
    scaled = {n: scaled_points({0: p}, 5, 8)[0] for n, p in played.items()}
    assert scaled != played  # the figures of this sheet do change
    with translation.override("en"):
        view = standings_view(tournament)
    assert {r["start_number"]: r["points"] for r in view.rows if r["start_number"] in played} == scaled
    assert "points scaled to the round" in view.short[min(played)]


def test_the_score_sheet_and_the_standings_pdf_say_5_of_8_games_and_why(django_capture_on_commit_callbacks):
    tournament, short = closed_in_a_round_of_two_tables({}, django_capture_on_commit_callbacks)
    with translation.override("en"):
        sheet = score_sheet_data(short)
        assert sheet.closed_reason == REASON and sheet.games_entered == 5
        text = pdf_text(render_score_sheet(sheet))
        assert f"5 of 8 games. Table closed by the organiser: {REASON}" in " ".join(text.split())
        standings = " ".join(pdf_text(render_standings(standings_data(tournament))).split())
    assert f"Round 1: 5 of 8 games (table 2: {REASON})" in standings


def test_the_printed_rules_state_the_chosen_option():
    tournament = make_tournament(ClubFactory(), players=0, rules={"closed_table_points": "scaled"})
    with translation.override("de"):
        rules = dict(rules_sheet_data(tournament).rules)
    assert rules["ein vorzeitig geschlossener Tisch"] == "seine Punkte werden auf die volle Runde hochgerechnet"


def test_the_archive_round_trips_a_table_closed_early_with_its_reason_and_scaled_points(
    django_capture_on_commit_callbacks,
):
    tournament, short = closed_in_a_round_of_two_tables(
        {"closed_table_points": "scaled"}, django_capture_on_commit_callbacks
    )
    document = archive_build(tournament)
    (table,) = [t for t in document["rounds"][0]["tables"] if t["number"] == short.number]
    assert table["closed_reason"] == REASON and len(table["hands"]) == 5
    with django_capture_on_commit_callbacks(execute=True):
        copy = archive_import(doc=document, slug="kopie")
    standings_recompute(tournament_id=copy.pk)
    points = {r["start_number"]: r["points"] for r in standings_view(tournament).rows}
    assert {r["start_number"]: r["points"] for r in standings_view(copy).rows} == points
    assert standings_view(copy).short == standings_view(tournament).short != {}
