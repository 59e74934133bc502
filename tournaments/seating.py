"""The seat draw: which player sits at which table and seat in a round (rules.md section 2).

Pure: standard library only, no Django, no I/O, no clock. All randomness comes from one
``random.Random(seed)``, and the optimiser runs on an iteration budget, never on wall-clock
time, so the same inputs and seed always give the same draw.

Players sit at tables of four; when the number of players N is not a multiple of four,
``N mod 4`` tables get five (tables 1..N mod 4 are the tables of five). That needs
``N mod 4 <= N div 4``; otherwise :class:`SeatingImpossible` tells the organiser how many
players to add or withdraw.

From round 2 on the draw avoids seating players together who already shared a table (each such
repeated pair is the main cost) and, as an option, keeps members of the same club apart (a
secondary cost, always weighed below repeated pairs). The search:

1. shuffle the sorted players and fill the tables in order;
2. tabu search over swaps of two players at different tables: take a random player who has a
   conflict at his table, make the best swap for him (a swap's effect on the cost is O(1) from
   per-player conflict weights per table), and keep swapped players still for a few steps;
3. when the search stalls, go back to the best draw so far and kick it with a few random swaps
   (every fifth time: a fresh random draw), until the cost is zero or the budget is spent;
4. shuffle the seats within every table, so seat numbers are random too.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

__all__ = [
    "DEFAULT_EFFORT",
    "DrawResult",
    "SeatingImpossible",
    "VenueDraw",
    "VenueSpec",
    "VenuesFull",
    "can_seat",
    "count_club_pairs",
    "count_repeated_pairs",
    "draw_tables",
    "draw_venues",
    "met_pairs",
    "pairs_of",
    "table_sizes",
    "venue_counts",
    "venue_fits",
]

TABLE_SIZE = 4
"""Players at a normal table; N mod 4 tables take one more player."""

DEFAULT_EFFORT = 2000
"""Search budget per player: the optimiser evaluates at most ``effort * len(players)`` swaps."""

Pair = frozenset[int]


class SeatingImpossible(ValueError):
    """The number of players cannot be split into tables of four and five.

    ``params["add"]`` players more reach the nearest possible field above; ``params["withdraw"]``
    players fewer the nearest one below, or ``None`` when no smaller field can be seated.
    """

    field = "players"
    code = "seating_impossible"

    def __init__(self, players: int) -> None:
        above = _feasible_above(players)
        below = _feasible_below(players)
        add = above - players
        withdraw = None if below is None else players - below
        self.params: dict[str, int | None] = {
            "players": players,
            "add": add,
            "withdraw": withdraw,
        }
        remedy = f"add {_count(add, 'player')} (making {above})"
        if below is not None:
            remedy += f" or withdraw {withdraw} (leaving {below})"
        self.message = f"{_count(players, 'player')} cannot be seated at tables of four and five: {remedy}."
        super().__init__(f"{self.field}: {self.message}")


@dataclass(frozen=True)
class DrawResult:
    """One round's draw: ``tables[i][j]`` is the player id at table ``i + 1``, seat ``j + 1``."""

    tables: tuple[tuple[int, ...], ...]
    repeated_pairs: int
    """Pairs sitting together this round who already shared a table (each pair counted once)."""
    club_pairs: int
    """Pairs of the same club sitting together (counted whether or not clubs were kept apart)."""


# --- table layout ----------------------------------------------------------------------------


def can_seat(n: int) -> bool:
    """Whether ``n`` players fit tables of four and five (``n mod 4 <= n div 4``, n >= 4)."""
    return n >= TABLE_SIZE and n % TABLE_SIZE <= n // TABLE_SIZE


def table_sizes(n: int) -> list[int]:
    """Table sizes for ``n`` players, the tables of five first: ``21 -> [5, 4, 4, 4, 4]``."""
    if n < 0:
        raise ValueError(f"players: the number of players cannot be negative ({n})")
    if not can_seat(n):
        raise SeatingImpossible(n)
    fives = n % TABLE_SIZE
    fours = n // TABLE_SIZE - fives
    return [TABLE_SIZE + 1] * fives + [TABLE_SIZE] * fours


