"""Merging one table's change gives the same snapshot as recomputing every game, whatever happens.

Hypothesis plays random sequences of saves, thrown-in games, corrections (also in a closed round, by
the organiser), deletions, paper totals and substitutes through the services, lets the after-commit
merge run as it does in the embedded default, and after every step compares the snapshot with a full
recompute from the games. A change at a table must be merged, never recomputed in full.
"""

import itertools
import json
import random

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import StandingsSnapshot
from scoring.rules.outcome import table_result_to_json
from tournaments.models import Hand, Registration
from tournaments.selectors.standings import (
    player_accounts,
    player_identities,
    round_rows,
    standing_rows,
    standings_compute,
    table_results_by_id,
    table_results_summed,
)
from tournaments.services import standings as standings_module
from tournaments.services.errors import ServiceError
from tournaments.services.hands import dealer_for, hand_correct, hand_delete, hand_record, table_paper_totals
from tournaments.services.registration import player_create, registration_substitute
from tournaments.services.rounds import round_draw
from tournaments.services.simulation import round_simulate, tournament_simulate_setup
from tournaments.services.standings import snapshot_documents
from tournaments.simulation import random_hand

pytestmark = pytest.mark.django_db

_slugs = itertools.count()

_RECOMPUTE = standings_module.standings_recompute  # the tests below count its calls

OPS = ("save", "save", "save", "weiter", "correct", "correct", "delete", "substitute", "paper")


def assert_snapshot_is_the_full_recompute(tournament) -> None:
    snapshot = StandingsSnapshot.objects.get(tournament=tournament)
    result, info = standings_compute(tournament)
    assert [snapshot.overall, snapshot.data] == json.loads(json.dumps(snapshot_documents(result, info)))
    # Each round's list, ranked from the snapshot's overall list when read, is the pure computation's.
    identity = player_identities(info)
    for r, standings in result.rounds.items():
        assert round_rows(snapshot.overall, r, tournament.ruleset.tiebreaks, tournament.lot_seed) == json.loads(
            json.dumps(standing_rows(standings, identity))
        )
    account, _info = player_accounts(tournament.pk)
    fresh = {str(pk): table_result_to_json(r) for pk, r in table_results_by_id(tournament.pk, account=account).items()}
    summed = {
        str(pk): table_result_to_json(r) for pk, r in table_results_summed(tournament.pk, account=account).items()
    }
    assert summed == fresh  # the database's sums are the games' outcomes folded one by one
    # What the next merge starts from: every player's sort key, every table's newest revision.
    with transaction.atomic():  # the recompute's parts, the merged snapshot left as it is
        recomputed = _RECOMPUTE(tournament_id=tournament.pk)
        transaction.set_rollback(True)
    assert snapshot.parts == json.loads(json.dumps(recomputed.parts))


def _record_like(rng: random.Random, hand: Hand) -> dict:
    """A new record for a stored game: same kind (played or thrown in), dealt by the same seat."""
    if hand.contract == Hand.Contract.WEITER:
        return {"contract": "weiter"}
    return random_hand(rng, table_size=hand.table.size, dealer=hand.dealer)


