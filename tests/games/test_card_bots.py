"""The card games' computer players (games/bots/cards.py): legal choices, the expert's values, exact
hold expectations, the fitted figures."""

from __future__ import annotations

import math
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import bots, rules
from games.bots import cards, cardvalue, painted
from games.bots.dicedp import TurnTables, universe
from games.rules.dice import COLOURS, make_dice

CARD_GAMES = ("triple-quintzee", "triple-yahtzee-99", "painted-dicez", "quintzee")


def _state(slug: str, seed: int, steps: int) -> dict:
    """A solo game after ``steps`` random legal actions, stopped at a decision."""
    engine = rules.get(slug)
    rng = random.Random(seed)
    dice = make_dice(rng, painted=engine.dice_kind == "painted")
    state = engine.new_game(["solo"])
    for _ in range(steps):
        state = engine.apply(state, "solo", rng.choice(engine.legal_actions(state)), dice)
        if engine.is_over(state):
            state = engine.new_game(["solo"])
    if state["roll"] == 0:
        state = engine.apply(state, "solo", {"type": "roll", "hold": []}, dice)
    return state


def _kept(slug: str, state: dict, action: dict) -> tuple:
    game = cards._game(slug)
    return tuple(sorted(game.side(state["dice"][i]) for i in action["hold"]))


positions = st.tuples(st.sampled_from(CARD_GAMES), st.integers(0, 10**6), st.integers(0, 150))
quick = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@quick
@given(positions, st.sampled_from(bots.STRENGTHS), st.integers(0, 1000))
def test_every_strength_chooses_a_legal_action(position, strength, seed):
    slug, game_seed, steps = position
    state = _state(slug, game_seed, steps)
    action = bots.choose(slug, state, strength, random.Random(seed))
    assert action in rules.get(slug).legal_actions(state)


@quick
@given(positions)
def test_expert_values_bound_every_legal_action(position):
    slug, game_seed, steps = position
    state = _state(slug, game_seed, steps)
    best = bots.best(slug, state)
    assert bots.value(slug, state, best.action) == best.value
    values = {}
    for action in rules.get(slug).legal_actions(state):
        v = bots.value(slug, state, action)
        assert math.isfinite(v) and v <= best.value + 1e-9
        if action["type"] == "roll":
            values.setdefault(_kept(slug, state, action), set()).add(v)
    # Holds that keep the same faces (and colours) are the same play.
    assert all(len(vs) == 1 for vs in values.values())


def test_holding_four_of_a_kind_makes_five_with_one_chance_in_six():
    u = universe(6)
    five = (u.rows[5].min(axis=1) == u.rows[5].max(axis=1)).astype(float)
    tables = TurnTables(u, five)
    assert tables.hold_value(u, [5, 5, 5, 5], 1) == pytest.approx(1 / 6)
    # Two re-rolls: miss twice with 5/6 each.
    assert tables.hold_value(u, [2, 2, 2, 2], 2) == pytest.approx(1 - (5 / 6) ** 2)
    # Three of a kind, one re-roll: both free dice must match.
    assert tables.hold_value(u, [0, 0, 0], 1) == pytest.approx(1 / 36)


def test_a_card_hold_is_its_exact_expectation():
    """Triple Quintzee, last re-roll, an empty card but for the Quintzee boxes' row: the value of holding
    four 6s is the mean, over the sixth die, of the best placement of the five dice."""
    slug = "triple-quintzee"
    state = _state(slug, 3, 0)
    state["dice"], state["roll"] = [6, 6, 6, 6, 1], 2
    engine = rules.get(slug)
    outcomes = []
    for face in range(1, 7):
        after = engine.apply(state, "solo", {"type": "roll", "hold": [0, 1, 2, 3]}, lambda n, f=face: [f])
        outcomes.append(max(bots.value(slug, after, a) for a in engine.legal_actions(after)))
    held = bots.value(slug, state, {"type": "roll", "hold": [0, 1, 2, 3]})
    assert held == pytest.approx(sum(outcomes) / 6, rel=1e-5)


@pytest.mark.parametrize("slug", CARD_GAMES)
def test_fitted_figures_match_the_game(slug):
    figures = cardvalue.params(slug)
    engine = rules.get(slug)
    assert set(figures["mean"]) == set(engine.BOXES)
    for dist in figures["dist"].values():
        assert len(dist) == 6 and sum(dist) == pytest.approx(1)
    assert all(v >= 0 for v in figures["mean"].values())


def test_painted_box_values_match_the_engine():
    u = universe(painted.TYPES)
    rows = u.rows[5]
    arrays = painted.box_arrays(rows)
    engine = rules.get("painted-dicez")
    names = list(COLOURS)
    pick = np.random.default_rng(1).choice(len(rows), 400, replace=False)
    for i in pick:
        dice = [[int(s) // 5 + 1, names[int(s) % 5]] for s in rows[i]]
        for box in engine.BOXES:
            assert arrays[box][0][i] == engine.score(box, dice), (box, dice)


def test_easy_makes_mistakes_and_good_does_not():
    slug = "triple-quintzee"
    state = _state(slug, 11, 40)
    good = {str(bots.choose(slug, state, "good", random.Random(s))) for s in range(30)}
    easy = Counter(str(bots.choose(slug, state, "easy", random.Random(s))) for s in range(60))
    assert len(good) == 1
    assert len(easy) > 1


def test_triple_quintzee_values_a_column_by_the_quintzee_optimum(monkeypatch):
    """On its figures alone, the expert's worth of a placement: its points now, plus the column's
    multiplier times the change in the exact optimum's value of a Quintzee column in the same state
    (with its fitted weights, that worth is one of the card's features)."""
    from games.bots import quintzee as tq_bots
    from games.bots import quintzee_optimum as qo

    assert tq_bots.COLUMN_VALUES
    monkeypatch.setattr(tq_bots.fitted(), "weights", None)
    card = rules.get("triple-quintzee").new_game(["solo"])["cards"]["solo"]
    evaluator = tq_bots.Evaluator(card, True)
    table = qo.table()
    sixes = 1 << qo.BOXES.index("sixes")
    # 18 in Sixes of column 2: 2 x 18 now, and column 2's rest is worth its state's value.
    assert evaluator.value("sixes", 2, 18, 0) == pytest.approx(
        2 * 18 + 2 * (table[sixes, 18, 0] - table[0, 0, 0])
    )
    chance = 1 << qo.BOXES.index("chance")
    assert evaluator.value("chance", 3, 20, 0) == pytest.approx(
        3 * 20 + 3 * (table[chance, 0, 0] - table[0, 0, 0])
    )