def _feasible_above(n: int) -> int:
    m = max(n, TABLE_SIZE)
    while not can_seat(m):
        m += 1
    return m


def _feasible_below(n: int) -> int | None:
    m = n
    while m >= TABLE_SIZE and not can_seat(m):
        m -= 1
    return m if m >= TABLE_SIZE else None


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


# --- pairs -----------------------------------------------------------------------------------


def pairs_of(tables: Iterable[Iterable[int]]) -> set[Pair]:
    """Every pair of players sitting at the same table; feed it to the next round's ``met``."""
    return {frozenset(pair) for table in tables for pair in combinations(table, 2)}


met_pairs = pairs_of


def count_repeated_pairs(tables: Iterable[Iterable[int]], met: Iterable[Iterable[int]]) -> int:
    """How many pairs sitting together in ``tables`` are among the ``met`` pairs."""
    known = {frozenset(pair) for pair in met}
    return sum(1 for pair in pairs_of(tables) if pair in known)


def count_club_pairs(tables: Iterable[Iterable[int]], clubs: Mapping[int, str | None]) -> int:
    """How many pairs sitting together belong to the same club (no club never matches)."""
    total = 0
    for table in tables:
        for a, b in combinations(table, 2):
            club = clubs.get(a)
            if club and club == clubs.get(b):
                total += 1
    return total


# --- the draw --------------------------------------------------------------------------------


def draw_tables(
    players: Sequence[int],
    *,
    seed: int,
    met: Iterable[Iterable[int]] = (),
    clubs: Mapping[int, str | None] | None = None,
    keep_clubs_apart: bool = False,
    effort: int = DEFAULT_EFFORT,
) -> DrawResult:
    """Draw tables and seats for one round.

    ``players`` are player ids in any order (they are sorted first). ``met`` holds the pairs
    that shared a table in earlier rounds, as 2-tuples or the frozensets of :func:`pairs_of`;
    pairs naming a player not in this round are ignored. A pair listed more than once (for
    instance once per round in which it met) weighs more, so a third meeting is avoided before a
    second one, but ``repeated_pairs`` counts every pair once. ``clubs`` maps a player id to his
    club (``None``, ``""`` or a missing id: no club); with ``keep_clubs_apart`` same-club pairs
    are a secondary cost. ``effort`` bounds the search (see :data:`DEFAULT_EFFORT`); the result
    depends only on the inputs and ``seed``.
    """
    ids = sorted(players)
    for before, after in zip(ids, ids[1:]):
        if before == after:
            raise ValueError(f"players: player {before} is listed twice")
    if effort < 0:
        raise ValueError(f"effort: must not be negative ({effort})")
    sizes = table_sizes(len(ids))
    rng = random.Random(seed)
    index = {pid: i for i, pid in enumerate(ids)}
    club_map = clubs or {}

    met_list = list(met)
    times: Counter[tuple[int, int]] = Counter()
    for pair in met_list:
        both = tuple(pair)
        if len(both) == 1 or (len(both) == 2 and both[0] == both[1]):
            continue  # a player "meeting" himself means nothing
        if len(both) != 2:
            raise ValueError(f"met: {pair!r} is not a pair of player ids")
        i, j = index.get(both[0]), index.get(both[1])
        if i is not None and j is not None:
            times[(i, j) if i < j else (j, i)] += 1

    club_groups: list[list[int]] = []
    if keep_clubs_apart:
        by_club: dict[str, list[int]] = {}
        for i, pid in enumerate(ids):
            club = club_map.get(pid)
            if club:
                by_club.setdefault(club, []).append(i)
        club_groups = [members for members in by_club.values() if len(members) > 1]

    order = list(range(len(ids)))
    rng.shuffle(order)
    table_of = [0] * len(ids)
    start = 0
    for t, size in enumerate(sizes):
        for i in order[start : start + size]:
            table_of[i] = t
        start += size

    weights, lower_bound = _weights(sizes, times, club_groups)
    if len(sizes) > 1 and weights:
        search = _Search(sizes, table_of, weights, rng)
        table_of = search.run(budget=effort * len(ids), lower_bound=lower_bound)

    seated: list[list[int]] = [[] for _ in sizes]
    for i, t in enumerate(table_of):
        seated[t].append(ids[i])
    for table in seated:
        rng.shuffle(table)
    tables = tuple(tuple(table) for table in seated)
    return DrawResult(
        tables=tables,
        repeated_pairs=count_repeated_pairs(tables, met_list),
        club_pairs=count_club_pairs(tables, club_map),
    )


