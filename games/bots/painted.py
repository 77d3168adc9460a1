"""Painted DiceZ's card evaluation for the computer players (games/bots/cards.py plays the turn).

A die is one of 30 equally likely sides (6 faces x 5 colours), so the turn's expectations are exact over
faces and colours together: the 278,256 multisets of five sides (games/bots/dicedp.py), each box's
value computed for all of them at once here. The state is reduced to what the scores depend on: the
multiset of sides, never the dice's order, and each box's values are grouped into their few distinct
values, so a placement is valued once per distinct value.

A placement's value is its points now (a bonus reached included) plus the change in what the rest of
the card is worth: the fitted mean of every open box, and 35 x the chance that each section (Ones to
Sixes, the five colours) still reaches 63, from the fitted distribution of each open box's value; on
the weights fitted by value iteration (games/bots/fit.py), a linear function of the same by the turns
left (``features``).
"""

from __future__ import annotations

import math
from functools import cache

import numpy as np

from games.bots.cards import CardPlayers
from games.bots.cardvalue import SumTail, by_value, hats, mask_of, params, weights
from games.rules import painted_dicez as pd
from games.rules.dice import COLOURS

slug = pd.slug
TYPES = len(pd.FACE) * len(COLOURS)
SECTIONS = ((pd.UPPER, "upper_subtotal", "upper_bonus"), (pd.CENTER, "color_subtotal", "color_bonus"))


def side(die) -> int:
    return (int(die[0]) - 1) * len(COLOURS) + COLOURS.index(die[1])


