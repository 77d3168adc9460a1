"""coach.judge, pure: costs never below 0, the expert's own choice free, the accuracy's shape, words."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coach import judge
from games import bots, rules
from games.bots.farkle_expert import expected_turn

KINDS = ["triple-quintzee", "triple-yahtzee-99", "painted-dicez", "quintzee", "farkle"]


def position(slug: str, seed: int, moves: int) -> dict:
    """A position of a solo game reached by random legal play with seeded dice."""
    rng = random.Random(seed)
    engine = rules.get(slug)
    options = {"goal": 3000} if slug == "farkle" else {}
    state = engine.new_game(["p"], options)
    for _ in range(moves):
        actions = engine.legal_actions(state)
        if state["over"] or not actions:
            break
        state = engine.apply(state, "p", rng.choice(actions), _roller(slug, rng))
    return state


def _roller(slug: str, rng: random.Random):
    from games.live.dice_source import COLOURS

    def roll(n: int):
        if slug == "painted-dicez":
            return [[rng.randint(1, 6), rng.choice(COLOURS)] for _ in range(n)]
        return [rng.randint(1, 6) for _ in range(n)]

    return roll


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(KINDS), st.integers(0, 10**6), st.integers(0, 60))
def test_every_action_costs_at_least_nothing_and_the_experts_nothing(slug, seed, moves):
    state = position(slug, seed, moves)
    if state["over"] or not bots.decision(slug, state):
        return
    best = bots.best(slug, state)
    own = judge.judge(slug, state, best.action, None)
    assert (own.cost, own.accuracy) == (0, 100)
    for action in rules.get(slug).legal_actions(state):
        j = judge.judge(slug, state, action, None)
        assert j.cost >= 0
        assert 0 < j.accuracy <= 100
        assert (j.cost == 0) == (j.accuracy == 100)
        assert j.text and j.expert_text


def test_the_accuracy_curve():
    worth = expected_turn(6)
    assert judge.turn_worth("farkle", {"dice": 6}) == worth
    assert judge.decision_accuracy(0, worth) == 100
    assert judge.decision_accuracy(worth / 4, worth) == pytest.approx(100 / math.e)
    assert judge.decision_accuracy(50, worth) == pytest.approx(100 * math.exp(-50 / (worth / 4)))
    assert judge.game_accuracy([]) is None
    assert judge.game_accuracy([100, 50]) == 75


def test_card_game_words():
    engine = rules.get("triple-quintzee")
    state = engine.new_game(["p"], {})
    assert judge.describe("triple-quintzee", state, {"type": "roll", "hold": []}) == "roll the dice"
    state = engine.apply(state, "p", {"type": "roll", "hold": []}, lambda n: [5, 5, 5, 2, 3][:n])
    assert (
        judge.describe("triple-quintzee", state, {"type": "roll", "hold": [0, 1, 2]}) == "hold 5 5 5 and roll"
    )
    assert judge.describe("triple-quintzee", state, {"type": "roll", "hold": []}) == "roll all the dice again"
    chance = {"type": "score", "box": "chance", "column": 2}
    assert judge.describe("triple-quintzee", state, chance) == "score Chance in column 2 (+40)"


def test_card_game_words_name_the_column_the_score_lands_in():
    """The right-most rule (Triple Quintzee's RULINGS 1) takes a full house picked in column 1 to the
    right-most empty box, column 3: the coach said "column 1" beside the gain of column 3."""
    engine = rules.get("triple-quintzee")
    state = engine.new_game(["p"], {})
    state = engine.apply(state, "p", {"type": "roll", "hold": []}, lambda n: [2, 2, 3, 3, 3][:n])
    picked_left = {"type": "score", "box": "full_house", "column": 1}
    assert judge.describe("triple-quintzee", state, picked_left) == "score Full House in column 3 (+75)"


def test_farkle_words():
    engine = rules.get("farkle")
    state = engine.new_game(["p"], {"goal": 3000})
    state = engine.apply(state, "p", {"type": "roll", "keep": []}, lambda n: [5, 5, 5, 2, 3, 1][:n])
    words = judge.describe
    assert (
        words("farkle", state, {"type": "roll", "keep": [0, 1, 2]})
        == "set aside 5 5 5 and roll 3 dice (500 so far)"
    )
    assert words("farkle", state, {"type": "bank", "keep": [0, 1, 2, 5]}) == "set aside 5 5 5 1 and bank 600"
