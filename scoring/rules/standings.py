"""Standings, Tischbester and the money ledger (rules.md sections 7 and 8). Pure.

Money, ledger entries, table results, standings, tie notes and Tischbeste are named tuples: as
immutable as frozen dataclasses, and made several times faster (a full recompute at 4,000 players
makes 30,000 of them). The input is
what the tables produced: per table and round the seats (seat -> player key) and
either the scored games or the round totals from a paper sheet. Player keys are opaque ints (the
caller's registration ids, already mapped to whoever holds the account after a substitution).
"""

from __future__ import annotations

import functools
import random
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, repeat
from operator import attrgetter, itemgetter, mul, neg
from types import MappingProxyType
from typing import NamedTuple

from .ruleset import Ruleset
from .scoring import HandScore

REUEGELD = "reuegeld"
WEITERGELD = "weitergeld"
PAYOUT = "payout"


class Money(NamedTuple):
    """Money one seat owes for one game (Reuegeld or Weitergeld)."""

    hand: int
    seat: int
    kind: str
    cents: int
    lost_solo: bool = False  # Reuegeld for a lost solo (the free allowance applies only to these)


_NONE: Mapping[int, int] = MappingProxyType({})


class TableResult(NamedTuple):
    """One table in one round, aggregated: what the standings need and nothing more."""

    round: int
    table: int
    seats: Mapping[int, int]  # seat -> player key
    points: Mapping[int, int]  # seat -> points in this round
    won_solos: Mapping[int, int] = _NONE  # seat -> solos won as declarer
    lost_solos: Mapping[int, int] = _NONE
    money: Sequence[Money] = ()  # in game order


def table_result(
    round: int,
    table: int,
    seats: Mapping[int, int],
    games: Sequence[tuple[int, HandScore]] = (),
    paper_totals: Mapping[int, int] | None = None,
    earlier: Mapping[int, tuple[int, int]] | None = None,
) -> TableResult:
    """A TableResult from scored games (or from a paper sheet's round totals).

    ``earlier``: seat -> (the first game its player played, who played the games before): a substitute
    sat down mid-round (rules.md section 2). The games before are the earlier player's, under the seat's
    shadow key ``-seat`` (``seats[-seat]`` is he); a paper sheet's totals are the seat's last player's.
    """
    split: dict[int, int] = {}
    if earlier:
        seats = dict(seats)
        for seat, (first, player) in earlier.items():
            if seat in seats and first > 1:
                seats[-seat], split[seat] = player, first
    points = dict.fromkeys(seats, 0)
    won: dict[int, int] = defaultdict(int)
    lost: dict[int, int] = defaultdict(int)
    money: list[Money] = []
    for seat, total in (paper_totals or {}).items():
        points[seat] += total
    for number, score in games:
        on = (lambda seat, number=number: -seat if number < split.get(seat, 0) else seat) if split else _same
        for seat, pts in score.points.items():
            if seat in points:
                points[on(seat)] += pts
        if score.won_solo:
            won[on(score.declarer)] += 1
        if score.lost_solo:
            lost[on(score.declarer)] += 1
        reuegeld, weitergeld = score.reuegeld, score.weitergeld
        if split:
            reuegeld = {on(seat): cents for seat, cents in reuegeld.items()}
            weitergeld = {on(seat): cents for seat, cents in weitergeld.items()}
        money.extend(game_money(number, reuegeld, weitergeld, score.lost_solo))
    return TableResult(round, table, seats, points, dict(won), dict(lost), tuple(money))


def _same(seat: int) -> int:
    return seat


def seat_totals(result: TableResult) -> dict[int, int]:
    """Seat -> its points in the round, a seat two players shared (``table_result``'s ``earlier``) as one."""
    return {seat: points + result.points.get(-seat, 0) for seat, points in result.points.items() if seat > 0}


