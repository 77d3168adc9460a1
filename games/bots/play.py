"""Solo games between a computer player and the dice, for fitting (games/bots/fit.py) and the bots
benchmark (bench/bots.py): every action through ``games.bots.choose``, dice and choices from one seeded
``random.Random``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games import bots, rules
from games.rules.dice import make_dice

PLAYER = "solo"


def solo(
    slug: str,
    strength: str,
    rng: random.Random,
    seen: Callable[[dict], None] | None = None,
    timer: Callable[[], float] | None = None,
    times: list[float] | None = None,
    starts: list[float] | None = None,
    players: Any = None,
    each: Callable[[dict], None] | None = None,
) -> int:
    """Play one solo card game to the end and return its score; ``seen`` gets every score event,
    ``times`` (with ``timer``) the time of every decision and ``starts`` that of every turn's first
    roll (no choice: the card bots compute the turn's tables then). ``players``: computer players to
    play with other than the game's own (``choose(state, strength, rng)``), as Quintzee's heuristic
    card players; ``each`` gets every state before its action is chosen."""
    engine = rules.get(slug)
    dice = make_dice(rng, painted=engine.dice_kind == "painted")
    state = engine.new_game([PLAYER])
    while not engine.is_over(state):
        if each:
            each(state)
        start = timer() if timer else 0.0
        if players is None:
            action = bots.choose(slug, state, strength, rng)
        else:
            action = players.choose(state, strength, rng)
        if timer and times is not None:
            spent = timer() - start
            if bots.decision(slug, state):
                times.append(spent)
            elif starts is not None:
                starts.append(spent)
        state = engine.apply(state, PLAYER, action, dice)
        if seen and state["last_event"]["type"] == "score":
            seen(state["last_event"])
    return engine.scores(state)[PLAYER]
