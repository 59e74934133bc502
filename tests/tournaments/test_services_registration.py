"""Registration at the desk: start numbers, paid, check-in, withdrawal, substitutes; the desk's reads."""

import pytest
from django.utils import translation

from tests.factories import ClubFactory, PlayerFactory, TournamentFactory
from tournaments.http import error_status
from tournaments.models import Registration, Round, Seat
from tournaments.selectors.desk import desk_rows, desk_summary, player_for_desk, players_search, rounds_overview
from tournaments.selectors.public import seat_rows
from tournaments.services.errors import ServiceError
from tournaments.services.hands import table_paper_totals
from tournaments.services.registration import (
    player_create,
    registration_create,
    registration_substitute,
    registration_update,
    registration_withdraw,
)
from tournaments.services.rounds import round_close, round_draw, round_publish

pytestmark = pytest.mark.django_db


def register(tournament, n: int, **kwargs) -> list[Registration]:
    return [registration_create(tournament=tournament, player=PlayerFactory(), **kwargs) for _ in range(n)]


def close(rnd: Round) -> None:
    round_publish(round=rnd)
    for table in rnd.tables.all():
        table_paper_totals(table=table, totals={str(s): 0 for s in range(1, table.size + 1)})
    round_close(round=rnd)


def test_start_numbers_are_given_in_order_and_never_reused():
    tournament = TournamentFactory()
    first, second = register(tournament, 2)
    assert (first.start_number, second.start_number) == (1, 2)
    second.delete()  # even a registration removed in the admin leaves its number used
    (third,) = register(tournament, 1)
    assert third.start_number == 3
    other = TournamentFactory()
    assert register(other, 1)[0].start_number == 1  # numbers are per tournament


def test_a_player_is_registered_once():
    tournament = TournamentFactory()
    player = PlayerFactory()
    registration_create(tournament=tournament, player=player)
    with pytest.raises(ServiceError) as err:
        registration_create(tournament=tournament, player=player)
    assert error_status(err.value) == 409 and err.value.field == "player"
    tournament.refresh_from_db()
    assert tournament.last_start_number == 1  # the refused registration used no number


def test_player_create_needs_a_last_name_and_trims():
    with pytest.raises(ServiceError) as err:
        player_create(first_name="Anna", last_name="  ")
    assert err.value.field == "last_name"
    player = player_create(first_name=" Anna ", last_name=" Huber ")
    assert (player.first_name, player.last_name) == ("Anna", "Huber")


def test_paid_and_checked_in_flags():
    (reg,) = register(TournamentFactory(), 1)
    registration_update(registration=reg, paid=True)
    reg.refresh_from_db()
    assert reg.paid and not reg.checked_in
    registration_update(registration=reg, checked_in=True)
    reg.refresh_from_db()
    assert reg.paid and reg.checked_in
    registration_update(registration=reg, paid=False)
    reg.refresh_from_db()
    assert not reg.paid and reg.checked_in


def test_a_seated_player_cannot_be_checked_out():
    tournament = TournamentFactory()
    regs = register(tournament, 8, checked_in=True)
    round_draw(tournament=tournament, seed=1)
    with pytest.raises(ServiceError) as err:
        registration_update(registration=regs[0], checked_in=False)
    assert error_status(err.value) == 409 and err.value.field == "checked_in"


def test_withdrawal_before_the_first_draw_is_after_round_0():
    (reg,) = register(TournamentFactory(), 1, checked_in=True)
    registration_withdraw(registration=reg)
    reg.refresh_from_db()
    assert reg.withdrawn_after_round == 0
    with pytest.raises(ServiceError) as err:
        registration_withdraw(registration=reg)
    assert error_status(err.value) == 409


