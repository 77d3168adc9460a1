"""Farkle's expert (games/bots/farkle_expert.py): its dynamic programme against the engine's rules, and
its play through the engine matching the expectation it computed."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots import farkle_expert as fe
from games.rules import farkle


@pytest.mark.parametrize("n", range(1, 7))
def test_every_roll_of_n_dice_once_with_its_probability(n):
    rolls = fe.rolls(n)
    assert abs(sum(p for _, p in rolls) - 1) < 1e-12
    assert len({faces for faces, _ in rolls}) == len(rolls)


@given(st.lists(st.integers(1, 6), min_size=1, max_size=6))
def test_the_options_of_a_roll_are_the_engines_best_selection_for_each_number_of_dice(faces):
    faces = tuple(sorted(faces))
    best: dict[int, int] = {}
    for idx, value in farkle._keeps(faces):
        assert value == farkle.score(faces[i] for i in idx)
        best[len(idx)] = max(best.get(len(idx), 0), value)
    assert dict(fe.options(faces)) == best
    assert bool(best) == farkle.has_score(faces)


def play_some(state: dict, rng: random.Random, steps: int) -> dict:
    for _ in range(steps):
        if state["over"]:
            break
        actions = farkle.legal_actions(state)
        state = farkle.apply(
            state, state["current"], rng.choice(actions), lambda n: [rng.randint(1, 6) for _ in range(n)]
        )
    return state


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 30), st.sampled_from([6, 5]))
def test_the_expert_always_chooses_a_legal_action_at_least_as_good_as_any_other(seed, steps, dice):
    rng = random.Random(seed)
    state = play_some(farkle.new_game(["a", "b"], {"goal": 10000, "dice": dice}), rng, steps)
    if state["over"] or not state["rolls"]:
        return
    values = fe.turn_values(dice)
    choice = values.choose(state["turn_points"], state["dice"])
    assert choice["action"] in farkle.legal_actions(state)
    for action in farkle.legal_actions(state):
        kept = farkle.selection_value(state, action["keep"])
        left = len(state["dice"]) - len(action["keep"])
        points = state["turn_points"] + kept
        worth = points if action["type"] == "bank" else values.roll_value(points, left or dice)
        assert choice["expected"] >= worth - 1e-9


def test_banking_is_never_chosen_below_the_minimum_nor_after_hot_dice():
    values = fe.turn_values(6)
    assert values.choose(0, [1, 2, 3, 4, 6, 6])["action"]["type"] == "roll"  # 100 cannot be banked
    hot = values.choose(0, [1, 1, 1, 5, 5, 5])
    assert hot["action"] == {"type": "roll", "keep": [0, 1, 2, 3, 4, 5]}  # 1500: all six, then roll again


@pytest.mark.parametrize("dice", [6, 5])
def test_the_experts_play_through_the_engine_averages_what_the_programme_expects(dice):
    """20,000 turns with seeded dice; the standard error of the mean is about 5 points."""
    exact = fe.expected_turn(dice)
    sample = fe.simulate(20_000, dice, seed=7)
    assert abs(sample.mean - exact) < 20
    assert 0 < sample.half_width < 20


def test_the_command_prints_the_exact_figure_and_every_players_simulated_mean():
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("farkle_expert", turns=200, stdout=out)
    lines = out.getvalue().splitlines()
    assert [line.split(":")[0] for line in lines] == ["6 dice", "5 dice"]
    assert f"{fe.expected_turn(6):.2f}" in lines[0] and f"{fe.expected_turn(5):.2f}" in lines[1]
    for dice, line in zip((6, 5), lines, strict=True):
        for player in ("expert", "good", "easy", "random"):
            assert f"{player} {fe.simulate(200, dice, strength=player)}" in line  # mean +/- 95 % half-width


def test_the_command_prints_the_play_to_win_share_on_request():
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("farkle_expert", turns=20, games=6, stdout=out)
    lines = out.getvalue().splitlines()
    assert [line.split(",")[0] for line in lines[2:]] == ["6 dice", "5 dice"]
    share = fe.play_to_win_share(6, 3, dice=5)
    assert f"3 players {share.mean:.3f} +/- {share.half_width:.3f} (fair 0.333)" in lines[3]


def test_the_play_to_win_share_is_the_experts_share_of_seeded_games():
    share = fe.play_to_win_share(30, 2, goal=3000, dice=6, seed=3)
    assert 0 < share.mean < 1 and share.half_width > 0
    assert share == fe.play_to_win_share(30, 2, goal=3000, dice=6, seed=3)
    assert fe.play_to_win_share(3, 1, goal=3000) == (1.0, 0.0)  # alone, every game is a win
