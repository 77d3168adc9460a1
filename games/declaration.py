"""A game as one declaration: its engine, and what the site adds to it beyond the rules (its computer
players and the coach's expert, how the coach says a move, its rules page), read from the engine alone.

The engine module is the one thing a game is (docs/engine.md, "One declaration"). What the site adds is
optional there: an engine names its own parts (``PLAYERS``, ``RULEBOOK``: dotted paths, so that the
engine imports none of them and stays pure) and says its own moves (``words``); whatever it leaves out
comes from the generic parts below, so an engine added with ``rules.register`` has computer players,
hints, reviews and a rules page without a line anywhere else. Nothing here, and nothing that asks here,
names a game.

Pure Python like the engines (no Django here; a rules page is loaded only when a page asks for it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, partial
from importlib import import_module
from typing import Any

from games import rules
from games.rules import cardgame
from games.rules.messages import Message, msg

# Where the generic parts live: an engine that declares no part of its own gets these.
CARD_PLAYERS = "games.bots.anycard.for_engine"  # any card game (an engine with a CardRules, ``RULES``)
GREEDY_PLAYERS = "games.bots.greedy.for_engine"  # any other engine
GENERIC_RULEBOOK = "games.rulebook.generic.for_engine"


def load(path: str) -> Any:
    """The object a dotted path names: "games.bots.farkle.PLAYERS" is ``PLAYERS`` of games.bots.farkle."""
    module, _, name = path.rpartition(".")
    return getattr(import_module(module), name)


def is_card_game(engine: Any) -> bool:
    """Whether ``engine`` is built on the shared card mechanics (games/rules/cardgame.py)."""
    return isinstance(getattr(engine, "RULES", None), cardgame.CardRules)


def _said_plainly(state: dict, action: dict) -> Message:
    return msg("coach.action", action=action["type"])


@dataclass(frozen=True, eq=False)
class Declaration:
    """One game: its engine and the parts of the site that play, teach and judge it. Each part is
    loaded the first time it is asked for, and kept."""

    engine: Any

    @property
    def slug(self) -> str:
        return self.engine.slug

    @cached_property
    def players(self) -> Any:
        """Its computer players and the coach's expert: ``choose(state, strength, rng)``,
        ``best(state)``, ``value(state, action)`` and ``turn_worth(options)`` (games/bots/__init__.py).
        The engine's ``PLAYERS``; else the card players for a card game, read from its ``RULES``
        (games/bots/anycard.py); else the greedy player (games/bots/greedy.py)."""
        declared = getattr(self.engine, "PLAYERS", None)
        if declared:
            return load(declared)
        return load(CARD_PLAYERS if is_card_game(self.engine) else GREEDY_PLAYERS)(self.engine)

    @cached_property
    def words(self) -> Callable[[dict, dict], Message]:
        """How the coach says an action before it is played, ``words(state, action)`` -> a message: the
        engine's ``words``; else a card game's (cardgame.words); else "play roll"."""
        declared = getattr(self.engine, "words", None)
        if declared is not None:
            return declared
        if is_card_game(self.engine):
            return partial(cardgame.words, self.engine)
        return _said_plainly

    @cached_property
    def rulebook(self) -> Any:
        """Its rules page: a ``games.rulebook.Rulebook`` (a template, and the worked examples it shows).
        The engine's ``RULEBOOK``; else a page made from what the engine declares (its boxes and
        labels, options and ranking: games/rulebook/generic.py)."""
        declared = getattr(self.engine, "RULEBOOK", None)
        if declared:
            return load(declared)
        return load(GENERIC_RULEBOOK)(self.engine)


# slug -> the declaration of the engine registered under it (an engine may be an object that cannot be
# hashed: it is told apart by identity).
_declared: dict[str, Declaration] = {}


def declaration(slug: str) -> Declaration:
    """The declaration of the game called ``slug``; KeyError for an unknown one. The same object for as
    long as the same engine is registered under that name."""
    engine = rules.get(slug)
    declared = _declared.get(slug)
    if declared is None or declared.engine is not engine:
        declared = _declared[slug] = Declaration(engine)
    return declared