def scaled_points(points: Mapping[int, int], played: int, required: int) -> dict[int, int]:
    """rules.md section 2, option ``closed_table_points = scaled``: a table closed early after ``played`` of
    ``required`` games, its points × required / played, rounded half away from zero (no game: as they are)."""
    if played <= 0 or played >= required:
        return dict(points)
    return {seat: _half_away(total * required, played) for seat, total in points.items()}


def _half_away(numerator: int, denominator: int) -> int:
    """numerator / denominator (denominator > 0) rounded half away from zero, in whole numbers only."""
    quotient, rest = divmod(abs(numerator), denominator)
    quotient += 2 * rest >= denominator
    return quotient if numerator >= 0 else -quotient


def closed_early(result: TableResult, played: int, required: int, rules: Ruleset) -> TableResult:
    """A table the organiser closed after ``played`` of ``required`` games: its points as played (DEFAULT)
    or scaled to the full round; its solos and money are the games' own either way."""
    if rules.closed_table_points != "scaled" or played >= required:
        return result
    return result._replace(points=scaled_points(result.points, played, required))


def game_money(number: int, reuegeld: Mapping[int, int], weitergeld: Mapping[int, int], lost_solo: bool) -> list[Money]:
    """What one game costs its seats, in the ledger's order: Reuegeld, then Weitergeld, each in seat order."""
    money = [Money(number, seat, REUEGELD, cents, lost_solo) for seat, cents in reuegeld.items()]
    if weitergeld:  # rarely both (the full recompute reads thousands of games that cost money)
        money += [Money(number, seat, WEITERGELD, cents) for seat, cents in weitergeld.items()]
    return money


class LedgerEntry(NamedTuple):
    """Money, never points: positive cents the player pays in, negative cents he receives."""

    player: int
    round: int
    table: int
    hand: int | None
    kind: str
    cents: int


class TieNote(NamedTuple):  # a named tuple: ranking 4,000 players makes thousands of them
    """Why a player stands directly above another with the same points."""

    above: int  # the player placed higher
    below: int  # the player he stands before
    tiebreak: str  # won_solos | lost_solos | last_round | lot | shared


_tie_note = functools.partial(tuple.__new__, TieNote)  # without the Python-level __new__: thousands at once


class Standing(NamedTuple):
    rank: int
    player: int
    points: int
    won_solos: int
    lost_solos: int
    round_points: tuple[int, ...]  # per round 1..n (0 where he did not play)
    note: TieNote | None = None
    # per round 1..n: (won solos, lost solos) in that round, None where he did not play; what each
    # round's own list is ranked from (``round_standings``)
    round_solos: tuple[tuple[int, int] | None, ...] = ()


class Tischbester(NamedTuple):
    round: int
    table: int
    players: tuple[int, ...]  # the best at the table (several share)
    points: int
    collected_cents: int  # Reuegeld and Weitergeld the table paid in that round
    payout_cents: int  # what each of them receives


@dataclass(frozen=True)
class StandingsResult:
    overall: tuple[Standing, ...]
    rounds: Mapping[int, tuple[Standing, ...]]
    tischbeste: tuple[Tischbester, ...]
    ledger: tuple[LedgerEntry, ...]
    pot_cents: int  # Reuegeld + Weitergeld paid in, less the Tischbester payouts
    collected_cents: int = 0
    paid_out_cents: int = 0
    notes: Mapping[int, TieNote] = field(default_factory=dict)
    keys: Sequence[list[int]] = ()  # each overall row's ``standing_key``, in the same order
    # Per player, in the order the ledger first names him: [Reuegeld paid, Weitergeld paid, Tischbester
    # payouts received], cents (what his entries in the ledger sum to)
    money: Mapping[int, list[int]] = field(default_factory=dict)


# The sort key of a standings row: (-points, then each tie-break's column of the base tuple
# (-points, -won solos, lost solos, -points in the last round, lot); shared or unknown: 0), then the
# player's key, which keeps equal players in a fixed order. Equal keys but for the player share a place.
_COLUMN = {"won_solos": 1, "lost_solos": 2, "last_round": 3, "lot": 4}


