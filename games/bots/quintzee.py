"""Triple Quintzee's card evaluation for the computer players (games/bots/cards.py plays the turn).

A placement's value is the points it adds now (the multiplier, a top bonus reached, a Quintzee bonus)
plus the change in what the rest of the card is worth:
- each open box: its multiplier x the fitted mean of that box in that column;
- each column's top bonus: 35 x multiplier x the chance its open top boxes still make up the 63 (from
  the fitted distribution of each top box);
- once all three Quintzee boxes are filled: the fitted rate of five of a kinds x 100 x the mean
  multiplier, for every turn left.
The right-most rule decides where a non-zero Full House, straight or Quintzee lands, so the picked
column matters only for a scratch.
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from games.bots.cards import CardPlayers
from games.bots.cardvalue import SumTail, by_value, mask_of, params
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


class Fitted:
    def __init__(self):
        p = params(slug)
        self.mean = p["mean_by_column"]
        self.five_rate = p["five_rate"]
        self.top = SumTail([by_value(p["dist"][b], tq.FACE[b]) for b in tq.TOP])


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
        return gain + self._change(lands, box, sub, earned)

    def _change(self, lands: int, box: str, sub: int, earned: bool) -> float:
        fit = self.fit
        m = lands
        change = -m * fit.mean[box][lands - 1]
        if box in tq.FACE and not earned:
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


# The expert's mean points per turn in a solo game (bench.bots, 2,000 games, docs/BENCHMARKS.md: mean
# final score / boxes, 1717.9 / 39): the unit in which the coach weighs a cost.
TURN_WORTH = 44.0
# What the game's declaration names (its engine's PLAYERS): this evaluation, played by the card turn.
PLAYERS = CardPlayers(__name__)
