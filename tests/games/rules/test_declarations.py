"""What every engine declares for the site (docs/engine.md, "Declarations"), checked on all of them."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import rules
from games.rules import declare
from games.rules.dice import make_dice
from tests.games.conftest import random_legal_action

ENGINES = list(rules.ENGINES.values())


def _finished(engine, players: list[str], seed: int, options: dict | None = None) -> tuple[dict, list[dict]]:
    rng = random.Random(seed)
    dice = make_dice(rng, painted=engine.dice_kind == "painted")
    state = engine.new_game(players, options)
    events = []
    while not engine.is_over(state):
        state = engine.apply(state, engine.current_player(state), random_legal_action(state, rng), dice)
        events.append(state["last_event"])
    return state, events


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_every_engine_declares_what_the_site_asks(engine):
    assert isinstance(engine.pitch, str) and engine.pitch.endswith(".")
    assert engine.dice_kind in ("plain", "painted")
    assert engine.view in ("cards", "farkle")
    assert isinstance(engine.ranking, declare.Ranking)
    assert engine.ranking.text.endswith(".")
    for key in engine.ranking.order:
        assert key.lstrip("-") in ("final_score", "laps")
    figures = engine.FIGURES
    assert figures.section in ("card", "farkle") and isinstance(figures.needs_log, bool)
    for option in engine.options:
        assert option.default in option.values and len(set(option.values)) == len(option.values)
        assert "{value}" in option.text


@pytest.mark.parametrize("engine", ENGINES, ids=lambda e: e.slug)
def test_every_declared_choice_is_one_the_engine_accepts(engine):
    assert engine.new_game(["a"], declare.full_options(engine, {}))
    for option in engine.options:
        for value in option.values:
            assert engine.new_game(["a"], declare.full_options(engine, {option.name: value}))
        with pytest.raises(rules.IllegalAction):
            engine.new_game(["a"], {option.name: max(option.values) + 1})


def test_farkle_declares_its_goal_and_dice_and_ranks_by_laps():
    farkle = rules.get("farkle")
    assert declare.full_options(farkle, None) == {"goal": 10000, "dice": 6}
    assert declare.full_options(farkle, {"goal": 3000}) == {"goal": 3000, "dice": 6}
    assert declare.option_text(farkle, {"goal": 3000, "dice": 5}) == "Goal 3000 · 5 dice"
    assert declare.separating_option(farkle).name == "goal"
    assert farkle.ranking.uses_laps and farkle.ranking.winners_only
    fast, slow, fast_high = (
        {"laps": 9, "final_score": 3000},
        {"laps": 12, "final_score": 9000},
        {"laps": 9, "final_score": 3400},
    )
    assert sorted([slow, fast, fast_high], key=farkle.ranking.key) == [fast_high, fast, slow]
    assert declare.BY_SCORE.key({"final_score": 300}) < declare.BY_SCORE.key({"final_score": 200})
    for slug in ("triple-quintzee", "triple-yahtzee-99", "painted-dicez"):
        engine = rules.get(slug)
        assert declare.full_options(engine, None) == {} and declare.option_text(engine, {}) == ""
        assert declare.separating_option(engine) is None and engine.ranking is declare.BY_SCORE


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), engine=st.sampled_from(ENGINES))
def test_a_finished_seats_figures_agree_with_its_game(seed, engine):
    state, events = _finished(engine, ["a", "b"], seed)
    for player in ("a", "b"):
        summary = engine.FIGURES.summary(state, player, events)
        stats = engine.FIGURES.stats([{"summary": summary, "laps": state.get("laps"), "winner": True}])
        shown = engine.FIGURES.shown(stats)
        assert len({f.key for f in shown}) == len(shown)
        if engine.FIGURES.section == "farkle":
            banks = [e["turn_points"] for e in events if e["player"] == player and e["type"] == "bank"]
            assert summary["banks"] == banks and sum(banks) == engine.scores(state)[player]
            assert summary["rolls"] == sum(
                1 for e in events if e["player"] == player and e["type"] in ("roll", "farkle")
            )
        else:
            # Every scoring box of a finished card holds a value, and the scratches are its zeros.
            assert summary["scratches"] == sum(1 for v in summary["boxes"].values() if v == 0)
            assert len(summary["bonuses"]) == len(engine.FIGURES.bonus_labels)
            table = engine.FIGURES.tables(stats)[0]
            assert [label for label, _ in table.rows] == [engine.LABELS[b] for b in engine.FIGURES.boxes]
            assert all(len(values) == len(table.columns) for _, values in table.rows)
