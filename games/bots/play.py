"""Solo games between a computer player and the dice, for fitting (games/bots/fit.py) and the bots
benchmark (bench/bots.py): every action through ``games.bots.choose``, dice and choices from one seeded
``random.Random``."""

from __future__ import annotations

import random
from collections.abc import Callable

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
) -> int:
    """Play one solo card game to the end and return its score; ``seen`` gets every score event and
    ``times`` (with ``timer``) the time of every decision."""
    engine = rules.get(slug)
    dice = make_dice(rng, painted=engine.dice_kind == "painted")
    state = engine.new_game([PLAYER])
    while not engine.is_over(state):
        start = timer() if timer else 0.0
        action = bots.choose(slug, state, strength, rng)
        if timer and times is not None and bots.decision(slug, state):
            times.append(timer() - start)
        state = engine.apply(state, PLAYER, action, dice)
        if seen and state["last_event"]["type"] == "score":
            seen(state["last_event"])
    return engine.scores(state)[PLAYER]
