"""Who sits with whom in a tournament round: Swiss pairings and round-robin schedules (pure Python).

No Django here: the services (tournaments.services) pass plain data in and store what comes out.
Players are opaque hashable ids (the services use user ids). docs/tournaments.md says the rules in
words; tests/tournaments/test_pairing.py holds them as properties.

Table sizes (``table_sizes``): as many tables of the tournament's size as the players fill; what is left
(``r``) is one smaller table when ``r`` is 2 or more (a table of 2 or 3 is a real game, better than
leaving two or three players out) and a bye when it is 1. At tables of 2 that is the usual bye for an
odd number.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations

Player = Hashable
Pair = frozenset

# Beyond this many steps the search for the fewest repeat meetings gives up and seats greedily: late in
# long tournaments at tables of 3 or 4, where repeats cannot be avoided any more (docs/tournaments.md).
SEARCH_LIMIT = 50_000


@dataclass(frozen=True)
class Standing:
    """A player as Swiss pairing sees them: their match points so far, their rating, and how many
    byes they have had."""

    player: Player
    points: float = 0.0
    rating: int = 1500
    byes: int = 0


@dataclass
class Round:
    """One round's seating: the tables (players in seat order) and the players with a bye."""

    tables: list[list[Player]] = field(default_factory=list)
    byes: list[Player] = field(default_factory=list)

    def players(self) -> list[Player]:
        return [p for table in self.tables for p in table] + list(self.byes)


def table_sizes(count: int, size: int) -> tuple[list[int], int]:
    """The sizes of a round's tables for ``count`` players at tables of ``size``, and how many byes:
    full tables, then one smaller table of what is left if that is 2 or more, else a bye."""
    if count < 2:
        return [], count
    full, left = divmod(count, size)
    sizes = [size] * full
    if left >= 2:
        sizes.append(left)
        return sizes, 0
    return sizes, left


def pairs_of(table: Sequence[Player]) -> list[Pair]:
    return [frozenset(p) for p in combinations(table, 2)]


def repeats(tables: Iterable[Sequence[Player]], met: set[Pair]) -> int:
    """How many pairs at these tables have met before."""
    return sum(1 for table in tables for pair in pairs_of(table) if pair in met)


# --- Swiss ------------------------------------------------------------------------------------------


def swiss_order(players: Iterable[Standing]) -> list[Standing]:
    """By standing (match points), then rating, the higher first; then by id, so that the order is
    always the same for the same data."""
    return sorted(players, key=lambda s: (-s.points, -s.rating, _key(s.player)))


def _key(player: Player):
    return (type(player).__name__, player) if not isinstance(player, int) else ("", player)


def swiss_round(players: Iterable[Standing], size: int, met: set[Pair]) -> Round:
    """One Swiss round at tables of ``size`` (2, 3 or 4).

    Players are ordered by standing, then rating. A bye, when the numbers leave one, goes to the
    lowest-ordered player among those with the fewest byes so far. Then the tables are filled from the
    top: the first player not yet seated opens a table and the next ones in order join it, skipping a
    player who has met someone at it; among all seatings, the one with the fewest repeat meetings is
    taken, and among those the one that keeps players closest to their place in the order (the first
    found when the players are tried in order). A smaller table, if any, is the last one."""
    order = swiss_order(players)
    sizes, bye_count = table_sizes(len(order), size)
    byes: list[Standing] = []
    if bye_count:
        fewest = min(s.byes for s in order)
        candidates = [s for s in order if s.byes == fewest]
        byes = candidates[-bye_count:] if len(candidates) >= bye_count else order[-bye_count:]
    seated = [s.player for s in order if s not in byes]
    tables = seat_fewest_repeats(seated, sizes, met)
    return Round(tables=tables, byes=[s.player for s in byes])


def seat_fewest_repeats(order: Sequence[Player], sizes: Sequence[int], met: set[Pair]) -> list[list[Player]]:
    """Tables of ``sizes`` (in that order) for the players in ``order``, with the fewest pairs that have
    met before; among those, the first in the order of trying players from the top."""
    if sum(sizes) != len(order):
        raise ValueError("the tables' sizes do not add up to the players")
    if not order:
        return []
    greedy = _greedy(order, sizes, met)
    for budget in range(repeats(greedy, met)):
        search = _Search(sizes, met)
        found = search.run(list(order), budget)
        if found is not None:
            return found
        if search.gave_up:
            break
    # Nothing with fewer repeats than the greedy seating; the search in order finds the first of those.
    found = _Search(sizes, met).run(list(order), repeats(greedy, met))
    return found if found is not None else greedy


