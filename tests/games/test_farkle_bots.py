"""Farkle's computer players (games/bots/farkle.py, farkle_win.py, farkle_reach.py): the expert's play to
win in positions built by hand, the strengths' order, and the exact chance to reach a target against
the engine's own dice."""

from __future__ import annotations

import random
from math import sqrt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import bots
from games.bots import farkle_expert, farkle_reach, farkle_win
from games.rules import farkle
from tests.games.test_bots_contract import reachable


def rolled(
    banked: dict[str, int], current: str, roll: list[int], *, ending: bool = False, goal=10000
) -> dict:
    """A game of 6 dice at ``current``'s first roll ``roll``, the players' totals ``banked``."""
    state = farkle.new_game(list(banked), {"goal": goal, "dice": 6})
    state["banked"] = dict(banked)
    state["current"] = current
    state["ending"] = ending
    return farkle.apply(state, current, {"type": "roll", "keep": []}, lambda n: list(roll))


def expert(state: dict) -> dict:
    return bots.choose("farkle", state, "expert", random.Random(0))


# 1, 5, 5, 5 set aside is 600 with two dice left: a bank for the turn's expected points.
SIX_HUNDRED = [1, 5, 5, 5, 2, 3]
BANK_600 = {"type": "bank", "keep": [0, 1, 2, 3]}


def test_for_points_the_expert_banks_600_with_two_dice_left():
    state = rolled({"ann": 0, "bob": 0}, "bob", SIX_HUNDRED)
    assert bots.best("farkle", state).action == BANK_600
    assert expert(state) == BANK_600


def test_in_the_final_round_a_player_who_cannot_win_by_banking_rolls_on():
    state = rolled({"ann": 10000, "bob": 8000}, "bob", SIX_HUNDRED, ending=True)
    action = expert(state)
    assert action["type"] == "roll"
    # Of the rolls, the one with the best chance to make the 2000 still missing.
    table = farkle_reach.reach_table(6)
    chosen = table.after(
        state["turn_points"] + farkle.selection_value(state, action["keep"]),
        6 - len(action["keep"]),
        2000,
        False,
    )
    assert chosen == max(
        table.after(farkle.selection_value(state, a["keep"]), 6 - len(a["keep"]), 2000, a["type"] == "bank")
        for a in farkle.legal_actions(state)
    )


def test_in_the_final_round_a_bank_that_reaches_the_goal_is_taken():
    state = rolled({"ann": 10000, "bob": 9400}, "bob", SIX_HUNDRED, ending=True)
    assert expert(state) == BANK_600


def test_a_bank_that_reaches_the_goal_is_taken_where_points_would_roll_on():
    three_threes = [3, 3, 3, 2, 4, 6]  # 300 with three dice left: worth rolling on for points
    state = rolled({"ann": 9700, "bob": 0}, "ann", three_threes)
    assert bots.best("farkle", state).action["type"] == "roll"
    assert expert(state) == {"type": "bank", "keep": [0, 1, 2]}


def test_a_player_plays_for_the_goal_when_one_still_to_play_this_round_will_most_likely_reach_it():
    # bob, after ann this round, needs 100 (a bank of 300): ann's turn is most likely her last.
    state = rolled({"ann": 8000, "bob": 9900}, "ann", SIX_HUNDRED)
    assert farkle_win.last_turn_chance(state) > 0.5
    assert expert(state)["type"] == "roll"


def test_a_player_seated_before_does_not_make_this_turn_the_last():
    # ann reaching the goal next round still leaves bob his turn in that round: bob plays for points.
    state = rolled({"ann": 9900, "bob": 8000}, "bob", SIX_HUNDRED)
    assert farkle_win.last_turn_chance(state) == 0.0
    assert expert(state) == BANK_600


def good(state: dict) -> dict:
    return bots.choose("farkle", state, "good", random.Random(0))


