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
# lichess's accuracy of a move from the winning percentage it lost (lichess.org/page/accuracy):
# 103.1668 x exp(-0.04354 x loss) - 3.1669, used for the decisions judged by the chance of winning.
WIN_A, WIN_K, WIN_B = 103.1668, 0.04354, 3.1669


@dataclass(frozen=True)
class Judgement:
    """``measure``: "points" (values and cost in expected points) or "win" (in percent of a chance of
    winning: the decision's stake, games.bots.stake)."""

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
    measure: str = "points"


def turn_worth(slug: str, options: dict | None) -> float:
    """The expected points of one turn of this game played well: the scale of its costs."""
    return bots.turn_worth(slug, options)


def decision_accuracy(cost: float, worth: float) -> float:
    """100 for the expert's choice, falling off exponentially with the cost measured in turns."""
    return 100.0 * math.exp(-cost / (SCALE_FRACTION * worth))


def win_accuracy(lost: float) -> float:
    """lichess's accuracy of a move that lost ``lost`` percentage points of winning chance: 100 for
    none, 50 for about 16, near 0 from 80."""
    if lost <= 0:
        return 100.0
    return max(0.0, min(100.0, WIN_A * math.exp(-WIN_K * lost) - WIN_B))


def game_accuracy(accuracies: list[float]) -> float | None:
    """The mean of a game's decision accuracies; None without a decision."""
    return sum(accuracies) / len(accuracies) if accuracies else None


def best_count(decisions: list[dict]) -> int:
    """How many of a seat's stored decisions cost nothing (their cost is rounded to 3 places)."""
    return sum(1 for d in decisions if d["cost"] == 0)


def judged(slug: str, state: dict, player: str, action: dict) -> bool:
    """Whether the coach judges this logged action: the player to move making a move of the game (not
    a resignation, not someone else's skip) at a point where they had a choice."""
    engine = rules.get(slug)
    if state.get("over") or engine.current_player(state) != player:
        return False
    kinds = {a["type"] for a in engine.legal_actions(state)}
    return action.get("type") in kinds and bots.decision(slug, state)


def judge(slug: str, state: dict, action: dict, options: dict | None = None) -> Judgement:
    """The expert's view of ``action`` played in ``state``, on the measure of the state's stake:
    expected points, or where the expert plays for the exact chance of winning, that chance in percent
    (the cost then weighed as lichess weighs winning chances lost)."""
    stake = bots.stake(slug, state)
    best, played = stake.best, stake.value(action)
    scale = 100.0 if stake.measure == "win" else 1.0
    cost = (best.value - played) * scale
    cost = 0.0 if cost < EPSILON else cost
    if stake.measure == "win":
        accuracy = win_accuracy(cost)
    else:
        accuracy = decision_accuracy(cost, turn_worth(slug, options))
    expert_say, say = said(slug, state, best.action), said(slug, state, action)
    return Judgement(
        action=action,
        expert=best.action,
        expert_value=best.value * scale,
        value=played * scale,
        cost=cost,
        accuracy=accuracy,
        expert_text=english([expert_say]),
        text=english([say]),
        expert_say=expert_say,
        say=say,
        measure=stake.measure,
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
