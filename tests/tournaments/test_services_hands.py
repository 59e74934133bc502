"""The hand services: idempotent submissions, 409s, revisions, confirmations, paper totals, dealers."""

import uuid

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from scoring.rules import ruleset_from_dict, score_hand
from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, TournamentFactory
from tournaments.http import error_status
from tournaments.models import Hand, HandRevision, Round, Seat, Table, TableConfirmation
from tournaments.services.errors import ServiceError
from tournaments.services.hands import (
    dealer_for,
    hand_correct,
    hand_delete,
    hand_record,
    next_game_number,
    table_confirm,
    table_paper_totals,
    table_sheet_record,
)

pytestmark = pytest.mark.django_db

RUF = {"contract": "rufspiel", "declarer": 1, "partner": 3, "called": "eichel", "augen": 72}


def make_table(
    *,
    size: int = 4,
    rules: dict | None = None,
    status: str = Round.Status.PUBLISHED,
    names: list[tuple[str, str]] | None = None,
) -> Table:
    """A published round with one table of ``size`` seated players (start numbers 11, 12, ...)."""
    club = ClubFactory()
    tournament = TournamentFactory(club=club, rules={**(rules or {})})
    rnd = Round.objects.create(tournament=tournament, number=1, seed=1, status=status)
    table = Table.objects.create(round=rnd, number=1, size=size)
    for seat in range(1, size + 1):
        first, last = names[seat - 1] if names else (f"Vorname{seat}", f"Name{seat}")
        player = PlayerFactory(club=club, first_name=first, last_name=last)
        reg = RegistrationFactory(tournament=tournament, player=player, start_number=10 + seat)
        Seat.objects.create(table=table, round=rnd, number=seat, registration=reg)
    return table


def organiser():
    return get_user_model().objects.create_user("orga", password="x")


def rufspiel(number: int, size: int = 4) -> dict:
    """A valid Rufspiel for game ``number`` (nobody who sits out at a table of five plays)."""
    dealer = dealer_for(number, 0, size)
    active = [s for s in range(1, size + 1) if not (size == 5 and s == dealer)]
    return {"contract": "rufspiel", "declarer": active[0], "partner": active[2], "called": "gras", "augen": 40 + number}


def fill(table: Table, games: int) -> None:
    table_sheet_record(table=table, records=[rufspiel(n, table.size) for n in range(1, games + 1)])


def close(table: Table) -> None:
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.CLOSED)
    table.refresh_from_db()


# --- submissions ------------------------------------------------------------------------------------


def test_a_game_is_stored_with_its_points_and_dealer():
    table = make_table()
    hand, created = hand_record(table=table, record=RUF, client_id=uuid.uuid4(), number=1, device="tablet A")
    assert created
    assert (hand.number, hand.dealer, hand.declarer, hand.partner, hand.augen) == (1, 1, 1, 3, 72)
    assert hand.points == {"1": 1, "2": -1, "3": 1, "4": -1}


def test_a_retry_with_the_same_client_id_returns_the_stored_game():
    table = make_table()
    client_id = uuid.uuid4()
    first, created = hand_record(table=table, record=RUF, client_id=client_id, number=1)
    again, created_again = hand_record(table=table, record=RUF, client_id=client_id, number=1)
    assert created and not created_again
    assert again.pk == first.pk
    assert table.hands.count() == 1
    assert HandRevision.objects.filter(table=table).count() == 1


def test_a_retry_is_recognised_even_after_the_next_game_was_entered():
    table = make_table()
    client_id = uuid.uuid4()
    hand_record(table=table, record=RUF, client_id=client_id, number=1)
    hand_record(table=table, record=RUF, client_id=uuid.uuid4(), number=2)
    hand, created = hand_record(table=table, record=RUF, client_id=client_id, number=1)
    assert not created and hand.number == 1
    assert table.hands.count() == 2


