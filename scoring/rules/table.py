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
    sitting_out: int | None  # at a table of five: the next dealer

    @property
    def games_complete(self) -> bool:
        return self.games_played >= self.games_required

    @property
    def entries(self) -> int:
        return self.games_played + self.thrown_in


def table_sequence(entries: Iterable[Entry], *, table_size: int, games_per_round: int) -> TableSequence:
    """The state of a table after the entered games ``entries``: played, required, the next game and its dealer."""
    entries = list(entries)
    required = games_required(games_per_round, table_size)
    thrown_in = sum(1 for _n, flag in entries if flag)
    played = len(entries) - thrown_in
    next_number = next_dealer = None
    if played < required:
        next_number = first_free_number(n for n, _flag in entries)
        next_dealer = dealer_of(entries, next_number, table_size)
    return TableSequence(
        table_size=table_size, games_required=required, games_played=played, thrown_in=thrown_in,
        last_number=max((n for n, _flag in entries), default=0), next_number=next_number,
        next_dealer=next_dealer, sitting_out=sits_out(next_dealer, table_size),
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
