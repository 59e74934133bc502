"""The standings' hot loops (``fold_tables``, ``rank_window``, ``compute_standings``) against plain
reference versions of the same rules, over random fields (pure, no database).

The production loops are written for a full recompute at 4,000 players (names bound once, tuples
unpacked, the best at a table found in the seat loop, the pot summed per table). The references
below are the straightforward way to say rules.md sections 7 and 8, as the code said them before it
was made fast; both must give the same standings, notes, keys, ledger, Tischbeste and pot for any
tables, tie-breaks and free solos.
"""

import random
from collections import defaultdict
from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.rules import ruleset_from_dict
from scoring.rules.standings import (
    PAYOUT,
    REUEGELD,
    WEITERGELD,
    LedgerEntry,
    Money,
    Standing,
    TableResult,
    TieNote,
    Tischbester,
    compute_standings,
    lots,
    rank_window,
    split_payout,
    standing_key,
)

TIEBREAKS = [
    list(p) + [final]
    for n in range(4)
    for p in permutations(("won_solos", "lost_solos", "last_round"), n)
    for final in ("lot", "shared")
]


def reference_fold(tables, rules):
    """Per player and round: points, won and lost solos; the ledger with the free lost solos; the Tischbeste."""
    points = defaultdict(dict)
    won = defaultdict(dict)
    lost = defaultdict(dict)
    ledger, tischbeste = [], []
    free_used = defaultdict(int)
    for table in sorted(tables, key=lambda t: (t.round, t.table)):
        collected = 0
        for seat, player in table.seats.items():
            for tally, values in ((points, table.points), (won, table.won_solos), (lost, table.lost_solos)):
                if values.get(seat) or tally is points:
                    tally[player][table.round] = tally[player].get(table.round, 0) + values.get(seat, 0)
        for item in table.money:
            player = table.seats[item.seat]
            if item.lost_solo:
                free_used[(player, table.round)] += 1
                if free_used[(player, table.round)] <= rules.reuegeld_free_solos:
                    continue
            if item.cents > 0:
                ledger.append(LedgerEntry(player, table.round, table.table, item.hand, item.kind, item.cents))
                collected += item.cents
        best = max(table.points[s] for s in table.seats)
        winners = tuple(sorted(p for s, p in table.seats.items() if table.points[s] == best))
        each, _rest = split_payout(collected, rules.reuegeld_tischbester_percent, len(winners))
        tischbeste.append(Tischbester(table.round, table.table, winners, best, collected, each))
        for player in winners if each else ():
            ledger.append(LedgerEntry(player, table.round, table.table, None, PAYOUT, -each))
    return points, won, lost, ledger, tischbeste


def reference_rank_window(keys, start, stop, rank_before, tiebreaks):
    out = []
    index, rank = start, rank_before
    previous = keys[start - 1][:-1] if start > 0 else None
    while index < len(keys):
        k = keys[index][:-1]
        if index >= stop and k != previous:
            break
        if k != previous:
            rank = index + 1
        previous = k
        note = None
        if index + 1 < len(keys) and keys[index + 1][0] == k[0]:
            below = keys[index + 1]
            decided = next((t for t, x, y in zip(tiebreaks, k[1:], below[1:-1], strict=True) if x != y), "shared")
            note = TieNote(keys[index][-1], below[-1], decided)
        out.append((rank, note))
        index += 1
    return out, index


def reference_standings(tables, rules, lot_seed):
    points, won, lost, ledger, tischbeste = reference_fold(tables, rules)
    rounds = sorted({t.round for t in tables})
    tiebreaks = tuple(rules.tiebreaks)
    lot = lots(points, lot_seed)
    values, keys = {}, []
    for player, played in points.items():
        per_round = tuple(played.get(r, 0) for r in rounds)
        won_by = tuple(won[player].get(r, 0) for r in rounds)
        lost_by = tuple(lost[player].get(r, 0) for r in rounds)
        solos = tuple((w, x) if r in played else None for r, w, x in zip(rounds, won_by, lost_by))
        values[player] = (sum(per_round), sum(won_by), sum(lost_by), per_round, solos)
        keys.append(
            standing_key(
                sum(per_round), sum(won_by), sum(lost_by), played.get(rounds[-1], 0), lot[player], player, tiebreaks
            )
        )
    keys.sort()
    ranked, _end = reference_rank_window(keys, 0, len(keys), 0, tiebreaks)
    overall = tuple(
        Standing(rank, key[-1], *values[key[-1]][:4], note, values[key[-1]][4])
        for key, (rank, note) in zip(keys, ranked)
    )
    collected = sum(e.cents for e in ledger if e.kind != PAYOUT)
    paid_out = -sum(e.cents for e in ledger if e.kind == PAYOUT)
    return overall, keys, tuple(ledger), tuple(tischbeste), collected, paid_out