def _step(op: str, rng: random.Random, tournament, open_tables, closed_tables) -> bool:
    """One change through the services; False if the services refused it (then nothing changed)."""
    try:
        if op in ("save", "weiter"):
            table = rng.choice(open_tables)
            number = table.hands.count() + 1
            thrown = table.hands.filter(contract=Hand.Contract.WEITER).count()
            record = (
                {"contract": "weiter"}
                if op == "weiter"
                else random_hand(rng, table_size=table.size, dealer=dealer_for(number, thrown, table.size))
            )
            hand_record(table=table, record=record, client_id=rng.randbytes(16).hex(), device="test")
        elif op in ("correct", "delete"):
            tables = open_tables + closed_tables
            hands = list(Hand.objects.filter(table__in=tables).select_related("table"))
            if not hands:
                return False
            hand = rng.choice(hands)
            closed = hand.table_id in {t.pk for t in closed_tables}
            extra = {"organiser": True, "reason": "Nachtrag"} if closed else {}
            if op == "correct":
                hand_correct(hand=hand, record=_record_like(rng, hand), **extra)
            else:
                hand_delete(hand=hand, **extra)
        elif op == "paper":
            empty = [t for t in open_tables if not t.hands.exists()]
            if not empty:
                return False
            table = rng.choice(empty)
            points = [rng.randrange(-60, 61) for _ in range(table.size - 1)]
            totals = {str(seat): p for seat, p in enumerate([*points, -sum(points)], start=1)}
            table_paper_totals(table=table, totals=totals, reason="Zettel")
        else:  # substitute
            candidates = list(
                Registration.objects.filter(
                    tournament=tournament, substitute_for__isnull=True, substituted_by__isnull=True
                ).order_by("pk")
            )
            if not candidates:
                return False
            leaving = rng.choice(candidates)
            registration_substitute(
                withdrawn=leaving, player=player_create(first_name="Ersatz", last_name=f"{rng.random()}")
            )
    except ServiceError:
        return False
    return True


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(
    seed=st.integers(0, 2**31),
    players=st.sampled_from([8, 9, 13]),
    ops=st.lists(st.tuples(st.sampled_from(OPS), st.booleans()), min_size=1, max_size=14),
)
def test_merging_changed_tables_equals_recomputing_every_game(
    django_capture_on_commit_callbacks, monkeypatch, seed, players, ops
):
    rng = random.Random(seed)
    with django_capture_on_commit_callbacks(execute=True):
        tournament = tournament_simulate_setup(
            slug=f"inc-{next(_slugs)}", players=players, rounds=2, games=8, seed=seed
        )
        (first,) = round_draw(tournament=tournament, seed=seed)
        round_simulate(rnd=first, seed=seed)  # played and closed: corrections there need the organiser
        (second,) = round_draw(tournament=tournament, seed=seed + 1)
        round_simulate(rnd=second, seed=seed, play=False)
    closed_tables, open_tables = list(first.tables.all()), list(second.tables.all())
    full = []
    real = standings_module.standings_recompute
    monkeypatch.setattr(standings_module, "standings_recompute", lambda **kw: full.append(kw) or real(**kw))
    riding = False  # changes whose own update did not run: a later merge finds them in the revision log
    for op, rides_along in ops:
        before = len(full)
        rides_along = rides_along and op != "substitute"  # a substitute's own task recomputes everything
        with django_capture_on_commit_callbacks(execute=not rides_along):
            changed = _step(op, rng, tournament, open_tables, closed_tables)
        riding = riding or (changed and rides_along)
        if changed and not rides_along:
            assert_snapshot_is_the_full_recompute(tournament)
            if op != "substitute" and before and not riding:  # after the merge that set up round 2's tables
                assert len(full) == before, f"{op} recomputed the whole tournament"
            riding = False
    standings_module.standings_update(tournament_id=tournament.pk)  # a worker's task that finds them all
    assert_snapshot_is_the_full_recompute(tournament)


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(seed=st.integers(0, 2**31), players=st.sampled_from([9, 13]), ops=st.lists(st.sampled_from(OPS), max_size=8))
def test_summed_results_are_the_games_folded_one_by_one_for_every_selection(seed, players, ops):
    """What the full recompute, the archive (closed rounds only) and the merge (some tables) read: the
    database's sums per table (one statement over tables, seats and games) are the stored outcomes
    folded one by one, after any saves, corrections, deletions, paper totals and substitutes."""
    rng = random.Random(seed)
    tournament = tournament_simulate_setup(slug=f"sum-{next(_slugs)}", players=players, rounds=2, games=8, seed=seed)
    (first,) = round_draw(tournament=tournament, seed=seed)
    round_simulate(rnd=first, seed=seed)
    (second,) = round_draw(tournament=tournament, seed=seed + 1)
    round_simulate(rnd=second, seed=seed, play=False)
    closed_tables, open_tables = list(first.tables.all()), list(second.tables.all())
    for op in ["paper", *ops, "substitute"]:  # paper totals at one table at least, a substitute's points
        _step(op, rng, tournament, open_tables, closed_tables)
    account, _info = player_accounts(tournament.pk)
    some = sorted(rng.sample([t.pk for t in closed_tables + open_tables], 2))
    for selection in ({}, {"closed_only": True}, {"table_ids": some}, {"table_ids": some[:1]}):
        fresh = {
            pk: table_result_to_json(r)
            for pk, r in table_results_by_id(tournament.pk, account=account, **selection).items()
        }
        summed = table_results_summed(tournament.pk, account=account, **selection)
        assert {pk: table_result_to_json(r) for pk, r in summed.items()} == fresh, selection
        assert list(summed) == sorted(
            summed, key=lambda pk: (summed[pk].round, summed[pk].table)
        )  # round and table order
    assert len(table_results_summed(tournament.pk, account=account, closed_only=True)) == len(closed_tables)