def _weights(
    sizes: Sequence[int],
    times: Mapping[tuple[int, int], int],
    club_groups: Iterable[Sequence[int]],
) -> tuple[dict[tuple[int, int], int], int]:
    """Conflict weight per pair of player indexes, and a lower bound of the total cost.

    The weights make the cost lexicographic: first the number of repeated pairs, then how often
    beyond once those pairs met before, then same-club pairs. ``pair_slots`` (all pairs at all
    tables) bounds every component, so a unit of a higher one outweighs any amount of a lower.
    """
    pair_slots = sum(size * (size - 1) // 2 for size in sizes)
    club_unit = 1
    extra_unit = club_unit * (pair_slots + 1)
    most = max(times.values(), default=1)
    repeat_unit = extra_unit * (pair_slots * (most - 1) + 1)

    weights: dict[tuple[int, int], int] = {}
    for pair, n in times.items():
        weights[pair] = repeat_unit + extra_unit * (n - 1)
    lower_bound = 0
    tables = len(sizes)
    for group in club_groups:
        for i, j in combinations(group, 2):
            key = (i, j) if i < j else (j, i)
            weights[key] = weights.get(key, 0) + club_unit
        # However the tables are filled, a club of m spread as evenly as possible over the
        # tables still has this many pairs together; no draw can do better.
        per_table, rest = divmod(len(group), tables)
        lower_bound += club_unit * (
            rest * (per_table + 1) * per_table // 2 + (tables - rest) * per_table * (per_table - 1) // 2
        )
    return weights, lower_bound


class _IndexedSet:
    """A set of ints with O(1) add, discard and uniform random choice, in a deterministic order."""

    __slots__ = ("items", "where")

    def __init__(self) -> None:
        self.items: list[int] = []
        self.where: dict[int, int] = {}

    def __len__(self) -> int:
        return len(self.items)

    def add(self, x: int) -> None:
        if x not in self.where:
            self.where[x] = len(self.items)
            self.items.append(x)

    def discard(self, x: int) -> None:
        at = self.where.pop(x, None)
        if at is not None:
            last = self.items.pop()
            if last != x:
                self.items[at] = last
                self.where[last] = at

    def choice(self, rng: random.Random) -> int:
        return self.items[rng.randrange(len(self.items))]


class _Search:
    """Tabu search with perturbation over swaps of two players at different tables.

    State: ``table_of[i]``, the players of every table, and ``load[i][t]``: the summed conflict
    weight between player ``i`` and the players at table ``t`` (only tables with a neighbour of
    ``i`` have an entry). Swapping p at table a with q at table b changes the cost by
    ``load[p][b] - load[p][a] + load[q][a] - load[q][b] - 2 w(p, q)``: O(1) per candidate, and
    applying a swap updates only the neighbours of p and q.
    """

    TENURE_MAX = 10  # a swapped player stays put for 1..min(10, n // 4) steps
    STALL_MIN = 50  # steps without a new best (at least n) before a kick
    FRESH_EVERY = 5  # every fifth kick is a fresh random draw instead

    def __init__(
        self,
        sizes: Sequence[int],
        table_of: list[int],
        weights: Mapping[tuple[int, int], int],
        rng: random.Random,
    ) -> None:
        self.sizes = list(sizes)
        self.n = len(table_of)
        self.rng = rng
        neighbours: list[dict[int, int]] = [{} for _ in range(self.n)]
        for (i, j), w in sorted(weights.items()):
            neighbours[i][j] = w
            neighbours[j][i] = w
        self.weight = neighbours
        # Sorted adjacency lists keep every update in the same order for the same inputs.
        self.adjacent = [sorted(nb.items()) for nb in neighbours]
        self._load(table_of)

    def _load(self, table_of: list[int]) -> None:
        self.table_of = list(table_of)
        self.members: list[list[int]] = [[] for _ in self.sizes]
        for i, t in enumerate(self.table_of):
            self.members[t].append(i)
        self.load: list[dict[int, int]] = [{} for _ in range(self.n)]
        for i, adj in enumerate(self.adjacent):
            row = self.load[i]
            for j, w in adj:
                t = self.table_of[j]
                row[t] = row.get(t, 0) + w
        self.conflicted = _IndexedSet()
        total = 0
        for i in range(self.n):
            own = self.load[i].get(self.table_of[i], 0)
            total += own
            if own:
                self.conflicted.add(i)
        self.cost = total // 2

    def _move(self, p: int, src: int, dst: int) -> None:
        """Move p from table ``src`` to ``dst`` (sizes are restored by the matching move)."""
        self.table_of[p] = dst
        members = self.members
        members[src].remove(p)
        members[dst].append(p)
        load = self.load
        for j, w in self.adjacent[p]:
            row = load[j]
            left = row[src] - w
            if left:
                row[src] = left
            else:
                del row[src]
            row[dst] = row.get(dst, 0) + w

    def _refresh(self, p: int) -> None:
        if self.load[p].get(self.table_of[p], 0):
            self.conflicted.add(p)
        else:
            self.conflicted.discard(p)

    def swap(self, p: int, q: int, delta: int) -> None:
        a, b = self.table_of[p], self.table_of[q]
        self._move(p, a, b)
        self._move(q, b, a)
        self.cost += delta
        self._refresh(p)
        self._refresh(q)
        for j, _ in self.adjacent[p]:
            self._refresh(j)
        for j, _ in self.adjacent[q]:
            self._refresh(j)

    def delta(self, p: int, q: int) -> int:
        a, b = self.table_of[p], self.table_of[q]
        lp, lq = self.load[p], self.load[q]
        return lp.get(b, 0) - lp.get(a, 0) + lq.get(a, 0) - lq.get(b, 0) - 2 * self.weight[p].get(q, 0)

    def _best_swaps(self, p: int, step: int, tabu: list[int], best_cost: int, use_tabu: bool) -> tuple[int, list[int]]:
        """The best swap partners for p (ties all returned) and the cost change they bring."""
        a = self.table_of[p]
        load = self.load
        lp = load[p]
        wp = self.weight[p]
        own = lp.get(a, 0)
        # A move is allowed if not tabu, or if it reaches a new best (aspiration).
        allowed_below = best_cost - self.cost
        best = None
        ties: list[int] = []
        for b, members in enumerate(self.members):
            if b == a:
                continue
            base = lp.get(b, 0) - own
            for q in members:
                lq = load[q]
                d = base + lq.get(a, 0) - lq.get(b, 0)
                if wp:
                    d -= 2 * wp.get(q, 0)
                if use_tabu and tabu[q] > step and d >= allowed_below:
                    continue
                if best is None or d < best:
                    best = d
                    ties = [q]
                elif d == best:
                    ties.append(q)
        return (0 if best is None else best), ties

    def run(self, *, budget: int, lower_bound: int) -> list[int]:
        """Search until the cost reaches ``lower_bound`` or ``budget`` swaps have been weighed."""
        rng = self.rng
        n = self.n
        best_cost = self.cost
        best: list[int] = []
        at_best = True  # the current draw is the best so far; it is copied to ``best`` on leaving
        tabu = [0] * n
        tenure_span = max(2, min(self.TENURE_MAX, n // 4))
        stall_limit = max(self.STALL_MIN, n)
        step = 0
        last_gain = 0
        kicks = 0
        while self.cost > lower_bound and budget > 0:
            step += 1
            p = self.conflicted.choice(rng)
            for _ in range(3):
                if tabu[p] <= step:
                    break
                p = self.conflicted.choice(rng)
            delta, partners = self._best_swaps(p, step, tabu, best_cost, use_tabu=True)
            if not partners:
                delta, partners = self._best_swaps(p, step, tabu, best_cost, use_tabu=False)
            budget -= n - len(self.members[self.table_of[p]])
            q = partners[rng.randrange(len(partners))]
            if at_best and delta >= 0:
                best = list(self.table_of)
                at_best = False
            self.swap(p, q, delta)
            tabu[p] = step + 1 + rng.randrange(tenure_span)
            tabu[q] = step + 1 + rng.randrange(tenure_span)
            if self.cost < best_cost:
                best_cost = self.cost
                at_best = True
                last_gain = step
            elif step - last_gain > stall_limit:
                kicks += 1
                last_gain = step
                if at_best:
                    best = list(self.table_of)
                    at_best = False
                self._perturb(best, fresh=kicks % self.FRESH_EVERY == 0)
                budget -= n
                if self.cost < best_cost:
                    best_cost = self.cost
                    at_best = True
        return list(self.table_of) if at_best else best

    def _perturb(self, best: list[int], *, fresh: bool) -> None:
        """Leave a stalled search: kick the best draw with a few random swaps, or start anew."""
        rng = self.rng
        if fresh:
            order = list(range(self.n))
            rng.shuffle(order)
            table_of = [0] * self.n
            start = 0
            for t, size in enumerate(self.sizes):
                for i in order[start : start + size]:
                    table_of[i] = t
                start += size
            self._load(table_of)
            return
        self._load(best)
        for _ in range(1 + rng.randrange(3)):
            if self.conflicted:
                p = self.conflicted.choice(rng)
            else:
                p = rng.randrange(self.n)
            q = rng.randrange(self.n)
            while self.table_of[q] == self.table_of[p]:
                q = rng.randrange(self.n)
            self.swap(p, q, self.delta(p, q))


# --- several venues --------------------------------------------------------------------------
#
# One evening in several inns: every venue has room for a number of tables. A player stays in the
# venue he sat in (or checked in at) unless the organiser mixes the venues; the draw moves as few
# players as it must to seat every venue at tables of four and five within its room. Inside a
# venue the draw is ``draw_tables`` as always (repeat pairs avoided, clubs kept apart).


@dataclass(frozen=True)
class VenueSpec:
    """A venue for the draw: its key (the caller's id) and how many tables it has room for."""

    key: int
    tables: int


@dataclass(frozen=True)
class VenueDraw:
    """One venue's part of a round: its key and its tables (``result.tables``, numbered from 1 here)."""

    venue: int
    result: DrawResult


class VenuesFull(ValueError):
    """The players cannot be split over the venues' tables of four and five."""

    field = "venues"
    code = "venues_full"

    def __init__(self, players: int, room: int) -> None:
        self.params = {"players": players, "room": room}
        self.message = f"{_count(players, 'player')} cannot be seated in the venues' {_count(room, 'table')}."
        super().__init__(f"{self.field}: {self.message}")


def venue_fits(n: int, tables: int) -> bool:
    """Whether ``n`` players can be seated at tables of four and five in a venue with ``tables`` tables."""
    return n == 0 or (can_seat(n) and n // TABLE_SIZE <= tables)


def venue_counts(total: int, tables: Sequence[int], wanted: Sequence[int]) -> list[int]:
    """How many players each venue seats: every count fits its venue, the counts sum to ``total``,
    and ``sum(|count * S - wanted|)`` is least (S = all venues' tables; ``wanted`` is given times S,
    so a share in proportion to the room and "as many as are there now" are both whole numbers).
    Ties go to the earlier venues. :class:`VenuesFull` when no split fits.
    """
    if len(tables) != len(wanted):
        raise ValueError("wanted: one wanted count per venue")
    scale = max(1, sum(tables))
    inf = float("inf")
    # best[s]: the least cost of seating s players in the venues so far; choice[v][s]: venue v's count
    best: list[float] = [0.0] + [inf] * total
    choices: list[list[int]] = []
    for room, want in zip(tables, wanted):
        options = [n for n in range(min(total, (TABLE_SIZE + 1) * room) + 1) if venue_fits(n, room)]
        nxt = [inf] * (total + 1)
        pick = [-1] * (total + 1)
        for s, cost in enumerate(best):
            if cost == inf:
                continue
            for n in options:
                if s + n > total:
                    break
                c = cost + abs(n * scale - want)
                if c < nxt[s + n]:
                    nxt[s + n] = c
                    pick[s + n] = n
        best = nxt
        choices.append(pick)
    if best[total] == inf:
        raise VenuesFull(total, sum(tables))
    counts = [0] * len(tables)
    s = total
    for v in range(len(tables) - 1, -1, -1):
        counts[v] = choices[v][s]
        s -= counts[v]
    return counts


def _deal_order(ids: Sequence[int], clubs: Mapping[int, str | None], rng: random.Random) -> list[int]:
    """The players to place, members of one club one after the other (the biggest club first), so
    dealing them over the venues in turn puts a club's members in different venues."""
    groups: dict[object, list[int]] = {}
    for pid in ids:
        club = clubs.get(pid)
        groups.setdefault(club if club else ("alone", pid), []).append(pid)
    keyed = []
    for members in groups.values():
        rng.shuffle(members)
        keyed.append((len(members), rng.random(), members))
    keyed.sort(key=lambda item: (-item[0], item[1]))
    return [pid for _, _, members in keyed for pid in members]


def _slots(needs: Sequence[int]) -> list[int]:
    """Venue indexes in turn, each as often as it needs players, spread evenly (smooth weighted
    round robin): ``[2, 1, 1] -> [0, 1, 2, 0]``."""
    total = sum(needs)
    current = [0] * len(needs)
    order = []
    for _ in range(total):
        for v, need in enumerate(needs):
            current[v] += need
        v = max(range(len(needs)), key=lambda i: (current[i], -i))
        current[v] -= total
        order.append(v)
    return order


def draw_venues(
    players: Sequence[int],
    venues: Sequence[VenueSpec],
    *,
    seed: int,
    venue_of: Mapping[int, int] | None = None,
    mix: bool = False,
    met: Iterable[Iterable[int]] = (),
    clubs: Mapping[int, str | None] | None = None,
    keep_clubs_apart: bool = False,
    effort: int = DEFAULT_EFFORT,
) -> tuple[VenueDraw, ...]:
    """Split the players over the venues and draw each venue's tables.

    ``venue_of`` maps a player to the venue (a ``VenueSpec.key``) he sat in last round or checked
    in at; he stays there unless ``mix`` (the organiser mixes the venues: everyone is placed anew,
    each venue seating its share of the room). Players without a venue, and the fewest players a
    venue must give up to fit its room, go where seats are free; members of one club are dealt to
    different venues as far as they can be. The result lists every venue in the given order (a
    venue left empty has no tables); it depends only on the inputs and ``seed``.
    """
    ids = sorted(players)
    for before, after in zip(ids, ids[1:]):
        if before == after:
            raise ValueError(f"players: player {before} is listed twice")
    if not venues:
        raise ValueError("venues: at least one venue")
    keys = [v.key for v in venues]
    if len(set(keys)) != len(keys):
        raise ValueError("venues: a venue is listed twice")
    position = {key: i for i, key in enumerate(keys)}
    rng = random.Random(seed)
    club_map = clubs or {}
    where = {} if mix else dict(venue_of or {})
    members: list[list[int]] = [[] for _ in venues]
    loose: list[int] = []
    for pid in ids:
        at = position.get(where[pid]) if pid in where else None
        (loose if at is None else members[at]).append(pid)
    scale = sum(v.tables for v in venues)
    if mix or not any(members):
        wanted = [len(ids) * v.tables for v in venues]
    else:
        wanted = [len(m) * scale for m in members]
    counts = venue_counts(len(ids), [v.tables for v in venues], wanted)
    for v, count in enumerate(counts):
        if len(members[v]) > count:
            leaving = set(rng.sample(members[v], len(members[v]) - count))
            loose.extend(pid for pid in members[v] if pid in leaving)
            members[v] = [pid for pid in members[v] if pid not in leaving]
    needs = [count - len(m) for count, m in zip(counts, members)]
    for pid, v in zip(_deal_order(sorted(loose), club_map, rng), _slots(needs)):
        members[v].append(pid)
    met_list = [tuple(pair) for pair in met]
    draws = []
    for venue, seated in zip(venues, members):
        venue_seed = rng.randrange(1, 2**31)
        if not seated:
            draws.append(VenueDraw(venue.key, DrawResult((), 0, 0)))
            continue
        result = draw_tables(
            seated, seed=venue_seed, met=met_list, clubs=club_map, keep_clubs_apart=keep_clubs_apart, effort=effort
        )
        draws.append(VenueDraw(venue.key, result))
    return tuple(draws)
