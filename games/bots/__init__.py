"""Computer players and the coach's judgement of a move: the one place the site asks either.

Pure Python like the engines (no Django): a bot sees only the engine's state, and answers with an
action of the engine contract (docs/engine.md), which the site then plays through the same move path
as a person's.

- ``choose(slug, state, strength, rng)``: the action of the player to move, at a strength of
  ``STRENGTHS`` (or ``"random"``, a uniformly random legal action, the benchmark's floor). ``rng`` is a
  ``random.Random``: the only randomness a bot uses (the easy player's mistakes, ties).
- ``best(slug, state)``: the expert's action for the player to move, with its expected value.
- ``value(slug, state, action)``: the expected value of playing ``action`` now, on the same scale as
  ``best``'s, so ``best(...).value - value(..., action)`` is the expected points the action costs
  (0 for the expert's own choice, never below 0). Farkle: the expected points the turn banks; card
  games: the expert's evaluation (the box's points and what the card is worth afterwards).
- ``turn_worth(slug, options)``: the expected points of one turn played well (the expert's), the unit
  in which the coach weighs a cost: Farkle's exact optimum, the card games' measured expert mean.
- ``decision(slug, state)``: whether the player to move has a choice at all (a turn's first roll does
  not); the coach judges only decisions.

Farkle's bot is ``games.bots.farkle``; the card games share ``games.bots.cards``, which takes each
game's box values from its module (``quintzee``, ``yahtzee99``, ``painted``) by slug.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from types import ModuleType

from games import rules

STRENGTHS = ("easy", "good", "expert")


@dataclass(frozen=True)
class Choice:
    action: dict
    value: float


def _module(slug: str) -> ModuleType:
    from games.bots import cards, farkle  # the games' bots import the engines: load them on first use

    return {"farkle": farkle}.get(slug, cards)


def legal(slug: str, state: dict) -> list[dict]:
    return rules.get(slug).legal_actions(state)


def choose(slug: str, state: dict, strength: str, rng: random.Random) -> dict:
    if strength == "random":
        return rng.choice(legal(slug, state))
    if strength not in STRENGTHS:
        raise ValueError(f"unknown strength {strength!r}")
    return _module(slug).choose(slug, state, strength, rng)


def best(slug: str, state: dict) -> Choice:
    return _module(slug).best(slug, state)


def value(slug: str, state: dict, action: dict) -> float:
    return _module(slug).value(slug, state, action)


def turn_worth(slug: str, options: dict | None = None) -> float:
    return _module(slug).turn_worth(slug, options)


def decision(slug: str, state: dict) -> bool:
    return len(legal(slug, state)) > 1