def test_withdrawal_after_a_drawn_but_unpublished_round_does_not_count_that_round():
    tournament = TournamentFactory()
    regs = register(tournament, 8, checked_in=True)
    round_draw(tournament=tournament, seed=1)
    registration_withdraw(registration=regs[0])
    regs[0].refresh_from_db()
    assert regs[0].withdrawn_after_round == 0


def test_withdrawal_with_rounds_drawn_in_advance_counts_only_rounds_under_way():
    tournament = TournamentFactory(rules={"rounds": 3, "draw_mode": "all_in_advance"})
    regs = register(tournament, 8, checked_in=True)
    first, _second, _third = round_draw(tournament=tournament, seed=1)
    round_publish(round=first)
    registration_withdraw(registration=regs[0])
    regs[0].refresh_from_db()
    assert regs[0].withdrawn_after_round == 1


def test_a_substitute_takes_over_seats_of_open_rounds_only():
    tournament = TournamentFactory()
    regs = register(tournament, 8, paid=True, checked_in=True)
    (first,) = round_draw(tournament=tournament, seed=1)
    close(first)
    (second,) = round_draw(tournament=tournament, seed=2)
    round_publish(round=second)
    leaving = regs[2]
    substitute = registration_substitute(withdrawn=leaving, player=PlayerFactory())
    assert Seat.objects.get(round=first, registration=leaving)  # his closed round stays his
    assert Seat.objects.get(round=second, registration=substitute)
    assert not Seat.objects.filter(round=second, registration=leaving).exists()
    leaving.refresh_from_db()
    assert leaving.withdrawn_after_round == 2
    assert substitute.start_number == 9 and substitute.checked_in
    assert not substitute.paid and not substitute.fee_due  # he took over a paid seat: no fee, never marked paid
    with pytest.raises(ServiceError) as err:
        registration_substitute(withdrawn=leaving, player=PlayerFactory())
    assert error_status(err.value) == 409 and err.value.field == "substitute_for"


def test_a_registered_player_cannot_be_a_substitute_and_nothing_changes():
    tournament = TournamentFactory()
    regs = register(tournament, 8, checked_in=True)
    with pytest.raises(ServiceError):
        registration_substitute(withdrawn=regs[0], player=regs[1].player)
    regs[0].refresh_from_db()
    assert not regs[0].withdrawn


# --- the desk's reads ---------------------------------------------------------------------------


def test_players_search_finds_the_clubs_players_by_every_word_and_skips_registered_ones():
    club = ClubFactory(name="Schafkopffreunde")
    tournament = TournamentFactory(club=club)
    anna = PlayerFactory(first_name="Anna", last_name="Huber", club=club)
    hans = PlayerFactory(first_name="Hans", last_name="Huber", club=club)
    PlayerFactory(first_name="Anna", last_name="Huber", club=ClubFactory(name="Fremder Verein"))
    guest = PlayerFactory(first_name="Gast", last_name="Huberl", club=None)
    earlier = TournamentFactory(club=club)
    registration_create(tournament=earlier, player=guest)  # played here before: in the club's database
    assert players_search(tournament=tournament, query="hub") == [anna, hans, guest]
    assert players_search(tournament=tournament, query="anna hub") == [anna]
    assert players_search(tournament=tournament, query="  ") == []
    registration_create(tournament=tournament, player=anna)
    assert anna not in players_search(tournament=tournament, query="huber")
    assert player_for_desk(tournament=tournament, pk=guest.pk) == guest
    stranger = PlayerFactory(club=ClubFactory(name="Ganz anders"))
    assert player_for_desk(tournament=tournament, pk=stranger.pk) is None


def test_desk_summary_tells_whether_the_field_can_be_seated():
    tournament = TournamentFactory()
    regs = register(tournament, 7, checked_in=True, paid=True)
    register(tournament, 2)
    summary = desk_summary(tournament)
    assert (summary.registered, summary.paid, summary.checked_in) == (9, 7, 7)
    assert not summary.feasible and (summary.add, summary.withdraw) == (1, 2)
    register(tournament, 14, checked_in=True)
    summary = desk_summary(tournament)
    assert summary.table_sizes == [5, 4, 4, 4, 4]
    assert (summary.tables_of_five, summary.tables_of_four) == (1, 4)
    registration_withdraw(registration=regs[0])
    summary = desk_summary(tournament)
    assert summary.checked_in == 20 and summary.withdrawn == 1 and summary.table_sizes == [4] * 5


