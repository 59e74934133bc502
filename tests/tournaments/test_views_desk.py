"""The desk, rounds and public seat-list pages: permissions, forms, htmx fragments, status codes."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tournaments.models import ClubMembership, Registration, Round, Seat, SeatSwap
from tournaments.services.hands import table_paper_totals
from tournaments.services.registration import registration_create, registration_withdraw
from tournaments.services.rounds import round_close, round_draw, round_publish

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def tournament():
    return TournamentFactory(club=ClubFactory(name="Schafkopffreunde"), slug="herbst")


def member(club, role=ClubMembership.Role.ORGANISER, name="orga"):
    user = get_user_model().objects.create_user(name)
    ClubMembership.objects.create(user=user, club=club, role=role)
    return user


@pytest.fixture
def orga(client, tournament):
    client.force_login(member(tournament.club))
    return client


@pytest.fixture
def en(client):
    """English messages, in the test and in the pages (German is the default, see tests/test_i18n.py)."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    with translation.override("en"):
        yield


def url(name, *args):
    return reverse(f"tournaments:{name}", args=args)


def register(tournament, n, **kwargs):
    return [
        registration_create(tournament=tournament, player=PlayerFactory(club=tournament.club), **kwargs)
        for _ in range(n)
    ]


# --- access -------------------------------------------------------------------------------------


def test_organiser_pages_need_a_login(client, tournament):
    for path in (url("desk", "herbst"), url("rounds", "herbst"), url("organiser_home")):
        response = client.get(path)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_another_clubs_organiser_gets_404(client, tournament):
    client.force_login(member(ClubFactory(name="Andere")))
    assert client.get(url("desk", "herbst")).status_code == 404
    assert client.get(url("rounds", "herbst")).status_code == 404
    assert client.post(url("rounds_draw", "herbst")).status_code == 404


def test_a_desk_helper_works_the_desk_but_does_not_draw(client, tournament):
    register(tournament, 8, checked_in=True)
    client.force_login(member(tournament.club, role=ClubMembership.Role.DESK))
    assert client.get(url("desk", "herbst")).status_code == 200
    page = client.get(url("rounds", "herbst"))
    assert page.status_code == 200 and b'data-testid="draw"' not in page.content
    assert client.post(url("rounds_draw", "herbst")).status_code == 404
    assert not Round.objects.exists()


def test_a_viewer_has_no_desk(client, tournament):
    client.force_login(member(tournament.club, role=ClubMembership.Role.VIEWER))
    assert client.get(url("desk", "herbst")).status_code == 404


def test_organiser_home_lists_the_users_tournaments(orga, tournament):
    TournamentFactory(name="Fremdes Rennen")
    page = orga.get(url("organiser_home")).content.decode()
    assert tournament.name in page and "Fremdes Rennen" not in page
    assert url("desk", "herbst") in page


# --- desk ---------------------------------------------------------------------------------------


def test_desk_lists_registrations_and_links_to_the_rounds(orga, tournament):
    regs = register(tournament, 3)
    page = orga.get(url("desk", "herbst")).content.decode()
    for reg in regs:
        assert f'data-testid="reg-{reg.start_number}"' in page and reg.player.last_name in page
    assert url("rounds", "herbst") in page


def test_search_as_you_type_returns_the_results_fragment(orga, tournament):
    anna = PlayerFactory(first_name="Anna", last_name="Huber", club=tournament.club)
    (sepp,) = register(tournament, 1)
    response = orga.get(url("desk", "herbst"), {"q": "hub"}, HTTP_HX_TARGET="desk-results", **HTMX)
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body
    assert f'data-testid="register-{anna.pk}"' in body
    assert f'data-testid="reg-{sepp.start_number}"' not in body  # filtered out of the registrations
    by_number = orga.get(url("desk", "herbst"), {"q": str(sepp.start_number)}, HTTP_HX_TARGET="desk-results", **HTMX)
    assert f'data-testid="reg-{sepp.start_number}"' in by_number.content.decode()


