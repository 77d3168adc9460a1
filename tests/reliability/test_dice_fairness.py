"""The production dice are fair: chi-square tests of games.live.dice_source.system_roll and of the
dice derived from committed seeds (games.fair_dice, which production rolls with).

600,000 dice for Farkle (faces) and 600,000 for Painted DiceZ (faces and colours, and their
independence), from each source. The derived dice come from a fixed server seed and fixed client seeds,
so that their test is deterministic: it passes or fails the same way on every run.

The p-value of each statistic comes from the chi-square survival function, computed in
closed form (below) for the small degrees of freedom needed; a test fails only if p < 1e-6, so a fair
die fails one run in a million per statistic. For reference, the critical values at p = 1e-6 are
33.38 (4 degrees of freedom) and 35.89 (5), as scipy.stats.chi2.isf(1e-6, k) gives them;
test_survival_function_matches_the_tables checks the closed forms against those and against the
textbook 5 % table.
"""

from __future__ import annotations

import math
from collections import Counter

import pytest

from games import fair_dice
from games.live.dice_source import COLOURS, system_roll

ALPHA = 1e-6
DICE = 600_000


def chi2_sf(x: float, k: int) -> float:
    """P(X > x) for X ~ chi-square with k degrees of freedom (closed forms by the parity of k)."""
    if x <= 0:
        return 1.0
    if k % 2 == 0:
        term = total = 1.0
        for i in range(1, k // 2):
            term *= (x / 2) / i
            total += term
        return math.exp(-x / 2) * total
    # Odd k: erfc for k = 1, then the series in x^(i + 1/2).
    total = math.erfc(math.sqrt(x / 2))
    term = math.sqrt(2 * x / math.pi) * math.exp(-x / 2)
    for i in range(1, (k - 1) // 2 + 1):
        total += term
        term *= x / (2 * i + 1)
    return total


def chi2_stat(counts: Counter, categories: list, n: int) -> float:
    expected = n / len(categories)
    return sum((counts.get(c, 0) - expected) ** 2 / expected for c in categories)


@pytest.mark.parametrize(
    ("k", "critical", "p"),
    [
        (1, 23.9281, 1e-6),
        (4, 33.3768, 1e-6),
        (5, 35.8882, 1e-6),
        (1, 3.8415, 0.05),
        (4, 9.4877, 0.05),
        (5, 11.0705, 0.05),
        (20, 31.4104, 0.05),
        (29, 42.5570, 0.05),
    ],
)
def test_survival_function_matches_the_tables(k, critical, p):
    assert chi2_sf(critical, k) == pytest.approx(p, rel=1e-3)


def derived_roll(kind: str):
    """The derived dice of successive actions of one game with fixed seeds, as a ``dice(n)``."""
    painted = kind == "painted-dicez"
    seq = 0

    def roll(n: int) -> list:
        nonlocal seq
        seq += 1
        return fair_dice.ActionDice("5e" * 32, ["ann-seed", "bob-seed", "computer"], seq).roll(n, painted)

    return roll


SOURCES = pytest.mark.parametrize("source", [system_roll, derived_roll], ids=["system", "derived"])


@SOURCES
def test_farkle_faces_are_uniform(source):
    roll = source("farkle")
    faces = Counter()
    for _ in range(DICE // 6):
        faces.update(roll(6))
    assert sum(faces.values()) == DICE and set(faces) == {1, 2, 3, 4, 5, 6}
    stat = chi2_stat(faces, [1, 2, 3, 4, 5, 6], DICE)
    assert chi2_sf(stat, 5) > ALPHA, f"faces {dict(faces)}: chi-square {stat:.1f}"


@SOURCES
def test_painted_dicez_faces_colours_and_their_independence(source):
    roll = source("painted-dicez")
    faces, colours, pairs = Counter(), Counter(), Counter()
    for _ in range(DICE // 5):
        for face, colour in roll(5):
            faces[face] += 1
            colours[colour] += 1
            pairs[face, colour] += 1
    assert set(colours) == set(COLOURS) and set(faces) == {1, 2, 3, 4, 5, 6}
    stat = chi2_stat(faces, [1, 2, 3, 4, 5, 6], DICE)
    assert chi2_sf(stat, 5) > ALPHA, f"faces {dict(faces)}: chi-square {stat:.1f}"
    stat = chi2_stat(colours, list(COLOURS), DICE)
    assert chi2_sf(stat, 4) > ALPHA, f"colours {dict(colours)}: chi-square {stat:.1f}"
    # Independence: all 30 (face, colour) pairs equally likely; 29 degrees of freedom.
    cells = [(f, c) for f in range(1, 7) for c in COLOURS]
    stat = chi2_stat(pairs, cells, DICE)
    assert chi2_sf(stat, 29) > ALPHA, f"pairs: chi-square {stat:.1f}"


def test_a_loaded_die_would_fail():
    """The test has teeth: a die 1 % heavy on six is caught at this sample size."""
    n = DICE
    loaded = Counter({f: n * (0.99 / 6) for f in range(1, 6)})
    loaded[6] = n - sum(loaded.values())
    assert chi2_sf(chi2_stat(loaded, [1, 2, 3, 4, 5, 6], n), 5) < ALPHA
