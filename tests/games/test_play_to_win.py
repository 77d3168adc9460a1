"""Win, not points (games.bots.stake): the card experts' last turn against a known score, Farkle's final
round, and the coach judging those decisions by the chance of winning they gave away."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coach import judge
from coach.hints import hint_frame
from games import bots, rules
from games.bots import cards
from games.live.dice_source import COLOURS
from tests.games.test_farkle_bots import SIX_HUNDRED, rolled

CARD_GAMES = ("triple-quintzee", "triple-yahtzee-99", "painted-dicez", "quintzee")


def scripted(*rolls: list):
    """Dice that give ``rolls`` in turn, each cut to the number of dice rolled."""
    queue = [list(r) for r in rolls]

    def dice(n: int) -> list:
        return queue.pop(0)[:n]

    return dice


def quintzee_last_turn(dice: list[int]) -> dict:
    """A Quintzee game of ann and bob: ann's card full, bob's with only Chance open, bob at his last
    turn's second roll showing ``dice`` (one re-roll left)."""
    engine = rules.get("quintzee")
    state = engine.new_game(["ann", "bob"])
    boxes = [b for b in engine.BOXES if b != "chance"]
    plain = [2, 3, 4, 4, 6]

    def turn(player: str, box: str) -> None:
        nonlocal state
        state = engine.apply(state, player, {"type": "roll", "hold": []}, scripted(plain))
        state = engine.apply(state, player, {"type": "score", "box": box}, scripted())

    for box in boxes:
        turn("ann", box)
        turn("bob", box)
    turn("ann", "chance")
    assert state["cards"]["ann"]["complete"] and state["current"] == "bob"
    state = engine.apply(state, "bob", {"type": "roll", "hold": []}, scripted(dice))
    return engine.apply(state, "bob", {"type": "roll", "hold": [0, 1, 2]}, scripted(dice[3:]))


def with_target(state: dict, need: int) -> dict:
    """The state with ann's total set so that bob must score more than ``need`` to win."""
    state = {**state, "cards": {**state["cards"]}}
    state["cards"]["ann"] = {**state["cards"]["ann"], "total": state["cards"]["bob"]["total"] + need}
    return state


def test_the_last_turn_scores_a_sure_win_where_points_would_roll_on():
    """6 6 6 3 3 in Chance is 24; 23 to beat. Re-rolling the threes is worth more points on average
    (25), and the points expert does so, but loses when they come up under 5 (6 in 36) and ties at 5
    (4 in 36, half a win): the expert that plays to win scores now."""
    state = with_target(quintzee_last_turn([6, 6, 6, 3, 3]), 23)
    points = bots.best("quintzee", state).action
    assert points == {"type": "roll", "hold": [0, 1, 2]}
    stake = bots.stake("quintzee", state)
    assert stake.measure == "win"
    assert stake.best.action == {"type": "score", "box": "chance"}
    assert stake.best.value == pytest.approx(1.0)
    assert stake.value(points) == pytest.approx(28 / 36)
    assert bots.choose("quintzee", state, "expert", random.Random(0)) == stake.best.action
    # A tie is a shared win: half.
    assert bots.stake("quintzee", with_target(state, 24)).value(stake.best.action) == pytest.approx(0.5)


def test_the_coach_and_the_hint_weigh_the_last_turn_by_the_chance_of_winning():
    state = with_target(quintzee_last_turn([6, 6, 6, 3, 3]), 23)
    j = judge.judge("quintzee", state, {"type": "roll", "hold": [0, 1, 2]})
    assert j.measure == "win"
    assert j.cost == pytest.approx(100 * 8 / 36)
    assert j.accuracy == pytest.approx(judge.win_accuracy(100 * 8 / 36))
    assert judge.judge("quintzee", state, {"type": "score", "box": "chance"}).accuracy == 100.0
    hint = hint_frame("quintzee", state, {}, 7)
    assert (hint["measure"], hint["value"], hint["action"]) == (
        "win",
        100.0,
        {"type": "score", "box": "chance"},
    )


