"""The card experts' worth of the rest of a card as a linear function of each game's features, fitted by
value iteration (games/bots/cardvalue.py, games/bots/fit.py's ``iterate``)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from games import rules
from games.bots import cards, cardvalue, fit
from games.rules.dice import make_dice

CARD_GAMES = ("triple-quintzee", "triple-yahtzee-99", "painted-dicez", "quintzee")


def _module(slug: str):
    return cards._game(slug)


def _cards(slug: str, seed: int, every: int = 5) -> list[dict]:
    """The solo card of a randomly played game every ``every`` actions, to the full card."""
    engine = rules.get(slug)
    rng = random.Random(seed)
    dice = make_dice(rng, painted=engine.dice_kind == "painted")
    state = engine.new_game(["solo"])
    out = []
    for i in range(10_000):
        if engine.is_over(state):
            break
        if i % every == 0:
            out.append(state["cards"]["solo"])
        state = engine.apply(state, "solo", rng.choice(engine.legal_actions(state)), dice)
    out.append(state["cards"]["solo"])
    return out


@pytest.fixture
def weights_set(monkeypatch):
    """set(slug, w): the game's fitted figures with weights ``w`` (None: the figures' own model)."""

    def put(slug: str, w):
        monkeypatch.setattr(_module(slug).fitted(), "weights", w)
        cards._turns.clear()

    yield put
    cards._turns.clear()


def _values(slug: str, card: dict) -> list[float]:
    module = _module(slug)
    evaluator = module.Evaluator(card, True)
    pairs = cards.codes(module).boxes
    return [
        evaluator.value(box, picked, v, f)
        for box, picked in evaluator.placements
        for v, f in pairs[box][0][:6]
    ]


@pytest.mark.parametrize("slug", CARD_GAMES)
def test_the_first_weights_are_the_fitted_figures_model(slug, weights_set):
    """Value iteration starts where the experts stood: with ``first_weights`` every placement is worth
    what the fitted figures alone say (so a round's first backups are the old expert's)."""
    module = _module(slug)
    for card in _cards(slug, 3)[:-1]:
        weights_set(slug, None)
        before = _values(slug, card)
        weights_set(slug, module.fitted().first_weights())
        assert _values(slug, card) == pytest.approx(before, abs=1e-6)


@pytest.mark.parametrize("slug", CARD_GAMES)
def test_a_full_card_has_no_features(slug):
    full = _cards(slug, 4)[-1]
    assert full["complete"]
    assert not _module(slug).card_features(full).any()


@pytest.mark.parametrize("slug", ["quintzee", "painted-dicez"])
def test_the_last_turn_backup_is_the_points_it_can_score(slug, weights_set):
    """A card with one box left is worth, by its backup, exactly the expected points of its last turn
    whatever the weights: the card after it is full, worth 0."""
    module = _module(slug)
    card = next(c for c in _cards(slug, 5, every=1) if sum(v is None for v in c["boxes"].values()) == 1)
    state = {"cards": {"solo": card}, "current": "solo", "roll": 0}
    weights_set(slug, np.zeros(module.FEATURES))
    exact = cards.Turn(module, card, True).start()
    weights_set(slug, np.random.default_rng(1).normal(10, 5, module.FEATURES))
    phi = module.card_features(card)
    backup = cards._turn(module, state, True).start() + phi @ module.fitted().weights
    assert backup == pytest.approx(exact, rel=1e-5)


def test_value_iteration_stores_the_least_squares_weights(tmp_path, monkeypatch):
    """``iterate`` plays the expert on the weights before, refits them to each turn's backup and stores
    them beside the figures (a copy of the stored figures here)."""
    params = tmp_path / "card_params.json"
    params.write_text(cardvalue.PARAMS.read_text())
    figures = json.loads(params.read_text())["quintzee"]
    monkeypatch.setattr(cardvalue, "PARAMS", params)
    cardvalue.params.cache_clear()
    _module("quintzee").fitted.cache_clear()
    try:
        means = fit.iterate("quintzee", games=2, rounds=2, rng=random.Random(7))
        stored = json.loads(params.read_text())["quintzee"]
        assert len(means) == 2 and all(0 < m < 400 for m in means)
        w = np.asarray(stored["weights"])
        assert w.shape == (_module("quintzee").FEATURES,) and np.isfinite(w).all()
        assert {k: v for k, v in stored.items() if k != "weights"} == {
            k: v for k, v in figures.items() if k != "weights"
        }
        assert np.allclose(_module("quintzee").fitted().weights, w)
    finally:
        monkeypatch.undo()
        cardvalue.params.cache_clear()
        _module("quintzee").fitted.cache_clear()
        cards._turns.clear()


def test_lambda_returns_run_from_the_backups_to_what_the_game_scored():
    """lambda 0: each turn's backup; lambda 1: the points the game scored from that turn on; between, the
    recursion (1 - lambda) x backup + lambda x (the turn's points + the next turn's target)."""
    turns = [(30.0, 0), (24.0, 10), (9.0, 22)]  # (backup, the card's total) at each turn's start
    assert fit._lambda_returns(turns, 30, 0.0) == [30.0, 24.0, 9.0]
    assert fit._lambda_returns(turns, 30, 1.0) == [30.0, 20.0, 8.0]
    last = 0.5 * 9 + 0.5 * 8
    middle = 0.5 * 24 + 0.5 * (12 + last)
    assert fit._lambda_returns(turns, 30, 0.5) == pytest.approx(
        [0.5 * 30 + 0.5 * (10 + middle), middle, last]
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_placement_changes_the_worth_as_the_features_of_the_card_after_it_say(seed, weights_set):
    """Triple Quintzee's and Triple Yahtzee 99's evaluators change only the placed box's part of the
    worth (a placement is valued hundreds of times a turn): the same as the whole card's features."""
    from games.bots import quintzee as tq_bots
    from games.bots import yahtzee99 as ty_bots

    rng = np.random.default_rng(seed)
    weights_set("triple-quintzee", rng.normal(0, 3, tq_bots.FEATURES))
    weights_set("triple-yahtzee-99", rng.normal(0, 3, ty_bots.FEATURES))
    for card in _cards("triple-quintzee", seed, every=7)[:-1]:
        e = tq_bots.Evaluator(card, True)
        for box, col in e.placements:
            if box not in e.open[col - 1]:
                continue
            sub = card["columns"][col - 1]["top_subtotal"] + (3 if box in tq_bots.tq.FACE else 0)
            after = [o - {box} if c == col else o for c, o in enumerate(e.open, 1)]
            subs = [sub if c == col else x["top_subtotal"] for c, x in enumerate(card["columns"], 1)]
            assert e._after(col, box, sub) == pytest.approx(tq_bots.features(after, subs) @ e.weights)
    for card in _cards("triple-yahtzee-99", seed, every=9)[:-1]:
        e = ty_bots.Evaluator(card, True)
        for box, col in e.placements:
            lands = e.bonus_free[0] if box == "yahtzee_bonus" else col
            after = e._place(lands, box, 5, 1)
            worth = e._parts(after)
            assert e._after(lands, box, after, worth) == pytest.approx(
                ty_bots.features(worth, after) @ e.weights
            )


