"""Farkle's computer players: the expert plays the dynamic programme of games/bots/farkle_expert.py."""

from __future__ import annotations

import random

from games.bots import Choice
from games.bots.farkle_expert import turn_values
from games.rules import farkle


def _values(state: dict):
    return turn_values(state["dice_count"])


def best(slug: str, state: dict) -> Choice:
    values = _values(state)
    if not state["rolls"]:
        return Choice({"type": "roll", "keep": []}, values.roll_value(0, state["dice_count"]))
    picked = values.choose(state["turn_points"], state["dice"])
    return Choice(picked["action"], picked["expected"])


def value(slug: str, state: dict, action: dict) -> float:
    values = _values(state)
    if not state["rolls"]:
        return values.roll_value(0, state["dice_count"])
    keep = action.get("keep", [])
    points = state["turn_points"] + farkle.score(state["dice"][i] for i in keep)
    if action["type"] == "bank":
        return float(points)
    left = len(state["dice"]) - len(keep)
    return values.roll_value(points, left or state["dice_count"])


def choose(slug: str, state: dict, strength: str, rng: random.Random) -> dict:
    return best(slug, state).action
