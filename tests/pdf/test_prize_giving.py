"""The prize-giving (issue 34): a place decided by lot is said so on the prize list (page and PDF) and on the
player's page, which shows his prize; the prize page says what is planned and what the desk handed over."""

import pytest
from django.urls import reverse

from tests.factories import ClubFactory
from tests.pdf.conftest import pdf_pages
from tests.pdf.test_end_views import member
from tournaments.models import AuditEntry, Registration, Tournament
from tournaments.pdf.prize_list import render_prize_list
from tournaments.selectors.printing import prize_list_data
from tournaments.selectors.standings import standings_view
from tournaments.services.prizes import prizes_set

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
LOT = "tie – decided by lot"


def lot_pair(tournament) -> tuple[dict, dict]:
    """The first two players of the overall list whose places a lot decided: (above, below)."""
    rows = list(standings_view(tournament).rows)
    at = next(i for i, r in enumerate(rows) if r["note"] and r["note"]["tiebreak"] == "lot")
    return rows[at], rows[at + 1]


@pytest.fixture
def lot_prizes(finished_tournament):
    """Money for the two places a lot decided, and for the place before them (no lot there, as a control)."""
    above, below = lot_pair(finished_tournament)
    places = [above["rank"], below["rank"]]
    assert places[1] == places[0] + 1
    prizes = [{"place": p, "amount_cents": 1000 * (10 - i), "goods": ""} for i, p in enumerate(places)]
    if places[0] > 1:
        prizes.append({"place": 1, "amount_cents": 5000, "goods": "Geschenkkorb"})
    prizes_set(tournament=finished_tournament, prizes=prizes)
    return above, below


@pytest.fixture
def desk_client(client, finished_tournament):
    client.force_login(member(finished_tournament, "desk"))
    return client


def test_a_place_decided_by_lot_is_said_so_on_the_prize_page_and_its_pdf(client, finished_tournament, lot_prizes):
    above, below = lot_prizes
    client.force_login(member(finished_tournament, "organiser"))
    page = client.get(reverse("tournaments:prizes", args=[finished_tournament.slug]), **EN).content.decode()
    for row in (above, below):
        award = page[page.index(f'id="award-{row["start_number"]}"') :]
        award = award[: award.index("</tr>")]
        assert LOT in award, row["name"]
    first = page[page.index('id="award-') :]
    assert LOT not in first[: first.index("</tr>")] or above["rank"] == 1  # the control: no lot at place 1

    lines = [line for page_ in pdf_pages(render_prize_list(prize_list_data(finished_tournament))) for line in page_]
    for row in (above, below):
        at = lines.index(row["name"], lines.index("Who receives what"))
        assert LOT in lines[at + 1 : at + 3], lines[at : at + 4]
        at = lines.index(row["name"])  # the prize list above it: the winner of the place, then the note
        assert LOT in lines[at + 1 : at + 4], lines[at : at + 5]


def test_the_players_page_says_the_lot_decided_and_shows_his_prize(client, finished_tournament, lot_prizes):
    above, below = lot_prizes
    Tournament.objects.filter(pk=finished_tournament.pk).update(standings_public=True)
    key = Registration.objects.get(pk=below["registration"]).key
    page = client.get(reverse("tournaments:player", args=[key]), **EN).content.decode()
    assert 'data-testid="player-by-lot"' in page and LOT in page
    prize = page[page.index('data-testid="player-prize"') :]
    assert prize[: prize.index("</p>")].count("90.00 €") == 1 and "handed over" not in prize[: prize.index("</p>")]

    Registration.objects.filter(pk=below["registration"]).update(prize_handed_over=True)
    page = client.get(reverse("tournaments:player", args=[key]), **EN).content.decode()
    prize = page[page.index('data-testid="player-prize"') :]
    assert "✓ handed over" in prize[: prize.index("</p>")]


def test_prizes_saved_are_planned_handed_over_only_when_the_desk_ticks_them(
    desk_client, finished_tournament, lot_prizes
):
    above, _ = lot_prizes
    prizes_url = reverse("tournaments:prizes", args=[finished_tournament.slug])
    page = desk_client.get(prizes_url, **EN).content.decode()
    assert "Paid to the winners" not in page and "Planned for the winners" in page
    assert 'data-testid="handed-over">0.00 €<' in page

    tick = reverse("tournaments:prize_handed_over", args=[finished_tournament.slug])
    response = desk_client.post(tick, {"start_number": above["start_number"], "handed_over": "1"}, **EN)
    assert response.status_code == 302
    assert Registration.objects.get(pk=above["registration"]).prize_handed_over
    page = desk_client.get(prizes_url, **EN).content.decode()
    assert 'data-testid="handed-over">100.00 €<' in page
    assert f'data-testid="hand-over-{above["start_number"]}">✓ handed over<' in page
    entry = AuditEntry.objects.get(action="prize.hand_over")
    assert (entry.before, entry.after, entry.tournament_id) == (False, True, finished_tournament.pk)
    assert entry.subject.startswith(f"{above['start_number']}: ")

    lines = [line for page_ in pdf_pages(render_prize_list(prize_list_data(finished_tournament))) for line in page_]
    assert lines[lines.index("Handed over to the winners so far") + 1] == "100.00 €"

    desk_client.post(tick, {"start_number": above["start_number"], "handed_over": "0"}, **EN)
    assert not Registration.objects.get(pk=above["registration"]).prize_handed_over
    assert AuditEntry.objects.filter(action="prize.hand_over").count() == 2


def test_a_tick_for_nobody_or_no_prize_is_refused_naming_the_start_number(desk_client, finished_tournament, lot_prizes):
    tick = reverse("tournaments:prize_handed_over", args=[finished_tournament.slug])
    without = (
        Registration.objects.filter(tournament=finished_tournament)
        .order_by("-start_number")
        .exclude(pk__in=[r["registration"] for r in lot_prizes])
        .first()
    )
    for number in ("", "x", "999"):
        response = desk_client.post(tick, {"start_number": number, "handed_over": "1"}, **EN)
        assert response.status_code == 400 and "tart number" in response.content.decode()
    response = desk_client.post(tick, {"start_number": without.start_number, "handed_over": "1"}, **EN)
    assert response.status_code == 400 and "has no prize to hand over" in response.content.decode()
    assert not Registration.objects.filter(prize_handed_over=True).exists()
    assert not AuditEntry.objects.filter(action="prize.hand_over").exists()


def test_a_tick_in_another_clubs_tournament_is_404(client, finished_tournament, lot_prizes):
    client.force_login(member(finished_tournament, "organiser", club=ClubFactory(name="Anderer Verein")))
    tick = reverse("tournaments:prize_handed_over", args=[finished_tournament.slug])
    assert client.post(tick, {"start_number": lot_prizes[0]["start_number"], "handed_over": "1"}).status_code == 404
    assert not Registration.objects.filter(prize_handed_over=True).exists()
