"""Fixtures for the rules-engine tests: a scripted dice source that fails the test on any surprise."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


class ScriptedDice:
    """A ``dice(n)`` that hands out pre-set rolls in order.

    Asking for a roll that was not scripted, or for a different number of dice than the scripted roll
    has, fails the test at once (pytest.fail is not an Exception, so no engine can swallow it).
    """

    def __init__(self) -> None:
        self.rolls: list[list] = []
        self.calls: list[int] = []

    def push(self, *rolls: list) -> ScriptedDice:
        self.rolls.extend(list(roll) for roll in rolls)
        return self

    def __call__(self, n: int) -> list:
        self.calls.append(n)
        if not self.rolls:
            pytest.fail(f"dice({n}) was called, but no roll is scripted")
        roll = self.rolls.pop(0)
        if len(roll) != n:
            pytest.fail(f"dice({n}) was called, but the scripted roll has {len(roll)} dice: {roll}")
        return list(roll)


@pytest.fixture
def dice() -> Iterator[ScriptedDice]:
    """Push rolls with ``dice.push([...])``; every pushed roll must be used by the end of the test."""
    source = ScriptedDice()
    yield source
    assert not source.rolls, f"scripted rolls were never used: {source.rolls}"