def test_a_search_that_finds_nobody_prefills_the_new_person(orga, tournament):
    body = orga.get(url("desk", "herbst"), {"q": "Korbinian Zehetmair"}, HTTP_HX_TARGET="desk-results", **HTMX)
    html = body.content.decode()
    assert 'value="Zehetmair"' in html and 'value="Korbinian"' in html
    assert "<details" in html and " open>" in html


def test_register_a_player_of_the_club(orga, tournament):
    anna = PlayerFactory(club=tournament.club)
    response = orga.post(url("desk_register", "herbst"), {"player": anna.pk, "paid": "true", "checked_in": "true"})
    assert response.status_code == 302
    reg = Registration.objects.get(player=anna)
    assert (reg.start_number, reg.paid, reg.checked_in) == (1, True, True)
    again = orga.post(url("desk_register", "herbst"), {"player": anna.pk})
    assert again.status_code == 409
    assert b'data-testid="desk-error"' in again.content


def test_register_refuses_a_player_outside_the_clubs_database(orga, tournament):
    stranger = PlayerFactory(club=ClubFactory(name="Andere"))
    assert orga.post(url("desk_register", "herbst"), {"player": stranger.pk}).status_code == 404
    assert orga.post(url("desk_register", "herbst"), {"player": "x"}).status_code == 400
    assert not Registration.objects.exists()


def test_quick_add_creates_and_registers_a_new_person(orga, tournament):
    response = orga.post(
        url("desk_quick_add", "herbst"),
        {"first_name": "Korbinian", "last_name": "Zehetmair", "club_name": "schafkopffreunde", "checked_in": "on"},
    )
    assert response.status_code == 302
    reg = Registration.objects.get(player__last_name="Zehetmair")
    assert reg.checked_in and not reg.paid
    assert reg.player.club == tournament.club  # the club's name matched, whatever the case


def test_quick_add_without_a_last_name_shows_the_error_next_to_the_field(orga, tournament, en):
    response = orga.post(url("desk_quick_add", "herbst"), {"first_name": "Korbinian", "last_name": "  "})
    assert response.status_code == 400
    html = response.content.decode()
    assert "errorlist" in html and 'value="Korbinian"' in html
    assert not Registration.objects.exists()