def test_painted_dicez_hats_add_to_one_and_are_each_knots_own():
    """Painted DiceZ's worth of a box by the turns left is linear between knots: at each turn count the
    hats add to 1 (so the figures' constant means are one weight per box), and at a knot only its own
    hat is on (the card's last turns get weights of their own)."""
    painted = _module("painted-dicez")
    for turns in range(1, 21):
        h = dict(cardvalue.hats(turns, painted.KNOTS))
        assert sum(h.values()) == pytest.approx(1.0) and all(0 <= x <= 1 for x in h.values())
        if turns in painted.KNOTS:
            assert h[painted.KNOTS.index(turns)] == pytest.approx(1.0)
    with pytest.raises(ValueError):
        cardvalue.hats(0, painted.KNOTS)


def test_the_refit_keeps_an_unseen_feature_at_the_figures_model(monkeypatch, tmp_path):
    """A feature no card of a round showed keeps its first weight: the ridge pulls toward the figures'
    model, not 0. In a round of one Painted DiceZ game, one box is left for the last turn: every other
    box's weight at one turn left (the first knot's hat) is unseen."""
    params = tmp_path / "card_params.json"
    params.write_text(cardvalue.PARAMS.read_text())
    monkeypatch.setattr(cardvalue, "PARAMS", params)
    cardvalue.params.cache_clear()
    painted = _module("painted-dicez")
    painted.fitted.cache_clear()
    try:
        fit.iterate("painted-dicez", games=1, rounds=1, rng=random.Random(3))
        w = np.asarray(json.loads(params.read_text())["painted-dicez"]["weights"])
        first = painted.fitted().first_weights()
        last_turn = [i * painted.HATS for i in range(painted.KINDS)]
        kept = np.isclose(w[last_turn], first[last_turn], rtol=0, atol=1e-5)  # stored to 6 decimals
        assert kept.sum() >= painted.KINDS - 1
        assert not np.allclose(w, first)  # and the seen ones were fitted
    finally:
        monkeypatch.undo()
        cardvalue.params.cache_clear()
        painted.fitted.cache_clear()
        cards._turns.clear()


def test_triple_yahtzee_99s_box_features_are_its_columns_multipliers_by_the_turns_left():
    """A box open in every column of a new card counts 1 + 2 + 3 (a box's worth scales with its column's
    multiplier), a waste box once a column, all on the hat of the whole card's turns; once column 1
    upgrades to 2x, its open boxes count 2."""
    ty_bots = _module("triple-yahtzee-99")
    engine = rules.get("triple-yahtzee-99")
    card = engine.new_game(["solo"])["cards"]["solo"]
    cols = [ty_bots._column(c) for c in card["columns"]]
    f = ty_bots.features((0.0, 0.0), cols).reshape(-1, ty_bots.HATS)
    last = ty_bots.HATS - 1  # the knot of a whole card's scoring boxes open
    assert ty_bots.KNOTS[last] == ty_bots.ty.CARD_BOXES
    assert f[ty_bots.ROW["sixes"], last] == 6 and f[ty_bots.ROW["waste_upper"], last] == 3
    assert not f[:, :last].any()
    cols[0] = cols[0]._replace(status="upgraded", multiplier=2, open=cols[0].open - {"ones"})
    f = ty_bots.features((0.0, 0.0), cols).reshape(-1, ty_bots.HATS)
    on = dict(cardvalue.hats(ty_bots.ty.CARD_BOXES - 1, ty_bots.KNOTS))
    assert f[ty_bots.ROW["sixes"]].sum() == pytest.approx(7) and f[
        ty_bots.ROW["ones"]
    ].sum() == pytest.approx(5)
    assert f[ty_bots.ROW["sixes"], last] == pytest.approx(7 * on[last])
