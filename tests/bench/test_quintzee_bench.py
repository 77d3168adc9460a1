"""bench/quintzee.py: the optimal player's games played at once are seeded, add up, and score like the
optimum; the heuristic players' games are seeded; a part written keeps the others."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bench import quintzee


def test_the_same_seed_plays_the_same_games_and_the_mean_is_the_optimums():
    scores = quintzee.simulate(600, seed=7, chunk=250)
    assert np.array_equal(scores, quintzee.simulate(600, seed=7, chunk=250))
    s = quintzee.summary(scores)
    assert s["n"] == 600 and scores.min() >= 0
    # 254.59 with an sd near 59.5: six standard errors either side.
    assert abs(s["mean"] - 254.59) < 6 * 59.5 / 600**0.5


def test_the_heuristic_players_games_are_seeded_and_legal_to_the_end():
    first = quintzee.heuristic_games(2, "good", seed=3)
    assert first == quintzee.heuristic_games(2, "good", seed=3)
    assert all(0 < s < 400 for s in first)


def test_writing_one_part_keeps_the_others(tmp_path, monkeypatch):
    figures, doc = tmp_path / "bots.json", tmp_path / "BENCHMARKS.md"
    figures.write_text(quintzee.JSON_OUT.read_text())
    doc.write_text(quintzee.DOC.read_text())
    monkeypatch.setattr(quintzee, "JSON_OUT", figures)
    monkeypatch.setattr(quintzee, "DOC", doc)
    before = json.loads(figures.read_text())
    score = {"n": 2000, "mean": 240.0, "sd": 60.0, "ci95": [237.37, 242.63]}
    heuristic = {
        "fit": quintzee.FIT,
        "expert": {"score": score},
        "gap_to_optimum": quintzee.gap(score, 254.5896),
        "gap_to_optimal_player": quintzee.gap(score, 254.361, 0.368),
        "seconds": 1.0,
        "command": "python -m bench.quintzee --games 0 --heuristic 2000 --write",
    }
    quintzee.write({"heuristic": heuristic})

    after = json.loads(figures.read_text())
    assert after["quintzee"]["expert"] == before["quintzee"]["expert"]
    assert after["quintzee"]["heuristic"] == heuristic
    assert {k: v for k, v in after.items() if k != "quintzee"} == {
        k: v for k, v in before.items() if k != "quintzee"
    }
    text = doc.read_text()
    assert text.count(quintzee.SECTION + "\n") == 1
    assert "| heuristic expert | 2000 | 240.00 | 60.00 | 237.37 to 242.63 | 14.59 |" in text
    # 254.5896 - 240 = 14.59, its interval the heuristic's own (the optimum is exact).
    assert heuristic["gap_to_optimum"] == {"points": 14.59, "ci95": [11.96, 17.22], "share": 0.05731}


def test_the_column_step_measures_both_and_leaves_the_switch_as_it_was():
    from games.bots import quintzee as tq_bots

    step = quintzee.column_step(2)
    assert step["before"]["score"]["n"] == step["after"]["score"]["n"] == 2
    assert tq_bots.COLUMN_VALUES is True
    assert step["gain"]["points"] == pytest.approx(
        step["after"]["score"]["mean"] - step["before"]["score"]["mean"]
    )