def lots(players: Iterable[int], lot_seed: int) -> dict[int, int]:
    """Each player's lot: his place in the draw (``lot_seed``) over every player, in key order."""
    players = sorted(players)
    order = list(range(len(players)))
    random.Random(lot_seed).shuffle(order)
    return dict(zip(players, order, strict=True))


def standing_keys(
    points: Sequence[int],
    won: Sequence[int],
    lost: Sequence[int],
    last_round_points: Sequence[int],
    lot: Sequence[int],
    players: Sequence[int],
    tiebreaks: Sequence[str],
) -> list[list[int]]:
    """Each player's ``standing_key``, from columns (one value per player, in the same order): a full
    recompute makes 4,000 of them, column by column, with no Python loop per player."""
    base = (
        list(map(neg, points)),
        list(map(neg, won)),
        lost,
        list(map(neg, last_round_points)),
        lot,
        [0] * len(players),
    )
    return list(map(list, zip(base[0], *(base[_COLUMN.get(t, 5)] for t in tiebreaks), players)))


def standing_key(
    points: int, won: int, lost: int, last_round_points: int, lot: int, player: int, tiebreaks: Sequence[str]
) -> list[int]:
    """Where a player stands: lists of these sort as the standings do (a list: it is stored as JSON)."""
    return standing_keys([points], [won], [lost], [last_round_points], [lot], [player], tiebreaks)[0]


def rank_window(
    keys: Sequence[Sequence[int]], start: int, stop: int, rank_before: int, tiebreaks: Sequence[str]
) -> tuple[list[tuple[int, TieNote | None]], int]:
    """Rank and tie note of the rows from ``start`` on, in sorted ``keys`` (``standing_key``).

    A row's rank follows from the rows above it and its note from the one below, so after rows
    between ``start`` and ``stop`` moved only those need ranking again, and the rows after them that
    share a place with the last of them. ``rank_before``: the rank of the row above ``start`` (0 at
    the top). Returns the (rank, note) of each row from ``start`` on and where that ended.
    """
    out: list[tuple[int, TieNote | None]] = []
    append = out.append
    count = len(keys)
    columns = tuple(enumerate(tiebreaks, start=1))
    index, rank = start, rank_before
    # Whether the row at ``index`` shares the place of the one above: equal keys but for the player,
    # which is what comparing each row with the one below tells (no slice of every key).
    shared = 0 < start < count and keys[start - 1][:-1] == keys[start][:-1]
    below = keys[start] if start < count else None
    while index < count:
        key = below
        if not shared:
            if index >= stop:
                break  # from here on every rank and note is as it was
            rank = index + 1  # otherwise a shared place: the rank of the one above
        index += 1
        below = keys[index] if index < count else None
        if below is not None and below[0] == key[0]:
            # Same points as the next one: say which tie-break put this player above him.
            decided = "shared"
            for column, tiebreak in columns:
                if key[column] != below[column]:
                    decided = tiebreak
                    break
            shared = decided == "shared"
            append((rank, _tie_note((key[-1], below[-1], decided))))
        else:
            shared = False
            append((rank, None))
    return out, index


def standing_values(folded: Folded, players: Sequence[int], rounds: Sequence[int]) -> list[tuple]:
    """Per player, in the order given: (points, won solos, lost solos, points per round, (won, lost) per
    round or None where he did not play), from what ``fold_tables`` gave.

    Column by column (one ``map`` per round over every player): a full recompute ranks 4,000 players.
    """
    if not rounds:
        return [(0, 0, 0, (), ())] * len(players)
    none: dict[int, int] = {}
    zeros = repeat(0)
    # per round: each player's points (None where he did not play), won and lost solos
    played = [list(map(folded.points.get(r, none).get, players)) for r in rounds]
    won = [list(map(folded.won.get(r, none).get, players, zeros)) for r in rounds]
    lost = [list(map(folded.lost.get(r, none).get, players, zeros)) for r in rounds]
    per_round = list(zip(*played))
    solos = list(zip(*map(zip, won, lost)))
    if any(None in column for column in played):  # someone missed a round: 0 points and no solos there
        for index, points in enumerate(per_round):
            if None in points:
                solos[index] = tuple([None if p is None else pair for p, pair in zip(points, solos[index])])
                per_round[index] = tuple([p or 0 for p in points])
    won_by, lost_by = list(zip(*won)), list(zip(*lost))
    return list(zip(map(sum, per_round), map(sum, won_by), map(sum, lost_by), per_round, solos))