@st.composite
def fields(draw):
    """Random tables over a few rounds: players seated 4 or 5 to a table, points, solos and money per seat."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    players = list(range(100, 100 + draw(st.integers(4, 23))))
    tables = []
    for rnd in range(1, draw(st.integers(1, 3)) + 1):
        rng.shuffle(players)
        seated, number = 0, 0
        while len(players) - seated >= 4:
            size = 5 if len(players) - seated in (5, 9) or rng.random() < 0.2 else 4
            at = players[seated : seated + size]
            seated += size
            number += 1
            seats = dict(zip(range(1, size + 1), at))
            points = {s: rng.choice([rng.randrange(-3, 4), rng.randrange(-40, 41)]) for s in seats}
            won = {s: rng.randrange(1, 4) for s in seats if rng.random() < 0.3}
            lost = {s: rng.randrange(1, 3) for s in seats if rng.random() < 0.3}
            money = []
            for hand in sorted(rng.sample(range(1, 40), rng.randrange(0, 5))):
                seat = rng.choice(list(seats))
                money.append(Money(hand, seat, REUEGELD, rng.choice([0, 50, 100]), rng.random() < 0.7))
                if rng.random() < 0.3:
                    money.append(Money(hand, rng.choice(list(seats)), WEITERGELD, rng.choice([10, 20])))
            tables.append(TableResult(rnd, number, seats, points, won, lost, tuple(money)))
    for _ in range(rng.choice([0, 0, 1, 2])):  # one player on two seats (whom a substitute took over: one account)
        table = rng.choice(tables)
        other = rng.choice([t for t in tables if t.round == table.round])  # this table or another of the round
        seats = dict(table.seats)
        seats[rng.choice(list(seats))] = rng.choice(list(other.seats.values()))
        tables[tables.index(table)] = table._replace(seats=seats)
    rng.shuffle(tables)
    rules = ruleset_from_dict(
        {
            "tiebreaks": draw(st.sampled_from(TIEBREAKS)),
            "reuegeld_free_solos": draw(st.integers(0, 2)),
            "reuegeld_tischbester_percent": draw(st.sampled_from([0, 33, 50, 100])),
        }
    )
    return tables, rules, draw(st.integers(0, 2**31))


@settings(max_examples=300, deadline=None)
@given(fields())
def test_compute_standings_is_the_reference(field):
    tables, rules, lot_seed = field
    result = compute_standings(tables, rules, lot_seed=lot_seed)
    overall, keys, ledger, tischbeste, collected, paid_out = reference_standings(tables, rules, lot_seed)
    assert result.overall == overall
    assert list(result.keys) == keys
    assert result.ledger == ledger
    assert result.tischbeste == tischbeste
    assert (result.collected_cents, result.paid_out_cents, result.pot_cents) == (
        collected,
        paid_out,
        collected - paid_out,
    )
    assert result.notes == {s.player: s.note for s in overall if s.note}
    # Each player's money: what his ledger entries sum to, in the order the ledger first names him
    money: dict[int, list[int]] = {}
    for entry in ledger:
        sums = money.setdefault(entry.player, [0, 0, 0])
        sums[(REUEGELD, WEITERGELD, PAYOUT).index(entry.kind)] += -entry.cents if entry.kind == PAYOUT else entry.cents
    assert list(result.money.items()) == list(money.items())
    without = compute_standings(tables, rules, lot_seed=lot_seed, with_ledger=False)  # what the snapshot asks for
    assert without.ledger == ()
    assert (without.overall, list(without.money.items()), without.tischbeste, without.pot_cents) == (
        overall,
        list(money.items()),
        tischbeste,
        collected - paid_out,
    )


@settings(max_examples=300, deadline=None)
@given(fields(), st.data())
def test_rank_window_is_the_reference_from_any_row(field, data):
    """The merge ranks again from the rows that moved: every window gives the reference's ranks and notes."""
    tables, rules, lot_seed = field
    keys = list(compute_standings(tables, rules, lot_seed=lot_seed).keys)
    start = data.draw(st.integers(0, len(keys)))
    stop = data.draw(st.integers(start, len(keys) + 1))
    full, _end = reference_rank_window(keys, 0, len(keys), 0, rules.tiebreaks)
    rank_before = full[start - 1][0] if start else 0
    assert rank_window(keys, start, stop, rank_before, rules.tiebreaks) == reference_rank_window(
        keys, start, stop, rank_before, rules.tiebreaks
    )
