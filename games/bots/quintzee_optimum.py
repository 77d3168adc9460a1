"""The exact solitaire optimum of Quintzee (one Yahtzee column, official rules: games/rules/quintzee.py)
by dynamic programming over the card's states, as Verhoeff and Glenn solved it.

A state between turns is (the 13-bit mask of filled boxes, the upper sum capped at 63, whether the
Quintzee box holds 50); its value is the expected final score of the rest of the game under optimal
play (points already on the card left out). Values are computed backwards by the number of filled
boxes, every state of a batch of masks at once: after the third roll the best open box (its points,
the bonuses it earns and the value of the state it leads to), then twice the best hold (the exact
expectation of each hold, games/bots/dicedp.py, and the best hold inside each roll). The start value
is 254.5896 (Verhoeff's). ``manage.py quintzee_optimum`` rebuilds the shipped table
(``data/quintzee_optimum.npz``, float32); ``table()`` loads it.

Pure numpy, deterministic, no Django.
"""

from __future__ import annotations

from functools import cache, lru_cache
from pathlib import Path

import numpy as np

from games.bots.dicedp import DICE, universe
from games.rules import quintzee as q

BOXES = q.BOXES
N_BOXES = len(BOXES)  # 13
UPPER = len(q.TOP)  # boxes 0..5 are Ones..Sixes
YAHTZEE = BOXES.index("quintzee")
FULL = (1 << N_BOXES) - 1
CAP = q.TOP_BONUS_AT  # the upper sum counts up to 63 only: no more is needed
SUMS = CAP + 1
PATH = Path(__file__).resolve().parent / "data" / "quintzee_optimum.npz"
START_VALUE = 254.5896  # Verhoeff's optimum, to four decimals


class Dice:
    """The 252 five-dice rolls (sorted) and each box's value for them, plain and as a Joker."""

    def __init__(self) -> None:
        self.u = universe(6)
        rows = self.u.rows[DICE]
        faces = (rows + 1).tolist()
        self.five = rows.min(axis=1) == rows.max(axis=1)  # (252,)
        self.five_face = rows[:, 0].astype(np.intp)  # the upper box of a five of a kind
        self.plain = np.array([[q.score(b, f) for f in faces] for b in BOXES], dtype=np.float64)
        self.joker = np.array([[q.joker_score(b, f) for f in faces] for b in BOXES], dtype=np.float64)


@cache
def dice() -> Dice:
    return Dice()


def expect(u, final: np.ndarray) -> list[np.ndarray]:
    """dicedp.Universe.expect over the last axis of ``final`` (states x 252): for each hold size
    n < 5, the exact expectation once the other 5 - n dice are rolled."""
    out: list = [None] * DICE + [final]
    for n in range(DICE - 1, -1, -1):
        children = u.children[n]
        total = np.take(out[n + 1], children[0], axis=-1)
        for column in children[1:]:
            total += np.take(out[n + 1], column, axis=-1)
        out[n] = total / u.types
    return out


def _max_over(u, values: np.ndarray, n: int) -> np.ndarray:
    parents = u.parents[n]
    best = np.take(values, parents[0], axis=-1)
    for column in parents[1:]:
        np.maximum(best, np.take(values, column, axis=-1), out=best)
    return best


def best_hold(u, final: np.ndarray, holds: list[np.ndarray]) -> np.ndarray:
    """For each roll, the best of scoring it (``final``) and every hold inside it."""
    closure = holds[0]
    for n in range(1, DICE):
        closure = np.maximum(holds[n], _max_over(u, closure, n))
    return np.maximum(final, _max_over(u, closure, DICE))


def last_roll(values: np.ndarray, masks: np.ndarray, per_box: bool = False) -> np.ndarray:
    """(masks, sums, flag, roll): the best box for each roll after the last roll, or with ``per_box``
    (masks, sums, flag, box, roll): what filling each box with each roll is worth from each state of
    ``masks`` (its points, the bonuses it earns, the value of the state it leads to); -inf where the box
    is filled. ``values`` is the table (masks, sums, flag)."""
    d = dice()
    m = len(masks)
    rolls = len(d.five)
    sums = np.arange(SUMS)[:, None]  # (64, 1)
    flags = np.arange(2)
    shape = (m, SUMS, 2, N_BOXES, rolls) if per_box else (m, SUMS, 2, rolls)
    out = np.full(shape, -np.inf)
    # The Joker (free choice, as Verhoeff solved it): a five of a kind with the Quintzee box filled (50
    # or 0) and its own upper box filled scores 25, 30 and 40 in Full House and the straights; any open
    # box may take it.
    joker = ((masks[:, None] >> YAHTZEE) & 1).astype(bool) & d.five[None, :]  # (m, 252)
    joker &= ((masks[:, None] >> d.five_face[None, :]) & 1).astype(bool)
    # The Quintzee bonus: 100 for a five of a kind when the Quintzee box holds 50, wherever it goes.
    bonus = q.QUINTZEE_BONUS * (flags[:, None] * d.five[None, :])  # (2, 252)
    for b in range(N_BOXES):
        open_ = ((masks >> b) & 1) == 0
        if not open_.any():
            continue
        rows = np.flatnonzero(open_)
        nxt = masks[rows] | (1 << b)
        upper = b < UPPER
        points = np.where(joker[rows], d.joker[b][None, :], d.plain[b][None, :])  # (k, 252)
        if upper:
            after = np.minimum(CAP, sums[None] + points[:, None, :]).astype(np.intp)  # (k, 64, 252)
            reached = (sums[None] < CAP) & (sums[None] + points[:, None, :] >= CAP)
            gain = points[:, None, :] + q.TOP_BONUS * reached  # (k, 64, 252)
            future = values[nxt[:, None, None, None], after[:, :, None, :], flags[None, None, :, None]]
            worth = gain[:, :, None, :] + future
        elif b == YAHTZEE:
            scored = (points == q.QUINTZEE)[:, None, None, :]  # (k, 1, 1, 252)
            flag_after = flags[None, None, :, None] | scored  # (k, 1, 2, 252)
            future = values[nxt[:, None, None, None], sums[None, :, :, None], flag_after]
            worth = points[:, None, None, :] + future
        else:
            worth = points[:, None, None, :] + values[nxt][:, :, :, None]
        worth = worth + bonus[None, None]
        if per_box:
            out[rows, :, :, b, :] = worth
        else:
            out[rows] = np.maximum(out[rows], worth)
    return out