_LAST = itemgetter(-1)


def _ranked(
    folded: Folded, rounds: Sequence[int], tiebreaks: Sequence[str], lot_seed: int, unranked: Collection[int] = ()
) -> tuple[tuple[Standing, ...], list[list[int]]]:
    players = list(dict.fromkeys(chain.from_iterable(folded.points.values())))  # whoever played a round
    if unranked:  # substitutes who play for their table only (rules.md section 2, substitute_points = frozen)
        players = [player for player in players if player not in unranked]
    lot = lots(players, lot_seed)
    values = standing_values(folded, players, rounds)
    points, won, lost, per_round, solos = zip(*values) if values else ((),) * 5
    last = list(map(_LAST, per_round)) if rounds else [0] * len(players)
    keyed = standing_keys(points, won, lost, last, list(map(lot.__getitem__, players)), players, tiebreaks)
    keyed.sort()
    ranked, _end = rank_window(keyed, 0, len(keyed), 0, tiebreaks)
    order = list(map(_LAST, keyed))  # the players, ranked
    row = dict(zip(players, values))
    points, won, lost, per_round, solos = zip(*map(row.__getitem__, order)) if order else ((),) * 5
    ranks, notes = zip(*ranked) if ranked else ((), ())
    standings = tuple(map(_standing, zip(ranks, order, points, won, lost, per_round, notes, solos)))
    return standings, keyed


def rank_players(
    folded: Folded, rounds: Sequence[int], tiebreaks: Sequence[str], lot_seed: int
) -> tuple[Standing, ...]:
    """Order by points, then the ruleset's tie-breaks; each decided tie carries a TieNote."""
    return _ranked(folded, rounds, tiebreaks, lot_seed)[0]


def round_standings(
    results: Iterable[tuple[int, int, int, int]], round: int, tiebreaks: Sequence[str], lot_seed: int
) -> tuple[Standing, ...]:
    """One round's standings from every player's result in it: (player, points, won solos, lost solos).

    The same ranking as overall, over that round alone (its lot drawn with ``lot_seed + round``); the
    snapshot keeps only the overall list, whose ``round_solos`` and ``round_points`` give these results.
    """
    results = list(results)
    folded = Folded(
        {round: {p: points for p, points, _w, _l in results}},
        {round: {p: won for p, _x, won, _l in results if won}},
        {round: {p: lost for p, _x, _w, lost in results if lost}},
        [],
        [],
        {},
    )
    return rank_players(folded, [round], tiebreaks, lot_seed + round)


def round_results(
    overall: Iterable[tuple[int, Sequence[int], Sequence[Sequence[int] | None]]], round: int
) -> list[tuple[int, int, int, int]]:
    """The results ``round_standings`` ranks, from the overall list's (player, round points, round solos):
    whoever played that round (his round solos are not None)."""
    i = round - 1
    return [(player, points[i], *solos[i]) for player, points, solos in overall if solos[i] is not None]


def split_payout(collected_cents: int, percent: int, winners: int) -> tuple[int, int]:
    """(each winner's share, what goes to the pot): equal best split evenly, rounded down to the cent."""
    share = collected_cents * percent // 100
    each = share // winners if winners else 0
    return each, collected_cents - each * winners


_TABLE_ORDER = attrgetter("round", "table")


class Folded(NamedTuple):
    """What the tables give, in table order: per round each player's points (whoever played it has
    one), won and lost solos (where he has any); the ledger; the Tischbeste."""

    points: dict[int, dict[int, int]]  # round -> player -> points
    won: dict[int, dict[int, int]]  # round -> player -> solos won
    lost: dict[int, dict[int, int]]
    ledger: list[LedgerEntry]  # empty if not asked for (``with_ledger``)
    tischbeste: list[Tischbester]
    money: dict[int, list[int]]  # player -> [Reuegeld, Weitergeld, payouts] (``StandingsResult.money``)


