"""A qualifier series into a final (issue 38): the list from the evenings, wildcards, invitations that register
for the final, a decline moving the next one up, the final's round 1 seating the evenings' winners apart, and
the host clubs' and the owner's pages."""

import datetime
from itertools import combinations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournaments.models import ClubMembership, Invitation, Player, Registration, Series
from tournaments.selectors.qualification import evening_orders, qualification_list
from tournaments.services.errors import ServiceError, StateConflict
from tournaments.services.qualification import final_fill, invitation_decline, qualification_settings, wildcard_give
from tournaments.services.rounds import round_draw
from tournaments.services.tournament import tournament_create

from .conftest import make_series

pytestmark = pytest.mark.django_db


@pytest.fixture
def qualifier(club, season_tournaments):
    final = tournament_create(
        club=club,
        name="Finale",
        slug="finale",
        date=datetime.date(2026, 6, 1),
        rules={"rounds": 1, "games_per_round": 8},
    )
    series = make_series(club, season_tournaments, slug="qualifikation", public=True)
    Series.objects.filter(pk=series.pk).update(lot_seed=20260038)  # a fixed lot: the same list every run
    series = qualification_settings(
        series=series,
        per_evening=2,
        mode=Series.QualifyMode.TOP_NOT_QUALIFIED,
        lottery_places=1,
        lottery_min_evenings=3,
        final=final,
    )
    return series, final


def test_the_list_follows_the_evenings(qualifier):
    series, _final = qualifier
    orders = [order for _, order in evening_orders(series)]
    assert len(orders) == 4  # the final is not an evening of the qualification
    data = qualification_list(series)
    # by hand from the evenings' orders: the first two of each evening not qualified yet
    expected, taken = [], set()
    for order in orders:
        free = [p for p in order.order if p not in taken][:2]
        expected += free
        taken |= set(free)
    evening_rows = [r.player.pk for r in data.rows if r.how == "evening"]
    assert evening_rows == expected
    lottery = [r for r in data.rows if r.how == "lottery"]
    assert len(lottery) == 1
    # the lottery: among those with at least three evenings who did not qualify otherwise
    played = Registration.objects.filter(tournament__series=series).exclude(tournament=series.final)
    three = {p for p in played.values_list("player_id", flat=True) if played.filter(player_id=p).count() >= 3} - taken
    assert lottery[0].player.pk in three
    assert qualification_list(series).rows == data.rows  # the same seed draws the same


def test_invitations_register_for_the_final_and_a_decline_moves_the_next_one_up(qualifier):
    series, final = qualifier
    champion = Player.objects.get(first_name="Spieler11")
    wildcard_give(series=series, player=champion, reason="Titelverteidiger")
    made = final_fill(series=series)
    data = qualification_list(series)
    assert [i.player_id for i in made] == [r.player.pk for r in data.rows]
    assert data.rows[0].how == "wildcard" and data.rows[0].reason == "Titelverteidiger"
    assert set(final.registrations.values_list("player_id", flat=True)) == {r.player.pk for r in data.rows}
    assert final_fill(series=series) == []  # run again: nobody new
    # the second of the first evening declines: his registration is withdrawn, the next of that evening moves up
    first_evening = data.rows[1].evening
    second = next(r for r in data.rows if r.how == "evening" and r.evening == first_evening and r.place != 1)
    waiting = next(line for line in data.next_in_line if line.evening == first_evening).players[0]
    moved = invitation_decline(invitation=second.invitation)
    assert waiting.pk in [i.player_id for i in moved]
    assert final.registrations.get(player=second.player).withdrawn
    assert final.registrations.filter(player=waiting, withdrawn_after_round__isnull=True).exists()
    again = qualification_list(series)
    assert second.player.pk not in [r.player.pk for r in again.rows]
    assert [i.player.pk for i in again.declined] == [second.player.pk]
    with pytest.raises(StateConflict):
        invitation_decline(invitation=Invitation.objects.get(series=series, player=second.player))


def test_the_finals_round_one_seats_the_evenings_winners_apart(qualifier):
    series, final = qualifier
    # four per evening: all twelve players of the evenings go on, three tables for the (up to four) winners
    series = qualification_settings(
        series=series,
        per_evening=4,
        mode=Series.QualifyMode.TOP_NOT_QUALIFIED,
        lottery_places=0,
        lottery_min_evenings=1,
        final=final,
    )
    final_fill(series=series)
    final.registrations.update(checked_in=True, paid=True)
    assert final.registrations.count() == 12
    winners = {order.order[0] for _, order in evening_orders(series)}
    assert len(winners) >= 2
    most = -(-len(winners) // 3)  # spread as evenly as three tables allow
    for seed in range(1, 6):
        (rnd,) = round_draw(tournament=final, seed=seed)
        assert rnd.tables.count() == 3
        for table in rnd.tables.all():
            at_table = set(table.seats.values_list("registration__player_id", flat=True))
            assert len(at_table & winners) <= most, f"seed {seed}: evening winners together at table {table.number}"
        rnd.delete()


def test_settings_refuse_another_clubs_final_and_a_wildcard_without_reason(qualifier, club):
    series, _final = qualifier
    from tests.factories import TournamentFactory

    foreign = TournamentFactory(slug="fremdes-finale")
    with pytest.raises(ServiceError) as err:
        qualification_settings(
            series=series, per_evening=2, mode="top", lottery_places=0, lottery_min_evenings=1, final=foreign
        )
    assert err.value.field == "final"
    with pytest.raises(ServiceError) as err:
        wildcard_give(series=series, player=Player.objects.first(), reason="  ")
    assert err.value.field == "reason"
    series.refresh_from_db()
    assert series.final.slug == "finale"


def test_the_public_list_and_the_owners_page(qualifier, club):
    series, final = qualifier
    page = Client().get(reverse("tournaments:qualification", args=[series.slug]))
    assert page.status_code == 200
    assert 'data-testid="qualification-list"' in page.content.decode()
    organiser = get_user_model().objects.create_user("chef")
    ClubMembership.objects.create(user=organiser, club=club, role=ClubMembership.Role.ORGANISER)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organiser)
    url = reverse("tournaments:qualification_manage", args=[series.slug])
    assert client.get(url).status_code == 200
    assert client.post(url, {"action": "fill"}).status_code == 302
    assert final.registrations.count() == len(qualification_list(series).rows)
    bad = client.post(
        url, {"action": "settings", "per_evening": "-1", "mode": "top", "lottery_places": 0, "lottery_min_evenings": 1}
    )
    assert bad.status_code == 400
    desk = get_user_model().objects.create_user("helfer")
    ClubMembership.objects.create(user=desk, club=club, role=ClubMembership.Role.DESK)
    helper = Client()
    helper.force_login(desk)
    assert helper.get(url).status_code == 404


def test_pairs_in_a_final_drawn_without_winners_apart_are_unconstrained(club, season_tournaments):
    # a plain season (not a qualification) names no winners: its tournaments draw as always
    from tournaments.selectors.qualification import final_winners

    assert final_winners(season_tournaments[0]) == set()
    assert list(combinations([1], 2)) == []


def test_the_qualification_list_as_pdf(qualifier):
    import io

    from pypdf import PdfReader

    series, _final = qualifier
    response = Client(HTTP_ACCEPT_LANGUAGE="de").get(reverse("tournaments:qualification_pdf", args=[series.slug]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert "Qualifikationsliste" in text
    for row in qualification_list(series).rows:
        assert row.player.last_name in text