def test_desk_rows_show_the_seat_of_the_newest_round_and_who_waits_for_the_next_draw():
    tournament = TournamentFactory()
    regs = register(tournament, 8, checked_in=True)
    late = registration_create(tournament=tournament, player=PlayerFactory(last_name="Zuspät"))
    (rnd,) = round_draw(tournament=tournament, seed=1)
    registration_update(registration=late, checked_in=True)
    rows = {row.number: row for row in desk_rows(tournament=tournament)}
    seat = Seat.objects.select_related("table").get(round=rnd, registration=regs[0])
    assert (rows[1].table, rows[1].seat, rows[1].round_number) == (seat.table.number, seat.number, 1)
    assert rows[late.start_number].waiting and rows[late.start_number].table is None
    assert [row.number for row in desk_rows(tournament=tournament, query="zusp")] == [late.start_number]
    assert [row.number for row in desk_rows(tournament=tournament, query="3")] == [3]


def test_seat_rows_sort_umlauts_with_their_base_letter():
    tournament = TournamentFactory()
    names = [
        ("Quirin", "Ächter"),
        ("Anna", "Zehetmair"),
        ("Franz", "Bauer"),
        ("Otto", "Özdemir"),
        ("Lisa", "Weiß"),
        ("Max", "Weise"),
        ("Anton", "Adler"),
    ]
    for first, last in names:
        registration_create(
            tournament=tournament, player=PlayerFactory(first_name=first, last_name=last), checked_in=True
        )
    register(tournament, 1, checked_in=True)  # 8 players
    (rnd,) = round_draw(tournament=tournament, seed=1)
    rows = [r for r in seat_rows(rnd) if not r.name.startswith("Spieler")]
    assert [r.name.split()[-1] for r in rows] == ["Ächter", "Adler", "Bauer", "Özdemir", "Weise", "Weiß", "Zehetmair"]
    assert rows[0].initial == "A" and rows[3].initial == "O"


def test_rounds_overview_offers_the_next_action():
    tournament = TournamentFactory(rules={"rounds": 2})
    register(tournament, 8, checked_in=True)
    panels = rounds_overview(tournament)
    assert [(p.number, p.can_draw) for p in panels] == [(1, True), (2, False)]
    (rnd,) = round_draw(tournament=tournament, seed=1)
    panels = rounds_overview(tournament)
    assert panels[0].can_redraw and panels[0].can_publish and not panels[0].can_close
    assert not panels[1].can_draw
    assert [len(t.seats) for t in panels[0].tables] == [4, 4]
    round_publish(round=rnd)
    panels = rounds_overview(tournament)
    assert panels[0].can_close and not panels[0].can_redraw and panels[0].can_swap
    assert panels[0].tables_complete == 0
    with translation.override("en"):
        for table in rnd.tables.all():
            table_paper_totals(table=table, totals={str(s): 0 for s in range(1, 5)})
    round_close(round=rnd)
    panels = rounds_overview(tournament)
    assert panels[1].can_draw and not panels[0].can_swap


def test_rounds_overview_warns_about_a_stale_draw():
    tournament = TournamentFactory()
    regs = register(tournament, 8, checked_in=True)
    round_draw(tournament=tournament, seed=1)
    registration_withdraw(registration=regs[0])
    (late,) = register(tournament, 1, checked_in=True)
    panel = rounds_overview(tournament)[0]
    assert panel.withdrawn_seated == [regs[0]]
    assert panel.unseated == [late]
