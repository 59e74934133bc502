"""Standings during a round are provisional with the round's progress; after the last round the public page
leads with the podium (issue 15)."""

import random

import pytest
from django.test import Client

from tournaments.services.hands import table_confirm, table_sheet_record
from tournaments.services.prizes import tournament_standings_publish
from tournaments.services.rounds import round_draw, round_publish
from tournaments.services.simulation import round_simulate, tournament_simulate, tournament_simulate_setup
from tournaments.services.standings import standings_recompute
from tournaments.simulation import random_hand

pytestmark = pytest.mark.django_db
DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


def play(table, rng, confirm=True):
    records = [random_hand(rng, table_size=table.size, dealer=((n - 1) % table.size) + 1) for n in range(1, 9)]
    table_sheet_record(table=table, records=records)
    if confirm:
        for seat in range(1, table.size + 1):
            table_confirm(table=table, seat=seat)


def test_standings_during_a_round_are_provisional_with_the_tables_finished():
    tournament = tournament_simulate_setup(slug="laeuft", players=16, rounds=2, games=8, seed=3)
    tournament_standings_publish(tournament=tournament, public=True)
    (first,) = round_draw(tournament=tournament, seed=1)
    round_simulate(rnd=first, seed=2)  # round 1 played and closed
    page = Client().get("/t/laeuft/rangliste/", **DE).content.decode()
    assert "Vorläufig" in page and "nach Runde 1 von 2" in page
    (second,) = round_draw(tournament=tournament, seed=4)
    round_publish(round=second)
    rng = random.Random(5)
    tables = list(second.tables.order_by("number"))
    play(tables[0], rng)
    play(tables[1], rng, confirm=False)  # all games, not confirmed: not finished
    standings_recompute(tournament_id=tournament.pk)
    page = Client().get("/t/laeuft/rangliste/", **DE).content.decode()
    assert "<strong>Vorläufig</strong> · Runde 2 läuft · 1 von 4 Tischen fertig" in page
    projector = Client().get("/t/laeuft/rangliste/beamer/", **DE).content.decode()
    assert "Runde 2 läuft · 1 von 4 Tischen fertig" in projector
    tournament_page = Client().get("/t/laeuft/", **DE).content.decode()
    assert 'data-testid="podium"' not in tournament_page


def test_after_the_last_round_the_public_page_leads_with_the_podium():
    tournament = tournament_simulate(slug="aus", players=12, rounds=2, games=8, seed=9)
    standings_recompute(tournament_id=tournament.pk)
    assert 'data-testid="podium"' not in Client().get("/t/aus/", **DE).content.decode()  # not published yet
    tournament_standings_publish(tournament=tournament, public=True)
    page = Client().get("/t/aus/", **DE).content.decode()
    assert page.index('data-testid="podium"') < page.index('data-testid="to-seatlist"')
    from scoring.models import StandingsSnapshot

    overall = StandingsSnapshot.objects.get(tournament=tournament).overall
    assert overall[0]["name"] in page.split('data-testid="podium-1"')[1].split("</li>")[0]
    assert 'class="button primary big" href="/t/aus/rangliste/"' in page.replace('data-testid="podium-standings"', "")
    standings = Client().get("/t/aus/rangliste/", **DE).content.decode()
    assert "Endstand" in standings and "Vorläufig" not in standings
