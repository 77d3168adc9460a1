"""Farkle (10000): scoring table, turns, hot dice, the final round, resign and skip (RULINGS section 4)."""

from __future__ import annotations

import copy
import json
from collections import Counter
from itertools import combinations, combinations_with_replacement, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import IllegalAction, farkle

# ---------------------------------------------------------------------------
# Helpers


class Script:
    """A dice(n) that hands out pre-set rolls in order and fails the test on any other request.

    pytest.fail is no Exception, so no engine code could swallow it.
    """

    def __init__(self, *rolls):
        self.rolls = [list(r) for r in rolls]

    def __call__(self, n):
        if not self.rolls:
            pytest.fail(f"the engine asked for {n} dice but no roll is scripted")
        roll = self.rolls.pop(0)
        if len(roll) != n:
            pytest.fail(f"the engine asked for {n} dice; the scripted roll is {roll}")
        return list(roll)


NO_DICE = Script()


def act(state, player, action, *rolls):
    """Apply with exactly these rolls, checking that each is used and that ``state`` is untouched."""
    before = copy.deepcopy(state)
    dice = Script(*rolls)
    new = farkle.apply(state, player, action, dice)
    assert state == before
    assert not dice.rolls, f"unused scripted rolls: {dice.rolls}"
    assert json.loads(json.dumps(new)) == new
    return new


def roll(state, player, keep, *rolls):
    return act(state, player, {"type": "roll", "keep": keep}, *rolls)


def bank(state, player, keep):
    return act(state, player, {"type": "bank", "keep": keep})


def bank_turn(state, player, first, keep):
    """One turn: roll ``first`` and bank the dice at ``keep``."""
    return bank(roll(state, player, [], first), player, keep)


def farkle_turn(state, player, n=6):
    return roll(state, player, [], [2, 2, 3, 3, 4, 6][:n])


def refused(state, player, action, match):
    with pytest.raises(IllegalAction, match=match):
        farkle.apply(state, player, action, NO_DICE)


# ---------------------------------------------------------------------------
# Scoring

TABLE = [
    # singles
    ([1], 100),
    ([5], 50),
    ([1, 5], 150),
    ([1, 1], 200),
    ([5, 5], 100),
    ([1, 1, 5, 5], 300),
    # three of a kind
    ([1, 1, 1], 1000),
    ([2, 2, 2], 200),
    ([3, 3, 3], 300),
    ([4, 4, 4], 400),
    ([5, 5, 5], 500),
    ([6, 6, 6], 600),
    ([6, 6, 6, 1], 700),
    ([6, 6, 6, 5, 1], 750),
    # four of a kind: twice three
    ([1, 1, 1, 1], 2000),
    ([2, 2, 2, 2], 400),
    ([3, 3, 3, 3], 600),
    ([4, 4, 4, 4], 800),
    ([5, 5, 5, 5], 1000),
    ([6, 6, 6, 6], 1200),
    ([6, 6, 6, 6, 5], 1250),
    # five of a kind: five times three; five 1s 10000
    ([1, 1, 1, 1, 1], 10000),
    ([2, 2, 2, 2, 2], 1000),
    ([3, 3, 3, 3, 3], 1500),
    ([4, 4, 4, 4, 4], 2000),
    ([5, 5, 5, 5, 5], 2500),
    ([6, 6, 6, 6, 6], 3000),
    ([4, 4, 4, 4, 4, 1], 2100),
    # six of a kind
    ([1, 1, 1, 1, 1, 1], 20000),
    ([2, 2, 2, 2, 2, 2], 10000),
    ([5, 5, 5, 5, 5, 5], 10000),
    ([6, 6, 6, 6, 6, 6], 10000),
    # three of a kind + a pair: twice the three
    ([1, 1, 1, 4, 4], 2000),
    ([2, 2, 2, 5, 5], 400),
    ([3, 3, 3, 2, 2], 600),
    ([6, 6, 6, 4, 4], 1200),
    ([2, 2, 2, 1, 1], 400),
    ([5, 5, 5, 1, 1], 1000),
    ([3, 3, 3, 2, 2, 5], 650),
    # four of a kind + a pair: twice the four, or 1000 as three pairs if that is more
    ([6, 6, 6, 6, 2, 2], 2400),
    ([4, 4, 4, 4, 3, 3], 1600),
    ([1, 1, 1, 1, 2, 2], 4000),
    ([3, 3, 3, 3, 2, 2], 1200),
    ([2, 2, 2, 2, 3, 3], 1000),
    ([2, 2, 2, 2, 1, 1], 1000),
    # two three of a kinds: twice the sum
    ([2, 2, 2, 3, 3, 3], 1000),
    ([1, 1, 1, 6, 6, 6], 3200),
    ([4, 4, 4, 5, 5, 5], 1800),
    # three pairs
    ([2, 2, 3, 3, 4, 4], 1000),
    ([2, 2, 3, 3, 6, 6], 1000),
    ([1, 1, 5, 5, 6, 6], 1000),
    # straights
    ([1, 2, 3, 4, 5, 6], 1000),
    ([6, 5, 4, 3, 2, 1], 1000),
    ([1, 2, 3, 4, 5], 500),
    ([2, 3, 4, 5, 6], 500),
    ([2, 3, 4, 5, 6, 5], 550),
    ([1, 2, 3, 4, 5, 1], 600),
    # a die that does not contribute spoils the set
    ([2, 3], 0),
    ([2], 0),
    ([3], 0),
    ([4], 0),
    ([6], 0),
    ([1, 2], 0),
    ([5, 5, 6], 0),
    ([2, 2], 0),
    ([2, 2, 3, 3], 0),
    ([1, 2, 3, 4], 0),
    ([2, 3, 4, 5, 6, 6], 0),
    ([2, 2, 2, 3, 3, 4], 0),
    ([4, 4, 4, 4, 3], 0),
    ([], 0),
]


