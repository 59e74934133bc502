"""A correction after confirmation is announced and marked; the organiser confirms for a player or closes a table."""

import re

import pytest
from django.test import Client

from tests.tournaments.test_services_hands import fill, make_table, organiser, rufspiel
from tournaments.models import AuditEntry, ClubMembership, Round
from tournaments.selectors.tables import table_progress
from tournaments.services.errors import ServiceError
from tournaments.services.hands import hand_correct, table_confirm
from tournaments.services.rounds import round_close
from tournaments.services.tables import table_close, table_confirm_for

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


def confirmed_table():
    table = make_table(rules={"games_per_round": 8})
    fill(table, 8)
    for seat in range(1, 5):
        table_confirm(table=table, seat=seat)
    table.refresh_from_db()
    return table


def organiser_client(table) -> tuple[Client, object]:
    user = organiser()
    ClubMembership.objects.create(user=user, club=table.round.tournament.club, role=ClubMembership.Role.ORGANISER)
    client = Client()
    client.force_login(user)
    return client, user


def test_a_correction_after_confirmation_is_announced_on_the_tablet_and_the_game_marked():
    table = confirmed_table()
    assert table.reconfirm_game is None
    hand_correct(hand=table.hands.get(number=6), record={**rufspiel(6), "augen": 100})
    table.refresh_from_db()
    assert table.reconfirm_game == 6 and table.completed_at is None
    html = Client().get(f"/tisch/{table.entry_key}/", **DE).content.decode()
    assert "Spiel 6 wurde geändert – bitte neu bestätigen" in html
    assert html.count('data-testid="changed-mark"') == 1
    assert 'class="g-row changed"' in html or "g-row changed" in html
    # once all four confirmed again, the notice is gone
    for seat in range(1, 5):
        table_confirm(table=table, seat=seat)
    table.refresh_from_db()
    assert table.reconfirm_game is None
    assert 'data-testid="reconfirm-banner"' not in Client().get(f"/tisch/{table.entry_key}/").content.decode()


def test_a_correction_before_anyone_confirmed_says_nothing():
    table = make_table(rules={"games_per_round": 8})
    fill(table, 8)
    hand_correct(hand=table.hands.get(number=2), record={**rufspiel(2), "augen": 99})
    table.refresh_from_db()
    assert table.reconfirm_game is None


def test_the_organiser_confirms_for_an_absent_player_with_a_reason_and_it_is_logged():
    table = make_table(rules={"games_per_round": 8})
    fill(table, 8)
    for seat in (1, 2, 3):
        table_confirm(table=table, seat=seat)
    user = organiser()
    with pytest.raises(ServiceError) as err:
        table_confirm_for(table=table, seat=4, by=user, reason="  ")
    assert err.value.field == "reason" and table.confirmations.count() == 3
    table_confirm_for(table=table, seat=4, by=user, reason="ging nach Spiel 8 heim")
    table.refresh_from_db()
    assert table.completed_at is not None
    entry = AuditEntry.objects.get(action="table_confirm_for")
    assert (entry.by, entry.reason, entry.after["seat"]) == (user, "ging nach Spiel 8 heim", 4)
    assert round_close(round=table.round).status == Round.Status.CLOSED


def test_the_organiser_closes_a_table_with_missing_games_and_the_round_can_close():
    table = make_table(rules={"games_per_round": 8})
    fill(table, 5)
    with pytest.raises(ServiceError):
        round_close(round=table.round)
    table_close(table=table, by=organiser(), reason="Spieler krank nach Spiel 5")
    (progress,) = table_progress(table.round)
    assert progress.complete and progress.closed_reason == "Spieler krank nach Spiel 5"
    assert AuditEntry.objects.get(action="table_close").reason == "Spieler krank nach Spiel 5"
    assert round_close(round=table.round).status == Round.Status.CLOSED


def test_the_paper_page_offers_both_actions_and_names_the_missing_reason():
    table = make_table(rules={"games_per_round": 8})
    fill(table, 8)
    table_confirm(table=table, seat=1)
    client, _user = organiser_client(table)
    slug = table.round.tournament.slug
    page = client.get(f"/o/{slug}/tisch/{table.pk}/papier/", **EN).content.decode()
    assert 'data-testid="confirm-for-form"' in page and 'data-testid="table-close-form"' in page
    assert '<option value="1"' not in page and '<option value="2"' in page  # only who has not confirmed
    bad = client.post(f"/o/{slug}/tisch/{table.pk}/bestaetigen/", {"cf-seat": "2", "cf-reason": ""}, **EN)
    assert bad.status_code == 400 and "This field is required." in bad.content.decode()
    assert table.confirmations.count() == 1
    ok = client.post(f"/o/{slug}/tisch/{table.pk}/bestaetigen/", {"cf-seat": "2", "cf-reason": "Akku leer"})
    assert ok.status_code == 302 and table.confirmations.count() == 2
    ok = client.post(f"/o/{slug}/tisch/{table.pk}/schliessen/", {"close-reason": "zwei sind schon heim"})
    assert ok.status_code == 302
    table.refresh_from_db()
    assert table.closed_reason == "zwei sind schon heim" and table.completed_at is not None
    page = client.get(f"/o/{slug}/tisch/{table.pk}/papier/", **EN).content.decode()
    assert "Closed by the organiser: zwei sind schon heim" in page


def test_a_desk_helper_cannot_close_a_table():
    table = make_table(rules={"games_per_round": 8})
    fill(table, 8)
    user = organiser()
    ClubMembership.objects.create(user=user, club=table.round.tournament.club, role=ClubMembership.Role.DESK)
    client = Client()
    client.force_login(user)
    response = client.post(f"/o/{table.round.tournament.slug}/tisch/{table.pk}/schliessen/", {"close-reason": "x"})
    assert response.status_code in (403, 404)
    table.refresh_from_db()
    assert not table.closed_reason


def test_the_tablet_sheet_prints_one_minus_sign():
    table = confirmed_table()
    html = Client().get(f"/tisch/{table.entry_key}/").content.decode()
    points = re.findall(r'<b class="pts[^"]*">([^<]*)</b>', html) + re.findall(
        r'<span class="run">([^<]*)</span>', html
    )
    assert any(p.startswith("\u2212") for p in points)
    assert not any(re.match(r"-\d", p) for p in points), points
