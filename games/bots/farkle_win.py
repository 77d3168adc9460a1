"""The Farkle expert's play to win: when the turn's expected points are not the right aim.

What winning is under our rules (rules/RULINGS.md section 4): a player's banked total reaching the goal
makes the current round the last; the round is completed, so every player has had the same number of
turns, and then every active player who reached the goal wins, sharing the win if there are several.
So winning is reaching the goal in the fewest laps. What a player has above the goal does not decide
the win (only the high-score list's order among winners); neither does beating another player's score:
the score to beat is always the goal itself. Seat order does not matter either: whoever reaches the
goal in the same round as the first one shares the win.

From this, three plays differ from maximising the turn's expected points (games/bots/farkle_expert.py):

1. **A bank that reaches the goal is taken** (the one with most points, for the high-score list). It
   wins at once, alone or shared with the players still to play this round; rolling on cannot win
   more and can lose it.
2. **The final round** (``state["ending"]``: someone reached the goal): this turn is the player's last,
   and a total below the goal loses whatever it is. The player plays to maximise the exact chance of
   banking at least ``goal - banked`` this turn (games/bots/farkle_reach.py): a player who cannot win by
   banking rolls on, however much is at stake.
3. **Most likely the last turn**: before the final round, if the players after this one in the round
   (who have not resigned) are more likely than not to reach the goal on their turn, each by their own
   exact chance from the same table, this turn is most likely the last one, and it is played as in 2.
   The players before this one do not count: if they reach the goal next round, this player still has
   a turn in that round. This is a rule of thumb, not a solution of the whole game.

Otherwise the expert maximises the turn's expected points, as the coach's figures do.
"""

from __future__ import annotations

from collections.abc import Callable

from games.bots.farkle_reach import reach_chance, reach_table
from games.rules import farkle

LAST_TURN_LIKELY = 0.5

Points = Callable[[dict], float]


def still_to_play(state: dict) -> list[str]:
    """The active players after the current one in seat order: their turns come in this round."""
    seats = state["players"]
    after = seats[seats.index(state["current"]) + 1 :]
    return [p for p in after if p not in state["resigned"]]


def last_turn_chance(state: dict) -> float:
    """The chance that a player still to play this round reaches the goal on their turn."""
    dice, goal = state["dice_count"], state["goal"]
    missed = 1.0
    for player in still_to_play(state):
        missed *= 1.0 - reach_chance(dice, goal - state["banked"][player])
    return 1.0 - missed


def must_reach(state: dict) -> bool:
    """Whether this turn is (most likely) the player's last: reaching the goal now is all that counts."""
    return state["ending"] or last_turn_chance(state) > LAST_TURN_LIKELY


def winning_bank(state: dict, need: int) -> dict | None:
    """The legal bank that reaches the goal with the most points, if there is one."""
    banks = [a for a in farkle.legal_actions(state) if a["type"] == "bank"]
    reaching = [(state["turn_points"] + farkle.selection_value(state, a["keep"]), a) for a in banks]
    reaching = [(points, a) for points, a in reaching if points >= need]
    if not reaching:
        return None
    return max(reaching, key=lambda pair: (pair[0], -len(pair[1]["keep"])))[1]


def reach_chance_of(state: dict, need: int) -> Callable[[dict], float]:
    """The exact chance that an action leads to banking at least ``need`` points this turn."""
    table = reach_table(state["dice_count"])
    n = len(state["dice"])

    def chance(action: dict) -> float:
        points = state["turn_points"] + farkle.selection_value(state, action["keep"])
        return table.after(points, n - len(action["keep"]), need, action["type"] == "bank")

    return chance


def reach_action(state: dict, need: int, points_of: Points) -> dict:
    """The legal action with the best chance to bank ``need`` points this turn; equal chances (such as
    two banks that both win) go to the one worth more points, ``points_of(action)``."""
    chance = reach_chance_of(state, need)
    scored = [(chance(a), points_of(a), a) for a in farkle.legal_actions(state)]
    top = max(c for c, _, _ in scored)
    return max((s for s in scored if s[0] >= top - 1e-12), key=lambda s: s[1])[2]


def play_to_win(state: dict, points_of: Points) -> dict | None:
    """The expert's action when winning asks for something else than the most expected points, or None.

    ``points_of(action)``: the action's expected points, to choose among plays equally good for winning.
    """
    if not state["rolls"]:
        return None
    need = state["goal"] - state["banked"][state["current"]]
    if need <= 0:  # no play reaches this (the round ends first), but a state built by hand may
        return None
    bank = winning_bank(state, need)
    if bank is not None:
        return bank
    if must_reach(state):
        return reach_action(state, need, points_of)
    return None