@pytest.mark.parametrize(("dice", "value"), TABLE)
def test_score_table(dice, value):
    assert farkle.score(dice) == value
    assert farkle.score(list(reversed(dice))) == value
    assert farkle.score(tuple(dice)) == value


@pytest.mark.parametrize(
    ("dice", "value"),
    [
        ([1, 1, 1, 4, 4], 2000),
        ([2, 2, 2, 5, 5], 400),
        ([5, 5], 100),
        ([2, 2, 2, 3, 3, 3], 1000),
        ([2, 3, 4, 5, 6, 5], 550),
        ([1, 1, 1, 1, 1], 10000),
        ([2, 3], 0),
    ],
)
def test_rulings_examples(dice, value):
    assert farkle.score(dice) == value


@pytest.mark.parametrize("dice", [[0], [7], [1, 7], ["1"], [True], [1.0], [None]])
def test_score_of_things_that_are_not_faces_is_zero(dice):
    assert farkle.score(dice) == 0


@pytest.mark.parametrize(("n", "farkles"), [(1, 4), (2, 16), (3, 60), (4, 204), (5, 600), (6, 1080)])
def test_farkles_over_every_roll(n, farkles):
    assert sum(1 for r in product(range(1, 7), repeat=n) if not farkle.has_score(r)) == farkles


def test_has_score_means_some_dice_score():
    for n in range(1, 7):
        for roll_ in combinations_with_replacement(range(1, 7), n):
            some = any(farkle.score(sub) > 0 for size in range(1, n + 1) for sub in combinations(roll_, size))
            assert farkle.has_score(roll_) == some, roll_


def test_a_scoring_set_is_worth_at_least_any_of_its_parts():
    for n in range(1, 7):
        for roll_ in combinations_with_replacement(range(1, 7), n):
            value = farkle.score(roll_)
            if value:
                parts = [farkle.score(sub) for size in range(1, n) for sub in combinations(roll_, size)]
                assert value >= max(parts, default=0)


# ---------------------------------------------------------------------------
# New game and options


def test_new_game_defaults():
    state = farkle.new_game(["ann", "bob"])
    assert state["goal"] == 10000
    assert state["dice_count"] == 6
    assert state["current"] == "ann"
    assert farkle.current_player(state) == "ann"
    assert farkle.scores(state) == {"ann": 0, "bob": 0}
    assert state["banked"] == {"ann": 0, "bob": 0}
    assert state["turns_taken"] == {"ann": 0, "bob": 0}
    assert state["laps"] == 1
    assert state["turn"] == 0
    assert state["dice"] == []
    assert state["dice_left"] == 6
    assert state["set_aside"] == []
    assert state["turn_points"] == 0
    assert state["last_event"] is None
    assert state["resigned"] == []
    assert state["ending"] is False
    assert not farkle.is_over(state)
    assert farkle.winners(state) == []
    assert json.loads(json.dumps(state)) == state


def test_engine_attributes():
    assert farkle.slug == "farkle"
    assert farkle.name == "Farkle (10000)"
    assert farkle.min_players == 1
    assert farkle.max_players == 6


@pytest.mark.parametrize(
    ("options", "goal", "dice"),
    [
        (None, 10000, 6),
        ({}, 10000, 6),
        ({"goal": 10000}, 10000, 6),
        ({"goal": 5000}, 5000, 6),
        ({"goal": 3000, "dice": 5}, 3000, 5),
        ({"dice": 6}, 10000, 6),
    ],
)
def test_options(options, goal, dice):
    state = farkle.new_game(["ann"], options)
    assert (state["goal"], state["dice_count"], state["dice_left"]) == (goal, dice, dice)


@pytest.mark.parametrize(
    "options",
    [
        {"goal": 4000},
        {"goal": "5000"},
        {"goal": 5000.0},
        {"goal": True},
        {"goal": None},
        {"dice": 4},
        {"dice": "6"},
        {"dice": 6.0},
        {"colour": "red"},
        {"goal": 5000, "extra": 1},
        [("goal", 5000)],
        "goal=5000",
        5000,
    ],
)
def test_bad_options(options):
    with pytest.raises(IllegalAction):
        farkle.new_game(["ann"], options)


@pytest.mark.parametrize(
    "players",
    [[], ["a", "b", "c", "d", "e", "f", "g"], ["ann", "ann"], [""], [1], [None], "ann", None, {"ann": 1}],
)
def test_bad_players(players):
    with pytest.raises(IllegalAction):
        farkle.new_game(players)


def test_six_players_and_tuple():
    state = farkle.new_game(("a", "b", "c", "d", "e", "f"))
    assert state["players"] == ["a", "b", "c", "d", "e", "f"]


# ---------------------------------------------------------------------------
# A turn


