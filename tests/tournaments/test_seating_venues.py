"""The venue-aware draw (tournaments/seating.py: venue_counts, draw_venues). No database.

Hand-computed cases: a venue with T tables seats 0 or n players with n mod 4 <= n div 4 <= T.
"""

from __future__ import annotations

from itertools import combinations

import pytest

from tournaments.seating import (
    VenuesFull,
    VenueSpec,
    draw_venues,
    pairs_of,
    table_sizes,
    venue_counts,
    venue_fits,
)


@pytest.mark.parametrize(
    ("n", "tables", "fits"),
    [
        (0, 0, True),  # an empty venue needs no table
        (4, 1, True),
        (5, 1, True),  # one table of five
        (6, 1, False),  # 6 mod 4 = 2 > 6 div 4 = 1
        (8, 1, False),  # two tables, only one there
        (15, 3, True),  # 5 + 5 + 5
        (16, 3, False),  # four tables of four
        (7, 10, False),  # never seatable
        (13, 3, True),  # 5 + 4 + 4
    ],
)
def test_venue_fits(n, tables, fits):
    assert venue_fits(n, tables) is fits


@pytest.mark.parametrize(
    ("total", "tables", "wanted", "counts"),
    [
        # a share in proportion to the room: 40 players, rooms 5 and 5 -> 20 and 20
        (40, [5, 5], [200, 200], [20, 20]),
        # rooms 6 and 2 (S = 8): 32 players -> ideal 24 and 8
        (32, [6, 2], [32 * 6, 32 * 2], [24, 8]),
        # 37 players cannot follow the room 6:2 (27.75 and 9.25): 28 players make 7 tables of four, so 6 tables
        # seat at most 27 (3 x 5 + 3 x 4; the layout has only N mod 4 tables of five); 10 = 2 x 5 fills 2
        (37, [6, 2], [37 * 6, 37 * 2], [27, 10]),
        # as many as are there now (times S = 6): 19 and 2 present in rooms of 3 and 3; 15/6 cannot be (6 does not
        # fit), 14/7 neither: 13/8 moves the fewest (cost |78-114| + |48-12| = 72 against 12/9: 42 + 42 = 84)
        (21, [3, 3], [19 * 6, 2 * 6], [13, 8]),
        # the room of the first is too small for all 20: 15 stay (5 + 5 + 5), 5 go to the second
        (20, [3, 5], [20 * 8, 0], [15, 5]),
        # 500 players in six inns of 21 tables: 83 or 84 each
        (500, [21] * 6, [500 * 21] * 6, [83, 83, 83, 83, 84, 84]),
        # a venue left empty when the others suffice and the players are there
        (12, [3, 3], [12 * 6, 0], [12, 0]),
    ],
)
def test_venue_counts(total, tables, wanted, counts):
    got = venue_counts(total, tables, wanted)
    assert got == counts
    assert sum(got) == total
    assert all(venue_fits(n, t) for n, t in zip(got, tables))


@pytest.mark.parametrize(("total", "tables"), [(500, [20] * 6), (13, [1, 1]), (6, [5])])
def test_venue_counts_refuses_too_little_room(total, tables):
    with pytest.raises(VenuesFull) as err:
        venue_counts(total, tables, [0] * len(tables))
    assert err.value.field == "venues"
    assert err.value.params == {"players": total, "room": sum(tables)}


VENUES = [VenueSpec(101, 4), VenueSpec(102, 3), VenueSpec(103, 3)]


def _check(draws, players, venues=VENUES):
    seated = [pid for d in draws for table in d.result.tables for pid in table]
    assert sorted(seated) == sorted(players), "every player sits exactly once"
    assert [d.venue for d in draws] == [v.key for v in venues]
    for d, venue in zip(draws, venues):
        n = sum(len(t) for t in d.result.tables)
        assert len(d.result.tables) <= venue.tables, "a venue never gets more tables than it has room for"
        if n:
            assert [len(t) for t in d.result.tables] == table_sizes(n)


def _where(draws):
    return {pid: d.venue for d in draws for table in d.result.tables for pid in table}


def test_three_rounds_members_stay_in_their_venue_and_never_meet_twice():
    # (a venue of three tables of four cannot avoid repeats in round 2: four players from three tables;
    # with four tables of four it can, for up to five rounds)
    players = list(range(1, 49))
    clubs = {pid: f"club{pid % 5}" for pid in players}
    venues = [VenueSpec(1, 4), VenueSpec(2, 4), VenueSpec(3, 4)]
    draws = draw_venues(players, venues, seed=7, clubs=clubs, keep_clubs_apart=True)
    _check(draws, players, venues)
    first = _where(draws)
    assert [sum(len(t) for t in d.result.tables) for d in draws] == [16, 16, 16]
    met = pairs_of(t for d in draws for t in d.result.tables)
    for rnd in (2, 3):
        draws = draw_venues(
            players, venues, seed=7 + rnd, venue_of=_where(draws), met=met, clubs=clubs, keep_clubs_apart=True
        )
        _check(draws, players, venues)
        assert _where(draws) == first, "nobody changes venue between rounds"
        assert sum(d.result.repeated_pairs for d in draws) == 0
        met |= pairs_of(t for d in draws for t in d.result.tables)


