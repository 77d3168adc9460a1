"""Exact expectations over the re-rolls of a five-dice turn, for any die with ``types`` equally likely
sides (6 for a plain die; 30 for a Painted DiceZ die: 6 faces x 5 colours).

Dice are multisets of side indices. Every multiset of up to five dice gets a row number per size, and
``children[n]`` maps a multiset of ``n`` dice plus one more die of each side to the row of the result.
The expectation of a hold that leaves ``5 - n`` dice to roll is then, exactly, the mean over the next
die of the expectation one die further (rolling dice one after another gives the same outcomes with the
same probabilities as rolling them together), so a whole table of holds costs a few array gathers.

``best_subset`` answers "the best hold inside these five dice": the best value among every
sub-multiset of at most four dice, by taking one die away at a time (at most five distinct sides).
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

import numpy as np

DICE = 5


class Universe:
    """Every multiset of up to five dice with ``types`` sides, and how they nest."""

    def __init__(self, types: int):
        self.types = types
        # rows[n]: (count, n) sorted side indices of every multiset of n dice.
        self.rows = [
            np.array(list(combinations_with_replacement(range(types), n)), dtype=np.int16).reshape(
                -1 if n else 1, n
            )
            for n in range(DICE + 1)
        ]
        self.keys = [self._key(r) for r in self.rows]
        # Stored one column per added or removed die, contiguous: a gather per column and in-place sums
        # and maxima are many times faster than numpy's reductions along a short axis.
        self.children = [np.ascontiguousarray(self._children(n).T) for n in range(DICE)]
        self.parents = [None] + [np.ascontiguousarray(self._parents(n).T) for n in range(1, DICE + 1)]

    def _key(self, rows: np.ndarray) -> np.ndarray:
        # A multiset's sorted sides read as digits in base ``types + 1`` (0 pads shorter rows).
        key = np.zeros(len(rows), dtype=np.int64)
        for j in range(rows.shape[1]):
            key = key * (self.types + 1) + rows[:, j] + 1
        return key

    def index(self, n: int, rows: np.ndarray) -> np.ndarray:
        rows = np.sort(rows, axis=1)
        return np.searchsorted(self.keys[n], self._key(rows)).astype(np.intp)

    def _children(self, n: int) -> np.ndarray:
        base = self.rows[n]
        count = len(base)
        grown = np.concatenate(
            [
                np.repeat(base, self.types, axis=0),
                np.tile(np.arange(self.types, dtype=np.int16), count)[:, None],
            ],
            axis=1,
        )
        return self.index(n + 1, grown).reshape(count, self.types)

    def _parents(self, n: int) -> np.ndarray:
        """For each multiset of ``n`` dice, the rows (size n - 1) left by taking out its j-th die."""
        base = self.rows[n]
        out = np.empty((len(base), n), dtype=np.intp)
        for j in range(n):
            out[:, j] = self.index(n - 1, np.delete(base, j, axis=1))
        return out

    def row(self, sides) -> int:
        """The row of a multiset of side indices (any order) among the multisets of its size."""
        sides = sorted(sides)
        n = len(sides)
        return int(self.index(n, np.array([sides], dtype=np.int16).reshape(1, n))[0])

    def expect(self, final: np.ndarray) -> list[np.ndarray]:
        """For each hold size n < 5, the exact expectation of ``final`` (one value per five-dice row)
        once the other 5 - n dice are rolled."""
        out: list[np.ndarray] = [None] * DICE + [final]
        for n in range(DICE - 1, -1, -1):
            children = self.children[n]
            total = np.take(out[n + 1], children[0])
            for column in children[1:]:
                total += np.take(out[n + 1], column)
            out[n] = total / self.types
        return out

    def _max_over(self, values: np.ndarray, n: int) -> np.ndarray:
        parents = self.parents[n]
        best = np.take(values, parents[0])
        for column in parents[1:]:
            np.maximum(best, np.take(values, column), out=best)
        return best

    def best_subset(self, holds: list[np.ndarray]) -> np.ndarray:
        """For each five-dice row, the best of ``holds`` over its sub-multisets of at most four dice."""
        closure = holds[0]
        for n in range(1, DICE):
            closure = np.maximum(holds[n], self._max_over(closure, n))
        return self._max_over(closure, DICE)


@cache
def universe(types: int) -> Universe:
    return Universe(types)


class TurnTables:
    """The values of a turn for one card: ``final`` per five-dice row (the best score now), ``hold[r]``
    per hold (size, row) with ``r`` re-rolls left after this one (0: the last re-roll)."""

    def __init__(self, u: Universe, final: np.ndarray, rolls_ahead: int = 2):
        self.final = final
        self.hold: list[list[np.ndarray]] = []
        value = final
        for _ in range(rolls_ahead):
            holds = u.expect(value)
            self.hold.append(holds)
            value = np.maximum(final, u.best_subset(holds))

    def hold_value(self, u: Universe, kept: list[int], rerolls_left: int) -> float:
        """The value of keeping ``kept`` (side indices) with ``rerolls_left`` re-rolls left, this one
        included (1: the last re-roll)."""
        return float(self.hold[rerolls_left - 1][len(kept)][u.row(kept)])
