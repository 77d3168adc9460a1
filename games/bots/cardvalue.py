"""What the open part of a card is worth: the fitted figures of each game (games/bots/card_params.json,
written by ``python -m games.bots.fit``) and the probability tables built from them at import.

Each box's fitted figures are the distribution of the raw value the expert writes in it (before any
multiplier), so the expected rest of a card is the sum of its open boxes' means, and the chance of a
bonus is the chance that the open boxes of its section add up to what is missing (boxes taken as
independent), read from a table per set of open boxes.

Where a game's figures hold ``weights``, the rest of a card is instead a linear function of the game's
features of the card (its module's ``features``: which boxes are open, the same by how much of the card
is still open, the bonus chances above, ...), the weights fitted by value iteration on the expert's own
games (games/bots/fit.py, ``--iterate``): each turn's exact value over its dice, on the weights before,
is what the card at its start is refitted to. The calibration game, Quintzee, says why: a box's
worth changes with the card around it, which independent means miss (docs/BENCHMARKS.md).
"""

from __future__ import annotations

import json
import math
from functools import cache
from pathlib import Path

import numpy as np

PARAMS = Path(__file__).with_name("card_params.json")


@cache
def params(slug: str) -> dict:
    return json.loads(PARAMS.read_text())[slug]


def weights(figures: dict) -> np.ndarray | None:
    """The weights of the game's card features that the rest of a card is worth, fitted by value
    iteration (``python -m games.bots.fit <slug> --iterate R``); None where only the figures are."""
    w = figures.get("weights")
    return None if w is None else np.asarray(w, dtype=float)


def by_value(counts: list[float], face: int) -> list[float]:
    """An upper box's distribution by value (face x dice) from its distribution by number of dice."""
    out = [0.0] * (5 * face + 1)
    for n, p in enumerate(counts):
        out[n * face] += p
    return out


class SumTail:
    """P(the open boxes' values add up to at least ``need``), for every subset of ``boxes``."""

    def __init__(self, dists: list[list[float]]):
        self.n = len(dists)
        self.tables: list[np.ndarray] = []
        for mask in range(1 << self.n):
            total = np.array([1.0])
            for i, dist in enumerate(dists):
                if mask >> i & 1:
                    total = np.convolve(total, np.asarray(dist, dtype=float))
            # tail[k] = P(sum >= k)
            self.tables.append(np.cumsum(total[::-1])[::-1])

    def __call__(self, mask: int, need: int) -> float:
        if need <= 0:
            return 1.0
        tail = self.tables[mask]
        return float(tail[need]) if need < len(tail) else 0.0


class CountTail:
    """P(at least ``need`` of the open boxes succeed), each box ``i`` with probability ``probs[i]``."""

    def __init__(self, probs: list[float]):
        self.n = len(probs)
        self.tables: list[list[float]] = []
        for mask in range(1 << self.n):
            dist = [1.0]
            for i, p in enumerate(probs):
                if mask >> i & 1:
                    dist = [a * (1 - p) + b * p for a, b in zip([*dist, 0.0], [0.0, *dist], strict=True)]
            tail = list(np.cumsum(dist[::-1])[::-1])
            self.tables.append(tail)

    def __call__(self, mask: int, need: int) -> float:
        if need <= 0:
            return 1.0
        tail = self.tables[mask]
        return tail[need] if need < len(tail) else 0.0


def normal_tail(mean: float, var: float, need: float) -> float:
    """P(a total of mean ``mean`` and variance ``var`` reaches ``need``), by the normal law."""
    if need <= 0:
        return 1.0
    if var <= 0:
        return 1.0 if mean >= need else 0.0
    return 0.5 * math.erfc((need - 0.5 - mean) / math.sqrt(2 * var))


def mask_of(open_boxes, names: tuple[str, ...]) -> int:
    return sum(1 << i for i, name in enumerate(names) if name in open_boxes)


def hats(turns: int, knots: tuple[int, ...]) -> list[tuple[int, float]]:
    """The hat functions of the turns left (linear between ``knots``) that are not 0 at ``turns``: (index,
    value), the values adding to 1. A feature by these hats is worth its own weight at each knot and is
    interpolated between: the card's last turns get weights of their own, where a slope by the share of
    the card open, extrapolated from mid-card, went wrong (Painted DiceZ, docs/engine.md)."""
    for j in range(len(knots) - 1):
        lo, hi = knots[j], knots[j + 1]
        if lo <= turns <= hi:
            x = (turns - lo) / (hi - lo)
            return [(j, 1.0 - x), (j + 1, x)]
    raise ValueError(turns)
