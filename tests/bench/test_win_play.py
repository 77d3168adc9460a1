"""bench/win_play.py: the last turn for the win and for points on the same dice, paired game for game,
and a write keeps bots.json's other figures."""

from __future__ import annotations

import json

from bench import win_play


def test_the_win_play_is_paired_game_for_game():
    result = win_play.measure(["quintzee"], 4, 1)["quintzee"]
    assert result["points"]["n"] == result["win"]["n"] == result["gain"]["n"] == 4
    assert result["gain"]["mean"] == round(result["win"]["mean"] - result["points"]["mean"], 3)
    assert 0 <= result["games_changed"] <= 4
    assert win_play.task(("quintzee", True, 0, 2)) == win_play.task(("quintzee", True, 0, 2))


def test_writing_keeps_the_other_figures(bench_files):
    figures, doc = bench_files
    before = json.loads(figures.read_text())
    result = {
        "games": win_play.measure(["quintzee"], 2, 1),
        "seconds": 1.0,
        "processes": 1,
        "command": "python -m bench.win_play --games 2",
    }
    win_play.write(result)
    win_play.write(result)
    after = json.loads(figures.read_text())
    assert after["win_play"] == result
    assert {k: v for k, v in after.items() if k != "win_play"} == {
        k: v for k, v in before.items() if k != "win_play"
    }
    text = doc.read_text()
    assert text.count(win_play.SECTION) == 1 and "## Computer players" in text
