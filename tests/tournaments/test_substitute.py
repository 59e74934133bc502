"""A player who leaves during a round and the substitute who takes over his seat (issue 34, part A).

rules.md section 2: the substitute takes over the seat and the points, and every list shows the row as
"<substitute> (für <player>)". The desk asks whether the substitute pays an entry fee (DEFAULT no: the
seat was paid); the cash list keeps fees collected apart from fees owed, and "Eingenommen" is the cash box.
"""

import csv
import io

import pytest
from django.test import Client
from django.utils import translation

from tests.api.conftest import make_tournament, member, publish_first_round
from tests.factories import ClubFactory
from tests.pdf.conftest import pdf_pages
from tournaments.archive.build import archive_build
from tournaments.archive.load import archive_import
from tournaments.models import ClubMembership, Registration
from tournaments.pdf.standings import render_standings
from tournaments.selectors.printing import cash_list_data, certificates_data, standings_data
from tournaments.selectors.standings import cash_list, entry_fees
from tournaments.services.registration import player_create, registration_substitute
from tournaments.services.standings import standings_recompute

pytestmark = pytest.mark.django_db
FEE = 1000
DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


@pytest.fixture
def evening():
    """8 players who all paid 10 €, round 1 under way; start number 1 leaves during it."""
    club = ClubFactory(name="SK Musterdorf")
    tournament = make_tournament(club, slug="abend", entry_fee_cents=FEE, standings_public=True)
    publish_first_round(tournament)
    leaving = tournament.registrations.get(start_number=1)
    return tournament, leaving


def desk_client(tournament):
    client = Client()
    client.force_login(member(tournament.club, ClubMembership.Role.DESK))
    return client


def substitute(tournament, leaving, *, pays_fee=False):
    player = player_create(first_name="Quirin", last_name="Ächter", club=tournament.club)
    sub = registration_substitute(withdrawn=leaving, player=player, pays_fee=pays_fee)
    standings_recompute(tournament_id=tournament.pk)
    return sub


def test_by_default_the_substitute_owes_no_fee_and_is_not_marked_paid(evening):
    tournament, leaving = evening
    sub = substitute(tournament, leaving)
    assert (sub.paid, sub.fee_due) == (False, False)
    fees = entry_fees(tournament)
    assert sub.pk not in fees.due and (fees.paid_cents, fees.owed_cents) == (8 * FEE, 0)
    cash = cash_list(tournament)
    row = next(r for r in cash.rows if r.start_number == sub.start_number)
    assert (row.entry_fee_cents, row.fee_owed_cents) == (0, 0)
    assert row.name == "Quirin Ächter (für Vor1 Nach1)"
    assert cash.fees_collected_cents == cash.paid_in_cents == 8 * FEE and cash.balances


def test_a_substitute_who_pays_owes_his_fee_until_collected_and_the_cash_box_counts_only_what_came_in(evening):
    tournament, leaving = evening
    sub = substitute(tournament, leaving, pays_fee=True)
    assert (sub.paid, sub.fee_due) == (False, True)
    cash = cash_list(tournament)
    # 9 fees due: 8 collected (80 €) in the box, 10 € still owed; nothing played yet, no prizes set
    assert (cash.entry_fees_cents, cash.fees_collected_cents, cash.fees_owed_cents) == (9 * FEE, 8 * FEE, FEE)
    assert cash.paid_in_cents == 8 * FEE
    assert cash.paid_in_cents + cash.fees_owed_cents == cash.paid_out_cents and cash.balances
    page = desk_client(tournament).get(f"/o/{tournament.slug}/kasse/", **DE).content.decode()
    assert "Startgeld eingenommen" in page and "Startgeld noch offen" in page


