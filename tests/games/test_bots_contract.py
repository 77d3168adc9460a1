"""The computer players' contract (games/bots/__init__.py) for every game and every strength, over random
reachable states: legal choices, a best action that nothing beats on its own scale, decisions, and
randomness drawn only from the rng a bot is given."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import bots, rules
from games.rules import farkle
from games.rules.dice import make_dice

SLUGS = tuple(rules.ENGINES)
PLAYERS = (*bots.STRENGTHS, "random")
SEATS = ("ann", "bob", "cy", "dee")


def test_every_engine_and_strength_is_covered():
    assert set(SLUGS) == {"triple-quintzee", "triple-yahtzee-99", "painted-dicez", "quintzee", "farkle"}
    assert PLAYERS == ("easy", "good", "expert", "random")


def _dice(slug: str, rng: random.Random):
    return make_dice(rng, painted=slug == "painted-dicez")


def _farkle_start(rng: random.Random) -> dict:
    """A Farkle game at a random turn of a random round: any banked totals (multiples of 50), and the
    final round when a player already seated before the current one has reached the goal."""
    seats = list(SEATS[: rng.randint(1, 4)])
    state = farkle.new_game(seats, {"goal": rng.choice(farkle.GOALS), "dice": rng.choice(farkle.DICE_COUNTS)})
    goal = state["goal"]
    at = rng.randrange(len(seats))
    for i, player in enumerate(seats):
        top = goal + 2000 if i < at and rng.random() < 0.5 else goal - 50
        state["banked"][player] = rng.choice([0, *range(300, top + 1, 50)])
        state["turns_taken"][player] = 5 + (i < at)
    state["current"] = seats[at]
    state["laps"] = 6
    state["turn"] = sum(state["turns_taken"].values())
    state["ending"] = any(state["banked"][p] >= goal for p in seats)
    return state


def reachable(slug: str, seed: int, steps: int) -> dict:
    """A state reached by random legal play (Farkle: from a random point of a game)."""
    rng = random.Random(seed)
    engine = rules.get(slug)
    if slug == "farkle":
        state = _farkle_start(rng)
        steps %= 8  # a few moves of this turn: longer random play would mostly end the game
    else:
        state = engine.new_game(list(SEATS[: rng.randint(1, 4)]))
    dice = _dice(slug, rng)
    for _ in range(steps):
        if state["over"]:
            break
        state = engine.apply(state, state["current"], rng.choice(engine.legal_actions(state)), dice)
    return state


states = st.builds(reachable, st.sampled_from(SLUGS), st.integers(0, 2**32 - 1), st.integers(0, 80))


@settings(max_examples=150, deadline=None)
@given(states, st.integers(0, 2**32 - 1))
def test_every_strength_chooses_a_legal_action_from_its_rng_alone(state, seed):
    if state["over"]:
        return
    slug = state["slug"]
    engine = rules.get(slug)
    before = copy.deepcopy(state)
    legal = engine.legal_actions(state)
    for strength in PLAYERS:
        random.seed(1)  # a bot that used the global random state would not repeat itself below
        action = bots.choose(slug, state, strength, random.Random(seed))
        assert action in legal
        engine.apply(state, state["current"], action, _dice(slug, random.Random(seed)))
        random.seed(2)
        assert bots.choose(slug, state, strength, random.Random(seed)) == action
        assert state == before, f"{strength} changed the state it was shown"


@settings(max_examples=150, deadline=None)
@given(states)
def test_the_best_action_is_legal_and_no_action_is_worth_more(state):
    if state["over"]:
        return
    slug = state["slug"]
    legal = rules.get(slug).legal_actions(state)
    best = bots.best(slug, state)
    assert best.action in legal
    assert abs(bots.value(slug, state, best.action) - best.value) <= 1e-9
    for action in legal:
        assert bots.value(slug, state, action) <= best.value + 1e-9


@settings(max_examples=150, deadline=None)
@given(states)
def test_a_decision_is_a_choice_between_two_actions_or_more(state):
    if state["over"]:
        return
    assert bots.decision(state["slug"], state) == (len(rules.get(state["slug"]).legal_actions(state)) > 1)


@pytest.mark.parametrize("slug", SLUGS)
def test_the_first_roll_of_a_game_is_no_decision(slug):
    state = rules.get(slug).new_game(["ann", "bob"])
    assert not bots.decision(slug, state)
    (only,) = rules.get(slug).legal_actions(state)
    assert all(bots.choose(slug, state, s, random.Random(0)) == only for s in PLAYERS)


def test_an_unknown_strength_is_refused():
    with pytest.raises(ValueError, match="unknown strength"):
        bots.choose("farkle", farkle.new_game(["ann"]), "grandmaster", random.Random(0))


def test_the_easy_player_slips_as_its_rng_says():
    """The same seed makes the same slips over many decisions; another seed makes others."""
    decisions = [
        s for s in (reachable("farkle", seed, 3) for seed in range(200)) if bots.decision("farkle", s)
    ]
    assert len(decisions) > 50

    def easy(seed: int) -> list[dict]:
        rng = random.Random(seed)
        return [bots.choose("farkle", s, "easy", rng) for s in decisions]

    assert easy(5) == easy(5)
    assert easy(5) != easy(6)


@pytest.mark.parametrize("slug", sorted(rules.ENGINES))
def test_every_game_has_the_worth_of_a_turn_the_coach_weighs_costs_in(slug):
    # Farkle's is the exact optimum; a card game's is its expert's measured mean per box.
    assert bots.turn_worth(slug, None) > 10
