"""Computer players for any engine without its own and without a card: the action that adds most to the
mover's score, by the engine's own ``apply`` and ``scores``.

A game that is no card game and declares no players gets these (games/declaration.py), so a computer
can sit at its table and the coach can hint and review it with no code of its own. An action's value is
the mover's expected score change when it is played now: exact for an action that rolls nothing, else
the mean over ``SAMPLES`` fixed draws of the dice (the same draws for every action, so that they are
compared on the same rolls, and the same answer every time). The expert and the good player take the
best action (the engine's order breaks ties); the easy one, on a third of its decisions, a random legal
one. A turn's worth is the mean the greedy player scores in a first turn of a two-player game over the
same draws.
"""

from __future__ import annotations

import json
import random
from functools import partial
from typing import Any

from games.bots import Choice, Players
from games.rules.dice import make_dice

SAMPLES = 16
MISTAKE_RATE = 1 / 3
SEATS = ("a", "b")
# Enough for any turn of a dice game; a turn that lasts longer is cut short for the measure.
TURN_ACTIONS = 100


def for_engine(engine: Any) -> Players:
    """The computer players of ``engine``, which declares none (games/declaration.py)."""
    worths: dict[str, float] = {}  # by options: a turn's worth is measured once

    def worth(options: dict | None) -> float:
        key = json.dumps(options or {}, sort_keys=True)
        if key not in worths:
            worths[key] = turn_worth(engine, options)
        return worths[key]

    return Players(
        choose=partial(choose, engine),
        best=partial(best, engine),
        value=partial(value, engine),
        turn_worth=worth,
    )


def _dice(engine: Any, sample: int):
    return make_dice(random.Random(sample), painted=engine.dice_kind == "painted")  # noqa: S311 - a bot's sample


class _Counted:
    """Dice that note whether they were asked for at all."""

    def __init__(self, dice):
        self.dice, self.rolled = dice, False

    def __call__(self, n: int) -> list:
        self.rolled = True
        return self.dice(n)


def value(engine: Any, state: dict, action: dict) -> float:
    player = engine.current_player(state)
    before = engine.scores(state)[player]
    total = 0.0
    for sample in range(SAMPLES):
        dice = _Counted(_dice(engine, sample))
        total += engine.scores(engine.apply(state, player, action, dice))[player] - before
        if not dice.rolled:  # no roll, no chance: the one outcome is exact
            return total
    return total / SAMPLES


def _ranked(engine: Any, state: dict) -> list[Choice]:
    actions = engine.legal_actions(state)
    return sorted((Choice(a, value(engine, state, a)) for a in actions), key=lambda c: -c.value)


def best(engine: Any, state: dict) -> Choice:
    return _ranked(engine, state)[0]


def choose(engine: Any, state: dict, strength: str, rng: random.Random) -> dict:
    if strength == "easy" and rng.random() < MISTAKE_RATE:
        return rng.choice(engine.legal_actions(state))
    return best(engine, state).action


def turn_worth(engine: Any, options: dict | None) -> float:
    gained = []
    for sample in range(SAMPLES):
        state = engine.new_game(list(SEATS), options)
        dice = _dice(engine, sample)
        for _ in range(TURN_ACTIONS):
            if engine.is_over(state) or engine.current_player(state) != SEATS[0]:
                break
            state = engine.apply(state, SEATS[0], best(engine, state).action, dice)
        gained.append(engine.scores(state)[SEATS[0]])
    # A cost is weighed in turns: never in a unit of nothing.
    return max(sum(gained) / len(gained), 1.0)