_MONEY_COLUMN = {REUEGELD: 0, WEITERGELD: 1, PAYOUT: 2}

# Named tuples made without their Python-level ``__new__`` (the hot loops make tens of thousands).
_standing = functools.partial(tuple.__new__, Standing)
_entry = functools.partial(tuple.__new__, LedgerEntry)
_tischbester = functools.partial(tuple.__new__, Tischbester)


def _add_solos(by_player: dict[int, int], counts: Mapping[int, int], seats: Mapping[int, int], once: bool) -> None:
    """A table's solo counts per seat added to its players' counts of the round; ``once``: every player of
    the table is new to the round (his count is the seat's, put in by one ``update``)."""
    if once and counts.keys() <= seats.keys():
        by_player.update(zip(map(seats.__getitem__, counts), counts.values()))
        return
    for seat, count in counts.items():
        if count and seat in seats:
            player = seats[seat]
            by_player[player] = by_player.get(player, 0) + count


def fold_tables(tables: Sequence[TableResult], rules: Ruleset, *, with_ledger: bool = True) -> Folded:
    """Points and solos per player and round, the money each table's games cost (Reuegeld's free
    solos counted per player and round) and each table's Tischbeste.

    Each player's money is summed as his ledger entries are made; ``with_ledger=False`` makes only the
    sums (the snapshot keeps nothing else of the ledger: 10,000 entries at 4,000 players).

    Every figure of a player comes from the tables he sat at, each table's money and Tischbeste from
    that table alone: folding only the tables of some players gives exactly their figures
    (the snapshot's merge of one changed table relies on it).
    """
    points_of: dict[int, dict[int, int]] = {}
    won_of: dict[int, dict[int, int]] = {}
    lost_of: dict[int, dict[int, int]] = {}
    ledger: list[LedgerEntry] = []
    tischbeste: list[Tischbester] = []
    free_used: dict[tuple[int, int], int] = {}  # (player, round) -> lost solos so far
    money_of: dict[int, list[int]] = {}
    free, percent = rules.reuegeld_free_solos, rules.reuegeld_tischbester_percent
    # The hot loop of a full recompute (3,000 tables, 12,000 seats): names bound once, tuples unpacked,
    # a table's points put in its round's dict in one ``update`` where its players sit nowhere else that round.
    add_entry = ledger.append
    current = None
    for rnd, number, seats, points, won, lost, money in sorted(tables, key=_TABLE_ORDER):
        if rnd != current:  # tables come in round order
            current = rnd
            by_player, won_by, lost_by = (
                points_of.setdefault(rnd, {}),
                won_of.setdefault(rnd, {}),
                lost_of.setdefault(rnd, {}),
            )
        if not seats:
            raise ValueError(f"table {number} of round {rnd} has no seats")
        players = list(seats.values())
        pts = list(map(points.__getitem__, seats))
        once = by_player.keys().isdisjoint(players)  # none of them has points in this round yet
        if once:
            size = len(by_player)
            by_player.update(zip(players, pts))
            once = len(by_player) == size + len(players)
            if not once:  # one player on two seats of this table: summed
                for player in players:
                    by_player[player] = 0
                for player, x in zip(players, pts):
                    by_player[player] += x
        else:  # someone of them sat at another table of this round too
            for player, x in zip(players, pts):
                by_player[player] = by_player.get(player, 0) + x
        # Solos: each seat's count is its player's first in this round where every player of the table is
        # new to it (a count of 0 stored reads as none); otherwise added to what he has.
        if won:
            _add_solos(won_by, won, seats, once)
        if lost:
            _add_solos(lost_by, lost, seats, once)
        collected = 0
        for hand, seat, kind, cents, lost_solo in money:
            player = seats[seat]
            if lost_solo and free:  # without free solos every lost solo pays: nothing to count
                used = free_used[(player, rnd)] = free_used.get((player, rnd), 0) + 1
                if used <= free:
                    continue
            if cents > 0:
                if with_ledger:
                    add_entry(_entry((player, rnd, number, hand, kind, cents)))
                sums = money_of.get(player)
                if sums is None:
                    sums = money_of[player] = [0, 0, 0]
                sums[_MONEY_COLUMN[kind]] += cents
                collected += cents
        if min(seats) < 0:  # a seat two players shared (a substitute mid-round): the seat's total counts,
            by_seat = dict(zip(seats, pts))  # and the seat's last player is its Tischbester
            totals = {seat: x + by_seat.get(-seat, 0) for seat, x in by_seat.items() if seat > 0}
            best = max(totals.values())
            winners = tuple(sorted({seats[seat] for seat, x in totals.items() if x == best}))
        else:
            best = max(pts)  # the best at the table (several share)
            if pts.count(best) == 1:
                winners = (players[pts.index(best)],)
            else:
                winners = tuple(sorted([player for player, x in zip(players, pts) if x == best]))
        each = split_payout(collected, percent, len(winners))[0] if collected else 0
        tischbeste.append(_tischbester((rnd, number, winners, best, collected, each)))
        if each:
            for player in winners:
                if with_ledger:
                    add_entry(_entry((player, rnd, number, None, PAYOUT, -each)))
                sums = money_of.get(player)
                if sums is None:
                    sums = money_of[player] = [0, 0, 0]
                sums[2] += each
    return Folded(points_of, won_of, lost_of, ledger, tischbeste, money_of)


