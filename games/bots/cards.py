"""The card games' computer players: one turn engine for every card game, on each game's evaluation of
its card.

Each game's evaluation says what a placement on its card is worth: Triple Quintzee's, Triple Yahtzee
99's and Painted DiceZ's are their own modules (quintzee, yahtzee99, painted: fitted figures of what the
rest of the card is worth), each declaring ``PLAYERS = CardPlayers(__name__)``; Quintzee's
(quintzee_expert) plays its easy and good players, its expert being the exact optimum; any other card game
gets ``for_engine(engine)``, which reads what a placement adds to the card from the engine's own
``RULES`` (``RulesCard``). A turn's values are computed once per card and strength (the card does not
change during a turn), when the turn's first roll is chosen, and kept in a small cache, so the
decisions of the turn are look-ups.

- **expert** (``best``/``value``): exact expectation over the rolls left (games/bots/dicedp.py). With no
  re-roll left, the dice are worth the best placement: the points now plus the change in the fitted
  value of the card (games/bots/cardvalue.py). With one re-roll left, a hold is worth the expectation of
  that over the re-rolled dice; with two, the expectation of the best of [scoring, every next hold].
- **expert, the last turn** (``to_win``): once every other active player's card is full, the score to
  beat is known, and the expert plays for the exact chance of finishing ahead of it instead (a tie
  counts half; equal chances go to the play worth more points); the coach judges that turn by the
  chance of winning (games/bots/__init__.py, ``stake``).
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
from functools import cached_property
from importlib import import_module
from typing import Any

import numpy as np

from games import bots, rules
from games.bots import Choice
from games.bots.dicedp import DICE, TurnTables, universe
from games.rules.cardgame import MAX_ROLLS

MISTAKE_RATE = 1 / 3
MISTAKE_CHOICES = 3
CACHE_SIZE = 16


def _game(slug: str) -> Any:
    """The card evaluation the game ``slug``'s computer players play on (its declaration's)."""
    return bots.players(slug).game


class Codes:
    """For each box, the distinct (raw value, flag) pairs over every five-dice row, and which pair each
    row has: a placement is valued once per pair, then spread over the rows by one gather. Values and
    flags are small non-negative ints; what a flag says is the evaluation's (1 for five of a kind, or
    Quintzee's face of a five of a kind, which its Joker depends on)."""

    def __init__(self, game: Any):
        self.universe = universe(game.TYPES)
        self.boxes = {}
        for box, (values, flags) in game.box_arrays(self.universe.rows[DICE]).items():
            base = int(flags.max()) + 1
            pairs, inverse = np.unique(values * base + flags, return_inverse=True)
            self.boxes[box] = ([(int(p) // base, int(p) % base) for p in pairs], inverse.astype(np.intp))


_codes: dict[Any, Codes] = {}
_turns: OrderedDict = OrderedDict()
_lock = threading.Lock()  # the site may ask from several threads at once


def codes(game: Any) -> Codes:
    if game not in _codes:
        _codes[game] = Codes(game)
    return _codes[game]


class Turn:
    """One card's turn values at one strength: the placements' evaluator and the hold tables."""

    def __init__(self, game: Any, card: dict, expert: bool):
        c = codes(game)
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


class WinTurn:
    """A player's last turn once every other active player's card is full: the score to beat is known,
    and the expert plays for the exact chance of finishing ahead of it (a tie, a shared win, counts
    half). ``chance`` holds that chance over the dice (the evaluation's points now, ``fitted=False``,
    give the total each placement ends on); ``points`` the points the turn adds, which settle a choice
    between plays of the same chance (more for the high-score list)."""

    def __init__(self, game: Any, card: dict, target: int):
        c = codes(game)
        self.game, self.universe = game, c.universe
        self.evaluator = game.Evaluator(card, False)
        need = target - card["total"]
        rows = len(c.universe.rows[DICE])
        chance = np.full(rows, -math.inf)
        points = np.full(rows, -math.inf)
        for box, picked in self.evaluator.placements:
            pairs, inverse = c.boxes[box]
            gains = np.array([self.evaluator.value(box, picked, v, f) for v, f in pairs])
            wins = np.where(gains > need, 1.0, np.where(gains == need, 0.5, 0.0))
            wins[gains == -math.inf] = -math.inf
            np.maximum(chance, np.take(wins, inverse), out=chance)
            np.maximum(points, np.take(gains, inverse), out=points)
        self.chance = TurnTables(c.universe, chance, 2)
        self.points = TurnTables(c.universe, points, 2)
        self.need = need

    def value(self, state: dict, action: dict) -> tuple[float, float]:
        """(chance of winning, expected points) of ``action``."""
        dice = state["dice"]
        if action["type"] == "roll":
            kept = [self.game.side(dice[i]) for i in action.get("hold", [])]
            left = MAX_ROLLS - state["roll"]
            return (
                self.chance.hold_value(self.universe, kept, left),
                self.points.hold_value(self.universe, kept, left),
            )
        engine = rules.get(self.game.slug)
        v = engine.RULES.values(dice)[action["box"]]
        flag = self.game.flag(action["box"], engine.RULES.faces(dice))
        gain = float(self.evaluator.value(action["box"], action.get("column"), v, flag))
        return (1.0 if gain > self.need else 0.5 if gain == self.need else 0.0), gain


# Whether the expert plays its last turn for the chance of winning (off: for points, as before;
# bench.win_play measures both).
PLAY_TO_WIN = True


def win_target(game: Any, state: dict) -> int | None:
    """The score to beat when the player to move plays the last turn of their card and every other
    active player's card is full; None otherwise (alone, or the others' totals still to come)."""
    if state["over"] or state["roll"] == 0:
        return None
    me = state["current"]
    others = [p for p in state["players"] if p != me and p not in state["resigned"]]
    if not others or not all(state["cards"][p]["complete"] for p in others):
        return None
    last = getattr(game, "last_turn", None)
    if last is None or not last(state["cards"][me]):
        return None
    return max(state["cards"][p]["total"] for p in others)


def _cached(key: tuple, make: Any) -> Any:
    """The turn kept under ``key``, or ``make()`` kept there (the CACHE_SIZE latest)."""
    with _lock:
        turn = _turns.get(key)
        if turn is not None:
            _turns.move_to_end(key)
            return turn
    turn = make()
    with _lock:
        _turns[key] = turn
        if len(_turns) > CACHE_SIZE:
            _turns.popitem(last=False)
    return turn


def _win_turn(game: Any, state: dict, target: int) -> WinTurn:
    card = state["cards"][state["current"]]
    key = (game, "win", target, json.dumps(card, sort_keys=True))
    return _cached(key, lambda: WinTurn(game, card, target))


def to_win(game: Any, state: dict) -> bots.Stake | None:
    """The "win" stake of the player to move (games/bots/__init__.py), where ``win_target`` knows the
    score to beat: each action's exact chance of finishing ahead; the best is the likeliest to win,
    then the one worth more points."""
    target = win_target(game, state) if PLAY_TO_WIN else None
    if target is None:
        return None
    turn = _win_turn(game, state, target)
    valued = [(turn.value(state, a), a) for a in rules.get(game.slug).legal_actions(state)]
    (chance, _), action = max(valued, key=lambda pair: (round(pair[0][0], 9), pair[0][1]))
    return bots.Stake("win", Choice(action, chance), lambda a: turn.value(state, a)[0])


def _turn(game: Any, state: dict, expert: bool) -> Turn:
    card = state["cards"][state["current"]]
    key = (game, expert, json.dumps(card, sort_keys=True))
    return _cached(key, lambda: Turn(game, card, expert))


def _ranked(game: Any, state: dict, expert: bool) -> list[Choice]:
    """Every legal action with its value, best first (stable: the engine's order breaks ties)."""
    turn = _turn(game, state, expert)
    actions = rules.get(game.slug).legal_actions(state)
    return sorted((Choice(a, turn.value(state, a)) for a in actions), key=lambda c: -c.value)


class CardPlayers:
    """A card game's computer players (games/bots/__init__.py's ``Players``) on one evaluation of its
    card: a module's name (loaded on first use) or the evaluation itself. An evaluation has the game's
    ``slug``, ``TYPES`` (the sides of a die), ``side(die)``, ``box_arrays(rows)`` and ``flag(box, faces)``
    (each box's raw value and flag for every row of sides), ``Evaluator(card, expert)`` (its
    ``placements`` and ``value(box, picked, value, flag)``, with ``expert`` off exactly what a placement
    adds to the card's total) and ``TURN_WORTH``; with ``last_turn(card)`` (this turn's placement is the
    card's last), the expert plays that turn to win once the other cards are full."""

    def __init__(self, game: str | Any):
        self._game = game

    @cached_property
    def game(self) -> Any:
        return import_module(self._game) if isinstance(self._game, str) else self._game

    def turn_worth(self, options: dict | None) -> float:
        return float(self.game.TURN_WORTH)

    def best(self, state: dict) -> Choice:
        return _ranked(self.game, state, True)[0]

    def to_win(self, state: dict) -> bots.Stake | None:
        return to_win(self.game, state)

    def value(self, state: dict, action: dict) -> float:
        return _turn(self.game, state, True).value(state, action)

    def choose(self, state: dict, strength: str, rng: random.Random) -> dict:
        if state["roll"] == 0:
            # The card is known before the first roll: the turn's tables are computed now, while the
            # first roll (no choice) is played, so the decisions that follow are look-ups.
            _turn(self.game, state, strength == "expert")
            return {"type": "roll", "hold": []}
        if strength == "expert" and (won := to_win(self.game, state)) is not None:
            return won.best.action
        ranked = _ranked(self.game, state, strength == "expert")
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
