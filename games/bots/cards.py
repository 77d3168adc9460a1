"""The card games' computer players (interim: the box worth most now, no re-roll)."""

from __future__ import annotations

import random

from games import rules
from games.bots import Choice


def _gain(slug: str, state: dict, action: dict) -> float:
    engine = rules.get(slug)
    player = engine.current_player(state)
    after = engine.apply(state, player, action, lambda n: [])
    return float(engine.scores(after)[player] - engine.scores(state)[player])


def best(slug: str, state: dict) -> Choice:
    actions = rules.get(slug).legal_actions(state)
    scores = [a for a in actions if a["type"] == "score"]
    if not scores:
        return Choice(actions[0], 0.0)
    return max((Choice(a, _gain(slug, state, a)) for a in scores), key=lambda c: c.value)


def value(slug: str, state: dict, action: dict) -> float:
    return _gain(slug, state, action) if action["type"] == "score" else 0.0


def choose(slug: str, state: dict, strength: str, rng: random.Random) -> dict:
    return best(slug, state).action