def test_the_good_player_banks_from_its_threshold_for_the_dice_left():
    assert good(rolled({"ann": 0}, "ann", [3, 3, 3, 2, 4, 6])) == {"type": "roll", "keep": [0, 1, 2]}
    assert good(rolled({"ann": 0}, "ann", [4, 4, 4, 2, 3, 6])) == {"type": "bank", "keep": [0, 1, 2]}
    assert good(rolled({"ann": 0, "bob": 0}, "bob", SIX_HUNDRED)) == BANK_600


def test_the_good_player_banks_at_the_goal_and_never_short_of_it_in_the_final_round():
    assert good(rolled({"ann": 9700}, "ann", [3, 3, 3, 2, 4, 6])) == {"type": "bank", "keep": [0, 1, 2]}
    final = rolled({"ann": 10000, "bob": 8000}, "bob", SIX_HUNDRED, ending=True)
    assert good(final) == {"type": "roll", "keep": [0, 1, 2, 3]}
    assert good(rolled({"ann": 10000, "bob": 9400}, "bob", SIX_HUNDRED, ending=True)) == BANK_600


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 7))
def test_in_the_final_round_the_expert_takes_a_best_chance_to_reach_the_goal(seed, steps):
    state = reachable("farkle", seed, steps)
    if state["over"] or not state["rolls"] or not state["ending"]:
        return
    need = state["goal"] - state["banked"][state["current"]]
    table = farkle_reach.reach_table(state["dice_count"])
    n = len(state["dice"])

    def chance(a: dict) -> float:
        points = state["turn_points"] + farkle.selection_value(state, a["keep"])
        return table.after(points, n - len(a["keep"]), need, a["type"] == "bank")

    assert chance(expert(state)) == max(chance(a) for a in farkle.legal_actions(state))


@pytest.mark.parametrize("dice", [6, 5])
def test_easy_good_expert_in_this_order_of_mean_points_per_turn(dice):
    """3,000 seeded turns each (the expert's play against the exact figure: test_farkle_expert.py)."""
    means = {p: farkle_expert.simulate(3000, dice, seed=11, strength=p) for p in bots.STRENGTHS}
    assert means["easy"].mean < means["good"].mean < means["expert"].mean


def reach_by_play(dice: int, target: int, turns: int, rng: random.Random) -> float:
    """The share of turns, played through the engine to bank ``target``, that bank it."""
    goal = max(farkle.GOALS)
    reached = 0
    for _ in range(turns):
        state = farkle.new_game(["ann"], {"goal": goal, "dice": dice})
        state["banked"]["ann"] = goal - target
        while not state["turns_taken"]["ann"]:
            if state["rolls"]:
                action = farkle_win.reach_action(state, target, lambda a: 0.0)
            else:
                action = {"type": "roll", "keep": []}
            state = farkle.apply(state, "ann", action, lambda n: [rng.randint(1, 6) for _ in range(n)])
        reached += state["banked"]["ann"] >= goal
    return reached / turns


@pytest.mark.parametrize(("dice", "target"), [(6, 300), (6, 1500), (5, 300), (5, 1000)])
def test_the_exact_chance_to_reach_a_target_matches_play_through_the_engine(dice, target):
    """2,000 seeded turns each; 99 % intervals, so that a change of seed rarely fails by chance."""
    exact = farkle_reach.reach_chance(dice, target)
    seen = reach_by_play(dice, target, 2000, random.Random(target + dice))
    assert abs(seen - exact) <= 2.576 * sqrt(exact * (1 - exact) / 2000)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([6, 5]), st.integers(0, 200), st.integers(0, 199), st.integers(1, 6))
def test_the_chance_grows_with_the_points_and_falls_with_the_target(dice, points, target, n):
    n = min(n, dice)
    points, target = points * 50, target * 50
    table = farkle_reach.reach_table(dice)
    here = table.chance(points, n, target)
    assert 0.0 <= here <= 1.0
    assert table.chance(points + 50, n, target) >= here - 1e-12
    assert table.chance(points, n, target + 50) <= here + 1e-12