def test_a_client_id_of_another_table_is_a_conflict():
    table, other = make_table(), make_table()
    client_id = uuid.uuid4()
    hand_record(table=table, record=RUF, client_id=client_id, number=1)
    with pytest.raises(ServiceError) as err:
        hand_record(table=other, record=RUF, client_id=client_id, number=1)
    assert error_status(err.value) == 409 and err.value.field == "client_id"


def test_a_second_device_submitting_a_taken_number_gets_409():
    table = make_table()
    hand_record(table=table, record=RUF, client_id=uuid.uuid4(), number=1, device="tablet A")
    with pytest.raises(ServiceError) as err:
        hand_record(table=table, record={**RUF, "augen": 30}, client_id=uuid.uuid4(), number=1, device="tablet B")
    assert (error_status(err.value), err.value.code, err.value.field) == (409, "number_taken", "number")
    assert table.hands.get().augen == 72


def test_a_game_number_beyond_the_next_one_is_refused():
    table = make_table()
    hand_record(table=table, record=RUF, client_id=uuid.uuid4(), number=1)
    with pytest.raises(ServiceError) as err:
        hand_record(table=table, record=RUF, client_id=uuid.uuid4(), number=5)
    assert err.value.field == "number" and error_status(err.value) == 400
    assert table.hands.count() == 1


def test_without_a_number_the_next_free_one_is_taken_and_a_deleted_game_leaves_a_gap_to_fill():
    table = make_table()
    fill(table, 3)
    hand_delete(hand=table.hands.get(number=2))
    assert next_game_number(table) == 2
    hand, _ = hand_record(table=table, record=RUF, client_id=uuid.uuid4())
    assert hand.number == 2 and hand.dealer == 2


def test_an_invalid_game_names_its_field_and_stores_nothing():
    table = make_table()
    with pytest.raises(ServiceError) as err:
        hand_record(table=table, record={**RUF, "partner": 1}, client_id=uuid.uuid4(), number=1)
    assert err.value.field == "partner" and error_status(err.value) == 400
    with pytest.raises(ServiceError) as err:
        hand_record(table=table, record={**RUF, "augen": 121}, client_id=uuid.uuid4(), number=1)
    assert err.value.field == "augen"
    assert not table.hands.exists() and not HandRevision.objects.exists()


def test_the_dealer_comes_from_the_game_number_never_from_the_tablet():
    table = make_table()
    hand, _ = hand_record(table=table, record={**RUF, "dealer": 4}, client_id=uuid.uuid4(), number=1)
    assert hand.dealer == 1


def test_an_unpublished_round_takes_no_games():
    table = make_table(status=Round.Status.DRAWN)
    with pytest.raises(ServiceError) as err:
        hand_record(table=table, record=RUF, client_id=uuid.uuid4(), number=1)
    assert error_status(err.value) == 409 and err.value.code == "round_not_published"


def test_no_game_after_the_last_one_of_the_round_not_even_a_thrown_in_one():
    table = make_table(rules={"games_per_round": 8, "all_pass": "redeal"})
    fill(table, 8)
    for record in (RUF, {"contract": "weiter"}):
        with pytest.raises(ServiceError) as err:
            hand_record(table=table, record=record, client_id=uuid.uuid4(), number=9)
        assert error_status(err.value) == 409 and err.value.code == "round_complete"


# --- closed round -------------------------------------------------------------------------------------


def test_a_closed_round_refuses_the_table_with_409():
    table = make_table()
    fill(table, 2)
    close(table)
    hand = table.hands.get(number=1)
    for call in (
        lambda: hand_record(table=table, record=RUF, client_id=uuid.uuid4(), number=3),
        lambda: hand_correct(hand=hand, record={**RUF, "augen": 30}),
        lambda: hand_delete(hand=hand),
        lambda: table_confirm(table=table, seat=1),
    ):
        with pytest.raises(ServiceError) as err:
            call()
        assert (error_status(err.value), err.value.code) == (409, "round_closed")
    assert table.hands.count() == 2 and not HandRevision.objects.filter(action="update").exists()


