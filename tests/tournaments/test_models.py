"""Every natural key is a database constraint: the database itself refuses duplicates."""

import uuid

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tournaments.models import Hand, Registration, Round, Seat, Table
from tournaments.services.registration import registration_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    tournament = TournamentFactory()
    rnd = Round.objects.create(tournament=tournament, number=1, seed=42)
    return Table.objects.create(round=rnd, number=1, size=4)


def test_duplicate_start_number_is_refused_by_the_database():
    reg = RegistrationFactory(start_number=7)
    with pytest.raises(IntegrityError), transaction.atomic():
        Registration.objects.create(tournament=reg.tournament, player=PlayerFactory(), start_number=7)


def test_second_seat_3_at_a_table_is_refused_by_the_database(table):
    a, b = (
        RegistrationFactory(tournament=table.round.tournament),
        RegistrationFactory(tournament=table.round.tournament),
    )
    Seat.objects.create(table=table, round=table.round, number=3, registration=a)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=table, round=table.round, number=3, registration=b)


def test_a_player_sits_once_per_round(table):
    reg = RegistrationFactory(tournament=table.round.tournament)
    other = Table.objects.create(round=table.round, number=2, size=4)
    Seat.objects.create(table=table, round=table.round, number=1, registration=reg)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(table=other, round=table.round, number=1, registration=reg)


def _hand(table, number):
    return Hand(
        table=table,
        number=number,
        dealer=1,
        contract="rufspiel",
        declarer=2,
        partner=4,
        called="eichel",
        augen=72,
        points={"1": -1, "2": 1, "3": -1, "4": 1},
        client_id=uuid.uuid4(),
    )


def test_second_hand_number_17_at_a_table_is_refused_by_the_database(table):
    _hand(table, 17).save()
    with pytest.raises(IntegrityError), transaction.atomic():
        _hand(table, 17).save()


def test_a_submission_id_is_stored_once(table):
    first = _hand(table, 1)
    first.save()
    second = _hand(table, 2)
    second.client_id = first.client_id
    with pytest.raises(IntegrityError), transaction.atomic():
        second.save()


def test_round_and_table_numbers_are_unique(table):
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.create(round=table.round, number=1, size=5)
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(tournament=table.round.tournament, number=1, seed=1)


def test_table_size_is_4_or_5(table):
    with pytest.raises(IntegrityError), transaction.atomic():
        Table.objects.create(round=table.round, number=3, size=6)


def test_start_numbers_are_given_in_order_and_never_reused():
    tournament = TournamentFactory()
    first = registration_create(tournament=tournament, player=PlayerFactory())
    second = registration_create(tournament=tournament, player=PlayerFactory())
    assert (first.start_number, second.start_number) == (1, 2)
    second.delete()
    third = registration_create(tournament=tournament, player=PlayerFactory())
    assert third.start_number == 3


def test_tournament_ruleset_is_completed_with_defaults_and_validated():
    tournament = TournamentFactory.build(rules={"solo_base": 2})
    tournament.full_clean(exclude=["club"])
    assert tournament.rules["solo_base"] == 2
    assert tournament.rules["rufspiel_base"] == 1
    assert tournament.ruleset.solo_base == 2

    bad = TournamentFactory.build(rules={"solo_bsae": 2})
    with pytest.raises(ValidationError) as exc:
        bad.full_clean(exclude=["club"])
    assert "solo_bsae" in str(exc.value.message_dict["rules"])

    wrong_type = TournamentFactory.build(rules={"laufende_min": {"wenz": "zwei"}})
    with pytest.raises(ValidationError) as exc:
        wrong_type.full_clean(exclude=["club"])
    assert "laufende_min.wenz" in str(exc.value.message_dict["rules"])
