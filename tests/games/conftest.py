"""Helpers for game tests: random legal play (the players most of them seat, ann and bob, are
tests/conftest.py's)."""

from __future__ import annotations

import random

from games import rules


def random_legal_action(state: dict, rng: random.Random) -> dict:
    """A legal action for the player to move, biased towards ending turns so games finish quickly."""
    engine = rules.get(state["slug"])
    actions = engine.legal_actions(state)
    finishing = [a for a in actions if a["type"] in ("score", "bank")]
    if finishing and rng.random() < 0.6:
        return rng.choice(finishing)
    return rng.choice(actions)