def test_first_roll_rolls_every_die_and_keep_indexes_the_latest_roll():
    state = farkle.new_game(["ann", "bob"])
    state = roll(state, "ann", [], [1, 2, 3, 4, 6, 6])
    assert state["dice"] == [1, 2, 3, 4, 6, 6]
    assert state["rolls"] == 1
    assert state["dice_left"] == 6
    assert farkle.turn_points(state) == 0
    event = state["last_event"]
    assert event["type"] == "roll"
    assert event["dice"] == [1, 2, 3, 4, 6, 6]
    assert event["farkle"] is False
    assert event["hot_dice"] is False
    assert event["player"] == "ann"
    assert "ann rolled 1 2 3 4 6 6" in event["text"]

    state = roll(state, "ann", [0], [5, 2, 2, 3, 4])
    assert state["dice"] == [5, 2, 2, 3, 4]
    assert state["dice_left"] == 5
    assert state["set_aside"] == [[1]]
    assert state["aside"] == [1]
    assert farkle.turn_points(state) == 100
    assert state["last_event"]["kept"] == [1]
    assert state["last_event"]["points"] == 100
    assert state["last_event"]["turn_points"] == 100

    state = roll(state, "ann", [0], [1, 1, 1, 6])
    assert state["set_aside"] == [[1], [5]]
    assert farkle.turn_points(state) == 150

    state = bank(state, "ann", [0, 1, 2])
    assert farkle.scores(state) == {"ann": 1150, "bob": 0}
    assert state["current"] == "bob"
    assert state["dice"] == []
    assert state["set_aside"] == []
    assert state["turn_points"] == 0
    assert state["dice_left"] == 6
    assert state["turn"] == 1
    assert state["turns_taken"] == {"ann": 1, "bob": 0}
    event = state["last_event"]
    assert event["type"] == "bank"
    assert event["banked"] == 1150
    assert event["turn_points"] == 1150
    assert event["points"] == 1000
    assert event["kept"] == [1, 1, 1]
    assert event["total"] == 1150


def test_only_dice_of_the_same_roll_combine():
    state = farkle.new_game(["ann"])
    state = roll(state, "ann", [], [1, 1, 2, 3, 4, 6])
    state = roll(state, "ann", [0, 1], [1, 2, 3, 4])
    # Two 1s kept before and one now make no three of a kind: 200 + 100.
    state = roll(state, "ann", [0], [5, 2, 3])
    assert farkle.turn_points(state) == 300


def test_first_roll_farkle_ends_the_turn():
    state = farkle.new_game(["ann", "bob"])
    state = roll(state, "ann", [], [2, 2, 3, 3, 4, 6])
    assert state["current"] == "bob"
    assert state["turns_taken"] == {"ann": 1, "bob": 0}
    event = state["last_event"]
    assert event["type"] == "farkle"
    assert event["farkle"] is True
    assert event["dice"] == [2, 2, 3, 3, 4, 6]
    assert event["lost"] == 0
    assert "Farkle" in event["text"]


def test_later_farkle_loses_the_turn_points():
    state = farkle.new_game(["ann", "bob"])
    state = roll(state, "ann", [], [1, 5, 2, 3, 4, 6])
    state = roll(state, "ann", [0, 1], [2, 3, 4, 6])
    assert state["current"] == "bob"
    assert farkle.scores(state) == {"ann": 0, "bob": 0}
    assert state["turn_points"] == 0
    event = state["last_event"]
    assert (event["type"], event["farkle"], event["lost"], event["turn_points"]) == ("farkle", True, 150, 150)
    assert "150 points lost" in event["text"]


def test_five_dice_option():
    state = farkle.new_game(["ann"], {"dice": 5})
    state = roll(state, "ann", [], [1, 2, 3, 4, 6])
    state = roll(state, "ann", [0], [5, 5, 5, 2])
    state = roll(state, "ann", [0, 1, 2], [1])
    # Hot dice with 5 dice rolls five again.
    state = roll(state, "ann", [0], [2, 2, 3, 4, 1])
    assert state["confirm_roll"] is True
    assert state["hot_dice_count"] == 1
    assert state["dice_left"] == 5
    state = bank(state, "ann", [4])
    assert farkle.scores(state) == {"ann": 800}


def test_five_dice_straight_is_hot_dice():
    state = farkle.new_game(["ann"], {"dice": 5})
    state = roll(state, "ann", [], [5, 4, 3, 2, 1])
    state = roll(state, "ann", [0, 1, 2, 3, 4], [1, 2, 2, 3, 3])
    assert state["turn_points"] == 500
    assert state["last_event"]["hot_dice"] is True


# ---------------------------------------------------------------------------
# Banking


def test_bank_below_the_minimum_is_refused_and_300_is_allowed():
    state = farkle.new_game(["ann", "bob"])
    state = roll(state, "ann", [], [1, 5, 5, 2, 3, 4])
    refused(state, "ann", {"type": "bank", "keep": [0, 1, 2]}, "at least 300 points to bank")
    state = roll(state, "ann", [0, 1, 2], [5, 2, 3])
    assert farkle.turn_points(state) == 200
    refused(state, "ann", {"type": "bank", "keep": [0]}, "at least 300 points to bank")
    state = roll(state, "ann", [0], [1, 2])
    state = bank(state, "ann", [0])
    assert farkle.scores(state)["ann"] == 350


def test_bank_boundary_299_and_300():
    state = farkle.new_game(["ann"])
    state = roll(state, "ann", [], [5, 2, 3, 3, 6, 6])
    low = dict(state, turn_points=249)
    refused(low, "ann", {"type": "bank", "keep": [0]}, "at least 300")
    assert farkle.legal_actions(low) == [{"type": "roll", "keep": [0]}]
    exact = dict(state, turn_points=250)
    assert {"type": "bank", "keep": [0]} in farkle.legal_actions(exact)
    assert farkle.scores(bank(exact, "ann", [0]))["ann"] == 300


def test_bank_before_rolling_is_refused():
    state = farkle.new_game(["ann"])
    refused(state, "ann", {"type": "bank", "keep": []}, "Roll the dice before you bank")
    refused(state, "ann", {"type": "bank", "keep": [0]}, "Roll the dice before you bank")


