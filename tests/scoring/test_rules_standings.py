"""Standings, tie-breaks, Tischbester and ledger over hand-made fields (pure, no database)."""

from scoring.rules import ruleset_from_dict, score_hand
from scoring.rules.standings import PAYOUT, REUEGELD, WEITERGELD, compute_standings, split_payout
from scoring.rules.standings import table_result as TableResult

RULES = ruleset_from_dict({})


def games(*records, rules=RULES, size=4):
    return [(n, score_hand(r, rules, size)) for n, r in enumerate(records, start=1)]


def rufspiel(declarer, partner, augen):
    return {"contract": "rufspiel", "declarer": declarer, "partner": partner, "called": "eichel", "augen": augen}


def solo(declarer, augen):
    return {"contract": "solo", "declarer": declarer, "trump": "herz", "augen": augen}


SEATS = {1: 101, 2: 102, 3: 103, 4: 104}


def test_totals_are_the_sum_of_the_games():
    table = TableResult(1, 1, SEATS, games(rufspiel(1, 3, 72), solo(2, 80), rufspiel(4, 2, 30)))
    result = compute_standings([table], RULES, lot_seed=1)
    points = {s.player: s.points for s in result.overall}
    assert points == {101: 1 - 5 + 2, 102: -1 + 15 - 2, 103: 1 - 5 + 2, 104: -1 - 5 - 2}
    assert sum(points.values()) == 0
    assert [s.rank for s in result.overall] == [1, 2, 3, 4]


def _tie_field():
    """101 and 102 both end on 15 points at different tables; 101 won a solo, 102 fifteen Rufspiele."""
    t1 = TableResult(1, 1, {1: 101, 2: 111, 3: 112, 4: 113}, games(solo(1, 80)))
    t2 = TableResult(1, 2, {1: 102, 2: 121, 3: 122, 4: 123}, games(*[rufspiel(1, 2, 80)] * 15))
    return [t1, t2]


def test_ties_on_points_decided_by_won_solos():
    result = compute_standings(_tie_field(), RULES, lot_seed=3)
    top = result.overall[:3]
    assert [(s.player, s.points, s.won_solos) for s in top] == [(101, 15, 1), (102, 15, 0), (121, 15, 0)]
    assert [s.rank for s in top] == [1, 2, 3]
    assert top[0].note.tiebreak == "won_solos" and top[0].note.below == 102
    assert top[1].note.tiebreak == "lot"  # 102 and 121: equal solos, the lot decides
    assert result.notes[101] == top[0].note


def test_the_lot_is_reproducible_from_its_seed():
    rules = ruleset_from_dict({"tiebreaks": ["lot"]})
    field = [TableResult(1, t, {1: 10 * t + 1, 2: 10 * t + 2, 3: 10 * t + 3, 4: 10 * t + 4}) for t in range(1, 6)]
    orders = {seed: [s.player for s in compute_standings(field, rules, lot_seed=seed).overall] for seed in range(20)}
    assert orders[5] == [s.player for s in compute_standings(field, rules, lot_seed=5).overall]
    assert len({tuple(o) for o in orders.values()}) > 1  # different seeds draw different lots
    assert all(len(set(o)) == 20 for o in orders.values())
    ranks = [s.rank for s in compute_standings(field, rules, lot_seed=5).overall]
    assert ranks == list(range(1, 21))  # a lot never shares places


def test_shared_places_when_configured():
    rules = ruleset_from_dict({"tiebreaks": ["shared"]})
    t = TableResult(1, 1, SEATS, games(rufspiel(1, 2, 80), rules=rules))  # 101, 102 +1; 103, 104 -1
    result = compute_standings([t], rules, lot_seed=1)
    assert [s.rank for s in result.overall] == [1, 1, 3, 3]
    assert result.overall[0].note.tiebreak == "shared"


def test_fewer_lost_solos_and_better_last_round():
    rules = ruleset_from_dict({"tiebreaks": ["lost_solos", "last_round", "lot"]})
    # round 1: 101 loses a solo (-15), 102 +5 ... round 2 evens the totals out
    r1 = TableResult(1, 1, SEATS, games(solo(1, 40), rules=rules))  # 101 -15, others +5
    r2 = TableResult(2, 1, {1: 102, 2: 101, 3: 103, 4: 104}, games(solo(2, 80), rules=rules))  # 101 +15, others -5
    result = compute_standings([r1, r2], rules, lot_seed=1)
    # 101: 0 with one lost solo; 102, 103, 104: 0 with none -> 101 last among equals
    assert result.overall[-1].player == 101
    assert result.overall[-2].note.tiebreak == "lost_solos"