def _greedy(order: Sequence[Player], sizes: Sequence[int], met: set[Pair]) -> list[list[Player]]:
    """Each table opened by the first player left, joined by the next ones who add the fewest repeats."""
    left = list(order)
    tables = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            best = min(left, key=lambda p: (sum(frozenset((p, q)) in met for q in table), left.index(p)))
            left.remove(best)
            table.append(best)
        tables.append(table)
    return tables


class _GiveUp(Exception):
    pass


class _Search:
    """Depth-first search for a seating with at most ``budget`` repeats, players tried from the top;
    gives up after SEARCH_LIMIT steps (``gave_up``). The first player left opens a table of each size
    still to fill (the larger first): with a smaller table, who sits at it is a choice too (a player
    who has met nearly everyone may only fit at the table of two). Full tables come first in the
    seating returned."""

    def __init__(self, sizes: Sequence[int], met: set[Pair]):
        self.sizes = list(sizes)
        self.met = met
        self.steps = 0
        self.gave_up = False

    def run(self, order: list[Player], budget: int) -> list[list[Player]] | None:
        try:
            found = self._fill([], order, budget, sorted(self.sizes, reverse=True))
        except _GiveUp:
            self.gave_up = True
            return None
        return None if found is None else sorted(found, key=len, reverse=True)

    def _fill(self, tables: list, left: list, budget: int, sizes: list[int]) -> list[list[Player]] | None:
        if not left:
            return [list(t) for t in tables]
        first, rest = left[0], left[1:]
        for size in dict.fromkeys(sizes):
            still = list(sizes)
            still.remove(size)
            for others in combinations(rest, size - 1):
                self.steps += 1
                if self.steps > SEARCH_LIMIT:
                    raise _GiveUp
                table = (first, *others)
                cost = repeats([table], self.met)
                if cost > budget:
                    continue
                chosen = set(others)
                rest_left = [p for p in rest if p not in chosen]
                found = self._fill([*tables, table], rest_left, budget - cost, still)
                if found is not None:
                    return found
        return None


# --- round robin ------------------------------------------------------------------------------------


def round_robin(players: Sequence[Player], size: int) -> list[Round]:
    """Every round of a round robin of ``players`` at tables of ``size``, every pair meeting at least
    once. At tables of 2 the circle method: each pair exactly once in n - 1 rounds (n rounds with a
    bye each for an odd number). At 3 or 4: rounds are added until every pair has met; each round's
    tables are built greedily to seat together as many pairs as have not met yet (a table is opened by
    the player with the most opponents still to meet, and joined one by one by whoever meets the most
    new opponents at it), byes go to the players with the fewest opponents left to meet."""
    players = list(players)
    if len(players) < 2:
        return []
    if size == 2:
        return _circle(players)
    return _cover(players, size)


def _circle(players: list[Player]) -> list[Round]:
    ring: list[Player | None] = list(players) + ([None] if len(players) % 2 else [])
    n = len(ring)
    rounds = []
    for _ in range(n - 1):
        tables, byes = [], []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None or b is None:
                byes.append(b if a is None else a)
            else:
                tables.append([a, b])
        rounds.append(Round(tables=tables, byes=byes))
        ring = [ring[0], ring[-1], *ring[1:-1]]  # the first stays, the others turn one place
    return rounds


def _cover(players: list[Player], size: int) -> list[Round]:
    index = {p: i for i, p in enumerate(players)}
    unmet = {frozenset(p) for p in combinations(players, 2)}
    byes_had = dict.fromkeys(players, 0)
    rounds = []
    while unmet:

        def still(p, unmet=unmet):
            return sum(1 for q in players if q != p and frozenset((p, q)) in unmet)

        sizes, bye_count = table_sizes(len(players), size)
        by_need = sorted(players, key=lambda p: (still(p), byes_had[p], -index[p]))
        byes = by_need[:bye_count]
        for p in byes:
            byes_had[p] += 1
        left = [p for p in players if p not in byes]
        tables = []
        for table_size in sizes:
            first = max(left, key=lambda p: (still(p), -index[p]))
            table = [first]
            left.remove(first)
            while len(table) < table_size:
                best = max(
                    left,
                    key=lambda p, table=table: (
                        sum(frozenset((p, q)) in unmet for q in table),
                        still(p),
                        -index[p],
                    ),
                )
                table.append(best)
                left.remove(best)
            tables.append(table)
        covered = {pair for table in tables for pair in pairs_of(table)}
        if not covered & unmet:  # cannot happen (the first table meets someone new); never loop
            raise RuntimeError("a round robin round that seats no new pair")
        unmet -= covered
        rounds.append(Round(tables=tables, byes=byes))
    return rounds
