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
- ``stake(slug, state)``: what the expert plays for in this state, and how it values each action on
  that measure: ``"win"``, the exact chance of winning, where the expert knows it exactly and plays
  for it (a card game's last turn once every other player's card is full: the score to beat is known;
  Farkle's final round: the goal must be banked this turn), else ``"points"``, ``best`` and ``value``.
  The coach judges a decision on its stake's measure, the hint is its stake's best action.

Which players play a game is part of its declaration (games/declaration.py): the engine names its own
(``PLAYERS``: Farkle's ``games.bots.farkle``; the card games' evaluations of their cards, ``quintzee``,
``yahtzee99`` and ``painted``, each played by the shared card turn of ``games.bots.cards``; Quintzee's
``quintzee_expert``, the exact optimum and its card players), and an
engine that names none gets the generic ones: any card game the card turn on what a placement adds to
its card now (``cards.for_engine``), any other game the greedy player (``greedy.for_engine``). Each
game's players answer the ``Players`` calls below, without the slug.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from games import rules
from games.declaration import declaration

STRENGTHS = ("easy", "good", "expert")


@dataclass(frozen=True)
class Choice:
    action: dict
    value: float


class Stake(NamedTuple):
    """What the expert plays for in a state (``measure``: "points" or "win"), its best action and the
    value of any action on that measure (a chance from 0 to 1 for "win")."""

    measure: str
    best: Choice
    value: Callable[[dict], float]


class Players(NamedTuple):
    """One game's computer players: what its declaration's ``players`` answers (a class with these
    methods does as well). ``to_win(state)``, optional: the "win" ``Stake`` where the expert plays for
    the exact chance of winning, else None."""

    choose: Callable[[dict, str, random.Random], dict]
    best: Callable[[dict], Choice]
    value: Callable[[dict, dict], float]
    turn_worth: Callable[[dict | None], float]
    to_win: Callable[[dict], Stake | None] | None = None


def players(slug: str) -> Any:
    """The computer players of the game ``slug`` (loaded on first use: they import the engines)."""
    return declaration(slug).players


def legal(slug: str, state: dict) -> list[dict]:
    return rules.get(slug).legal_actions(state)


def choose(slug: str, state: dict, strength: str, rng: random.Random) -> dict:
    if strength == "random":
        return rng.choice(legal(slug, state))
    if strength not in STRENGTHS:
        raise ValueError(f"unknown strength {strength!r}")
    return players(slug).choose(state, strength, rng)


def best(slug: str, state: dict) -> Choice:
    return players(slug).best(state)


def value(slug: str, state: dict, action: dict) -> float:
    return players(slug).value(state, action)


def turn_worth(slug: str, options: dict | None = None) -> float:
    return players(slug).turn_worth(options)


def stake(slug: str, state: dict) -> Stake:
    game = players(slug)
    to_win = getattr(game, "to_win", None)
    won = to_win(state) if to_win is not None else None
    if won is not None:
        return won
    return Stake("points", game.best(state), lambda action: game.value(state, action))


def decision(slug: str, state: dict) -> bool:
    return len(legal(slug, state)) > 1