def test_clubs_are_dealt_over_the_venues():
    # 12 players of one club and 12 without: each venue gets its share of the club (4 + 4 + 4 for 8 + 8 + 8)
    players = list(range(1, 25))
    clubs = dict.fromkeys(range(1, 13), "SK Öd")
    venues = [VenueSpec(1, 2), VenueSpec(2, 2), VenueSpec(3, 2)]
    draws = draw_venues(players, venues, seed=3, clubs=clubs, keep_clubs_apart=True)
    _check(draws, players, venues)
    per_venue = [sum(1 for t in d.result.tables for pid in t if pid <= 12) for d in draws]
    assert per_venue == [4, 4, 4]
    # 4 of a club at a venue's 2 tables sit 2 and 2: one pair per table is the least (2 per venue)
    assert sum(d.result.club_pairs for d in draws) == 6


@pytest.mark.parametrize(
    ("present", "late", "counts", "moved"),
    [
        # 18 at 101 (room 4: 5+5+4+4), 2 at 102 and 2 late: nobody need move, the late two join 102's two
        # (18/4/0 costs 20 against 18/0/4: 60 and 17/5/0: 40)
        ({101: 18, 102: 2, 103: 0}, 2, [18, 4, 0], 0),
        # withdrawals left 7 at 102 (7 never fits; 11 does not fit 101's or 103's room either): two players
        # must move (13/5/13, 12/9/10, 13/8/10 ... all cost 40 = two moves); one move cannot do it
        ({101: 12, 102: 7, 103: 12}, 0, None, 2),
    ],
)
def test_as_few_as_possible_move(present, late, counts, moved):
    players, venue_of, pid = [], {}, 0
    for venue, n in present.items():
        for _ in range(n):
            pid += 1
            players.append(pid)
            venue_of[pid] = venue
    for _ in range(late):
        pid += 1
        players.append(pid)
    draws = draw_venues(players, VENUES, seed=11, venue_of=venue_of)
    _check(draws, players)
    got = [sum(len(t) for t in d.result.tables) for d in draws]
    if counts is not None:
        assert got == counts
    where = _where(draws)
    assert sum(1 for p, v in venue_of.items() if where[p] != v) == moved


def test_mixing_places_everyone_anew_by_room():
    players = list(range(1, 41))
    venue_of = dict.fromkeys(players[:20], 101) | dict.fromkeys(players[20:], 102)
    draws = draw_venues(players, VENUES, seed=5, venue_of=venue_of, mix=True)
    _check(draws, players)
    assert [sum(len(t) for t in d.result.tables) for d in draws] == [16, 12, 12]


def test_the_same_seed_gives_the_same_draw_and_another_seed_another():
    players = list(range(1, 41))
    a = draw_venues(players, VENUES, seed=99)
    assert a == draw_venues(list(reversed(players)), VENUES, seed=99)
    assert a != draw_venues(players, VENUES, seed=100)


def test_too_many_players_for_the_room():
    with pytest.raises(VenuesFull):
        draw_venues(list(range(1, 52)), VENUES, seed=1)


@pytest.mark.parametrize("venues", [[], [VenueSpec(1, 2), VenueSpec(1, 3)]])
def test_venue_list_must_be_sound(venues):
    with pytest.raises(ValueError, match="venues"):
        draw_venues(list(range(1, 9)), venues, seed=1)


def test_no_pair_repeats_over_three_rounds_at_a_500_player_evening():
    players = list(range(1, 501))
    venues = [VenueSpec(k, 21) for k in range(1, 7)]
    clubs = {pid: f"c{pid % 60}" for pid in players}
    met: set = set()
    where = None
    for rnd in range(1, 4):
        draws = draw_venues(players, venues, seed=rnd, venue_of=where, met=met, clubs=clubs, keep_clubs_apart=True)
        _check(draws, players, venues)
        if where is not None:
            assert _where(draws) == where
        where = _where(draws)
        tables = [t for d in draws for t in d.result.tables]
        assert not any(frozenset(p) in met for t in tables for p in combinations(t, 2))
        met |= pairs_of(tables)
