"""Quintzee's exact solitaire optimum (games/bots/quintzee_optimum.py): the shipped table starts at
Verhoeff's 254.5896, and states recomputed from it match it."""

from __future__ import annotations

import numpy as np
import pytest

from games.bots import quintzee_optimum as qo


def test_the_start_value_is_verhoeffs_optimum():
    assert round(float(qo.table()[0, 0, 0]), 4) == qo.START_VALUE == 254.5896


@pytest.mark.parametrize("level", [12, 11, 7, 1])
def test_a_slice_of_states_recomputed_matches_the_shipped_table(level):
    filled = np.array([bin(m).count("1") for m in range(qo.FULL + 1)])
    masks = np.flatnonzero(filled == level)
    masks = masks[:: max(1, len(masks) // 6)][:6]
    again = qo.level_values(qo.table(), masks)
    reachable = qo.reachable()[masks]
    # The table is stored in float32: a few units in its last place of difference at most.
    assert np.abs(again - qo.table()[masks])[reachable].max() < 1e-3
    assert reachable.sum() > 0


def test_the_last_box_is_worth_its_expectation_under_the_best_holds():
    # Only Chance left, nothing else to gain: keep 5s and 6s, then 4s too.
    chance_only = qo.FULL & ~(1 << qo.BOXES.index("chance"))
    assert qo.table()[chance_only, 63, 0] == pytest.approx(23.3333, abs=1e-4)


def test_unreachable_states_are_left_out():
    reach = qo.reachable()
    assert reach[0, 0, 0] and not reach[0, 1, 0] and not reach[0, 0, 1]
    ones = 1 << qo.BOXES.index("ones")
    assert reach[ones, 5, 0] and not reach[ones, 6, 0]