def test_bank_needs_scoring_dice_set_aside():
    state = farkle.new_game(["ann"])
    state = roll(state, "ann", [], [1, 1, 1, 2, 3, 4])
    refused(state, "ann", {"type": "bank", "keep": []}, "at least one scoring die")
    refused(state, "ann", {"type": "bank"}, "at least one scoring die")
    refused(state, "ann", {"type": "bank", "keep": [0, 3]}, "do not score: 1 2")


# ---------------------------------------------------------------------------
# Hot dice and the confirm roll


def _hot(state, player="ann"):
    """Set aside 1 1 1, then 5 5 5: all six dice score (1500), and the confirm roll is scripted next."""
    state = roll(state, player, [], [1, 1, 1, 2, 3, 4])
    return roll(state, player, [0, 1, 2], [5, 5, 5])


def test_bank_is_refused_when_every_die_has_scored():
    state = _hot(farkle.new_game(["ann", "bob"]))
    refused(state, "ann", {"type": "bank", "keep": [0, 1, 2]}, "roll them all again to confirm")
    assert {"type": "bank", "keep": [0, 1, 2]} not in farkle.legal_actions(state)
    assert {"type": "roll", "keep": [0, 1, 2]} in farkle.legal_actions(state)
    assert farkle.preview(state)["must_confirm"] is True


def test_confirm_roll_farkle_loses_everything():
    state = _hot(farkle.new_game(["ann", "bob"]))
    state = roll(state, "ann", [0, 1, 2], [2, 2, 3, 4, 6, 3])
    assert farkle.scores(state) == {"ann": 0, "bob": 0}
    assert state["current"] == "bob"
    event = state["last_event"]
    assert event["type"] == "farkle"
    assert event["farkle"] is True
    assert event["hot_dice"] is True
    assert event["lost"] == 1500
    assert event["dice"] == [2, 2, 3, 4, 6, 3]


def test_confirm_roll_scores_then_bank_works():
    state = _hot(farkle.new_game(["ann", "bob"]))
    state = roll(state, "ann", [0, 1, 2], [2, 2, 3, 4, 6, 5])
    assert state["current"] == "ann"
    assert state["confirm_roll"] is True
    assert state["hot_dice_count"] == 1
    assert state["dice_left"] == 6
    assert state["aside"] == []
    assert state["set_aside"] == [[1, 1, 1], [5, 5, 5]]
    assert state["last_event"]["hot_dice"] is True
    assert state["last_event"]["farkle"] is False
    assert "hot dice" in state["last_event"]["text"]
    # After the confirm roll scores, play goes on as normal: set aside, then bank or roll.
    refused(state, "ann", {"type": "bank", "keep": []}, "at least one scoring die")
    state = bank(state, "ann", [5])
    assert farkle.scores(state) == {"ann": 1550, "bob": 0}
    assert state["last_event"]["banked"] == 1550


def test_confirm_roll_scores_then_roll_on():
    state = _hot(farkle.new_game(["ann"]))
    state = roll(state, "ann", [0, 1, 2], [2, 2, 3, 4, 6, 5])
    state = roll(state, "ann", [5], [1, 2, 3, 4, 6])
    assert state["confirm_roll"] is False
    assert state["dice_left"] == 5
    assert state["aside"] == [5]
    assert state["turn_points"] == 1550


def test_hot_dice_in_one_roll():
    state = farkle.new_game(["ann"])
    state = roll(state, "ann", [], [6, 5, 4, 3, 2, 1])
    refused(state, "ann", {"type": "bank", "keep": [0, 1, 2, 3, 4, 5]}, "confirm")
    state = roll(state, "ann", [0, 1, 2, 3, 4, 5], [1, 2, 2, 3, 3, 4])
    assert state["turn_points"] == 1000
    state = bank(state, "ann", [0])
    assert farkle.scores(state) == {"ann": 1100}


def test_two_hot_dice_in_a_turn():
    state = _hot(farkle.new_game(["ann"]))
    state = roll(state, "ann", [0, 1, 2], [2, 2, 3, 3, 4, 4])
    state = roll(state, "ann", [0, 1, 2, 3, 4, 5], [1, 2, 3, 4, 6, 6])
    assert state["hot_dice_count"] == 2
    assert state["turn_points"] == 2500
    assert state["set_aside"] == [[1, 1, 1], [5, 5, 5], [2, 2, 3, 3, 4, 4]]


# ---------------------------------------------------------------------------
# The end: finishing the round, laps, winners


def test_reaching_the_goal_finishes_the_round_and_others_still_play():
    state = farkle.new_game(["ann", "bob", "cy"], {"goal": 3000})
    state = bank_turn(state, "ann", [1, 1, 1, 1, 1, 2], [0, 1, 2, 3, 4])
    assert farkle.scores(state)["ann"] == 10000
    assert state["ending"] is True
    assert not farkle.is_over(state)
    assert farkle.winners(state) == []
    assert state["current"] == "bob"
    state = farkle_turn(state, "bob")
    assert state["current"] == "cy"
    assert not farkle.is_over(state)
    state = farkle_turn(state, "cy")
    assert farkle.is_over(state)
    assert farkle.current_player(state) is None
    assert state["current"] is None
    assert farkle.winners(state) == ["ann"]
    assert state["laps"] == 1
    assert state["turns_taken"] == {"ann": 1, "bob": 1, "cy": 1}
    assert "ann wins after 1 lap" in state["last_event"]["text"]
    assert farkle.legal_actions(state) == []


