"""The prize table call-up (issue 37): the places called in rank order, "hat gewählt" with the goods taken,
undo, the projector following, the prize list PDF saying what each took."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tournaments.models import ClubMembership, Registration
from tournaments.selectors.callup import prize_call_up
from tournaments.services.prizes import prize_hand_over, prize_plan_apply, prize_plan_set

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening():
    from tournaments.services.simulation import tournament_simulate
    from tournaments.services.standings import standings_recompute

    tournament = tournament_simulate(slug="preistisch", players=12, rounds=1, games=8, seed=8)
    tournament.registrations.update(paid=True)
    standings_recompute(tournament_id=tournament.pk)
    prize_plan_set(
        tournament=tournament,
        values={
            "curve": "nth",
            "every_n": 6,
            "decay_percent": 0,
            "goods_places": 4,
            "goods_list": "Schinken\nBrotzeitbrettl\nWein",
        },
    )
    prize_plan_apply(tournament=tournament)
    return tournament


def desk_client(client, tournament):
    user = get_user_model().objects.create_user("preistisch", password="pw")
    ClubMembership.objects.create(user=user, club=tournament.club, role=ClubMembership.Role.DESK)
    client.force_login(user)
    return client


def test_the_places_are_called_in_rank_order_and_the_projector_follows(client, evening):
    call = prize_call_up(evening)
    assert (call.total, call.handed, call.current.rank) == (6, 0, 1)
    assert call.goods == ["Schinken", "Brotzeitbrettl", "Wein"]
    desk = desk_client(client, evening)
    url = reverse("tournaments:prize_callup", args=[evening.slug])
    page = desk.get(url)
    assert page.status_code == 200 and f'data-start="{call.current.start_number}"' in page.content.decode()
    for _ in range(2):  # the two money places collect their envelopes
        current = prize_call_up(evening).current
        assert desk.post(url, {"start_number": current.start_number, "goods": ""}).status_code == 302
    third = prize_call_up(evening).current
    assert third.rank == 3 and third.amount_cents == 0
    desk.post(url, {"start_number": third.start_number, "goods": "Schinken"})
    reg = Registration.objects.get(tournament=evening, start_number=third.start_number)
    assert reg.prize_handed_over and reg.prize_chosen == "Schinken"
    fourth = prize_call_up(evening).current
    evening.standings_public = True
    evening.save(update_fields=["standings_public"])
    beamer = client.get(
        reverse("tournaments:prize_callup_projector", args=[evening.slug]),
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="de",
    ).content.decode()
    assert f"Platz 4: {fourth.name} ({fourth.start_number}) – bitte zum Preistisch" in beamer
    desk.post(url, {"start_number": third.start_number, "undo": "1"})  # a slip: called back
    assert prize_call_up(evening).current.start_number == third.start_number
    assert Registration.objects.get(pk=reg.pk).prize_chosen == ""


def test_the_prize_list_pdf_says_what_each_took(evening):
    from tests.pdf.conftest import pdf_pages
    from tournaments.pdf.prize_list import render_prize_list
    from tournaments.selectors.printing import prize_list_data

    third = next(a for a in prize_call_up(evening, coming=10).coming if a.rank == 3)
    prize_hand_over(tournament=evening, start_number=third.start_number, handed_over=True, chosen="Brotzeitbrettl")
    text = "\n".join(line for page in pdf_pages(render_prize_list(prize_list_data(evening))) for line in page)
    assert "Brotzeitbrettl" in text


def test_a_hidden_standings_hides_the_call_up_projector(client, evening):
    answer = client.get(reverse("tournaments:prize_callup_projector", args=[evening.slug]))
    assert answer.status_code == 200 and prize_call_up(evening).current.name not in answer.content.decode()


def test_the_desk_cannot_tick_a_player_without_prize(client, evening):
    desk = desk_client(client, evening)
    winners = {
        a.start_number for a in [prize_call_up(evening, coming=20).current, *prize_call_up(evening, coming=20).coming]
    }
    loser = next(r.start_number for r in evening.registrations.all() if r.start_number not in winners)
    answer = desk.post(reverse("tournaments:prize_callup", args=[evening.slug]), {"start_number": loser, "goods": "x"})
    assert answer.status_code == 400 and not Registration.objects.filter(prize_handed_over=True).exists()