def test_lichess_accuracy_of_a_winning_chance_lost():
    assert judge.win_accuracy(0) == 100.0
    assert judge.win_accuracy(16) == pytest.approx(48.6, abs=0.5)
    assert judge.win_accuracy(100) == 0.0
    values = [judge.win_accuracy(x) for x in range(0, 101, 5)]
    assert values == sorted(values, reverse=True)


def test_no_win_stake_alone_before_the_last_turn_or_with_cards_still_open():
    state = quintzee_last_turn([6, 6, 6, 3, 3])
    alone = rules.get("quintzee").new_game(["ann"])
    assert bots.stake("quintzee", alone).measure == "points"
    open_card = {**state, "cards": {**state["cards"], "ann": {**state["cards"]["ann"], "complete": False}}}
    assert bots.stake("quintzee", open_card).measure == "points"
    assert bots.stake("quintzee", state).measure == "win"


def _last_turns(slug: str, seed: int) -> dict | None:
    """A two-player game of ``slug`` played by random legal actions up to the second player's last
    turn with the first one's card full, stopped at a decision; None if none came."""
    engine = rules.get(slug)
    rng = random.Random(seed)

    def roll(n: int) -> list:
        if engine.dice_kind == "painted":
            return [[rng.randint(1, 6), rng.choice(COLOURS)] for _ in range(n)]
        return [rng.randint(1, 6) for _ in range(n)]

    game = cards._game(slug)
    state = engine.new_game(["ann", "bob"])
    while not state["over"]:
        if state["roll"] > 0 and cards.win_target(game, state) is not None:
            return state
        actions = engine.legal_actions(state)
        scores = [a for a in actions if a["type"] == "score"]
        # Mostly scores, so the cards fill fast; rolls now and then, so decisions come up at every roll;
        # Triple Yahtzee 99's waste boxes first (a card with one open has no last turn yet).
        wastes = [a for a in scores if a["box"].startswith("waste")]
        if wastes:
            action = rng.choice(wastes)
        elif scores and rng.random() < 0.7:
            action = rng.choice(scores)
        else:
            action = rng.choice(actions)
        state = engine.apply(state, engine.current_player(state), action, roll)
    return None


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(CARD_GAMES), st.integers(0, 10**6))
def test_a_score_on_the_last_turn_is_worth_exactly_whether_it_wins(slug, seed):
    """Each placement's chance is 1, 1/2 or 0 as the engine's own totals after it say; no play is more
    likely to win than the expert's."""
    state = _last_turns(slug, seed)
    if state is None:
        return
    engine = rules.get(slug)
    stake = bots.stake(slug, state)
    assert stake.measure == "win"
    target = max(state["cards"][p]["total"] for p in state["players"] if p != state["current"])
    chances = []
    for action in engine.legal_actions(state):
        chance = stake.value(action)
        chances.append(chance)
        if action["type"] == "score":
            after = engine.apply(state, state["current"], action, scripted())
            total = after["cards"][state["current"]]["total"]
            won = 1.0 if total > target else 0.5 if total == target else 0.0
            # A Yahtzee Bonus leaves the last box for another turn: its chance then is a floor.
            assert chance == won or not after["cards"][state["current"]]["complete"], action
        assert 0.0 <= chance <= 1.0
    assert stake.best.value == pytest.approx(max(chances))


def test_farkle_final_round_is_judged_by_the_chance_to_reach_the_goal():
    # Bob needs 2000 more in the final round: a bank of 600 loses for sure.
    state = rolled({"ann": 10000, "bob": 8000}, "bob", SIX_HUNDRED, ending=True)
    stake = bots.stake("farkle", state)
    assert stake.measure == "win"
    bank = {"type": "bank", "keep": [0, 1, 2, 3]}
    assert stake.value(bank) == 0.0
    assert stake.best.action["type"] == "roll" and 0 < stake.best.value < 1
    assert bots.choose("farkle", state, "expert", random.Random(0)) == stake.best.action
    j = judge.judge("farkle", state, bank, {"goal": 10000})
    assert j.measure == "win" and j.cost == pytest.approx(100 * stake.best.value)
    # Before the final round: points.
    assert bots.stake("farkle", rolled({"ann": 9000, "bob": 8000}, "bob", SIX_HUNDRED)).measure == "points"
