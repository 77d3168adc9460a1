"""bench/quintzee.py: the optimal player's games played at once are seeded, add up, and score like the
optimum."""

from __future__ import annotations

import numpy as np

from bench import quintzee


def test_the_same_seed_plays_the_same_games_and_the_mean_is_the_optimums():
    scores = quintzee.simulate(600, seed=7, chunk=250)
    assert np.array_equal(scores, quintzee.simulate(600, seed=7, chunk=250))
    s = quintzee.summary(scores)
    assert s["n"] == 600 and scores.min() >= 0
    # 254.59 with an sd near 59.5: six standard errors either side.
    assert abs(s["mean"] - 254.59) < 6 * 59.5 / 600**0.5