def test_a_later_player_reaching_the_goal_in_the_last_round_shares_the_win():
    state = farkle.new_game(["ann", "bob", "cy"], {"goal": 3000})
    state = farkle_turn(state, "ann")
    state = farkle_turn(state, "bob")
    state = bank_turn(state, "cy", [1, 1, 1, 2, 3, 4], [0, 1, 2])
    assert state["laps"] == 2
    state = bank_turn(state, "ann", [6, 6, 6, 6, 6, 2], [0, 1, 2, 3, 4])
    assert state["ending"] is True
    state = farkle_turn(state, "bob")
    assert not farkle.is_over(state)
    state = bank_turn(state, "cy", [1, 1, 1, 1, 2, 3], [0, 1, 2, 3])
    assert farkle.is_over(state)
    assert farkle.scores(state) == {"ann": 3000, "bob": 0, "cy": 3000}
    assert farkle.winners(state) == ["ann", "cy"]
    assert state["laps"] == 2
    assert state["turns_taken"] == {"ann": 2, "bob": 2, "cy": 2}
    assert "The game is over: ann and cy share the win after 2 laps." in state["last_event"]["text"]


def test_a_player_short_of_the_goal_at_the_end_does_not_win():
    state = farkle.new_game(["ann", "bob", "cy"], {"goal": 5000})
    state = bank_turn(state, "ann", [1, 1, 1, 1, 1, 2], [0, 1, 2, 3, 4])
    state = bank_turn(state, "bob", [2, 2, 2, 2, 2, 6], [0, 1, 2, 3, 4])
    assert not farkle.is_over(state)
    state = farkle_turn(state, "cy")
    assert farkle.is_over(state)
    assert farkle.scores(state) == {"ann": 10000, "bob": 1000, "cy": 0}
    assert farkle.winners(state) == ["ann"]
    assert state["laps"] == 1


def test_last_seat_reaching_the_goal_ends_the_game_at_once():
    state = farkle.new_game(["ann", "bob"], {"goal": 3000})
    state = farkle_turn(state, "ann")
    state = bank_turn(state, "bob", [1, 1, 1, 1, 1, 2], [0, 1, 2, 3, 4])
    assert farkle.is_over(state)
    assert farkle.winners(state) == ["bob"]
    assert farkle.scores(state) == {"ann": 0, "bob": 10000}
    assert state["laps"] == 1


def test_solo_laps_count_every_turn():
    state = farkle.new_game(["ann"], {"goal": 3000})
    for lap in range(1, 4):
        assert state["laps"] == lap
        state = farkle_turn(state, "ann")
    state = bank_turn(state, "ann", [1, 1, 1, 1, 2, 3], [0, 1, 2, 3])
    assert farkle.scores(state) == {"ann": 2000}
    assert state["laps"] == 5
    state = bank_turn(state, "ann", [1, 1, 1, 2, 2, 3], [0, 1, 2])
    assert farkle.is_over(state)
    assert farkle.winners(state) == ["ann"]
    assert state["laps"] == 5
    assert state["turn"] == 5
    assert state["turns_taken"] == {"ann": 5}


def test_tie_when_both_reach_the_goal():
    state = farkle.new_game(["ann", "bob"], {"goal": 3000})
    state = bank_turn(state, "ann", [6, 6, 6, 6, 6, 2], [0, 1, 2, 3, 4])
    state = bank_turn(state, "bob", [6, 6, 6, 6, 6, 3], [0, 1, 2, 3, 4])
    assert farkle.winners(state) == ["ann", "bob"]


def test_no_action_after_the_game_is_over():
    state = farkle.new_game(["ann"], {"goal": 3000})
    state = bank_turn(state, "ann", [1, 1, 1, 1, 1, 2], [0, 1, 2, 3, 4])
    assert farkle.is_over(state)
    for action in ({"type": "roll", "keep": []}, {"type": "bank", "keep": [0]}, {"type": "resign"}):
        refused(state, "ann", action, "game is over")
    assert farkle.preview(state)["can_roll"] is False


# ---------------------------------------------------------------------------
# Illegal actions


@pytest.fixture
def rolled():
    """ann to play, first roll 1 5 2 2 3 4 on the table."""
    state = farkle.new_game(["ann", "bob"])
    return roll(state, "ann", [], [1, 5, 2, 2, 3, 4])


@pytest.mark.parametrize(
    ("player", "action", "match"),
    [
        ("bob", {"type": "roll", "keep": [0]}, "not your turn"),
        ("bob", {"type": "bank", "keep": [0]}, "not your turn"),
        ("zed", {"type": "roll", "keep": [0]}, "not playing"),
        (None, {"type": "roll", "keep": [0]}, "not playing"),
        ("ann", {"type": "roll", "keep": [2]}, "do not score: 2"),
        ("ann", {"type": "roll", "keep": [0, 2]}, "do not score: 1 2"),
        ("ann", {"type": "roll", "keep": [2, 3]}, "do not score"),
        ("ann", {"type": "roll", "keep": []}, "at least one scoring die"),
        ("ann", {"type": "roll"}, "at least one scoring die"),
        ("ann", {"type": "roll", "keep": [-1]}, "no die at position -1"),
        ("ann", {"type": "roll", "keep": [6]}, "no die at position 6"),
        ("ann", {"type": "roll", "keep": [0, 0]}, "named twice"),
        ("ann", {"type": "roll", "keep": ["0"]}, "whole numbers"),
        ("ann", {"type": "roll", "keep": [0.0]}, "whole numbers"),
        ("ann", {"type": "roll", "keep": [True]}, "whole numbers"),
        ("ann", {"type": "roll", "keep": [None]}, "whole numbers"),
        ("ann", {"type": "roll", "keep": 0}, "must be a list"),
        ("ann", {"type": "roll", "keep": "0"}, "must be a list"),
        ("ann", {"type": "roll", "keep": {"0": 1}}, "must be a list"),
        ("ann", {"type": "bank", "keep": [7]}, "no die at position 7"),
        ("ann", {"type": "score", "box": "ones"}, "no action 'score'"),
        ("ann", {"type": None}, "no action"),
        ("ann", {"type": ["roll"]}, "no action"),
        ("ann", {}, "no action"),
        ("ann", {"type": "roll", "keep": [0], "hold": [1]}, "no field 'hold'"),
        ("ann", {"type": "resign", "keep": []}, "no field 'keep'"),
        ("ann", None, "must be an object"),
        ("ann", "roll", "must be an object"),
        ("ann", ["roll"], "must be an object"),
        ("ann", 1, "must be an object"),
    ],
)
def test_illegal_actions(rolled, player, action, match):
    refused(rolled, player, action, match)