def test_an_organiser_corrects_a_closed_round_only_with_a_reason():
    table = make_table(rules={"games_per_round": 8})
    fill(table, 8)
    for seat in range(1, 5):
        table_confirm(table=table, seat=seat)
    close(table)
    user = organiser()
    hand = table.hands.get(number=1)
    with pytest.raises(ServiceError) as err:
        hand_correct(hand=hand, record={**RUF, "augen": 20}, by=user, organiser=True, reason="  ")
    assert err.value.field == "reason" and error_status(err.value) == 400
    hand_correct(hand=hand, record={**RUF, "augen": 20}, by=user, organiser=True, reason="Augen falsch notiert")
    revision = HandRevision.objects.get(action=HandRevision.Action.UPDATE)
    assert (revision.by, revision.reason) == (user, "Augen falsch notiert")
    hand.refresh_from_db()
    assert hand.points == {"1": -2, "2": 2, "3": -2, "4": 2}
    # The players are gone: their confirmations stay and the table stays complete.
    table.refresh_from_db()
    assert table.confirmations.count() == 4 and table.completed_at is not None


def test_a_whole_sheet_goes_into_a_closed_round_only_with_a_reason():
    table = make_table(rules={"games_per_round": 8})
    fill(table, 4)
    close(table)
    with pytest.raises(ServiceError) as err:
        table_sheet_record(table=table, records=[rufspiel(5)], by=organiser())
    assert err.value.field == "reason"
    table_sheet_record(table=table, records=[rufspiel(5)], reason="Nachtrag vom Papier")
    assert HandRevision.objects.get(number=5).reason == "Nachtrag vom Papier"


# --- revisions ------------------------------------------------------------------------------------------


def test_every_change_keeps_a_revision_with_old_and_new_values_device_and_user():
    table = make_table()
    user = organiser()
    hand, _ = hand_record(table=table, record=RUF, client_id=uuid.uuid4(), number=1, device="Tablet Tisch 1")
    hand_correct(hand=hand, record={**RUF, "augen": 95, "laufende": 3}, device="Tablet Tisch 1")
    hand_delete(hand=hand, by=user, device="Laptop")
    created, updated, deleted = HandRevision.objects.filter(table=table).order_by("id")
    assert created.action == "create" and created.old is None
    assert created.new == {"number": 1, "dealer": 1, **RUF, "points": {"1": 1, "2": -1, "3": 1, "4": -1}}
    assert updated.action == "update" and updated.device == "Tablet Tisch 1"
    assert updated.old == created.new
    assert updated.new == {
        "number": 1,
        "dealer": 1,
        **RUF,
        "augen": 95,
        "laufende": 3,
        "points": {"1": 5, "2": -5, "3": 5, "4": -5},
    }
    assert deleted.action == "delete" and deleted.hand is None and deleted.number == 1
    assert deleted.old == updated.new and deleted.new is None
    assert (deleted.by, deleted.device) == (user, "Laptop")
    assert updated.at <= deleted.at


def test_a_correction_cannot_turn_a_played_game_into_a_thrown_in_one():
    table = make_table(rules={"all_pass": "redeal"})
    hand, _ = hand_record(table=table, record=RUF, client_id=uuid.uuid4(), number=1)
    with pytest.raises(ServiceError) as err:
        hand_correct(hand=hand, record={"contract": "weiter"})
    assert err.value.field == "contract"


# --- confirmation ------------------------------------------------------------------------------------


def test_confirmation_only_when_every_game_is_entered():
    table = make_table(rules={"games_per_round": 8})
    fill(table, 7)
    with pytest.raises(ServiceError) as err:
        table_confirm(table=table, seat=1)
    assert (error_status(err.value), err.value.code) == (409, "games_missing")
    assert not TableConfirmation.objects.exists()