def test_tischbester_split_when_two_share_the_best_total():
    rules = ruleset_from_dict({"reuegeld_cents": {"solo": 75}})
    # 101 and 103 win a Rufspiel each with each other (+2 both), 102 loses a solo twice: collected 150 cents
    t = TableResult(1, 1, SEATS, games(rufspiel(1, 3, 80), rufspiel(3, 1, 80), solo(2, 40), solo(2, 40), rules=rules))
    result = compute_standings([t], rules, lot_seed=1)
    (best,) = result.tischbeste
    assert best.players == (101, 103)
    assert best.collected_cents == 150
    assert best.payout_cents == 37  # 50 % of 150 = 75, split by two, rounded down to the cent
    payouts = [e for e in result.ledger if e.kind == PAYOUT]
    assert sorted((e.player, e.cents) for e in payouts) == [(101, -37), (103, -37)]
    assert result.pot_cents == 150 - 74
    assert split_payout(150, 50, 2) == (37, 76)


def test_the_ledger_sums_match_the_hands():
    rules = ruleset_from_dict({"all_pass": "redeal"})
    records = [
        solo(1, 40),
        {"contract": "wenz", "declarer": 2, "augen": 30},
        {"contract": "solo", "declarer": 3, "trump": "gras", "tout": True, "won": False},
        {"contract": "weiter"},
        rufspiel(4, 1, 20),
    ]
    scored = games(*records, rules=rules)
    t = TableResult(1, 1, SEATS, scored)
    result = compute_standings([t], rules, lot_seed=1)
    reuegeld = sum(e.cents for e in result.ledger if e.kind == REUEGELD)
    weitergeld = sum(e.cents for e in result.ledger if e.kind == WEITERGELD)
    assert reuegeld == sum(sum(s.reuegeld.values()) for _, s in scored) == 50 + 50 + 100
    assert weitergeld == sum(sum(s.weitergeld.values()) for _, s in scored) == 4 * 10
    assert {(e.player, e.hand, e.cents) for e in result.ledger if e.kind == REUEGELD} == {
        (101, 1, 50),
        (102, 2, 50),
        (103, 3, 100),
    }
    assert result.collected_cents == 240
    assert result.pot_cents == result.collected_cents - result.paid_out_cents


def test_free_allowance_of_lost_solos_per_player_and_round():
    rules = ruleset_from_dict({"reuegeld_free_solos": 1})
    t = TableResult(1, 1, SEATS, games(solo(1, 40), solo(1, 40), solo(2, 40), rules=rules))
    result = compute_standings([t], rules, lot_seed=1)
    assert [(e.player, e.hand) for e in result.ledger if e.kind == REUEGELD] == [(101, 2)]


def test_paper_totals_count_like_games_and_rounds_are_ranked_separately():
    t1 = TableResult(1, 1, SEATS, paper_totals={1: 12, 2: -4, 3: -4, 4: -4})
    t2 = TableResult(2, 1, {1: 104, 2: 103, 3: 102, 4: 101}, games(solo(1, 80)))  # 104 +15
    result = compute_standings([t1, t2], RULES, lot_seed=1)
    assert {s.player: s.points for s in result.overall} == {101: 7, 102: -9, 103: -9, 104: 11}
    assert result.rounds[1][0].player == 101 and result.rounds[2][0].player == 104
    assert result.overall[0].round_points == (-4, 15)


def test_ranking_again_only_between_the_moved_rows_gives_the_full_ranking():
    """What the snapshot's merge does: a few players change, leave their places and take new ones;
    ``rank_window`` ranks from above the first moved row on and stops where nothing changed."""
    import bisect
    import random

    from scoring.rules.standings import rank_window, standing_key

    for seed in range(300):
        rng = random.Random(seed)
        tiebreaks = rng.choice([(), ("won_solos",), ("won_solos", "lot"), ("lost_solos", "last_round"), ("shared",)])
        count = rng.randrange(2, 40)
        values = {
            p: [rng.randrange(-3, 4) * 10, rng.randrange(3), rng.randrange(2), rng.randrange(-2, 3)]
            for p in range(count)
        }
        lots = dict(zip(values, rng.sample(range(count), count)))
        keys = sorted(standing_key(*values[p], lots[p], p, tiebreaks) for p in values)
        ranked, _end = rank_window(keys, 0, len(keys), 0, tiebreaks)
        moved = []
        for p in rng.sample(sorted(values), rng.randrange(1, min(5, count + 1))):
            index = bisect.bisect_left(keys, standing_key(*values[p], lots[p], p, tiebreaks))
            keys.pop(index)
            ranked.pop(index)
            values[p] = [values[p][0] + rng.randrange(-4, 5) * 10, *values[p][1:]]
            key = standing_key(*values[p], lots[p], p, tiebreaks)
            new = bisect.bisect_left(keys, key)
            keys.insert(new, key)
            ranked.insert(new, None)
            moved += [index, new]
        start = max(0, min(moved) - 1)
        window, end = rank_window(
            keys, start, max(moved) + len(moved) // 2 + 1, ranked[start - 1][0] if start else 0, tiebreaks
        )
        ranked[start:end] = window
        assert ranked == rank_window(keys, 0, len(keys), 0, tiebreaks)[0], seed