def test_toggles_update_the_row_and_the_counts_in_place(orga, tournament):
    (reg,) = register(tournament, 1)
    response = orga.post(url("desk_flag", "herbst", reg.start_number), {"field": "paid", "value": "true"}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith(f'<tr id="reg-{reg.start_number}"')
    assert f'data-testid="paid-{reg.start_number}">' in html and 'aria-pressed="true"' in html
    assert 'id="desk-summary" class="summary" hx-swap-oob="true"' in html
    orga.post(url("desk_flag", "herbst", reg.start_number), {"field": "checked_in", "value": "true"}, **HTMX)
    reg.refresh_from_db()
    assert reg.paid and reg.checked_in
    orga.post(url("desk_flag", "herbst", reg.start_number), {"field": "paid", "value": "false"}, **HTMX)
    reg.refresh_from_db()
    assert not reg.paid and reg.checked_in


def test_toggle_without_htmx_redirects_back(orga, tournament):
    (reg,) = register(tournament, 1)
    response = orga.post(url("desk_flag", "herbst", reg.start_number), {"field": "checked_in", "value": "true"})
    assert response.status_code == 302
    assert (
        orga.post(url("desk_flag", "herbst", reg.start_number), {"field": "withdrawn", "value": "true"}).status_code
        == 400
    )
    assert orga.post(url("desk_flag", "herbst", 99), {"field": "paid", "value": "true"}).status_code == 404


def test_checking_out_a_seated_player_is_a_409_with_the_message_in_the_row(orga, tournament):
    regs = register(tournament, 8, checked_in=True)
    round_draw(tournament=tournament, seed=1)
    response = orga.post(url("desk_flag", "herbst", 1), {"field": "checked_in", "value": "false"}, **HTMX)
    assert response.status_code == 409
    assert b'data-testid="row-error"' in response.content
    regs[0].refresh_from_db()
    assert regs[0].checked_in


def test_withdraw_from_the_desk(orga, tournament):
    (reg,) = register(tournament, 1, checked_in=True)
    response = orga.post(url("desk_withdraw", "herbst", reg.start_number), **HTMX)
    assert response.status_code == 200
    assert b'class="withdrawn"' in response.content
    reg.refresh_from_db()
    assert reg.withdrawn_after_round == 0
    assert orga.post(url("desk_withdraw", "herbst", reg.start_number), **HTMX).status_code == 409


def test_the_desk_shows_seats_and_who_joins_from_the_next_draw(orga, tournament, en):
    register(tournament, 8, checked_in=True)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    (late,) = register(tournament, 1, checked_in=True)
    html = orga.get(url("desk", "herbst")).content.decode()
    seat = Seat.objects.select_related("table").get(round=rnd, registration__start_number=1)
    assert f"Round 1: table {seat.table.number}, seat {seat.number}" in html
    assert "joins from the next draw" in html


def test_a_substitute_from_the_database_takes_over_the_seat(orga, tournament):
    register(tournament, 8, checked_in=True)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    round_publish(round=rnd)
    sub = PlayerFactory(first_name="Ersatz", last_name="Mann", club=tournament.club)
    page = orga.get(url("desk_substitute", "herbst", 2), {"q": "ersatz"}, HTTP_HX_TARGET="substitute-results", **HTMX)
    assert f'data-testid="take-over-{sub.pk}"' in page.content.decode()
    seat = Seat.objects.get(round=rnd, registration__start_number=2)
    response = orga.post(url("desk_substitute", "herbst", 2), {"player": sub.pk, "pays_fee": "no"})
    assert response.status_code == 302
    seat.refresh_from_db()
    assert seat.registration.player == sub and seat.registration.substitute_for.start_number == 2
    again = orga.post(
        url("desk_substitute", "herbst", 2), {"player": PlayerFactory(club=tournament.club).pk, "pays_fee": "no"}
    )
    assert again.status_code == 409
    assert b'data-testid="substitute-error"' in again.content


def test_a_new_person_substitutes(orga, tournament):
    (reg,) = register(tournament, 1, checked_in=True)
    registration_withdraw(registration=reg)
    assert orga.post(url("desk_substitute", "herbst", 1), {"first_name": "Neu"}).status_code == 400
    asked = orga.post(url("desk_substitute", "herbst", 1), {"first_name": "Neu", "last_name": "Ling"})
    assert asked.status_code == 200 and b'data-testid="substitute-fee"' in asked.content  # the fee question
    response = orga.post(
        url("desk_substitute", "herbst", 1), {"first_name": "Neu", "last_name": "Ling", "pays_fee": "yes"}
    )
    assert response.status_code == 302
    assert Registration.objects.get(player__last_name="Ling").fee_due
    assert Registration.objects.get(player__last_name="Ling").substitute_for == reg


# --- rounds -------------------------------------------------------------------------------------


def test_draw_publish_and_the_rounds_page(orga, tournament):
    register(tournament, 21, checked_in=True)
    response = orga.post(url("rounds_draw", "herbst"))
    assert response.status_code == 302
    rnd = tournament.rounds.get()
    page = orga.get(url("rounds", "herbst")).content.decode()
    assert 'data-status="drawn"' in page
    assert str(rnd.seed) in page
    assert page.count('data-testid="table-1-') == 5
    assert 'data-testid="redraw-1"' in page and 'data-testid="publish-1"' in page
    assert url("desk", "herbst") in page
    assert orga.post(url("rounds_redraw", "herbst", 1)).status_code == 302
    assert orga.post(url("rounds_publish", "herbst", 1)).status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED
    page = orga.get(url("rounds", "herbst")).content.decode()
    assert 'data-testid="close-1"' in page and 'data-testid="redraw-1"' not in page


def test_an_impossible_field_gets_the_message_with_409(orga, tournament, en):
    register(tournament, 7, checked_in=True)
    response = orga.post(url("rounds_draw", "herbst"))
    assert response.status_code == 409
    html = response.content.decode()
    assert 'data-testid="round-error"' in html
    assert "7 players cannot be seated at tables of four and five: add 1 or withdraw 2." in html


def test_redraw_after_publishing_and_closing_an_incomplete_round_are_409(orga, tournament, en):
    register(tournament, 8, checked_in=True)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    round_publish(round=rnd)
    assert orga.post(url("rounds_redraw", "herbst", 1)).status_code == 409
    response = orga.post(url("rounds_close", "herbst", 1))
    assert response.status_code == 409
    assert b"Not every table is complete" in response.content
    for table in rnd.tables.all():
        table_paper_totals(table=table, totals={str(s): 0 for s in range(1, 5)})
    assert orga.post(url("rounds_close", "herbst", 1)).status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED
    assert orga.post(url("rounds_publish", "herbst", 9)).status_code == 404


def test_seat_swap_form_swaps_and_logs(orga, tournament):
    register(tournament, 8, checked_in=True)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    before = {s.registration.start_number: (s.table_id, s.number) for s in rnd.seats.select_related("registration")}
    response = orga.post(url("rounds_swap", "herbst", 1), {"first": 1, "second": 5})
    assert response.status_code == 302
    after = {s.registration.start_number: (s.table_id, s.number) for s in rnd.seats.select_related("registration")}
    assert after[1] == before[5] and after[5] == before[1]
    swap = SeatSwap.objects.get()
    assert swap.by.username == "orga"
    page = orga.get(url("rounds", "herbst")).content.decode()
    assert 'data-testid="swap-log"' in page and swap.description in page


def test_seat_swap_form_errors_are_shown_next_to_the_fields(orga, tournament, en):
    register(tournament, 8, checked_in=True)
    round_draw(tournament=tournament, seed=1)
    response = orga.post(url("rounds_swap", "herbst", 1), {"first": 1, "second": 99})
    assert response.status_code == 400
    assert b"No player has start number 99." in response.content
    assert orga.post(url("rounds_swap", "herbst", 1), {"first": 3, "second": 3}).status_code == 400
    assert orga.post(url("rounds_swap", "herbst", 1), {"first": "", "second": 3}).status_code == 400
    assert not SeatSwap.objects.exists()


def test_the_rounds_page_warns_about_a_withdrawn_player_in_a_drawn_round(orga, tournament):
    regs = register(tournament, 8, checked_in=True)
    round_draw(tournament=tournament, seed=1)
    registration_withdraw(registration=regs[0])
    page = orga.get(url("rounds", "herbst")).content.decode()
    assert 'data-testid="withdrawn-seated"' in page
    assert orga.post(url("rounds_publish", "herbst", 1)).status_code == 409


def test_all_in_advance_draws_every_round_from_the_page(orga):
    tournament = TournamentFactory(
        club=ClubFactory(name="Schafkopffreunde"), slug="vorab", rules={"rounds": 3, "draw_mode": "all_in_advance"}
    )
    register(tournament, 8, checked_in=True)
    assert orga.post(url("rounds_draw", "vorab")).status_code == 302
    assert tournament.rounds.count() == 3


# --- public ---------------------------------------------------------------------------------------


def test_the_seat_list_waits_for_a_published_round(client, tournament):
    register(tournament, 8, checked_in=True)
    response = client.get(url("seatlist", "herbst"))
    assert response.status_code == 404 and b'data-testid="seatlist-pending"' in response.content
    round_draw(tournament=tournament, seed=1)  # drawn is not public yet
    assert client.get(url("seatlist", "herbst")).status_code == 404
    assert client.get(url("seatlist", "nirgends")).status_code == 404


def test_the_seat_list_shows_the_newest_published_round_alphabetically(client, tournament):
    for first, last in [("Zita", "Zach"), ("Anna", "Ächter"), ("Bert", "Bauer")]:
        registration_create(
            tournament=tournament, player=PlayerFactory(first_name=first, last_name=last), checked_in=True
        )
    register(tournament, 5, checked_in=True)
    (first,) = round_draw(tournament=tournament, seed=1)
    round_publish(round=first)
    for table in first.tables.all():
        table_paper_totals(table=table, totals={str(s): 0 for s in range(1, 5)})
    round_close(round=first)
    (second,) = round_draw(tournament=tournament, seed=2)
    html = client.get(url("seatlist", "herbst")).content.decode()
    assert 'data-testid="seatlist-round"' in html and "1</strong>" in html  # round 2 is only drawn
    round_publish(round=second)
    response = client.get(url("seatlist", "herbst"), {"refresh": "60"})
    html = response.content.decode()
    assert response.status_code == 200
    assert '<meta http-equiv="refresh" content="60">' in html
    assert html.index("Ächter, Anna") < html.index("Bauer, Bert") < html.index("Zach, Zita")
    seat = Seat.objects.select_related("table").get(round=second, registration__player__last_name="Zach")
    row = html[html.index("Zach, Zita") :]
    assert f'data-testid="seat-table">{seat.table.number}<' in row
    assert f'data-testid="seat-seat">{seat.number}<' in row


def test_the_seat_list_by_table(client, tournament):
    register(tournament, 9, checked_in=True)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    round_publish(round=rnd)
    html = client.get(url("seatlist_tables", "herbst")).content.decode()
    assert 'data-testid="seat-table-1" data-size="5"' in html
    assert 'data-testid="seat-table-2" data-size="4"' in html


def test_the_public_tournament_page_links_to_the_seat_list(client, tournament):
    html = client.get(url("public_tournament", "herbst")).content.decode()
    assert url("seatlist", "herbst") in html
    assert url("desk", "herbst") not in html  # the organiser links only for the club's people
    assert client.get(url("public_tournament", "nirgends")).status_code == 404


def test_the_desk_asks_the_same_or_another_before_it_registers_a_namesake(orga, tournament, en):
    """A second Hans Meier is registered only when the desk answers "another" (new person or a player of the
    database alike); "the same" registers nobody."""
    first = registration_create(
        tournament=tournament, player=PlayerFactory(club=tournament.club, first_name="Hans", last_name="Meier")
    )
    response = orga.post(
        url("desk_quick_add", "herbst"), {"first_name": "Hans", "last_name": "meier", "club_name": "", "paid": "on"}
    )
    html = " ".join(response.content.decode().split())
    assert response.status_code == 409 and 'data-testid="desk-namesake"' in html
    assert f"Hans meier is registered already: start number {first.start_number}" in html
    assert "The same person or another?" in html and 'name="paid" value="on"' in html
    assert Registration.objects.filter(tournament__slug="herbst").count() == 1

    response = orga.post(
        url("desk_quick_add", "herbst"),
        {"first_name": "Hans", "last_name": "meier", "club_name": "", "paid": "on", "namesake": "another"},
    )
    assert response.status_code == 302
    second = Registration.objects.exclude(pk=first.pk).get(tournament__slug="herbst")
    assert second.paid and second.start_number == first.start_number + 1

    known = PlayerFactory(club=tournament.club, first_name="Hans", last_name="Meier")  # a third, in the database
    response = orga.post(url("desk_register", "herbst"), {"player": known.pk})
    assert response.status_code == 409 and b'data-testid="namesake-another"' in response.content
    assert orga.post(url("desk_register", "herbst"), {"player": known.pk, "namesake": "another"}).status_code == 302
    assert Registration.objects.filter(tournament__slug="herbst").count() == 3
