"""Triple Quintzee's card evaluation for the computer players (games/bots/cards.py plays the turn).

A placement's value is the points it adds now (the multiplier, a top bonus reached, a Quintzee bonus)
plus the change in what the rest of the card is worth:
- each column's open boxes and top bonus: its multiplier x the exact optimum's value of a Quintzee column
  in the same state (games/bots/quintzee_optimum.py: its open boxes, its top subtotal up to 63), since
  the calibration showed that fitted means, the same with twelve turns to come and with one, leave
  points on the table (docs/BENCHMARKS.md, "Quintzee's optimum": 1717.9 -> 1752.5 a solo game). With
  ``COLUMN_VALUES`` off, as before: each open box its multiplier x its fitted mean in that column, and
  each column's top bonus 35 x multiplier x the chance its open top boxes still make up the 63 (from the
  fitted distribution of each top box);
- once all three Quintzee boxes are filled: the fitted rate of five of a kinds x 100 x the mean
  multiplier, for every turn left.
With the fitted weights (card_params.json, ``python -m games.bots.fit triple-quintzee --iterate R``) the
rest of the card is a linear function of ``features``: the columns' optimum worth above, the future
Quintzee bonuses' turns, each box's open columns by multiplier, each also by the share of the card still
open, fitted by value iteration on the expert's own games (games/bots/cardvalue.py; 1751.3 -> 1906.2 a
solo game, docs/BENCHMARKS.md, "The card experts' value iteration").
The right-most rule decides where a non-zero Full House, straight or Quintzee lands, so the picked
column matters only for a scratch.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from games.bots import quintzee_optimum as qo
from games.bots.cards import CardPlayers
from games.bots.cardvalue import SumTail, by_value, mask_of, params, weights
from games.rules import triple_quintzee as tq

slug = tq.slug
TYPES = 6
MEAN_MULTIPLIER = 2.0


def side(die) -> int:
    return int(die) - 1


def box_arrays(rows: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each box's raw value and flag (five of a kind) for every row of five sides."""
    faces = rows + 1
    five = (faces.min(axis=1) == faces.max(axis=1)).astype(np.int64)
    out = {}
    for box in tq.BOXES:
        values = np.array([tq.score(box, list(f)) for f in faces.tolist()], dtype=np.int64)
        out[box] = (values, five)
    return out


def flag(box: str, faces: list) -> int:
    return int(len(set(faces)) == 1)


def last_turn(card: dict) -> bool:
    """Whether every placement this turn fills the card (one box left in all three columns)."""
    return sum(v is None for col in card["columns"] for v in col["boxes"].values()) == 1


# Whether the rest of a column is valued by the exact optimum of a Quintzee column (the step
# after the Quintzee calibration) rather than by the fitted means of its open boxes and its top bonus's
# chance (the future Quintzee bonuses keep their fitted rate: Triple Quintzee's rule is its own).
COLUMN_VALUES = True


def _mask(open_boxes: set[str]) -> int:
    return sum(1 << i for i, b in enumerate(tq.BOXES) if b not in open_boxes)


@cache
def optimum() -> np.ndarray:
    return qo.table()


class Fitted:
    def __init__(self):
        p = params(slug)
        self.mean = p["mean_by_column"]
        self.five_rate = p["five_rate"]
        self.top = SumTail([by_value(p["dist"][b], tq.FACE[b]) for b in tq.TOP])
        self.weights = weights(p)

    def first_weights(self) -> np.ndarray:
        """The columns' optimum and the fitted bonus rate as weights of ``features``: value iteration's
        starting point."""
        w = np.zeros(FEATURES)
        w[0] = 1.0
        w[2] = self.five_rate * tq.QUINTZEE_BONUS * MEAN_MULTIPLIER
        return w


# The features of a card the rest of it is worth a linear function of (games/bots/cardvalue.py): the
# columns' worth by the optimum of a Quintzee column (each its multiplier x the table's value of its
# state), and the same by the share of the card still open; once every Quintzee box is filled, the
# turns left, and the same by the share open (future Quintzee bonuses); for each box, the multipliers
# of the columns where it is open, and the same by the share open. A full card is worth 0.
FEATURES = 4 + 2 * len(tq.BOXES)


def features(open_boxes: list[set], subtotals: list[int]) -> np.ndarray:
    f = np.zeros(FEATURES)
    left = sum(len(o) for o in open_boxes)
    share = left / (len(tq.BOXES) * len(tq.COLUMNS))
    values = optimum()
    worth = sum(
        m * values[_mask(o), min(sub, qo.CAP), 0]
        for m, o, sub in zip(tq.COLUMNS, open_boxes, subtotals, strict=True)
    )
    f[0], f[1] = worth, worth * share
    if all("quintzee" not in o for o in open_boxes):
        f[2], f[3] = left, left * share
    n = len(tq.BOXES)
    for m, o in zip(tq.COLUMNS, open_boxes, strict=True):
        for b in o:
            i = tq.BOXES.index(b)
            f[4 + i] += m
            f[4 + n + i] += m * share
    return f


def card_features(card: dict) -> np.ndarray:
    """``features`` of a card as the engine keeps it (games/bots/fit.py's value iteration)."""
    cols = card["columns"]
    return features(
        [{b for b, v in col["boxes"].items() if v is None} for col in cols],
        [col["top_subtotal"] for col in cols],
    )


@cache
def fitted() -> Fitted:
    return Fitted()


