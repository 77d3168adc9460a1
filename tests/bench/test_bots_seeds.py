"""bench/bots.py's seeds: one per task, no two tasks alike."""

from __future__ import annotations

import random


def test_the_bots_benchmarks_chunks_play_different_games():
    """bench.bots's seeds: every chunk of a player its own dice (chunks 12 and 21 once shared theirs)."""
    from bench import bots as bb

    seeds = {bb._seed("painted-dicez", "expert", chunk) for chunk in range(100)}
    assert len(seeds) == 100
    first = [random.Random(bb._seed("quintzee", "expert", c)).random() for c in (12, 21)]
    assert first[0] != first[1]
