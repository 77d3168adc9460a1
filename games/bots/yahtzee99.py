"""Triple Yahtzee 99's card evaluation for the computer players (games/bots/cards.py plays the turn).

A placement's value is what it adds to the card's total now (a bonus tier reached, a column upgraded
at once) plus the change in what the rest of the card is worth. A column is worth its expected
multiplier x (its points + the fitted means of its open boxes + the expected rise of its upper bonus
tier) - its multiplier x its points. The expected multiplier of a pending column adds to its own the
chance that it upgrades x the step: the chance it meets the four minimums (each from the fitted figures
of its open boxes: how often a box counts as a three of a kind, the distribution of the upper boxes,
a normal law for the lower total; taken as independent) times the chance its left neighbour upgrades
first (1 once upgraded, 0 once blocked, else ``ORDER`` x its own chance). A column that would meet the
minimums before its left neighbour upgraded blocks itself and every column to its right, and its value
falls with that. A waste box keeps the card open at the fitted cost ``waste``; a Yahtzee Bonus box is
worth the bonus points averaged over every slot. On the weights fitted by value iteration (games/bots/
fit.py), the rest of the card is a linear function of the same by the turns left (``features``).
"""

from __future__ import annotations

import math
from functools import cache
from typing import NamedTuple

import numpy as np

from games.bots.cards import CardPlayers
from games.bots.cardvalue import CountTail, SumTail, by_value, hats, mask_of, normal_tail, params, weights
from games.rules import triple_yahtzee_99 as ty

slug = ty.slug
TYPES = 6
ORDER = 0.7  # a pending left neighbour upgrades first about this often when both would
COUNTED = tuple(sorted(ty.LOWER_COUNTED))
TIERS = ((63, 35), (70, 15), (76, 20))


def side(die) -> int:
    return int(die) - 1


def _three(box: str, value: int, faces: list) -> int:
    if box in ty.FACE_BOXES:
        return int(faces.count(ty.FACE[box]) >= 3)
    return int(box in ty.LOWER_COUNTED and value > 0 and max(faces.count(f) for f in faces) >= 3)


