"""The coach's judgement of one decision, its words, and the accuracy figure (docs/coach.md).

Pure Python like games.bots, which it asks: no Django here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from games import bots, rules
from games.declaration import declaration
from games.rules.messages import Message, english

# A decision that costs this fraction of a turn's worth keeps 1/e (37 %) of its accuracy.
SCALE_FRACTION = 0.25
# Below this many expected points a cost is rounding in the expert's arithmetic, not a mistake.
EPSILON = 1e-6


@dataclass(frozen=True)
class Judgement:
    action: dict
    expert: dict
    expert_value: float
    value: float
    cost: float
    accuracy: float
    expert_text: str
    text: str
    # The same words as a message (games.rules.messages), said in each reader's language when shown.
    expert_say: Message
    say: Message


def turn_worth(slug: str, options: dict | None) -> float:
    """The expected points of one turn of this game played well: the scale of its costs."""
    return bots.turn_worth(slug, options)


def decision_accuracy(cost: float, worth: float) -> float:
    """100 for the expert's choice, falling off exponentially with the cost measured in turns."""
    return 100.0 * math.exp(-cost / (SCALE_FRACTION * worth))


def game_accuracy(accuracies: list[float]) -> float | None:
    """The mean of a game's decision accuracies; None without a decision."""
    return sum(accuracies) / len(accuracies) if accuracies else None


def judged(slug: str, state: dict, player: str, action: dict) -> bool:
    """Whether the coach judges this logged action: the player to move making a move of the game (not
    a resignation, not someone else's skip) at a point where they had a choice."""
    engine = rules.get(slug)
    if state.get("over") or engine.current_player(state) != player:
        return False
    kinds = {a["type"] for a in engine.legal_actions(state)}
    return action.get("type") in kinds and bots.decision(slug, state)


def judge(slug: str, state: dict, action: dict, options: dict | None = None) -> Judgement:
    """The expert's view of ``action`` played in ``state``."""
    best = bots.best(slug, state)
    played = bots.value(slug, state, action)
    cost = best.value - played
    cost = 0.0 if cost < EPSILON else cost
    expert_say, say = said(slug, state, best.action), said(slug, state, action)
    return Judgement(
        action=action,
        expert=best.action,
        expert_value=best.value,
        value=played,
        cost=cost,
        accuracy=decision_accuracy(cost, turn_worth(slug, options)),
        expert_text=english([expert_say]),
        text=english([say]),
        expert_say=expert_say,
        say=say,
    )


# --- words -------------------------------------------------------------------------------------------


def describe(slug: str, state: dict, action: dict) -> str:
    """An action in the engines' English: "set aside 5 5 5 and roll 3 dice", "bank 450"."""
    return english([said(slug, state, action)])


def said(slug: str, state: dict, action: dict) -> Message:
    """An action in words a player understands, as a message with its parameters ("set aside 5 5 5
    and roll 3 dice", "set aside 5 1 and bank 450", "hold 6 6 and roll", "score Full House in column 2
    (+25)"), so that each reader gets them in their own language. Each game says its own moves (its
    declaration's ``words``: games/declaration.py)."""
    return declaration(slug).words(state, action)
