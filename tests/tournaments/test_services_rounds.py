"""The round lifecycle: drawn (can be redrawn) -> published -> closed; seat swaps before play."""

import uuid

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from tests.factories import PlayerFactory, TournamentFactory
from tournaments import seating
from tournaments.http import error_status
from tournaments.models import Round, Seat, SeatSwap, Tournament
from tournaments.services.errors import ServiceError
from tournaments.services.hands import hand_record, table_paper_totals
from tournaments.services.registration import (
    registration_create,
    registration_substitute,
    registration_update,
    registration_withdraw,
)
from tournaments.services.rounds import round_close, round_draw, round_publish, round_redraw, seat_swap

pytestmark = pytest.mark.django_db


def make_tournament(players: int, rules: dict | None = None, checked_in: bool = True) -> Tournament:
    tournament = TournamentFactory(rules=rules or {})
    for _ in range(players):
        registration_create(tournament=tournament, player=PlayerFactory(), paid=True, checked_in=checked_in)
    return tournament


def seating_of(rnd: Round) -> list[list[int]]:
    """Start numbers by table and seat."""
    tables = []
    for table in rnd.tables.order_by("number"):
        tables.append(
            [s.registration.start_number for s in table.seats.order_by("number").select_related("registration")]
        )
    return tables


def finish(rnd: Round) -> None:
    """Every table of a published round enters its totals from paper: the round is complete."""
    for table in rnd.tables.all():
        table_paper_totals(table=table, totals={str(s): 0 for s in range(1, table.size + 1)})


def play_one_game(table) -> None:
    hand_record(
        table=table, record={"contract": "rufspiel", "declarer": 1, "partner": 3, "augen": 70}, client_id=uuid.uuid4()
    )


# --- draw ---------------------------------------------------------------------------------------


def test_21_players_sit_at_one_table_of_five_and_four_of_four():
    tournament = make_tournament(21)
    (rnd,) = round_draw(tournament=tournament, seed=7)
    assert rnd.number == 1 and rnd.status == Round.Status.DRAWN
    assert [t.size for t in rnd.tables.order_by("number")] == [5, 4, 4, 4, 4]
    seated = [n for table in seating_of(rnd) for n in table]
    assert sorted(seated) == list(range(1, 22))
    assert [len(t) for t in seating_of(rnd)] == [5, 4, 4, 4, 4]
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING


def test_7_players_cannot_be_seated_and_the_organiser_is_told_how_many_to_add_or_withdraw():
    tournament = make_tournament(7)
    with translation.override("en"), pytest.raises(ServiceError) as err:
        round_draw(tournament=tournament)
    assert error_status(err.value) == 409
    assert err.value.field == "players"
    assert err.value.code == "seating_impossible"
    assert "7 players" in err.value.message
    assert "add 1" in err.value.message and "withdraw 2" in err.value.message
    assert not tournament.rounds.exists()  # nothing half-written


def test_3_players_are_told_to_add_one_and_nothing_about_withdrawing():
    tournament = make_tournament(3)
    with translation.override("en"), pytest.raises(ServiceError) as err:
        round_draw(tournament=tournament)
    assert "add 1" in err.value.message
    assert "withdraw" not in err.value.message


def test_only_checked_in_players_are_drawn():
    tournament = make_tournament(8)
    late = registration_create(tournament=tournament, player=PlayerFactory(), checked_in=False)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    assert not Seat.objects.filter(registration=late).exists()
    assert rnd.seats.count() == 8


def test_the_draw_is_reproducible_from_its_seed():
    tournament = make_tournament(16)
    (rnd,) = round_draw(tournament=tournament, seed=99)
    before = seating_of(rnd)
    round_redraw(round=rnd, seed=rnd.seed)
    assert seating_of(rnd) == before


def test_the_next_round_is_drawn_only_after_the_previous_is_closed():
    tournament = make_tournament(8)
    (first,) = round_draw(tournament=tournament, seed=1)
    with pytest.raises(ServiceError) as err:
        round_draw(tournament=tournament)
    assert error_status(err.value) == 409 and err.value.field == "round"
    round_publish(round=first)
    with pytest.raises(ServiceError):
        round_draw(tournament=tournament)
    finish(first)
    round_close(round=first)
    (second,) = round_draw(tournament=tournament, seed=2)
    assert second.number == 2


def test_no_more_rounds_than_the_ruleset_has():
    tournament = make_tournament(8, rules={"rounds": 1})
    (rnd,) = round_draw(tournament=tournament, seed=1)
    round_publish(round=rnd)
    finish(rnd)
    round_close(round=rnd)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING  # the organiser finishes it (test_round_reopen)
    with pytest.raises(ServiceError) as err:
        round_draw(tournament=tournament)
    assert error_status(err.value) == 409


def test_round_two_avoids_players_meeting_again():
    tournament = make_tournament(16)
    (first,) = round_draw(tournament=tournament, seed=3)
    round_publish(round=first)
    finish(first)
    round_close(round=first)
    (second,) = round_draw(tournament=tournament, seed=4)
    assert seating.count_repeated_pairs(seating_of(second), seating_of(first)) == 0


