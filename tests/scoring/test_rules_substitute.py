"""A substitute who sits down mid-round, under both rules of rules.md section 2 (pure, hand-computed).

Round 1, table 1: X (seat 1) with 2, 3, 4. Rufspiel 1 with 3, 72 Augen (+1/−1/+1/−1); Solo of seat 1,
80 Augen (+15/−5/−5/−5). X 16, 2: −6, 3: −4, 4: −6.
Round 2, table 1: X plays games 1 and 2 on seat 1, then leaves; Q sits down from game 3.
  game 1 Rufspiel 1 with 2, 72 Augen: +1/+1/−1/−1
  game 2 Solo of seat 3, 80 Augen:     −5/−5/+15/−5
  game 3 Solo of seat 1, 30 Augen (lost Schneider, value 6): −18/+6/+6/+6   (Q's; Reuegeld 50 ct)
  game 4 Rufspiel 1 with 4, 95 Augen (Schneider, value 2):    +2/−2/−2/+2   (Q's)
  seat 1: X −4 (games 1–2), Q −16 (games 3–4), the seat −20; 2: 0, 3: 18, 4: 2 (sum 0)
DEFAULT (take over): Q's row holds X's points too: 16 − 20 = −4.
Option (frozen): X keeps 16 − 4 = 12 and stays in the list; Q's −16 counts for the table only.
"""

from scoring.rules import ruleset_from_dict, score_hand
from scoring.rules.standings import compute_standings, seat_totals, table_result

X, P2, P3, P4, Q = 1, 2, 3, 4, 9


def rufspiel(declarer, partner, augen):
    return {"contract": "rufspiel", "declarer": declarer, "partner": partner, "called": "eichel", "augen": augen}


def solo(declarer, augen):
    return {"contract": "solo", "declarer": declarer, "trump": "herz", "augen": augen}


def games(rules, *records):
    return [(n, score_hand(r, rules, 4)) for n, r in enumerate(records, start=1)]


def tables(rules, holder):
    """``holder``: who holds X's account (Q by default, X himself when frozen) — what the selector maps."""
    round1 = table_result(1, 1, {1: holder, 2: P2, 3: P3, 4: P4}, games(rules, rufspiel(1, 3, 72), solo(1, 80)))
    round2 = table_result(
        2,
        1,
        {1: Q, 2: P2, 3: P3, 4: P4},
        games(rules, rufspiel(1, 2, 72), solo(3, 80), solo(1, 30), rufspiel(1, 4, 95)),
        earlier={1: (3, holder)},
    )
    return [round1, round2]


def test_the_shared_seat_splits_its_games_by_who_played_them():
    rules = ruleset_from_dict({"substitute_points": "frozen"})
    _r1, r2 = tables(rules, X)
    assert r2.seats == {1: Q, 2: P2, 3: P3, 4: P4, -1: X}
    assert r2.points == {1: -16, -1: -4, 2: 0, 3: 18, 4: 2}
    assert seat_totals(r2) == {1: -20, 2: 0, 3: 18, 4: 2}
    assert r2.lost_solos == {1: 1} and r2.won_solos == {3: 1}  # game 3's lost solo is Q's, on the seat itself
    assert [(m.hand, m.seat, m.cents) for m in r2.money] == [(3, 1, 50)]


def test_default_the_substitute_takes_over_seat_and_points():
    rules = ruleset_from_dict({})
    assert rules.substitute_points == "take_over"
    result = compute_standings(tables(rules, Q), rules, lot_seed=1)
    rows = {s.player: (s.rank, s.points, s.round_points) for s in result.overall}
    assert rows == {P3: (1, 14, (-4, 18)), Q: (2, -4, (16, -20)), P4: (3, -4, (-6, 2)), P2: (4, -6, (-6, 0))}
    assert result.overall[1].note.tiebreak == "won_solos"  # Q before 4: X's won solo of round 1 is his
    assert result.money[Q] == [50, 0, 0]


def test_option_frozen_the_leaver_keeps_his_points_and_the_substitute_has_no_rank():
    rules = ruleset_from_dict({"substitute_points": "frozen"})
    result = compute_standings(tables(rules, X), rules, lot_seed=1, unranked={Q})
    rows = {s.player: (s.rank, s.points, s.round_points) for s in result.overall}
    assert rows == {P3: (1, 14, (-4, 18)), X: (2, 12, (16, -4)), P4: (3, -4, (-6, 2)), P2: (4, -6, (-6, 0))}
    assert Q not in {s.player for s in result.overall}
    # the others' points stand, and the table's Tischbester is its best seat (3 with 18)
    tischbester = {(t.round, t.table): (t.players, t.points) for t in result.tischbeste}
    assert tischbester == {(1, 1): ((X,), 16), (2, 1): ((P3,), 18)}
    assert result.money[Q] == [50, 0, 0] and X not in result.money  # the lost solo's Reuegeld was Q's


def test_a_shared_seat_that_is_the_tables_best_gives_the_tischbester_to_its_last_player():
    rules = ruleset_from_dict({"substitute_points": "frozen"})
    result = table_result(
        1, 1, {1: Q, 2: P2, 3: P3, 4: P4}, games(rules, solo(1, 80), solo(1, 80)), earlier={1: (2, X)}
    )
    assert result.points == {1: 15, -1: 15, 2: -10, 3: -10, 4: -10}
    (best,) = compute_standings([result], rules, lot_seed=1, unranked={Q}).tischbeste
    assert (best.players, best.points) == ((Q,), 30)
