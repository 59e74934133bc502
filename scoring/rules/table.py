"""A table's sequence of games in one round: who deals, who sits out, which game comes next. Pure.

rules.md section 2: seat 1 deals game 1 and the deal passes clockwise, so the dealer of game k is
seat ``((k - 1) mod table_size) + 1``; at a table of five the dealer sits out. A round has
``games_per_round`` games at a table of four and ``games_per_round × 5 / 4`` at a table of five.
rules.md section 6: a thrown-in game (a Strich) is dealt again by the same dealer and does not
count towards the round's games.

Every place that needs one of these facts (the services that store games, the tablet's sheet, the
printed score sheet, the simulation and the demo) asks this module; nothing else works them out.
An entered game is given as ``(number, thrown_in)``; numbers may have gaps (a deleted game).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .hand import KREUZ, WEITER

#: One entered game of the table: (its number, whether it was thrown in).
Entry = tuple[int, bool]


def games_required(games_per_round: int, table_size: int) -> int:
    """The games a table plays in a round: tables of five play ``games × 5 / 4`` so everyone plays as many."""
    return games_per_round * table_size // 4


def dealer_for(number: int, thrown_in_before: int, table_size: int) -> int:
    """The dealer of entry ``number`` (1-based): a thrown-in game is dealt again by the same dealer."""
    return ((number - 1 - thrown_in_before) % table_size) + 1


def sits_out(dealer: int | None, table_size: int) -> int | None:
    """The seat that sits out a game: the dealer at a table of five, nobody at a table of four."""
    return dealer if table_size == 5 else None


def games_with_four(games_per_round: int, sat_out: Iterable[int], left_seat: int) -> int:
    """The games of the round of a table of five that lost the player of ``left_seat`` and plays on with
    the four others, nobody sitting out (rules.md section 2). ``sat_out``: who sat out each game counted
    so far (the dealers of the games that were not thrown in).

    The remaining four play until each of them has played the round's games (``games_per_round``, as
    at every table of four): the one of them who has played most so far plays exactly that many, the
    others at most one fewer (the deal passed them once less). A table that lost its player late (he had
    played his games) ends with the games entered so far.
    """
    sat_out = list(sat_out)
    played = max(len(sat_out) - sat_out.count(seat) for seat in (1, 2, 3, 4, 5) if seat != left_seat)
    return len(sat_out) + max(0, games_per_round - played)


def dealer_with_four(number: int, *, empty_seat: int, first: int, last_dealer: int | None, thrown_in_since: int) -> int:
    """Who deals game ``number`` of a table of five that plays on with four from game ``first`` (nobody
    sits out; the empty seat is ``empty_seat``): the deal passes on clockwise over the remaining seats from
    the seat after ``last_dealer`` (who dealt the last game with five; None: seat 1 deals first), a Strich
    dealt again by the same dealer (``thrown_in_since``: the Striche from game ``first`` to ``number`` − 1)."""
    order = [seat for seat in (1, 2, 3, 4, 5) if seat != empty_seat]
    after = last_dealer or 0
    start = next(seat for seat in [*range(after + 1, 6), *range(1, after + 1)] if seat != empty_seat)
    return order[(order.index(start) + (number - first) - thrown_in_since) % 4]


def first_free_number(taken: Iterable[int]) -> int:
    """The first game number not yet entered (a deleted game leaves a gap to fill)."""
    taken = set(taken)
    number = 1
    while number in taken:
        number += 1
    return number


def dealer_of(entries: Iterable[Entry], number: int, table_size: int) -> int:
    """The dealer of game ``number`` after the entered games ``entries`` (the Striche before it count)."""
    before = sum(1 for n, thrown_in in entries if thrown_in and n < number)
    return dealer_for(number, before, table_size)


def deal_schedule(thrown_in: list[bool] | tuple[bool, ...], table_size: int) -> tuple[int, int]:
    """After entries 1..n whose thrown-in flags are ``thrown_in``: (the next dealer, the games played)."""
    again = sum(1 for flag in thrown_in if flag)
    return dealer_for(len(thrown_in) + 1, again, table_size), len(thrown_in) - again


@dataclass(frozen=True, slots=True)
class TableSequence:
    """Where a table stands in its round."""

    table_size: int
    games_required: int
    games_played: int  # entered games that count (not thrown in)
    thrown_in: int  # Striche
    last_number: int  # the highest number entered, 0 before the first game
    next_number: int | None  # None once every game is played
    next_dealer: int | None
    sitting_out: int | None  # at a table of five: the next dealer (the empty seat once it plays on with four)

    @property
    def games_complete(self) -> bool:
        return self.games_played >= self.games_required

    @property
    def entries(self) -> int:
        return self.games_played + self.thrown_in


def table_sequence(
    entries: Iterable[Entry], *, table_size: int, games_per_round: int, left: tuple[int, int, int] | None = None
) -> TableSequence:
    """The state of a table after the entered games ``entries``: played, required, the next game and its dealer.

    ``left``: a table of five plays on with four (the empty seat, from which game, the round's games then):
    from that game the empty seat is what sits out (``dealer``), nobody else."""
    entries = list(entries)
    required = left[2] if left else games_required(games_per_round, table_size)
    thrown_in = sum(1 for _n, flag in entries if flag)
    played = len(entries) - thrown_in
    next_number = next_dealer = None
    if played < required:
        next_number = first_free_number(n for n, _flag in entries)
        next_dealer = left[0] if left and next_number >= left[1] else dealer_of(entries, next_number, table_size)
    return TableSequence(
        table_size=table_size,
        games_required=required,
        games_played=played,
        thrown_in=thrown_in,
        last_number=max((n for n, _flag in entries), default=0),
        next_number=next_number,
        next_dealer=next_dealer,
        sitting_out=sits_out(next_dealer, table_size),
    )


@dataclass(frozen=True, slots=True)
class SheetSlot:
    """One line of a score sheet: an entered game (``thrown_in`` True/False) or a line to fill in (None)."""

    number: int
    dealer: int
    thrown_in: bool | None


def sheet_slots(entries: Iterable[Entry], *, table_size: int, games_required: int) -> tuple[SheetSlot, ...]:
    """Every line of a table's sheet in order: the entered games, gaps and the games still to play.

    A gap (a deleted game) and every game after the last entered one is a line to fill in and counts
    towards the round; a Strich does not. The lines run until the round's games are all there.
    """
    by_number = dict(entries)
    last = max(by_number, default=0)
    slots: list[SheetSlot] = []
    played = before = number = 0
    while number < last or played < games_required:
        number += 1
        flag = by_number.get(number)
        slots.append(SheetSlot(number=number, dealer=dealer_for(number, before, table_size), thrown_in=flag))
        if flag:
            before += 1
        else:
            played += 1
    return tuple(slots)


def redeal_contracts(all_pass: str, kreuz_tie: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The contracts after which the same dealer deals again: (always, only when it ends 60:60).

    A thrown-in game (``weiter``) always; a game über Kreuz at 60:60 when the ruleset replays the tie
    (rules.md section 6). The tablet carries on with them while the network is down.
    """
    return (WEITER,), ((KREUZ,) if all_pass == "kreuz" and kreuz_tie == "replay" else ())
