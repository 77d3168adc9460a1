"""bench/value_iteration.py: each expert with and without its fitted weights on the same dice, paired game
for game, Quintzee's loss against the optimum beside, and a write keeps bots.json's other figures."""

from __future__ import annotations

import json

import pytest

from bench import value_iteration as vi
from games.bots import cards


def test_the_two_sides_are_paired_and_the_weights_restored():
    weights = cards._game("quintzee").fitted().weights
    result = vi.measure(["quintzee"], 3, 1)["quintzee"]
    assert result["before"]["n"] == result["after"]["n"] == result["gain"]["n"] == 3
    assert result["gain"]["mean"] == pytest.approx(
        result["after"]["mean"] - result["before"]["mean"], abs=1e-3
    )
    assert result["loss_before"]["mean"] >= 0 and result["loss_after"]["mean"] >= 0
    assert vi.task(("quintzee", True, 0, 2)) == vi.task(("quintzee", True, 0, 2))
    assert cards._game("quintzee").fitted().weights is weights


def test_a_game_without_the_optimum_has_no_loss_figures():
    result = vi.measure(["painted-dicez"], 1, 1)["painted-dicez"]
    assert "loss_before" not in result and result["before"]["n"] == 1


def test_writing_keeps_the_other_figures_and_games(bench_files):
    figures, doc = bench_files
    before = json.loads(figures.read_text())
    run = {"command": "python -m bench.value_iteration --games 2", "seconds": 1.0, "processes": 1}
    first = {"games": {"quintzee": vi.measure(["quintzee"], 2, 1)["quintzee"] | run}}
    second = {"games": {"painted-dicez": vi.measure(["painted-dicez"], 1, 1)["painted-dicez"] | run}}
    vi.write(first)
    vi.write(second)
    vi.write(second)
    after = json.loads(figures.read_text())
    stored = before.get("value_iteration", {"games": {}})["games"]
    assert after["value_iteration"]["games"] == stored | first["games"] | second["games"]
    assert {k: v for k, v in after.items() if k != "value_iteration"} == {
        k: v for k, v in before.items() if k != "value_iteration"
    }
    text = doc.read_text()
    assert text.count(vi.SECTION) == 1 and "## Computer players" in text
    assert "| quintzee | 2 |" in text and "| painted-dicez | 1 |" in text