def test_the_table_is_complete_when_every_player_confirmed_and_a_correction_clears_it():
    table = make_table(rules={"games_per_round": 8})
    fill(table, 8)
    for seat in (1, 2, 3):
        table_confirm(table=table, seat=seat)
        table.refresh_from_db()
        assert table.completed_at is None
    table_confirm(table=table, seat=3)  # tapping twice changes nothing
    table_confirm(table=table, seat=4)
    table.refresh_from_db()
    assert table.completed_at is not None and table.confirmations.count() == 4

    hand_correct(hand=table.hands.get(number=5), record={**rufspiel(5), "augen": 100})
    table.refresh_from_db()
    assert table.completed_at is None and not table.confirmations.exists()


def test_a_deleted_game_also_clears_the_confirmations():
    table = make_table(rules={"games_per_round": 8})
    fill(table, 8)
    table_confirm(table=table, seat=2)
    hand_delete(hand=table.hands.get(number=8))
    assert not table.confirmations.exists()


def test_a_table_of_five_needs_five_confirmations_after_forty_games():
    table = make_table(size=5)
    fill(table, 39)
    with pytest.raises(ServiceError):
        table_confirm(table=table, seat=1)
    table_sheet_record(table=table, records=[rufspiel(40, 5)])
    for seat in range(1, 6):
        table_confirm(table=table, seat=seat)
    table.refresh_from_db()
    assert table.completed_at is not None
    with pytest.raises(ServiceError) as err:
        table_confirm(table=table, seat=6)
    assert err.value.field == "seat"


# --- paper totals -------------------------------------------------------------------------------------


def test_paper_totals_must_sum_to_zero():
    table = make_table()
    with pytest.raises(ServiceError) as err:
        table_paper_totals(table=table, totals={"1": 12, "2": -4, "3": -3, "4": -4})
    assert err.value.field == "totals" and "+1" in err.value.message
    table.refresh_from_db()
    assert table.paper_totals is None
    table_paper_totals(table=table, totals={"1": 12, "2": -4, "3": -4, "4": -4})
    table.refresh_from_db()
    assert table.paper_totals == {"1": 12, "2": -4, "3": -4, "4": -4} and table.completed_at is not None


def test_paper_totals_need_every_seat_as_a_whole_number_and_no_games():
    table = make_table()
    with pytest.raises(ServiceError) as err:
        table_paper_totals(table=table, totals={"1": 0, "2": 0, "3": 0})
    assert err.value.field == "totals"
    with pytest.raises(ServiceError) as err:
        table_paper_totals(table=table, totals={"1": 0, "2": 0, "3": 0, "4": "0"})
    assert err.value.field == "totals.4"
    hand_record(table=table, record=RUF, client_id=uuid.uuid4(), number=1)
    with pytest.raises(ServiceError) as err:
        table_paper_totals(table=table, totals={"1": 0, "2": 0, "3": 0, "4": 0})
    assert error_status(err.value) == 409


def test_a_table_with_paper_totals_takes_no_games():
    table = make_table()
    table_paper_totals(table=table, totals={"1": 1, "2": -1, "3": 1, "4": -1})
    with pytest.raises(ServiceError) as err:
        hand_record(table=table, record=RUF, client_id=uuid.uuid4(), number=1)
    assert error_status(err.value) == 409


def test_paper_totals_keep_a_revision_with_old_and_new_totals_and_the_reason():
    table = make_table()
    user = organiser()
    table_paper_totals(table=table, totals={"1": 12, "2": -4, "3": -4, "4": -4}, by=user, device="Laptop")
    close(table)
    with pytest.raises(ServiceError) as err:
        table_paper_totals(table=table, totals={"1": 10, "2": -2, "3": -4, "4": -4}, by=user)
    assert err.value.field == "reason"
    table_paper_totals(table=table, totals={"1": 10, "2": -2, "3": -4, "4": -4}, by=user, reason="Zettel vertippt")

    entered, overwritten = HandRevision.objects.filter(table=table).order_by("id")
    assert (entered.action, entered.number, entered.hand, entered.old) == ("totals", 0, None, None)
    assert entered.new == {"1": 12, "2": -4, "3": -4, "4": -4}
    assert (entered.by, entered.device, entered.reason) == (user, "Laptop", "")
    assert overwritten.action == HandRevision.Action.TOTALS and overwritten.old == entered.new
    assert overwritten.new == {"1": 10, "2": -2, "3": -4, "4": -4}
    assert (overwritten.by, overwritten.reason) == (user, "Zettel vertippt")
    with translation.override("en"):
        assert str(overwritten) == f"{table}: round totals entered"