def test_first_roll_must_keep_nothing():
    state = farkle.new_game(["ann"])
    refused(state, "ann", {"type": "roll", "keep": [0]}, "before the first roll")
    refused(state, "ann", {"type": "roll", "keep": "x"}, "must be a list")
    assert farkle.legal_actions(state) == [{"type": "roll", "keep": []}]
    # A missing keep on the first roll is an empty one.
    assert act(state, "ann", {"type": "roll"}, [1, 2, 3, 4, 6, 6])["rolls"] == 1


def test_refusal_does_not_roll_or_change_the_state(rolled):
    before = copy.deepcopy(rolled)
    with pytest.raises(IllegalAction):
        farkle.apply(rolled, "ann", {"type": "roll", "keep": [2]}, NO_DICE)
    assert rolled == before


# ---------------------------------------------------------------------------
# Resign and skip


def test_resign_in_turn_passes_the_turn_and_loses_the_points():
    state = roll(farkle.new_game(["ann", "bob", "cy"]), "ann", [], [1, 5, 2, 2, 3, 4])
    state = roll(state, "ann", [0], [1, 2, 3, 4, 6])
    state = act(state, "ann", {"type": "resign"})
    assert state["resigned"] == ["ann"]
    assert state["current"] == "bob"
    assert state["dice"] == []
    assert state["turn_points"] == 0
    assert state["turns_taken"] == {"ann": 0, "bob": 0, "cy": 0}
    event = state["last_event"]
    assert (event["type"], event["player"], event["lost"]) == ("resign", "ann", 100)
    # bob and cy play on; ann's seat is passed over.
    state = farkle_turn(state, "bob")
    state = farkle_turn(state, "cy")
    assert state["current"] == "bob"
    assert state["laps"] == 2
    refused(state, "ann", {"type": "roll", "keep": []}, "not your turn")
    refused(state, "ann", {"type": "resign"}, "already resigned")
    refused(state, "ann", {"type": "skip"}, "resigned")


def test_the_last_player_standing_wins_at_once(rolled):
    """RULINGS: a game of two or more ends when one player has not resigned; they win as they stand."""
    state = roll(rolled, "ann", [0], [1, 2, 3, 4, 6])
    state = act(state, "bob", {"type": "resign"})
    assert farkle.is_over(state)
    assert farkle.current_player(state) is None
    assert farkle.winners(state) == ["ann"]
    assert farkle.scores(state) == {"ann": 0, "bob": 0}
    assert (state["turn_points"], state["dice"], state["turn"]) == (0, [], 0)
    assert state["last_event"]["text"] == "bob resigned. The game is over: ann wins after 1 lap."
    refused(state, "ann", {"type": "resign"}, "The game is over.")


def test_resign_out_of_turn_skips_the_seat_later():
    state = farkle.new_game(["ann", "bob", "cy"])
    state = act(state, "bob", {"type": "resign"})
    assert state["current"] == "ann"
    assert state["last_event"]["type"] == "resign"
    state = farkle_turn(state, "ann")
    assert state["current"] == "cy"
    state = farkle_turn(state, "cy")
    assert state["current"] == "ann"
    assert state["laps"] == 2


def test_the_second_of_three_resigning_ends_the_game():
    state = farkle.new_game(["ann", "bob", "cy"])
    state = act(state, "bob", {"type": "resign"})
    assert not farkle.is_over(state)
    state = act(state, "ann", {"type": "resign"})
    assert farkle.is_over(state)
    assert farkle.winners(state) == ["cy"]
    assert farkle.current_player(state) is None
    assert state["last_event"]["text"] == "ann resigned. The game is over: cy wins after 1 lap."


def test_solo_resign_ends_the_game():
    state = act(farkle.new_game(["ann"]), "ann", {"type": "resign"})
    assert farkle.is_over(state)
    assert farkle.winners(state) == []


def test_goal_reacher_resigning_lets_the_game_go_on():
    state = farkle.new_game(["ann", "bob", "cy"], {"goal": 3000})
    state = bank_turn(state, "ann", [1, 1, 1, 1, 1, 2], [0, 1, 2, 3, 4])
    assert state["ending"] is True
    state = act(state, "ann", {"type": "resign"})
    assert state["ending"] is False
    state = farkle_turn(state, "bob")
    state = farkle_turn(state, "cy")
    assert not farkle.is_over(state)
    assert state["current"] == "bob"
    assert state["laps"] == 2
    state = bank_turn(state, "bob", [6, 6, 6, 6, 6, 2], [0, 1, 2, 3, 4])
    state = farkle_turn(state, "cy")
    assert farkle.winners(state) == ["bob"]
    assert state["laps"] == 2


def test_resigning_in_turn_at_the_end_of_the_last_round_ends_the_game():
    state = farkle.new_game(["ann", "bob"], {"goal": 3000})
    state = bank_turn(state, "ann", [1, 1, 1, 1, 1, 2], [0, 1, 2, 3, 4])
    state = act(state, "bob", {"type": "resign"})
    assert farkle.is_over(state)
    assert farkle.winners(state) == ["ann"]