def compute_standings(
    tables: Sequence[TableResult],
    rules: Ruleset,
    *,
    lot_seed: int,
    with_rounds: bool = True,
    with_ledger: bool = True,
    unranked: Collection[int] = (),
) -> StandingsResult:
    """Everything rules.md sections 7 and 8 derive from the tables' results.

    ``with_rounds=False`` leaves out each round's own list (``rounds`` is empty): the snapshot ranks
    those when they are read (``round_standings``), from what the overall list carries.
    ``with_ledger=False`` leaves out the ledger's entries (``ledger`` is empty), not their sums (``money``).
    ``unranked``: players whose games count for their tables but who have no row of their own (the
    substitutes when the ruleset freezes the leaving player's points, ``substitute_points = frozen``).
    """
    folded = fold_tables(tables, rules, with_ledger=with_ledger)
    ledger, tischbeste = folded.ledger, folded.tischbeste
    rounds = sorted(folded.points)
    tiebreaks = tuple(rules.tiebreaks)
    overall, keys = _ranked(folded, rounds, tiebreaks, lot_seed, unranked)
    per_round = (
        {
            r: round_standings(
                round_results(((s.player, s.round_points, s.round_solos) for s in overall), r), r, tiebreaks, lot_seed
            )
            for r in rounds
        }
        if with_rounds
        else {}
    )
    # What the ledger's entries sum to, per table (the merge updates these sums by the changed tables').
    collected_total = sum(map(_COLLECTED, tischbeste))
    paid_out = sum(map(mul, map(_PAYOUT, tischbeste), map(len, map(_WINNERS, tischbeste))))
    return StandingsResult(
        overall=overall,
        rounds=per_round,
        tischbeste=tuple(tischbeste),
        ledger=tuple(ledger),
        pot_cents=collected_total - paid_out,
        collected_cents=collected_total,
        paid_out_cents=paid_out,
        notes=dict(filter(_NOTE, map(_PLAYER_AND_NOTE, overall))),
        keys=keys,
        money=folded.money,
    )


# Fields read from every Tischbester and every standing without a Python loop (thousands of each).
_COLLECTED, _PAYOUT, _WINNERS = itemgetter(4), itemgetter(5), itemgetter(2)
_PLAYER_AND_NOTE, _NOTE = itemgetter(1, 6), itemgetter(1)