def test_refused_paper_totals_keep_no_revision():
    table = make_table()
    with pytest.raises(ServiceError):
        table_paper_totals(table=table, totals={"1": 12, "2": -4, "3": -3, "4": -4})
    assert not HandRevision.objects.exists()


def test_overwriting_paper_totals_changes_the_standings_marker():
    from tournaments.selectors.standings import games_marker

    table = make_table()
    tournament = table.round.tournament
    table_paper_totals(table=table, totals={"1": 12, "2": -4, "3": -4, "4": -4})
    entered = games_marker(tournament)
    table_paper_totals(table=table, totals={"1": 4, "2": -4, "3": 4, "4": -4})
    assert games_marker(tournament) != entered  # a snapshot of the first totals is not current any more


# --- dealers: all pass = redeal, tables of five --------------------------------------------------------


def test_dealer_for_passes_clockwise_and_repeats_after_a_thrown_in_game():
    assert [dealer_for(n, 0, 4) for n in range(1, 10)] == [1, 2, 3, 4, 1, 2, 3, 4, 1]
    assert [dealer_for(n, 0, 5) for n in range(1, 7)] == [1, 2, 3, 4, 5, 1]
    assert dealer_for(3, 1, 4) == 2


def test_weiter_under_redeal_the_same_dealer_deals_again_and_the_game_does_not_count():
    table = make_table(rules={"all_pass": "redeal", "games_per_round": 8})
    hand_record(table=table, record=rufspiel(1), client_id=uuid.uuid4(), number=1)
    weiter, _ = hand_record(table=table, record={"contract": "weiter"}, client_id=uuid.uuid4(), number=2)
    assert weiter.dealer == 2 and weiter.points == {}
    again, _ = hand_record(table=table, record={**RUF, "declarer": 3, "partner": 4}, client_id=uuid.uuid4(), number=3)
    assert again.dealer == 2  # the same dealer deals again
    after, _ = hand_record(table=table, record=RUF, client_id=uuid.uuid4(), number=4)
    assert after.dealer == 3
    # A thrown-in game does not count: 8 played games still need entering after it.
    table_sheet_record(table=table, records=[rufspiel(n) for n in range(5, 9)])
    with pytest.raises(ServiceError):  # 9 numbers, 7 games played
        table_confirm(table=table, seat=1)
    last, _ = hand_record(table=table, record=RUF, client_id=uuid.uuid4(), number=9)
    assert last.dealer == 4  # ((9 - 1 - 1) mod 4) + 1
    table_confirm(table=table, seat=1)


def test_at_a_table_of_five_only_who_took_part_in_the_deal_pays_weitergeld():
    from tournaments.selectors.standings import standings_compute

    table = make_table(size=5, rules={"all_pass": "redeal", "weitergeld_cents": 20})
    weiter, _ = hand_record(table=table, record={"contract": "weiter"}, client_id=uuid.uuid4(), number=1)
    assert weiter.dealer == 1 and weiter.outcome["weitergeld"] == {"2": 20, "3": 20, "4": 20, "5": 20}
    result, _info = standings_compute(table.round.tournament)
    payers = {entry.player: entry.cents for entry in result.ledger if entry.kind == "weitergeld"}
    seated = {seat.number: seat.registration_id for seat in table.seats.all()}
    assert payers == {seated[seat]: 20 for seat in (2, 3, 4, 5)}  # the dealer sat the deal out
    assert result.pot_cents == 4 * 20 - sum(-e.cents for e in result.ledger if e.kind == "payout")


def test_weiter_is_refused_under_muss():
    table = make_table()
    with pytest.raises(ServiceError) as err:
        hand_record(table=table, record={"contract": "weiter"}, client_id=uuid.uuid4(), number=1)
    assert err.value.field == "contract"