def test_resign_by_a_stranger_is_refused():
    refused(farkle.new_game(["ann"]), "zed", {"type": "resign"}, "not playing")


def test_skip_ends_the_current_turn_without_points(rolled):
    state = roll(rolled, "ann", [0], [1, 2, 3, 4, 6])
    state = act(state, "bob", {"type": "skip"})
    assert state["current"] == "bob"
    assert farkle.scores(state) == {"ann": 0, "bob": 0}
    assert state["turns_taken"] == {"ann": 1, "bob": 0}
    assert state["turn"] == 1
    event = state["last_event"]
    assert (event["type"], event["player"], event["by"], event["lost"]) == ("skip", "ann", "bob", 100)
    assert event["farkle"] is False


def test_skip_before_the_first_roll():
    state = act(farkle.new_game(["ann", "bob"]), "bob", {"type": "skip"})
    assert state["current"] == "bob"
    assert state["last_event"]["dice"] == []


@pytest.mark.parametrize(
    ("player", "match"), [("ann", "your own turn"), ("zed", "not playing"), (["bob"], "not playing")]
)
def test_bad_skips(rolled, player, match):
    refused(rolled, player, {"type": "skip"}, match)


def test_solo_skip_is_impossible():
    refused(farkle.new_game(["ann"]), "ann", {"type": "skip"}, "your own turn")


# ---------------------------------------------------------------------------
# legal_actions, preview, selection_value


def test_legal_actions_are_exactly_what_apply_accepts(rolled):
    state = roll(rolled, "ann", [0, 1], [1, 1, 5, 2])
    assert state["turn_points"] == 150
    listed = farkle.legal_actions(state)
    for kind in ("roll", "bank"):
        for size in range(7):
            for keep in combinations(range(4), size):
                action = {"type": kind, "keep": list(keep)}
                rolls = [[2] * (4 - size or 6)] if kind == "roll" else []
                try:
                    farkle.apply(state, "ann", action, Script(*rolls))
                except IllegalAction:
                    assert action not in listed
                else:
                    assert action in listed
    assert {"type": "bank", "keep": [0]} not in listed  # 250
    assert {"type": "bank", "keep": [0, 1]} in listed
    assert {"type": "roll", "keep": [0, 1, 2]} in listed
    assert {"type": "bank", "keep": [0, 1, 2]} in listed
    assert all(a["type"] in ("roll", "bank") for a in listed)


def test_preview(rolled):
    p = farkle.preview(rolled)
    assert p["scoring"] == [0, 1, 2, 3, 4, 5]  # 1 2 3 4 5 is a straight with either 2
    assert p["can_roll"] is True
    assert p["can_bank"] is True  # the straight alone is 500
    assert p["must_confirm"] is False
    assert p["best"] == 500
    assert p["turn_points"] == 0
    assert p["bank_minimum"] == 300
    state = roll(rolled, "ann", [0], [6, 6, 2, 3, 5])
    p = farkle.preview(state)
    assert p["scoring"] == [4]
    assert p["can_bank"] is False
    start = farkle.preview(farkle.new_game(["ann"]))
    assert start["first_roll"] is True
    assert start["can_bank"] is False
    assert start["scoring"] == []


# The scoring sets a player sees before picking: the combinations of the RULINGS
# table in the roll, each once, best first, with the indices of one choice of those dice.
@pytest.mark.parametrize(
    ("roll", "sets"),
    [
        # 2-3-4-5-6 is a straight (500) with either 4; the other 4 scores with nothing.
        ([2, 3, 4, 4, 5, 6], [([2, 3, 4, 5, 6], [0, 1, 2, 4, 5], 500), ([5], [4], 50)]),
        ([4, 2, 4, 3, 4, 6], [([4, 4, 4], [0, 2, 4], 400)]),
        (
            [6, 5, 4, 3, 2, 1],
            [
                ([1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4, 5], 1000),
                ([1, 2, 3, 4, 5], [1, 2, 3, 4, 5], 500),
                ([2, 3, 4, 5, 6], [0, 1, 2, 3, 4], 500),
                ([1], [5], 100),
                ([5], [1], 50),
            ],
        ),
        (
            [1, 1, 1, 4, 4, 2],
            [([1, 1, 1, 4, 4], [0, 1, 2, 3, 4], 2000), ([1, 1, 1], [0, 1, 2], 1000), ([1], [0], 100)],
        ),
        (
            [2, 2, 3, 3, 6, 6],
            [([2, 2, 3, 3, 6, 6], [0, 1, 2, 3, 4, 5], 1000)],
        ),
        (
            [3, 3, 3, 3, 2, 2],
            [
                ([2, 2, 3, 3, 3, 3], [0, 1, 2, 3, 4, 5], 1200),
                ([3, 3, 3, 3], [0, 1, 2, 3], 600),
                ([2, 2, 3, 3, 3], [0, 1, 2, 4, 5], 600),
                ([3, 3, 3], [0, 1, 2], 300),
            ],
        ),
        ([2, 3, 4, 6, 6, 2], []),
        ([], []),
    ],
)
def test_scoring_sets(roll, sets):
    assert farkle.scoring_sets(roll) == [{"dice": d, "keep": k, "value": v} for d, k, v in sets]


def test_scoring_sets_of_things_that_are_not_faces_are_none():
    assert farkle.scoring_sets([1, 7]) == farkle.scoring_sets([True]) == []