def box_arrays(rows: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each box's value for every multiset of five sides (flags unused: all 0)."""
    faces = (rows // len(COLOURS) + 1).astype(np.int64)
    colours = rows % len(COLOURS)
    total = faces.sum(axis=1)
    face_counts = np.stack([(faces == f).sum(axis=1) for f in range(1, 7)], axis=1)
    colour_counts = np.stack([(colours == c).sum(axis=1) for c in range(len(COLOURS))], axis=1)
    distinct_faces = (face_counts > 0).sum(axis=1)
    distinct_colours = (colour_counts > 0).sum(axis=1)
    out = {}
    for box, f in pd.FACE.items():
        out[box] = f * face_counts[:, f - 1]
    for i, box in enumerate(pd.CENTER):
        out[box] = (faces * (colours == i)).sum(axis=1)
    out["four_of_a_kind"] = np.where(face_counts.max(axis=1) >= 4, total, 0)
    out["four_of_a_color"] = np.where(colour_counts.max(axis=1) >= 4, total, 0)
    out["full_house"] = np.where((face_counts.max(axis=1) == 3) & (distinct_faces == 2), 25, 0)
    out["painted_house"] = np.where((colour_counts.max(axis=1) == 3) & (distinct_colours == 2), 25, 0)
    run = (distinct_faces == 5) & ((face_counts[:, 0] == 0) | (face_counts[:, 5] == 0))
    out["straight"] = np.where(run, 40, 0)
    out["rainbow"] = np.where(distinct_colours == 5, 40, 0)
    out["flush"] = np.where(distinct_colours == 1, 50, 0)
    out["dicez"] = np.where(distinct_faces == 1, 50, 0)
    out["chance"] = total
    zero = np.zeros(len(rows), dtype=np.int64)
    return {box: (out[box].astype(np.int64), zero) for box in pd.BOXES}


def flag(box: str, faces: list) -> int:
    return 0


def last_turn(card: dict) -> bool:
    """Whether every placement this turn fills the card (one box left)."""
    return sum(v is None for v in card["boxes"].values()) == 1


class Fitted:
    def __init__(self):
        p = params(slug)
        self.mean = p["mean"]
        upper = [by_value(p["dist"][b], pd.FACE[b]) for b in pd.UPPER]
        self.tails = (SumTail(upper), SumTail([p["colour_dist"]] * len(pd.CENTER)))
        self.weights = weights(p)

    def first_weights(self) -> np.ndarray:
        """The fitted means' model as weights of ``features``: value iteration's starting point."""
        w = np.zeros(FEATURES)
        for i, names in enumerate(KIND):
            w[i * HATS : (i + 1) * HATS] = self.mean[names[0]]
        w[KINDS * HATS :] = 1.0
        return w


# The features of a card the rest of it is worth a linear function of (games/bots/cardvalue.py): each
# open box by the turns left, on a basis of hat functions of the turns left (linear between KNOTS, so a
# box's worth is its own at each knot and interpolated between: exact at the card's last turns, where a
# share-of-the-card slope extrapolated from mid-card values went wrong), the five colours counted
# together (they play alike); for each section, 35 x the chance of its bonus by the same hats.
KIND = (*((b,) for b in pd.BOXES if b not in pd.CENTER), tuple(pd.CENTER))
KINDS = len(KIND)
KIND_OF = {b: i for i, names in enumerate(KIND) for b in names}
KNOTS = (1, 2, 3, 4, 6, 9, 13, 20)
HATS = len(KNOTS)
FEATURES = (KINDS + len(SECTIONS)) * HATS


def features(fit: Fitted, open_boxes: set, sums: tuple[int, int], earned: tuple[bool, bool]) -> np.ndarray:
    f = np.zeros(FEATURES)
    if not open_boxes:
        return f
    h = hats(len(open_boxes), KNOTS)
    for box in open_boxes:
        for j, x in h:
            f[KIND_OF[box] * HATS + j] += x
    for s, (names, _, _) in enumerate(SECTIONS):
        if not earned[s]:
            bonus = pd.BONUS * fit.tails[s](mask_of(open_boxes, names), pd.BONUS_AT - sums[s])
            for j, x in h:
                f[(KINDS + s) * HATS + j] = bonus * x
    return f


def _sections(card: dict) -> tuple[tuple[int, int], tuple[bool, bool]]:
    return (
        tuple(card[subtotal] for _, subtotal, _ in SECTIONS),
        tuple(card[bonus] > 0 for _, _, bonus in SECTIONS),
    )


def card_features(card: dict) -> np.ndarray:
    """``features`` of a card as the engine keeps it (games/bots/fit.py's value iteration)."""
    open_boxes = {b for b, v in card["boxes"].items() if v is None}
    return features(fitted(), open_boxes, *_sections(card))


@cache
def fitted() -> Fitted:
    return Fitted()


class Evaluator:
    """The value of every placement on one card; ``fitted=False`` counts the points now only."""

    def __init__(self, card: dict, fitted_value: bool):
        self.fit = fitted() if fitted_value else None
        self.card = card
        self.open = {b for b, v in card["boxes"].items() if v is None}
        self.placements = [(b, None) for b in pd.BOXES if b in self.open]
        if self.fit is not None and self.fit.weights is not None:
            self.before = card_features(card) @ self.fit.weights

    def value(self, box: str, picked, v: int, flag: int) -> float:
        if self.fit is None or self.fit.weights is None:
            return self._value(box, v)
        if box not in self.open:
            return -math.inf
        gain = float(v)
        sums, earned = _sections(self.card)
        sums, earned = list(sums), list(earned)
        for s, (names, _, _) in enumerate(SECTIONS):
            if box in names:
                sums[s] += v
                if not earned[s] and sums[s] >= pd.BONUS_AT:
                    gain += pd.BONUS
                    earned[s] = True
        after = features(self.fit, self.open - {box}, tuple(sums), tuple(earned))
        return gain + after @ self.fit.weights - self.before

    def _value(self, box: str, v: int) -> float:
        """The value on the fitted figures alone: the boxes' means, the bonuses' chances."""
        if box not in self.open:
            return -math.inf
        gain = float(v)
        for s, (names, subtotal, bonus) in enumerate(SECTIONS):
            if box not in names:
                continue
            before = self.card[subtotal]
            earned = self.card[bonus] > 0
            after = before + v
            if not earned and after >= pd.BONUS_AT:
                gain += pd.BONUS
            if self.fit is not None and not earned:
                tail = self.fit.tails[s]
                p_before = tail(mask_of(self.open, names), pd.BONUS_AT - before)
                p_after = (
                    tail(mask_of(self.open - {box}, names), pd.BONUS_AT - after)
                    if after < pd.BONUS_AT
                    else 0.0
                )
                gain += pd.BONUS * (p_after - p_before)
        if self.fit is not None:
            gain -= self.fit.mean[box]
        return gain


# The expert's mean points per turn in a solo game, on its fitted weights (bench.value_iteration, 2,000
# games, docs/BENCHMARKS.md: mean final score / boxes, 406.5 / 20): the unit in which the coach weighs a
# cost.
TURN_WORTH = 20.3
# What the game's declaration names (its engine's PLAYERS): this evaluation, played by the card turn.
PLAYERS = CardPlayers(__name__)