def box_arrays(rows: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each box's raw value and flag (the dice count as a three of a kind there) for every row."""
    out = {}
    faces = (rows + 1).tolist()
    for box in ty.BOXES:
        values = [ty.score(box, f) for f in faces]
        flags = [_three(box, v, f) for v, f in zip(values, faces, strict=True)]
        out[box] = (np.array(values, dtype=np.int64), np.array(flags, dtype=np.int64))
    return out


def flag(box: str, faces: list) -> int:
    return _three(box, ty.score(box, faces), list(faces))


def last_turn(card: dict) -> bool:
    """Whether this turn is the card's last: one box left to fill and no waste box open (a waste keeps
    the card open for another turn). A Yahtzee Bonus scored now does too, but the win play values it as
    if it ended the card: its chance of winning is then a floor (another turn only adds points)."""
    boxes = [col["boxes"] for col in card["columns"]]
    if sum(b[name] is None for b in boxes for name in ty.SCORING) != 1:
        return False
    return not any(b[w] is None for b in boxes for w in ty.WASTE)


class Fitted:
    def __init__(self):
        p = params(slug)
        self.mean, self.var, self.waste = p["mean"], p["var"], p["waste"]
        self.upper = SumTail([by_value(p["dist"][b], ty.FACE[b]) for b in ty.UPPER])
        self.upper_three = CountTail([p["three"][b] for b in ty.FACE_BOXES])
        self.lower_three = CountTail([p["three"][b] for b in COUNTED])
        self._open: dict[frozenset, tuple] = {}
        self.tiers: dict[tuple[int, int], float] = {}  # (open upper mask, upper subtotal) -> expected tiers
        self.weights = weights(p)

    def first_weights(self) -> np.ndarray:
        """The fitted figures' model as weights of ``features``: value iteration's starting point."""
        w = np.zeros((PARTS + len(ty.BOXES), HATS))
        w[:PARTS] = 1.0
        for waste in ty.WASTE:
            w[ROW[waste]] = self.waste
        return w.ravel()

    def open_figures(self, boxes: frozenset) -> tuple:
        """(upper mask, face mask, counted mask, lower mean, lower variance, mean of the open boxes) of a
        column's open boxes; few distinct sets come up, so they are remembered."""
        figures = self._open.get(boxes)
        if figures is None:
            lower = [b for b in ty.LOWER if b in boxes]
            figures = self._open[boxes] = (
                mask_of(boxes, ty.UPPER),
                mask_of(boxes, ty.FACE_BOXES),
                mask_of(boxes, COUNTED),
                sum(self.mean[b] for b in lower),
                sum(self.var[b] for b in lower),
                sum(self.mean[b] for b in boxes if b not in ty.WASTE),
            )
        return figures


@cache
def fitted() -> Fitted:
    return Fitted()


class Column(NamedTuple):
    k: int
    open: frozenset
    upper: int
    lower: int
    upper_count: int
    lower_count: int
    status: str
    multiplier: int
    meets: bool

    @property
    def points(self) -> int:
        return self.upper + ty.upper_bonus(self.upper) + self.lower


def _column(col: dict) -> Column:
    return Column(
        col["column"],
        frozenset(b for b, v in col["boxes"].items() if v is None),
        col["upper_subtotal"],
        col["lower_total"],
        col["upper_count"],
        col["lower_count"],
        col["status"],
        col["multiplier"],
        col["meets_minimums"],
    )


def _meets(c: Column) -> bool:
    return (
        c.upper_count >= ty.MIN_UPPER_COUNT
        and c.lower_count >= ty.MIN_LOWER_COUNT
        and c.upper >= ty.MIN_UPPER_SUBTOTAL
        and c.lower >= ty.MIN_LOWER_TOTAL
    )


# The features of a card the rest of it is worth a linear function of (games/bots/cardvalue.py), each on
# hat functions of the turns left (the scoring boxes open, ``cardvalue.hats`` between KNOTS): the
# fitted figures' worth of the card in its two parts (``Evaluator._parts``: the open boxes at the
# columns' multipliers now, and what the chances of upgrades add, so that the fit weighs the cruder
# upgrade model apart); for each box, the multipliers of the columns where it is open (a box's worth
# scales with its column's, as the figures' do), a waste box once a column (its worth is keeping the
# card open a turn). A full card is worth 0.
KNOTS = (1, 2, 3, 4, 6, 9, 13, 20, 30, ty.CARD_BOXES)
HATS = len(KNOTS)
PARTS = 2
FEATURES = (PARTS + len(ty.BOXES)) * HATS
ROW = {b: PARTS + i for i, b in enumerate(ty.BOXES)}


def _weight(box: str, multiplier: int) -> int:
    return 1 if box in ty.WASTE else multiplier


def _scoring_left(cols: list[Column]) -> int:
    return sum(1 for c in cols for b in c.open if b in ty.SCORING)


def features(worth: tuple[float, float], cols: list[Column]) -> np.ndarray:
    f = np.zeros((PARTS + len(ty.BOXES), HATS))
    left = _scoring_left(cols)
    if not left:
        return f.ravel()
    h = hats(left, KNOTS)
    for j, x in h:
        f[0, j], f[1, j] = worth[0] * x, worth[1] * x
    for c in cols:
        for b in c.open:
            for j, x in h:
                f[ROW[b], j] += _weight(b, c.multiplier) * x
    return f.ravel()


def card_features(card: dict) -> np.ndarray:
    """``features`` of a card as the engine keeps it (games/bots/fit.py's value iteration)."""
    cols = [_column(col) for col in card["columns"]]
    return features(Evaluator(card, True).before_parts, cols)


class Evaluator:
    """The value of every placement on one card; ``fitted=False`` counts the points now only."""

    def __init__(self, card: dict, fitted_value: bool):
        self.fit = fitted() if fitted_value else None
        self.columns = [_column(col) for col in card["columns"]]
        self._memo: dict = {}
        self.all_yahtzee = all("yahtzee" not in c.open for c in self.columns)
        self.bonus_free = [c.k for c in self.columns if "yahtzee_bonus" in c.open]
        self.placements = [
            (box, c.k) for box in ty.BOXES for c in self.columns if box in c.open and box != "yahtzee_bonus"
        ]
        if self.all_yahtzee and self.bonus_free:
            self.placements.append(("yahtzee_bonus", 1))
        self.before_parts = self._parts(self.columns) if self.fit else (0.0, 0.0)
        self.weights = self.fit.weights if self.fit else None
        self.before = sum(self.before_parts)
        if self.weights is not None:
            phi = features(self.before_parts, self.columns)
            self.before = phi @ self.weights
            # The boxes' part of the worth, kept to take a placed box off it (a placement's worth is
            # looked up hundreds of times a turn): each column's by hat, its waste boxes' apart (they do
            # not scale with the multiplier).
            self.w = self.weights.reshape(PARTS + len(ty.BOXES), HATS)
            self._terms: dict = {}
            self.left = _scoring_left(self.columns)
            self.waste_part = [
                sum((self.w[ROW[b]] for b in c.open if b in ty.WASTE), np.zeros(HATS)) for c in self.columns
            ]
            self.box_part = [
                sum((self.w[ROW[b]] for b in c.open if b not in ty.WASTE), np.zeros(HATS))
                for c in self.columns
            ]
            self.boxes_part = sum(
                c.multiplier * b + w
                for c, b, w in zip(self.columns, self.box_part, self.waste_part, strict=True)
            )

    def value(self, box: str, picked: int, v: int, three: int) -> float:
        if box == "yahtzee_bonus":
            if not (v and self.all_yahtzee and self.bonus_free):
                return -math.inf
            lands = self.bonus_free[0]
        elif box in self.columns[picked - 1].open:
            lands = picked
        else:
            return -math.inf
        if box in ty.WASTE and self.weights is None:
            return -self.fit.waste if self.fit else 0.0
        after = self._place(lands, box, v, three)
        gain = sum(
            a.multiplier * a.points - b.multiplier * b.points
            for a, b in zip(after, self.columns, strict=True)
        )
        if self.fit is None:
            return float(gain)
        if self.weights is not None:
            return gain + self._after(lands, box, after, self._parts(after)) - self.before
        return gain + self._worth(after) - self.before

    def _after(self, k: int, box: str, after: list[Column], worth: tuple[float, float]) -> float:
        """``features(worth, after) @ weights`` for the card after ``box`` is filled in column ``k``, from the
        card's (the column's multiplier may have changed: an upgrade)."""
        key = (k, box, after[k - 1].multiplier)
        terms = self._terms.get(key)
        if terms is None:
            terms = self._terms[key] = self._after_terms(*key)
        return sum(x * (w0 * worth[0] + w1 * worth[1] + boxes) for x, w0, w1, boxes in terms)

    def _after_terms(self, k: int, box: str, multiplier: int) -> list[tuple[float, float, float, float]]:
        """(hat, its two parts' weights, the boxes' part) at each hat on after the placement: a few keys a
        turn, where the placement's value is asked for hundreds of times."""
        left = self.left - (box in ty.SCORING)
        if not left:
            return []
        w, i = self.w, ROW[box]
        box_part, waste_part = self.box_part[k - 1], self.waste_part[k - 1]
        before = self.columns[k - 1].multiplier * box_part + waste_part
        if box in ty.WASTE:
            now = multiplier * box_part + waste_part - w[i]
        else:
            now = multiplier * (box_part - w[i]) + waste_part
        boxes = self.boxes_part - before + now
        return [(x, float(w[0, j]), float(w[1, j]), float(boxes[j])) for j, x in hats(left, KNOTS)]

    def _place(self, k: int, box: str, v: int, three: int) -> list[Column]:
        cols = list(self.columns)
        c = cols[k - 1]
        c = Column(
            k,
            c.open - {box},
            c.upper + (v if box in ty.UPPER else 0),
            c.lower + (v if box in ty.LOWER else 0),
            c.upper_count + (three if box in ty.FACE_BOXES else 0),
            c.lower_count + (three if box in ty.LOWER_COUNTED else 0),
            c.status,
            c.multiplier,
            c.meets,
        )
        if not c.meets and _meets(c):
            c = c._replace(meets=True)
            if c.status == "pending":
                if k == 1 or cols[k - 2].status == "upgraded":
                    c = c._replace(status="upgraded", multiplier=ty.UPGRADE[k])
                else:
                    c = c._replace(status="blocked")
                    for j in range(k, len(cols)):
                        if cols[j].status == "pending":
                            cols[j] = cols[j]._replace(status="blocked")
        cols[k - 1] = c
        return cols

    def _worth(self, cols: list[Column]) -> float:
        return sum(self._parts(cols))

    def _parts(self, cols: list[Column]) -> tuple[float, float]:
        """The card's worth on the figures in two parts: its open boxes' at the columns' multipliers now,
        and what the chances of upgrades add to the columns (points and open boxes)."""
        rests = ups = 0.0
        chance_left = 1.0  # the chance the column to the left upgrades before this one would
        for c in cols:
            key = c
            if key not in self._memo:
                self._memo[key] = (self._rest(c), self._meet_chance(c))
            rest, meet = self._memo[key]
            if c.status == "pending":
                chance = meet * chance_left
                expected = c.multiplier + chance * (ty.UPGRADE[c.k] - c.k)
                chance_left = ORDER * chance
            else:
                expected = c.multiplier
                chance_left = 1.0 if c.status == "upgraded" else 0.0
            rests += c.multiplier * rest
            ups += (expected - c.multiplier) * (c.points + rest)
        return rests, ups

    def _rest(self, c: Column) -> float:
        fit = self.fit
        upper, _, _, _, _, rest = fit.open_figures(c.open)
        key = (upper, c.upper)
        tiers = fit.tiers.get(key)
        if tiers is None:
            tiers = fit.tiers[key] = sum(step * fit.upper(upper, at - c.upper) for at, step in TIERS)
        return rest + tiers - ty.upper_bonus(c.upper)

    def _meet_chance(self, c: Column) -> float:
        if c.status != "pending":
            return 0.0
        fit = self.fit
        upper, faces, counted, mean, var, _ = fit.open_figures(c.open)
        p = fit.upper_three(faces, ty.MIN_UPPER_COUNT - c.upper_count)
        p *= fit.lower_three(counted, ty.MIN_LOWER_COUNT - c.lower_count)
        p *= fit.upper(upper, ty.MIN_UPPER_SUBTOTAL - c.upper)
        return p * normal_tail(mean, var, ty.MIN_LOWER_TOTAL - c.lower)


# The expert's mean points per turn in a solo game, on its fitted weights (bench.value_iteration, 2,000
# games, docs/BENCHMARKS.md: mean final score / turns, 3770.6 / 54): the unit in which the coach weighs a
# cost.
TURN_WORTH = 69.8
# What the game's declaration names (its engine's PLAYERS): this evaluation, played by the card turn.
PLAYERS = CardPlayers(__name__)