def test_all_in_advance_draws_every_round_at_once():
    tournament = make_tournament(16, rules={"rounds": 3, "draw_mode": "all_in_advance"})
    drawn = round_draw(tournament=tournament, seed=5)
    assert [r.number for r in drawn] == [1, 2, 3]
    assert all(r.status == Round.Status.DRAWN for r in drawn)
    assert all(r.seats.count() == 16 for r in drawn)
    assert len({r.seed for r in drawn}) == 3
    # The rounds avoid repeated pairs among each other too.
    assert seating.count_repeated_pairs(seating_of(drawn[1]), seating_of(drawn[0])) == 0
    with pytest.raises(ServiceError):
        round_draw(tournament=tournament)
    # Round 2 is published only after round 1 is closed.
    with pytest.raises(ServiceError) as err:
        round_publish(round=drawn[1])
    assert error_status(err.value) == 409


def test_keep_first_round_keeps_the_tables_of_round_one():
    tournament = make_tournament(12, rules={"draw_mode": "keep_first_round"})
    (first,) = round_draw(tournament=tournament, seed=8)
    round_publish(round=first)
    finish(first)
    round_close(round=first)
    (second,) = round_draw(tournament=tournament, seed=9)
    assert seating_of(second) == seating_of(first)


def test_keep_first_round_puts_a_substitute_in_the_seat_he_took_over():
    tournament = make_tournament(8, rules={"draw_mode": "keep_first_round"})
    (first,) = round_draw(tournament=tournament, seed=8)
    round_publish(round=first)
    finish(first)
    round_close(round=first)
    leaving = tournament.registrations.get(start_number=3)
    substitute = registration_substitute(withdrawn=leaving, player=PlayerFactory())
    (second,) = round_draw(tournament=tournament, seed=9)
    expected = [[substitute.start_number if n == 3 else n for n in table] for table in seating_of(first)]
    assert seating_of(second) == expected


# --- redraw, publish, close ---------------------------------------------------------------------


def test_redraw_only_while_drawn_and_with_a_new_seed():
    tournament = make_tournament(12)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    old_seed, old_keys = rnd.seed, set(rnd.tables.values_list("entry_key", flat=True))
    round_redraw(round=rnd)
    rnd.refresh_from_db()
    assert rnd.seed != old_seed
    assert rnd.seats.count() == 12 and rnd.tables.count() == 3
    assert not old_keys & set(rnd.tables.values_list("entry_key", flat=True))
    round_publish(round=rnd)
    with pytest.raises(ServiceError) as err:
        round_redraw(round=rnd)
    assert error_status(err.value) == 409


def test_redraw_includes_late_arrivals_and_drops_withdrawn_players():
    tournament = make_tournament(8)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    gone = tournament.registrations.get(start_number=2)
    registration_withdraw(registration=gone)
    late = [registration_create(tournament=tournament, player=PlayerFactory(), checked_in=True) for _ in range(5)]
    round_redraw(round=rnd, seed=2)
    seated = set(rnd.seats.values_list("registration__start_number", flat=True))
    assert 2 not in seated
    assert {r.start_number for r in late} <= seated
    assert sorted(t.size for t in rnd.tables.all()) == [4, 4, 4]


def test_publish_makes_the_round_public_once():
    tournament = make_tournament(8)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    round_publish(round=rnd)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED and rnd.published_at is not None
    with pytest.raises(ServiceError) as err:
        round_publish(round=rnd)
    assert error_status(err.value) == 409


def test_publish_refuses_a_draw_that_seats_a_withdrawn_player():
    tournament = make_tournament(8)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    gone = tournament.registrations.get(start_number=5)
    registration_withdraw(registration=gone)
    with pytest.raises(ServiceError) as err:
        round_publish(round=rnd)
    assert error_status(err.value) == 409 and err.value.code == "withdrawn_seated"
    assert gone.player.name in err.value.message
    # A substitute takes the seat: now the round can be published.
    registration_substitute(withdrawn=gone, player=PlayerFactory())
    round_publish(round=rnd)


def test_close_refuses_incomplete_tables_and_names_them():
    tournament = make_tournament(12)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    with pytest.raises(ServiceError) as err:
        round_close(round=rnd)  # not published yet
    assert error_status(err.value) == 409
    round_publish(round=rnd)
    first = rnd.tables.get(number=1)
    table_paper_totals(table=first, totals={"1": 1, "2": -1, "3": 0, "4": 0})
    with translation.override("en"), pytest.raises(ServiceError) as err:
        round_close(round=rnd)
    assert error_status(err.value) == 409
    assert "table 2, 3" in err.value.message
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED


def test_close_locks_a_complete_round():
    tournament = make_tournament(8)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    round_publish(round=rnd)
    finish(rnd)
    round_close(round=rnd)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED and rnd.closed_at is not None
    with pytest.raises(ServiceError):
        round_close(round=rnd)


# --- seat swap ----------------------------------------------------------------------------------