def test_preview_lists_the_sets_and_every_scoring_selection():
    state = roll(farkle.new_game(["ann"]), "ann", [], [2, 3, 4, 4, 5, 6])
    p = farkle.preview(state)
    assert p["sets"] == farkle.scoring_sets([2, 3, 4, 4, 5, 6])
    # Each 4 makes the straight; both together never score: no selection holds all six dice.
    assert sorted((k["keep"], k["value"]) for k in p["keeps"]) == [
        ([0, 1, 2, 4, 5], 500),
        ([0, 1, 3, 4, 5], 500),
        ([4], 50),
    ]
    assert p["keeps"] == [
        {"keep": a["keep"], "value": farkle.selection_value(state, a["keep"])}
        for a in farkle.legal_actions(state)
        if a["type"] == "roll"
    ]
    start = farkle.preview(farkle.new_game(["ann"]))
    assert start["sets"] == start["keeps"] == []


ROLLS = st.lists(st.integers(1, 6), min_size=1, max_size=6)


def _preview_of(dice: list[int]) -> dict:
    state = farkle.new_game(["ann"], {"dice": 6})
    state = {**state, "dice": list(dice), "dice_left": len(dice), "rolls": 1}
    return farkle.preview(state)


# No deadline: a roll's first look fills the engine's caches, which takes a while on a busy machine.
@settings(deadline=None)
@given(ROLLS)
def test_every_die_marked_usable_belongs_to_a_set_the_engine_scores(dice):
    p = _preview_of(dice)
    in_sets = {i for s in p["sets"] for i in s["keep"]}
    for s in p["sets"]:
        assert farkle.score(s["dice"]) == s["value"] > 0
        assert sorted(dice[i] for i in s["keep"]) == s["dice"]
    for k in p["keeps"]:
        assert farkle.score(dice[i] for i in k["keep"]) == k["value"] > 0
    assert sorted({i for k in p["keeps"] for i in k["keep"]}) == p["scoring"]
    for i in p["scoring"]:
        # Its face is in a listed set (a set names one choice of equal faces, the die may be the other).
        assert any(dice[i] in s["dice"] for s in p["sets"])
    for i in set(range(len(dice))) - set(p["scoring"]):
        # A die that is not marked is part of no scoring selection at all.
        others = [j for j in range(len(dice)) if j != i]
        assert not any(
            farkle.score([dice[i], *(dice[j] for j in extra)])
            for size in range(len(others) + 1)
            for extra in combinations(others, size)
        )
    assert in_sets <= set(p["scoring"])
    assert bool(p["sets"]) == farkle.has_score(dice)


@settings(deadline=None)
@given(ROLLS)
def test_every_selection_is_worth_a_sum_of_listed_sets(dice):
    """The list is complete: what any scoring selection is worth is some listed sets added up."""
    p = _preview_of(dice)
    listed = [Counter(s["dice"]) for s in p["sets"]]
    values = [s["value"] for s in p["sets"]]

    def sums(left: Counter) -> set[int]:
        if not +left:
            return {0}
        lowest = min(f for f in left if left[f])
        out = set()
        for faces, value in zip(listed, values, strict=True):
            if faces[lowest] and all(left[f] >= n for f, n in faces.items()):
                out |= {value + rest for rest in sums(left - faces)}
        return out

    for k in p["keeps"]:
        assert max(sums(Counter(dice[i] for i in k["keep"]))) == k["value"]


@pytest.mark.parametrize(
    ("keep", "value"),
    [
        ([0], 100),
        ([1], 50),
        ([0, 1], 150),
        ([0, 1, 2, 4, 5], 500),
        ([0, 1, 3, 4, 5], 500),
        ([2], 0),
        ([0, 2], 0),
        ([], 0),
        ([9], 0),
        ([0, 0], 0),
        ([True], 0),
        ("0", 0),
        (None, 0),
    ],
)
def test_selection_value(rolled, keep, value):
    assert farkle.selection_value(rolled, keep) == value


def test_selection_value_before_rolling():
    assert farkle.selection_value(farkle.new_game(["ann"]), [0]) == 0


# ---------------------------------------------------------------------------
# State as data


def test_round_tripped_state_plays_on_the_same(rolled):
    again = json.loads(json.dumps(rolled))
    a = roll(rolled, "ann", [0], [1, 1, 2, 3, 4])
    b = roll(again, "ann", [0], [1, 1, 2, 3, 4])
    assert a == b


def test_events_carry_statistics_flags():
    state = farkle.new_game(["ann"])
    events = []
    state = roll(state, "ann", [], [1, 2, 3, 4, 5, 6])
    events.append(state["last_event"])
    state = roll(state, "ann", [0, 1, 2, 3, 4, 5], [5, 2, 2, 3, 4, 6])
    events.append(state["last_event"])
    state = bank(state, "ann", [0])
    events.append(state["last_event"])
    state = roll(state, "ann", [], [2, 2, 3, 3, 4, 6])
    events.append(state["last_event"])
    assert [e["type"] for e in events] == ["roll", "roll", "bank", "farkle"]
    assert [e["hot_dice"] for e in events] == [False, True, False, False]
    assert [e["farkle"] for e in events] == [False, False, False, True]
    assert sum(e["banked"] for e in events) == farkle.scores(state)["ann"] == 1050
    assert Counter(e["player"] for e in events) == {"ann": 4}
    for e in events:
        assert set(e) >= {"player", "type", "dice", "kept", "points", "turn_points", "farkle", "hot_dice"}
        assert isinstance(e["text"], str)
        assert e["text"]


def test_dice_source_must_answer_with_the_count_asked():
    state = farkle.new_game(["ann"])
    with pytest.raises(RuntimeError):
        farkle.apply(state, "ann", {"type": "roll", "keep": []}, lambda n: [1] * (n - 1))
    with pytest.raises(RuntimeError):
        farkle.apply(state, "ann", {"type": "roll", "keep": []}, lambda n: [7] * n)