def test_a_thrown_in_game_is_only_entered_or_deleted_as_the_latest_game():
    """Later games were dealt on from it: moving it would shift every later dealer."""
    table = make_table(rules={"all_pass": "redeal"})
    fill(table, 3)
    hand_delete(hand=table.hands.get(number=2))
    with pytest.raises(ServiceError) as err:
        hand_record(table=table, record={"contract": "weiter"}, client_id=uuid.uuid4(), number=2)
    assert err.value.code == "weiter_not_last"
    weiter, _ = hand_record(table=table, record={"contract": "weiter"}, client_id=uuid.uuid4(), number=4)
    hand_record(table=table, record=RUF, client_id=uuid.uuid4(), number=5)
    with pytest.raises(ServiceError) as err:
        hand_delete(hand=weiter)
    assert err.value.code == "weiter_not_last"
    hand_delete(hand=table.hands.get(number=5))
    hand_delete(hand=weiter)
    assert list(table.hands.values_list("number", flat=True)) == [1, 3]


def test_at_a_table_of_five_the_dealer_sits_out_and_scores_zero():
    table = make_table(size=5)
    rules = ruleset_from_dict(table.round.tournament.rules)
    for number in range(1, 7):
        dealer = dealer_for(number, 0, 5)
        active = [s for s in range(1, 6) if s != dealer]
        record = {"contract": "wenz", "declarer": active[1], "augen": 80}
        hand, _ = hand_record(table=table, record=record, client_id=uuid.uuid4(), number=number)
        assert hand.dealer == dealer == (number - 1) % 5 + 1
        assert hand.points[str(dealer)] == 0
        assert sum(hand.points.values()) == 0
        expected = score_hand({**record, "dealer": dealer}, rules, 5).points
        assert hand.points == {str(s): p for s, p in expected.items()}


def test_at_a_table_of_five_the_sitting_out_dealer_cannot_play():
    table = make_table(size=5)
    with pytest.raises(ServiceError) as err:
        hand_record(table=table, record={**RUF, "declarer": 1}, client_id=uuid.uuid4(), number=1)
    assert err.value.field == "declarer"
    with pytest.raises(ServiceError) as err:
        hand_record(table=table, record={**RUF, "declarer": 2, "partner": 1}, client_id=uuid.uuid4(), number=1)
    assert err.value.field == "partner"
    assert not Hand.objects.exists()


# --- two devices at once (PostgreSQL: the table row lock serialises them) -------------------------------


def _race(table, submissions):
    """Run hand_record for each (record, client_id) in its own thread and connection, all at once."""
    import threading

    from django.db import connection

    barrier = threading.Barrier(len(submissions))
    results = [None] * len(submissions)

    def submit(index, record, client_id):
        try:
            barrier.wait()
            results[index] = hand_record(table=table, record=record, client_id=client_id, number=1)
        except ServiceError as err:
            results[index] = err
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(i, *s)) for i, s in enumerate(submissions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def _postgres_only():
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL (SQLite has no SELECT ... FOR UPDATE); CI runs this on PostgreSQL")


@pytest.mark.django_db(transaction=True)
def test_two_devices_submitting_game_one_at_once_one_wins_the_other_gets_409():
    _postgres_only()
    table = make_table()
    results = _race(table, [(RUF, uuid.uuid4()), ({**RUF, "augen": 20}, uuid.uuid4())])
    created = [r for r in results if isinstance(r, tuple)]
    refused = [r for r in results if isinstance(r, ServiceError)]
    assert len(created) == 1 and len(refused) == 1
    assert (error_status(refused[0]), refused[0].code) == (409, "number_taken")
    assert table.hands.count() == 1 and HandRevision.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_retry_racing_its_original_is_stored_once():
    _postgres_only()
    table = make_table()
    client_id = uuid.uuid4()
    results = _race(table, [(RUF, client_id), (RUF, client_id)])
    assert sorted(created for _hand, created in results) == [False, True]
    assert table.hands.count() == 1
