"""Who plays a game at a table: the active seats, the Vorhand, the pairs "über Kreuz". Pure.

rules.md section 2: seats are numbered clockwise; at a table of five the dealer sits out.
rules.md section 6: "über Kreuz" the first and third active seat (in seat order) play against
the second and fourth, so at a table of four 1+3 against 2+4.
"""

from __future__ import annotations

TABLE_SEATS: dict[int, tuple[int, ...]] = {4: (1, 2, 3, 4), 5: (1, 2, 3, 4, 5)}


def active_seats(table_size: int, dealer: int | None) -> tuple[int, ...]:
    """The seats that take part in the deal, in seat order (the dealer sits out at five)."""
    seats = TABLE_SEATS[table_size]
    if table_size == 5:
        return tuple(seat for seat in seats if seat != dealer)
    return seats


def vorhand(dealer: int, table_size: int) -> int:
    """The first active seat after the dealer, clockwise: who leads and, über Kreuz, declares."""
    return dealer % table_size + 1  # at five the dealer is the only one who sits out


def kreuz_partner(seat: int, table_size: int, dealer: int | None) -> int:
    """The seat opposite ``seat`` among the active seats: its partner in a game über Kreuz."""
    active = active_seats(table_size, dealer)
    return active[(active.index(seat) + 2) % 4]


def kreuz_pair(seat: int, table_size: int, dealer: int | None) -> tuple[int, int]:
    """``seat`` and its partner über Kreuz, lower seat first ("1+3")."""
    partner = kreuz_partner(seat, table_size, dealer)
    return (seat, partner) if seat < partner else (partner, seat)


def kreuz_pairs(dealer: int, table_size: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """über Kreuz: the deal's two crosswise pairs, the Vorhand's pair first (the entry page proposes it)."""
    from_vorhand = kreuz_pair(vorhand(dealer, table_size), table_size, dealer)
    other = tuple(s for s in active_seats(table_size, dealer) if s not in from_vorhand)
    return from_vorhand, (other[0], other[1])
