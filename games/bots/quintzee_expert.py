"""Quintzee's computer players and the coach's expert (games/bots/__init__.py's ``Players``).

The expert plays the exact solitaire optimum (games/bots/quintzee_optimum.py): every action is worth the
expected final score of the rest of the game from it under optimal play (the points a box scores now,
the bonuses it earns and the table's value of the card it leaves; a hold, the exact expectation of that
over the dice it re-rolls), so ``best(state).value - value(state, action)`` is what the action loses
against the optimum, as in Verhoeff's analysis of a game. The easy and good players are the generic
card players on what a placement adds to the card now (games/bots/anycard.py).
"""

from __future__ import annotations

import random
from functools import cached_property

from games import bots, rules
from games.bots import anycard
from games.bots import quintzee_optimum as qo
from games.rules import quintzee
from games.rules.cardgame import MAX_ROLLS


def card_state(card: dict) -> tuple[int, int, int]:
    """(mask of filled boxes, upper sum capped at 63, whether the Quintzee box holds 50)."""
    boxes = card["boxes"]
    mask = sum(1 << i for i, box in enumerate(quintzee.BOXES) if boxes[box] is not None)
    return mask, min(card["top_subtotal"], qo.CAP), int(boxes["quintzee"] == quintzee.QUINTZEE)


def _row(sides: list[int]) -> int:
    return qo.dice().u.row(sides)


class Expert:
    """The optimal player's values, and the generic card players for the other strengths."""

    @cached_property
    def generic(self) -> anycard.cards.CardPlayers:
        return anycard.for_engine(rules.get(quintzee.slug) if quintzee.slug in rules.ENGINES else quintzee)

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
        box = quintzee.BOXES.index(action["box"])
        return float(boxes[box, _row([int(d) - 1 for d in dice])])

    def best(self, state: dict) -> bots.Choice:
        ranked = [bots.Choice(a, self.value(state, a)) for a in quintzee.legal_actions(state)]
        return max(ranked, key=lambda c: c.value)  # the first of equals: the engine's order breaks ties

    def choose(self, state: dict, strength: str, rng: random.Random) -> dict:
        if strength == "expert":
            return self.best(state).action
        return self.generic.choose(state, strength, rng)

    def turn_worth(self, options: dict | None) -> float:
        # The optimum's mean points per box: the coach's unit.
        return qo.START_VALUE / len(quintzee.BOXES)


PLAYERS = Expert()