def test_the_desk_asks_about_the_fee_before_the_substitute_takes_the_seat(evening):
    tournament, leaving = evening
    client = desk_client(tournament)
    url = f"/o/{tournament.slug}/meldestelle/{leaving.start_number}/ersatz/"
    asked = client.post(url, {"first_name": "Quirin", "last_name": "Ächter"}, **DE)
    assert asked.status_code == 200
    html = asked.content.decode()
    assert "Zahlt Quirin Ächter ein Startgeld?" in html and 'data-testid="fee-no"' in html
    assert not Registration.objects.filter(substitute_for=leaving).exists()  # nothing before the answer
    done = client.post(url, {"first_name": "Quirin", "last_name": "Ächter", "pays_fee": "no"})
    assert done.status_code == 302
    sub = Registration.objects.get(substitute_for=leaving)
    assert (sub.paid, sub.fee_due) == (False, False)
    desk = client.get(f"/o/{tournament.slug}/meldestelle/", **DE).content.decode()
    assert "ausgeschieden in Runde 1" in desk and "zurückgezogen nach Runde 1" not in desk


def test_every_list_shows_the_substitute_for_whom(evening):
    tournament, leaving = evening
    substitute(tournament, leaving)
    client = Client()
    label = "Quirin Ächter (für Vor1 Nach1)"
    rows = list(
        csv.reader(
            io.StringIO(client.get(f"/t/{tournament.slug}/rangliste.csv", **DE).content.decode("utf-8-sig")),
            delimiter=";",
        )
    )
    assert label in [row[2] for row in rows[1:]]
    standings = client.get(f"/t/{tournament.slug}/rangliste.json", **DE).json()["standings"]
    (row,) = [r for r in standings if r["name"] == "Quirin Ächter"]
    assert row["substitute_for"] == "Vor1 Nach1"
    assert {r["substitute_for"] for r in standings if r is not row} == {None}
    for url in (f"/t/{tournament.slug}/rangliste/", f"/t/{tournament.slug}/rangliste/beamer/"):
        assert 'Quirin Ächter <span class="muted">(für Vor1 Nach1)</span>' in client.get(url, **DE).content.decode()


def test_the_archive_carries_the_fee_and_the_round_he_left_in_and_round_trips_them(evening):
    tournament, leaving = evening
    substitute(tournament, leaving, pays_fee=True)
    document = archive_build(tournament)
    players = {p["start_number"]: p for p in document["players"]}
    assert (players[1]["left_during_round"], players[1]["withdrawn_after_round"]) == (True, 1)
    assert (players[9]["fee_due"], players[9]["paid"], players[9]["substitute_for"]) == (True, False, 1)
    assert players[2]["fee_due"] is True and players[2]["left_during_round"] is False
    copy = archive_import(doc=document, slug="abend-kopie")
    again = {p["start_number"]: p for p in archive_build(copy)["players"]}
    for number in (1, 2, 9):
        assert {k: again[number][k] for k in ("fee_due", "left_during_round", "paid", "substitute_for")} == {
            k: players[number][k] for k in ("fee_due", "left_during_round", "paid", "substitute_for")
        }
    old_defaults = {
        **document,
        "players": [
            {k: v for k, v in p.items() if k not in ("fee_due", "left_during_round")} for p in document["players"]
        ],
    }
    older = archive_import(doc=old_defaults, slug="abend-alt")
    assert older.registrations.get(start_number=9).fee_due is True  # an archive from before: a fee was due


def test_the_printed_lists_and_certificates_say_for_whom_too(evening):
    tournament, leaving = evening
    sub = substitute(tournament, leaving)
    label = "Quirin Ächter (für Vor1 Nach1)"
    with translation.override("de"):
        cash = cash_list_data(tournament)
        certificates = certificates_data(tournament, places=8)
        standings = pdf_pages(render_standings(standings_data(tournament)))
    assert label in [line.name for line in cash.lines]
    assert label in [c.name for c in certificates.certificates]
    assert "Ersatz für Vor1 Nach1" in " ".join(" ".join(page) for page in standings)
    assert sub.start_number in [line.start_number for line in cash.lines]
