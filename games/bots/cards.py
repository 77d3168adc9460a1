"""The card games' computer players: Triple Quintzee, Triple Yahtzee 99 and Painted DiceZ.

One turn engine serves the three games; each game's module (quintzee, yahtzee99, painted) says what a
placement on its card is worth. A turn's values are computed once per card and strength (the card does
not change during a turn), when the turn's first roll is chosen, and kept in a small cache, so the
decisions of the turn are look-ups.

- **expert** (``best``/``value``): exact expectation over the rolls left (games/bots/dicedp.py). With no
  re-roll left, the dice are worth the best placement: the points now plus the change in the fitted
  value of the card (games/bots/cardvalue.py). With one re-roll left, a hold is worth the expectation of
  that over the re-rolled dice; with two, the expectation of the best of [scoring, every next hold].
- **good**: one roll of look-ahead, greedy: a hold is worth the expected best points *now* after one
  more roll, whatever the rolls left; a box is worth its points now.
- **easy**: the good player's values, but one decision in three is a random one of the top three.
"""

from __future__ import annotations

import json
import math
import random
import threading
from collections import OrderedDict
from types import ModuleType

import numpy as np

from games import rules
from games.bots import Choice
from games.bots.dicedp import DICE, TurnTables, universe
from games.rules.cardgame import MAX_ROLLS

MISTAKE_RATE = 1 / 3
MISTAKE_CHOICES = 3
CACHE_SIZE = 16
# The expert's mean points per turn in a solo game (bench.bots, 2,000 games each, docs/BENCHMARKS.md:
# mean final score / boxes): 1717.9 / 39, 3476.7 / 54, 391.9 / 20. The coach measures costs in it.
TURN_WORTH = {"triple-quintzee": 44.0, "triple-yahtzee-99": 64.4, "painted-dicez": 19.6}


def _game(slug: str) -> ModuleType:
    from games.bots import painted, quintzee, yahtzee99

    return {m.slug: m for m in (quintzee, yahtzee99, painted)}[slug]


class Codes:
    """For each box, the distinct (raw value, flag) pairs over every five-dice row, and which pair each
    row has: a placement is valued once per pair, then spread over the rows by one gather."""

    def __init__(self, game: ModuleType):
        self.universe = universe(game.TYPES)
        self.boxes = {}
        for box, (values, flags) in game.box_arrays(self.universe.rows[DICE]).items():
            pairs, inverse = np.unique(values * 2 + flags, return_inverse=True)
            self.boxes[box] = ([(int(p) // 2, int(p) % 2) for p in pairs], inverse.astype(np.intp))


_codes: dict[str, Codes] = {}
_turns: OrderedDict = OrderedDict()
_lock = threading.Lock()  # the site may ask from several threads at once


def codes(slug: str) -> Codes:
    if slug not in _codes:
        _codes[slug] = Codes(_game(slug))
    return _codes[slug]


class Turn:
    """One card's turn values at one strength: the placements' evaluator and the hold tables."""

    def __init__(self, slug: str, card: dict, expert: bool):
        game, c = _game(slug), codes(slug)
        self.game, self.universe = game, c.universe
        self.evaluator = game.Evaluator(card, expert)
        final = np.full(len(c.universe.rows[DICE]), -math.inf, dtype=np.float32)
        for box, picked in self.evaluator.placements:
            pairs, inverse = c.boxes[box]
            values = np.array([self.evaluator.value(box, picked, v, f) for v, f in pairs], dtype=np.float32)
            np.maximum(final, np.take(values, inverse), out=final)
        self.expert = expert
        self.tables = TurnTables(c.universe, final, 2 if expert else 1)
        self._start: float | None = None

    def start(self) -> float:
        """The value of the turn before its first roll (three rolls to come)."""
        if self._start is None:
            u = self.universe
            first = np.maximum(self.tables.final, u.best_subset(self.tables.hold[1]))
            self._start = float(u.expect(first)[0][0])
        return self._start

    def value(self, state: dict, action: dict) -> float:
        dice = state["dice"]
        if action["type"] == "roll":
            if state["roll"] == 0:
                return self.start() if self.expert else 0.0
            kept = [self.game.side(dice[i]) for i in action.get("hold", [])]
            left = MAX_ROLLS - state["roll"] if self.expert else 1
            return self.tables.hold_value(self.universe, kept, left)
        box = action["box"]
        engine = rules.get(self.game.slug)
        v = engine.RULES.values(dice)[box]
        faces = engine.RULES.faces(dice)
        return float(self.evaluator.value(box, action.get("column"), v, self.game.flag(box, faces)))


def _turn(slug: str, state: dict, expert: bool) -> Turn:
    card = state["cards"][state["current"]]
    key = (slug, expert, json.dumps(card, sort_keys=True))
    with _lock:
        turn = _turns.get(key)
        if turn is not None:
            _turns.move_to_end(key)
            return turn
    turn = Turn(slug, card, expert)
    with _lock:
        _turns[key] = turn
        if len(_turns) > CACHE_SIZE:
            _turns.popitem(last=False)
    return turn


def _ranked(slug: str, state: dict, expert: bool) -> list[Choice]:
    """Every legal action with its value, best first (stable: the engine's order breaks ties)."""
    turn = _turn(slug, state, expert)
    actions = rules.get(slug).legal_actions(state)
    return sorted((Choice(a, turn.value(state, a)) for a in actions), key=lambda c: -c.value)


def turn_worth(slug: str, options: dict | None) -> float:
    return TURN_WORTH[slug]


def best(slug: str, state: dict) -> Choice:
    return _ranked(slug, state, True)[0]


def value(slug: str, state: dict, action: dict) -> float:
    return _turn(slug, state, True).value(state, action)


def choose(slug: str, state: dict, strength: str, rng: random.Random) -> dict:
    if state["roll"] == 0:
        # The card is known before the first roll: the turn's tables are computed now, while the first
        # roll (no choice) is played, so the decisions that follow are look-ups.
        _turn(slug, state, strength == "expert")
        return {"type": "roll", "hold": []}
    ranked = _ranked(slug, state, strength == "expert")
    if strength == "easy" and rng.random() < MISTAKE_RATE:
        # Equivalent holds share a value: offer distinct values, so a mistake is a different play.
        distinct: list[Choice] = []
        for c in ranked:
            if not distinct or c.value != distinct[-1].value:
                distinct.append(c)
            if len(distinct) == MISTAKE_CHOICES:
                break
        return rng.choice(distinct).action
    return ranked[0].action