def level_values(values: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The value (sums, flag) of every state of ``masks``, from ``values`` of the states after them."""
    u = dice().u
    final = last_roll(values, masks)  # (m, 64, 2, 252)
    value = final
    for _ in range(2):
        value = best_hold(u, final, expect(u, value))
    return expect(u, value)[0][..., 0]


def build(batch: int = 64, report=None) -> np.ndarray:
    """The whole table (8192 masks, 64 sums, 2 flags), float64, computed backwards from the full card."""
    values = np.zeros((FULL + 1, SUMS, 2))
    filled = np.array([bin(m).count("1") for m in range(FULL + 1)])
    for level in range(N_BOXES - 1, -1, -1):
        masks = np.flatnonzero(filled == level)
        for start in range(0, len(masks), batch):
            part = masks[start : start + batch]
            values[part] = level_values(values, part)
        if report:
            report(level, len(masks))
    return values


def reachable() -> np.ndarray:
    """(masks, sums, flag): the states a game can reach. An upper sum needs the upper boxes filled to
    make it; the flag needs the Quintzee box filled."""
    sums = np.zeros((1 << UPPER, SUMS), dtype=bool)  # upper mask -> reachable capped sums
    sums[0, 0] = True
    for upper in range(1, 1 << UPPER):
        face = upper.bit_length()  # the highest filled upper box, added last
        before = sums[upper & ~(1 << (face - 1))]
        for n in range(DICE + 1):
            sums[upper, np.minimum(CAP, np.flatnonzero(before) + n * face)] = True
    masks = np.arange(FULL + 1)
    out = np.repeat(sums[masks & ((1 << UPPER) - 1)][:, :, None], 2, axis=2)
    out[:, :, 1] &= ((masks >> YAHTZEE) & 1).astype(bool)[:, None]
    return out


def save(values: np.ndarray, path: Path = PATH) -> None:
    """The table as float32, unreachable states 0 (they compress to nothing)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, values=np.where(reachable(), values, 0).astype(np.float32))


@cache
def table() -> np.ndarray:
    """The shipped table, (8192, 64, 2) float64 (stored as float32)."""
    with np.load(PATH) as data:
        return data["values"].astype(np.float64)


@lru_cache(maxsize=512)
def turn(mask: int, sums: int, flag: int) -> tuple[np.ndarray, float, list, list]:
    """One turn's exact values from a state between turns: (what each box is worth with each roll after
    the last roll (13, 252), -inf for a filled box; the turn's value before its first roll; the holds'
    values with two re-rolls left, this one included; with one re-roll left), each list by hold size."""
    u = dice().u
    boxes = last_roll(table(), np.array([mask]), per_box=True)[0, min(sums, CAP), flag]  # (13, 252)
    final = boxes.max(axis=0)
    last = expect(u, final)
    first = expect(u, best_hold(u, final, last))
    start = float(expect(u, best_hold(u, final, first))[0][0])
    return boxes, start, first, last


def state_value(mask: int, sums: int, flag: int) -> float:
    return float(table()[mask, min(sums, CAP), flag])


def worths(values: np.ndarray, masks: np.ndarray, sums: np.ndarray, flags: np.ndarray) -> np.ndarray:
    """``last_roll`` for one state per row (masks, sums, flags: (n,) each), per box: (n, 13, 252). What
    the benchmark needs to play many games at once."""
    d = dice()
    n = len(masks)
    out = np.full((n, N_BOXES, len(d.five)), -np.inf)
    joker = ((masks[:, None] >> YAHTZEE) & 1).astype(bool) & d.five[None, :]
    joker &= ((masks[:, None] >> d.five_face[None, :]) & 1).astype(bool)
    bonus = q.QUINTZEE_BONUS * (flags[:, None] * d.five[None, :])  # (n, 252)
    for b in range(N_BOXES):
        rows = np.flatnonzero(((masks >> b) & 1) == 0)
        if not len(rows):
            continue
        nxt = masks[rows] | (1 << b)
        s, f = sums[rows, None], flags[rows, None]
        points = np.where(joker[rows], d.joker[b][None, :], d.plain[b][None, :])
        if b < UPPER:
            reached = (s < CAP) & (s + points >= CAP)
            future = values[nxt[:, None], np.minimum(CAP, s + points).astype(np.intp), f]
            worth = points + q.TOP_BONUS * reached + future
        elif b == YAHTZEE:
            worth = points + values[nxt[:, None], s, f | (points == q.QUINTZEE)]
        else:
            worth = points + values[nxt, sums[rows], flags[rows]][:, None]
        out[rows, b] = worth + bonus[rows]
    return out