def test_seat_swap_exchanges_two_seats_and_is_recorded_with_who_and_when():
    user = get_user_model().objects.create_user("orga")
    tournament = make_tournament(8)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    a, b = tournament.registrations.get(start_number=1), tournament.registrations.get(start_number=2)
    seat_a, seat_b = Seat.objects.get(round=rnd, registration=a), Seat.objects.get(round=rnd, registration=b)
    swap = seat_swap(round=rnd, first=a, second=b, by=user)
    assert Seat.objects.get(round=rnd, registration=a).table_id == seat_b.table_id
    assert Seat.objects.get(round=rnd, registration=a).number == seat_b.number
    assert Seat.objects.get(round=rnd, registration=b).table_id == seat_a.table_id
    assert Seat.objects.get(round=rnd, registration=b).number == seat_a.number
    assert swap.by == user and swap.at is not None
    assert a.player.name in swap.description and b.player.name in swap.description
    assert SeatSwap.objects.filter(round=rnd).count() == 1


def test_seat_swap_is_allowed_after_publishing_until_play_starts():
    tournament = make_tournament(8)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    round_publish(round=rnd)
    table = rnd.tables.get(number=1)
    here = [s.registration for s in table.seats.select_related("registration__player")]
    there = [s.registration for s in rnd.tables.get(number=2).seats.select_related("registration__player")]
    seat_swap(round=rnd, first=here[0], second=there[0])
    play_one_game(table)
    with pytest.raises(ServiceError) as err:
        seat_swap(round=rnd, first=here[1], second=there[1])
    assert error_status(err.value) == 409
    assert SeatSwap.objects.count() == 1


def test_seat_swap_is_refused_at_a_table_with_paper_totals():
    tournament = make_tournament(8)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    round_publish(round=rnd)
    table = rnd.tables.get(number=1)
    table_paper_totals(table=table, totals={"1": 0, "2": 0, "3": 0, "4": 0})
    a = table.seats.first().registration
    b = rnd.tables.get(number=2).seats.first().registration
    with pytest.raises(ServiceError) as err:
        seat_swap(round=rnd, first=a, second=b)
    assert error_status(err.value) == 409


def test_seat_swap_needs_two_different_seated_players():
    tournament = make_tournament(8)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    a = tournament.registrations.get(start_number=1)
    with pytest.raises(ServiceError) as err:
        seat_swap(round=rnd, first=a, second=a)
    assert err.value.field == "second"
    stranger = registration_create(tournament=tournament, player=PlayerFactory(), checked_in=True)
    with pytest.raises(ServiceError) as err:
        seat_swap(round=rnd, first=a, second=stranger)
    assert err.value.field == "second"


def test_seat_swap_is_refused_in_a_closed_round():
    tournament = make_tournament(8)
    (rnd,) = round_draw(tournament=tournament, seed=1)
    round_publish(round=rnd)
    finish(rnd)
    round_close(round=rnd)
    a, b = tournament.registrations.get(start_number=1), tournament.registrations.get(start_number=2)
    with pytest.raises(ServiceError) as err:
        seat_swap(round=rnd, first=a, second=b)
    assert error_status(err.value) == 409


# --- the field between rounds -------------------------------------------------------------------


def test_a_withdrawn_player_is_not_in_the_next_draw_and_keeps_his_seat_in_the_current_round():
    tournament = make_tournament(13)
    (first,) = round_draw(tournament=tournament, seed=1)
    round_publish(round=first)
    gone = tournament.registrations.get(start_number=4)
    registration_withdraw(registration=gone)
    gone.refresh_from_db()
    assert gone.withdrawn_after_round == 1
    assert Seat.objects.filter(round=first, registration=gone).exists()
    finish(first)
    round_close(round=first)
    (second,) = round_draw(tournament=tournament, seed=2)
    assert not Seat.objects.filter(round=second, registration=gone).exists()
    assert [t.size for t in second.tables.order_by("number")] == [4, 4, 4]


def test_a_late_arrival_checked_in_during_round_one_is_drawn_for_round_two():
    tournament = make_tournament(8)
    late = registration_create(tournament=tournament, player=PlayerFactory(), checked_in=False)
    (first,) = round_draw(tournament=tournament, seed=1)
    registration_update(registration=late, checked_in=True)
    assert not Seat.objects.filter(round=first, registration=late).exists()
    round_publish(round=first)
    finish(first)
    round_close(round=first)
    (second,) = round_draw(tournament=tournament, seed=2)
    assert Seat.objects.filter(round=second, registration=late).exists()
    assert [t.size for t in second.tables.order_by("number")] == [5, 4]


def test_a_substitute_takes_over_the_seat_of_the_open_round():
    tournament = make_tournament(8)
    (first,) = round_draw(tournament=tournament, seed=1)
    round_publish(round=first)
    leaving = tournament.registrations.get(start_number=6)
    seat = Seat.objects.get(round=first, registration=leaving)
    substitute = registration_substitute(withdrawn=leaving, player=PlayerFactory())
    assert substitute.substitute_for == leaving
    assert substitute.checked_in and substitute.start_number == 9
    seat.refresh_from_db()
    assert seat.registration == substitute
    leaving.refresh_from_db()
    assert leaving.withdrawn_after_round == 1
