"""Fixtures for game services and sockets: scripted dice and ready-made tables."""

from __future__ import annotations

import random

import pytest

from games import rules
from games.dice_source import write_script


@pytest.fixture
def scripted_dice(settings, tmp_path):
    """Select the scripted dice source; call the fixture's value with rolls to queue them."""
    path = tmp_path / "dice.json"
    path.write_text("[]")
    settings.DICE_SOURCE = "scripted"
    settings.DICE_SCRIPT_PATH = str(path)

    def push(*rolls):
        write_script(path, [list(r) for r in rolls])

    push.path = path
    return push


def random_legal_action(state: dict, rng: random.Random) -> dict:
    """A legal action for the player to move, biased towards ending turns so games finish quickly."""
    engine = rules.get(state["slug"])
    actions = engine.legal_actions(state)
    finishing = [a for a in actions if a["type"] in ("score", "bank")]
    if finishing and rng.random() < 0.6:
        return rng.choice(finishing)
    return rng.choice(actions)
