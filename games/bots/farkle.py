"""Farkle's computer players behind the contract of games/bots/__init__.py (its ``PLAYERS``).

- ``best``/``value``: the turn's exact expected points (games/bots/farkle_expert.py), the coach's scale.
- **expert**: those expected points, except where winning asks for another play
  (games/bots/farkle_win.py: a bank that reaches the goal, the final round, a likely last turn).
- **good**: a fixed rule a careful person can follow: set aside the selection worth most (fewest dice on
  a tie), bank a total that reaches the goal, and otherwise bank once the turn has ``GOOD_BANK[left]``
  points with ``left`` dice still to roll, except in the final round, where only the goal is worth a bank.
- **easy**: the same selection, banks as soon as the 300 minimum allows, final round or not, and on
  ``EASY_SLIP`` of its decisions slips: a legal action drawn at random. Every slip comes from the ``rng``
  it is given.
"""

from __future__ import annotations

import random

from games.bots import Choice, Players, Stake
from games.bots.farkle_expert import expected_turn, turn_values
from games.bots.farkle_win import play_to_win, reach_action, reach_chance_of
from games.rules import farkle

# Tuned by simulation (manage.py farkle_expert): the good player's mean stays 5 to 10 % below the
# expert's, the easy one's 20 %. Left 6 never happens after a selection (hot dice must roll).
GOOD_BANK = {1: 300, 2: 300, 3: 400, 4: 1000, 5: 2000}
EASY_SLIP = 0.25


def _values(state: dict):
    return turn_values(state["dice_count"])


def turn_worth(options: dict | None) -> float:
    return expected_turn((options or {}).get("dice", 6))


def best(state: dict) -> Choice:
    values = _values(state)
    if not state["rolls"]:
        return Choice({"type": "roll", "keep": []}, values.roll_value(0, state["dice_count"]))
    picked = values.choose(state["turn_points"], state["dice"])
    return Choice(picked["action"], picked["expected"])


def value(state: dict, action: dict) -> float:
    values = _values(state)
    if not state["rolls"]:
        return values.roll_value(0, state["dice_count"])
    keep = action.get("keep", [])
    points = state["turn_points"] + farkle.score(state["dice"][i] for i in keep)
    if action["type"] == "bank":
        return float(points)
    left = len(state["dice"]) - len(keep)
    return values.roll_value(points, left or state["dice_count"])


def _threshold_play(state: dict, bank_at: dict[int, int], last_round_aware: bool) -> dict:
    """Set aside the selection worth most, then bank at the goal or from ``bank_at[dice left]`` points;
    ``last_round_aware``: in the final round, bank only at the goal (short of it the game is lost)."""
    if not state["rolls"]:
        return {"type": "roll", "keep": []}
    keep, points = max(
        ((list(idx), v) for idx, v in farkle._keeps(tuple(state["dice"]))),
        key=lambda kv: (kv[1], -len(kv[0])),
    )
    left = len(state["dice"]) - len(keep)
    total = state["turn_points"] + points
    if not left or total < farkle.BANK_MINIMUM:  # hot dice, or too few points: the rules say roll
        return {"type": "roll", "keep": keep}
    reaches = state["banked"][state["current"]] + total >= state["goal"]
    enough = reaches or (total >= bank_at[left] and not (last_round_aware and state["ending"]))
    return {"type": "bank" if enough else "roll", "keep": keep}


def to_win(state: dict) -> Stake | None:
    """The final round's "win" stake: the turn is the player's last, and a total below the goal loses
    whatever it is, so an action is worth its exact chance of banking the rest of the goal this turn (a
    win, alone or shared); the best is the expert's play there (games/bots/farkle_win.py)."""
    if not state["ending"] or not state["rolls"]:
        return None
    need = state["goal"] - state["banked"][state["current"]]
    if need <= 0:
        return None
    chance = reach_chance_of(state, need)
    action = reach_action(state, need, lambda a: value(state, a))
    return Stake("win", Choice(action, chance(action)), chance)


def _expert(state: dict) -> dict:
    won = play_to_win(state, lambda action: value(state, action))
    return won if won is not None else best(state).action


def choose(state: dict, strength: str, rng: random.Random) -> dict:
    if strength == "expert":
        return _expert(state)
    if strength == "good":
        return _threshold_play(state, GOOD_BANK, last_round_aware=True)
    if state["rolls"] and rng.random() < EASY_SLIP:
        return rng.choice(farkle.legal_actions(state))
    return _threshold_play(state, dict.fromkeys(GOOD_BANK, farkle.BANK_MINIMUM), last_round_aware=False)


# What Farkle's declaration names (games/rules/farkle.py, PLAYERS).
PLAYERS = Players(choose, best, value, turn_worth, to_win)