class Evaluator:
    """The value of every placement on one card; ``fitted=False`` counts the points now only."""

    def __init__(self, card: dict, fitted_value: bool):
        self.fit = fitted() if fitted_value else None
        self.columns = card["columns"]
        self.open = [{b for b, v in col["boxes"].items() if v is None} for col in self.columns]
        self.all_quintzee = all(col["boxes"]["quintzee"] is not None for col in self.columns)
        self.open_count = sum(len(o) for o in self.open)
        self.weights = self.fit.weights if self.fit else None
        if self.weights is not None:
            self.before = card_features(card) @ self.weights
            # The parts of the worth a placement changes, kept to change them alone (a placement's
            # worth is looked up hundreds of times a turn): each column's optimum value, and the boxes'
            # part by the columns' multipliers, and the same by the share open.
            n, w = len(tq.BOXES), self.weights
            self.worths = [
                m * optimum()[_mask(o), min(col["top_subtotal"], qo.CAP), 0]
                for m, o, col in zip(tq.COLUMNS, self.open, self.columns, strict=True)
            ]
            counts = np.zeros(n)
            for m, o in zip(tq.COLUMNS, self.open, strict=True):
                for b in o:
                    counts[tq.BOXES.index(b)] += m
            self.by_count = float(counts @ w[4 : 4 + n])
            self.by_share = float(counts @ w[4 + n :])
        self.placements = [
            (box, c)
            for box in tq.BOXES
            for c in tq.COLUMNS
            if box in self.open[c - 1] or (box in tq.RIGHT_MOST and any(box in o for o in self.open))
        ]

    def value(self, box: str, picked: int, v: int, five: int) -> float:
        if v and box in tq.RIGHT_MOST:
            empty = [c for c in tq.COLUMNS if box in self.open[c - 1]]
            if not empty:
                return -math.inf
            lands = max(empty)
        elif box in self.open[picked - 1]:
            lands = picked
        else:
            return -math.inf
        col = self.columns[lands - 1]
        m = col["multiplier"]
        gain = m * v
        if five and v and self.all_quintzee:
            gain += m * tq.QUINTZEE_BONUS
        earned = col["top_bonus"] > 0
        sub = col["top_subtotal"] + (v if box in tq.FACE else 0)
        if box in tq.FACE and not earned and sub >= tq.TOP_BONUS_AT:
            gain += m * tq.TOP_BONUS
        if self.fit is None:
            return float(gain)
        if self.weights is not None:
            return gain + self._after(lands, box, sub) - self.before
        return gain + self._change(lands, box, sub, earned)

    def _after(self, lands: int, box: str, sub: int) -> float:
        """``features(after) @ weights`` for the card after ``box`` is filled in column ``lands`` with
        the column's top subtotal then ``sub``, from the card's parts."""
        w, n, i = self.weights, len(tq.BOXES), tq.BOXES.index(box)
        left = self.open_count - 1
        share = left / (n * len(tq.COLUMNS))
        column = lands * optimum()[_mask(self.open[lands - 1] - {box}), min(sub, qo.CAP), 0]
        worth = sum(self.worths) - self.worths[lands - 1] + column
        value = w[0] * worth + w[1] * worth * share
        all_quintzee = self.all_quintzee or (
            box == "quintzee" and sum(1 for o in self.open if "quintzee" in o) == 1
        )
        if all_quintzee:
            value += w[2] * left + w[3] * left * share
        by_count = self.by_count - lands * w[4 + i]
        by_share = self.by_share - lands * w[4 + n + i]
        return value + by_count + share * by_share

    def _change(self, lands: int, box: str, sub: int, earned: bool) -> float:
        fit = self.fit
        m = lands
        # The rest of the column: the optimum's value of its state, or (switched off) its boxes' means.
        change = m * self._column_change(lands, box, sub) if COLUMN_VALUES else -m * fit.mean[box][lands - 1]
        if not COLUMN_VALUES and box in tq.FACE and not earned:
            open_top = self.open[lands - 1]
            before = fit.top(
                mask_of(open_top, tq.TOP), tq.TOP_BONUS_AT - self.columns[lands - 1]["top_subtotal"]
            )
            after = 0.0
            if sub < tq.TOP_BONUS_AT:
                after = fit.top(mask_of(open_top - {box}, tq.TOP), tq.TOP_BONUS_AT - sub)
            change += m * tq.TOP_BONUS * (after - before)
        rate = fit.five_rate * tq.QUINTZEE_BONUS * MEAN_MULTIPLIER
        before_q = rate * self.open_count if self.all_quintzee else 0.0
        all_after = self.all_quintzee or (
            box == "quintzee" and sum(1 for o in self.open if "quintzee" in o) == 1
        )
        after_q = rate * (self.open_count - 1) if all_after else 0.0
        return change + after_q - before_q

    def _column_change(self, lands: int, box: str, sub: int) -> float:
        """The change in the column's worth as one column of Quintzee played optimally on its own (the
        exact optimum's table: its open boxes, its top subtotal up to 63, the top bonus to come)."""
        col = self.columns[lands - 1]
        mask = _mask(self.open[lands - 1])
        values = optimum()
        before = values[mask, min(col["top_subtotal"], qo.CAP), 0]
        after = values[mask | 1 << tq.BOXES.index(box), min(sub, qo.CAP), 0]
        return float(after - before)


# The expert's mean points per turn in a solo game (bench.value_iteration, 2,000 games on its fitted
# weights, docs/BENCHMARKS.md: mean final score / boxes, 1906.2 / 39): the unit in which the coach weighs
# a cost.
TURN_WORTH = 48.9
# What the game's declaration names (its engine's PLAYERS): this evaluation, played by the card turn.
PLAYERS = CardPlayers(__name__)
