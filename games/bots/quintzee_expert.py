"""Quintzee's computer players and the coach's expert (games/bots/__init__.py's ``Players``).

The expert plays the exact solitaire optimum (games/bots/quintzee_optimum.py): every action is worth the
expected final score of the rest of the game from it under optimal play (the points a box scores now,
the bonuses it earns and the table's value of the card it leaves; a hold, the exact expectation of that
over the dice it re-rolls), so ``best(state).value - value(state, action)`` is what the action loses
against the optimum, as in Verhoeff's analysis of a game.

The easy and good players are the card games' (games/bots/cards.py) on this module's evaluation of the
card, as Triple Quintzee's are on games/bots/quintzee.py's: a placement is worth its points now, the
Joker, the upper bonus it reaches and a Quintzee bonus included. The same evaluation with fitted figures
of the rest of the card (games/bots/card_params.json, ``python -m games.bots.fit quintzee``) is the
heuristic expert the three other card games have, ``HEURISTIC`` at strength "expert": no computer of the
site plays it; it measures how far that method is from the optimum (``python -m bench.quintzee
--heuristic``, docs/BENCHMARKS.md).
"""

from __future__ import annotations

import math
import random
from functools import cache

import numpy as np

from games import bots
from games.bots import quintzee_optimum as qo
from games.bots.cards import CardPlayers
from games.bots.cardvalue import SumTail, by_value, mask_of, params, weights
from games.rules import quintzee
from games.rules.cardgame import MAX_ROLLS

BOXES = quintzee.BOXES
TOP = quintzee.TOP
FACE = quintzee.FACE


def card_state(card: dict) -> tuple[int, int, int]:
    """(mask of filled boxes, upper sum capped at 63, whether the Quintzee box holds 50)."""
    boxes = card["boxes"]
    mask = sum(1 << i for i, box in enumerate(BOXES) if boxes[box] is not None)
    return mask, min(card["top_subtotal"], qo.CAP), int(boxes["quintzee"] == quintzee.QUINTZEE)


def _row(sides: list[int]) -> int:
    return qo.dice().u.row(sides)


# --- the card games' evaluation of a Quintzee card (what games/bots/cards.py asks) -------------------

slug = quintzee.slug
TYPES = 6


def side(die) -> int:
    return int(die) - 1


