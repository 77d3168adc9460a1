"""The exact chance that a Farkle turn banks at least ``target`` points, played to maximise it.

This is the final round's question (games/bots/farkle_win.py): the player must reach the goal this turn
or lose, so banking short of it is worth nothing. The chance depends on the turn's points only through
two facts: how far the turn still is from the target, and whether it has the 300 points a bank needs.
So one table per number of dice answers every target up to the highest goal: ``R[k][j][n]``, the chance
when ``n`` dice are about to be rolled, ``j`` steps of 50 are still missing and ``k`` is the turn's
points in steps of 50 capped at 300 (``k == 6``: the turn may bank).

Every selection scores at least 50, so each one either brings the turn nearer the target or nearer
the minimum; the table is filled from the target outwards. The one loop left, all dice scoring again
and again once the target is met, is a fixed point solved by iteration.
"""

from __future__ import annotations

from functools import cache

from games.bots.farkle_expert import STEP, groups
from games.rules import farkle

BANKABLE = farkle.BANK_MINIMUM // STEP  # k from here on: the turn may bank
MAX_TARGET = max(farkle.GOALS)


@cache
def _groups(n: int) -> tuple[tuple[float, tuple[tuple[int, int], ...]], ...]:
    """The scoring rolls of ``n`` dice grouped as the expert's table does, points in steps of 50."""
    return tuple((p, tuple((kept, value // STEP) for kept, value in choices)) for p, choices in groups(n))


class ReachTable:
    def __init__(self, dice: int, max_target: int = MAX_TARGET):
        self.dice = dice
        self.steps = max_target // STEP
        self.table = [[[0.0] * (dice + 1) for _ in range(self.steps + 1)] for _ in range(BANKABLE + 1)]
        for j in range(self.steps + 1):
            for k in range(BANKABLE, -1, -1):
                if k == BANKABLE and j == 0:
                    self._fixed_point()
                else:
                    for n in range(1, dice + 1):
                        self.table[k][j][n] = self._roll(k, j, n)

    def _roll(self, k: int, j: int, n: int) -> float:
        # The innermost loop of the table (about a million steps): written out, not with helpers.
        table, dice = self.table, self.dice
        total = 0.0
        for p, choices in _groups(n):
            best = 0.0
            for kept, v in choices:
                k2 = k + v if k + v < BANKABLE else BANKABLE
                j2 = j - v if j > v else 0
                left = n - kept
                if not left:  # hot dice: every die must be rolled again before a bank
                    chance = table[k2][j2][dice]
                elif k2 == BANKABLE and not j2:  # the target is met and a bank allowed
                    chance = 1.0
                else:
                    chance = table[k2][j2][left]
                if chance > best:
                    best = chance
            total += p * best
        return total

    def _fixed_point(self) -> None:
        """Target met and bank allowed: only rolling every die again and again can still lose."""
        row = self.table[BANKABLE][0]
        row[self.dice] = 1.0
        for _ in range(100):
            previous = row[self.dice]
            for n in range(1, self.dice + 1):
                row[n] = self._roll(BANKABLE, 0, n)
            if abs(row[self.dice] - previous) < 1e-15:
                break

    def chance(self, points: int, n: int, target: int) -> float:
        """The chance to bank at least ``target`` this turn, ``points`` set aside, ``n`` dice to roll."""
        k = min(points // STEP, BANKABLE)
        j = max(target - points, 0) // STEP
        if j > self.steps:
            raise ValueError(f"targets above {self.steps * STEP} are not tabulated")
        return self.table[k][j][n]

    def after(self, points: int, left: int, target: int, bank: bool) -> float:
        """The chance once a selection is set aside, then banked (``bank``) or rolled on."""
        if bank:
            return 1.0 if points >= target and points >= farkle.BANK_MINIMUM and left else 0.0
        return self.chance(points, left or self.dice, target)


@cache
def reach_table(dice: int) -> ReachTable:
    return ReachTable(dice)


def reach_chance(dice: int, target: int, points: int = 0) -> float:
    """The chance that a turn from ``points`` (0: its first roll) banks at least ``target``."""
    return reach_table(dice).chance(points, dice, target)