def box_arrays(rows: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each box's value without the Joker for every row of five sides, and its flag: the face of a five
    of a kind (the Joker depends on the card's upper box of that face), else 0."""
    faces = rows + 1
    five = np.where(faces.min(axis=1) == faces.max(axis=1), faces[:, 0], 0).astype(np.int64)
    listed = faces.tolist()
    return {box: (np.array([quintzee.score(box, f) for f in listed], dtype=np.int64), five) for box in BOXES}


def flag(box: str, faces: list) -> int:
    return int(faces[0]) if len(set(faces)) == 1 else 0


def last_turn(card: dict) -> bool:
    """Whether every placement this turn fills the card (one box left)."""
    return sum(v is None for v in card["boxes"].values()) == 1


class Fitted:
    def __init__(self):
        p = params(slug)
        self.mean = p["mean"]
        self.five_rate = p["five_rate"]
        self.top = SumTail([by_value(p["dist"][b], FACE[b]) for b in TOP])
        self.weights = weights(p)

    def first_weights(self) -> np.ndarray:
        """The fitted means' model as weights of ``features``: value iteration's starting point."""
        w = np.zeros(FEATURES)
        w[: len(BOXES)] = [self.mean[b] for b in BOXES]
        w[2 * len(BOXES)] = 1.0
        w[2 * len(BOXES) + 2] = self.five_rate * quintzee.QUINTZEE_BONUS
        return w


# The features of a card the rest of it is worth a linear function of (games/bots/cardvalue.py): each
# open box, and each open box by the share of the card still open (a box is worth more with more turns
# to fill it); 35 x the chance of the top bonus, and the same by the share open; once the Quintzee box
# holds 50, the turns left and their square's share (future Quintzee bonuses).
FEATURES = 2 * len(BOXES) + 4


def features(fit: Fitted, open_boxes: set, sub: int, earned: bool, scored_50: bool) -> np.ndarray:
    n = len(BOXES)
    share = len(open_boxes) / n
    f = np.zeros(FEATURES)
    for i, box in enumerate(BOXES):
        if box in open_boxes:
            f[i], f[n + i] = 1.0, share
    if not earned:
        bonus = quintzee.TOP_BONUS * fit.top(mask_of(open_boxes, TOP), quintzee.TOP_BONUS_AT - sub)
        f[2 * n], f[2 * n + 1] = bonus, bonus * share
    if scored_50:
        f[2 * n + 2], f[2 * n + 3] = len(open_boxes), len(open_boxes) * share
    return f


def card_features(card: dict) -> np.ndarray:
    """``features`` of a card as the engine keeps it (games/bots/fit.py's value iteration)."""
    boxes = card["boxes"]
    open_boxes = {b for b in BOXES if boxes[b] is None}
    scored = boxes["quintzee"] == quintzee.QUINTZEE
    return features(fitted(), open_boxes, card["top_subtotal"], card["top_bonus"] > 0, scored)


@cache
def fitted() -> Fitted:
    return Fitted()


class Evaluator:
    """The value of every placement on one card; ``fitted_value=False`` counts the points now only.

    As Triple Quintzee's evaluation (games/bots/quintzee.py) on one column worth 1x, with Quintzee's own
    rules: the Joker's 25, 30 and 40, and the Quintzee bonus only after a scored 50 (for a zero too)."""

    def __init__(self, card: dict, fitted_value: bool):
        self.fit = fitted() if fitted_value else None
        self.card = card
        boxes = card["boxes"]
        self.open = {b for b in BOXES if boxes[b] is None}
        self.placements = [(b, None) for b in BOXES if b in self.open]
        self.scored_50 = boxes["quintzee"] == quintzee.QUINTZEE
        self.joker_ready = boxes["quintzee"] is not None
        if self.fit is not None and self.fit.weights is not None:
            self.before = card_features(card) @ self.fit.weights

    def value(self, box: str, picked: None, v: int, five: int) -> float:
        if box not in self.open:
            return -math.inf
        if five and box in quintzee.JOKER and self.joker_ready and TOP[five - 1] not in self.open:
            v = quintzee.JOKER[box]
        gain = v
        if five and self.scored_50:
            gain += quintzee.QUINTZEE_BONUS
        earned = self.card["top_bonus"] > 0
        sub = self.card["top_subtotal"] + (v if box in FACE else 0)
        if box in FACE and not earned and sub >= quintzee.TOP_BONUS_AT:
            gain += quintzee.TOP_BONUS
        if self.fit is None:
            return float(gain)
        if self.fit.weights is not None:
            reached = box in FACE and not earned and sub >= quintzee.TOP_BONUS_AT
            scored = self.scored_50 or (box == "quintzee" and v == quintzee.QUINTZEE)
            after = features(self.fit, self.open - {box}, sub, earned or reached, scored)
            return gain + after @ self.fit.weights - self.before
        return gain + self._change(box, v, sub, earned)

    def _change(self, box: str, v: int, sub: int, earned: bool) -> float:
        fit = self.fit
        change = -fit.mean[box]
        if box in FACE and not earned:
            need = quintzee.TOP_BONUS_AT - self.card["top_subtotal"]
            before = fit.top(mask_of(self.open, TOP), need)
            after = 0.0
            if sub < quintzee.TOP_BONUS_AT:
                after = fit.top(mask_of(self.open - {box}, TOP), quintzee.TOP_BONUS_AT - sub)
            change += quintzee.TOP_BONUS * (after - before)
        # Future Quintzee bonuses, once the box holds 50: the fitted rate of five of a kinds per turn.
        rate = fit.five_rate * quintzee.QUINTZEE_BONUS
        left = len(self.open)
        before_q = rate * left if self.scored_50 else 0.0
        after_50 = self.scored_50 or (box == "quintzee" and v == quintzee.QUINTZEE)
        after_q = rate * (left - 1) if after_50 else 0.0
        return change + after_q - before_q


# The coach's unit for these players too: the optimum's mean points per box.
TURN_WORTH = qo.START_VALUE / len(BOXES)
# The card games' players on this evaluation: easy and good for the site, expert only to be measured.
HEURISTIC = CardPlayers(__name__)


class Expert:
    """The optimal player's values, and the card games' easy and good players on Quintzee's card."""

    # The evaluation the easy and good players play on (games.bots.cards._game, games/bots/fit.py).
    game = property(lambda self: HEURISTIC.game)

    def value(self, state: dict, action: dict) -> float:
        card = state["cards"][state["current"]]
        boxes, start, first, last = qo.turn(*card_state(card))
        dice = state["dice"]
        if action["type"] == "roll":
            if state["roll"] == 0:
                return start
            kept = sorted(int(dice[i]) - 1 for i in action.get("hold", []))
            holds = first if MAX_ROLLS - state["roll"] == 2 else last
            return float(holds[len(kept)][_row(kept)])
        box = BOXES.index(action["box"])
        return float(boxes[box, _row([int(d) - 1 for d in dice])])

    def best(self, state: dict) -> bots.Choice:
        ranked = [bots.Choice(a, self.value(state, a)) for a in quintzee.legal_actions(state)]
        return max(ranked, key=lambda c: c.value)  # the first of equals: the engine's order breaks ties

    def to_win(self, state: dict) -> bots.Stake | None:
        # The last turn against a known score: the card players' exact chance of winning, as in the
        # other card games (the optimum maximises points, not the chance to beat a score).
        return HEURISTIC.to_win(state)

    def choose(self, state: dict, strength: str, rng: random.Random) -> dict:
        if strength == "expert":
            won = self.to_win(state)
            return won.best.action if won is not None else self.best(state).action
        return HEURISTIC.choose(state, strength, rng)

    def turn_worth(self, options: dict | None) -> float:
        # The optimum's mean points per box: the coach's unit.
        return qo.START_VALUE / len(BOXES)


PLAYERS = Expert()
