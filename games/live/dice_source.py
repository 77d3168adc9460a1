"""Where the server's dice come from, and the record of every roll made for an action.

The site rolls with secrets.SystemRandom(): its settings offer no other source. The test settings add a
scripted one (tests/dice_script.py, DICE_SOURCE=scripted), which the tests and the end-to-end journeys'
servers use to line up the dice.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from functools import cache

from django.conf import settings
from django.utils.module_loading import import_string

from games import rules
from games.rules.dice import COLOURS

_system = secrets.SystemRandom()


def system_roll(kind: str) -> Callable[[int], list]:
    painted = rules.get(kind).dice_kind == "painted"

    def roll(n: int) -> list:
        if painted:
            return [[_system.randint(1, 6), _system.choice(COLOURS)] for _ in range(n)]
        return [_system.randint(1, 6) for _ in range(n)]

    return roll


class SystemDice:
    """The site's dice source. A source gives ``roll(kind)``, the engine's ``dice(n)`` for a game of
    that kind, and ``give_back(spare)`` for rolls no stored action took; settings.DICE_SOURCES names the
    sources by DICE_SOURCE (the test settings add a scripted one)."""

    roll = staticmethod(system_roll)

    @staticmethod
    def give_back(spare: list[list]) -> None:
        """Real dice that nobody saw are dropped: nothing to do."""


@cache
def _source(path: str):
    return import_string(path)


def source():
    return _source(settings.DICE_SOURCES[settings.DICE_SOURCE])


class RecordingDice:
    """The `dice(n)` callable handed to an engine: rolls through the configured source and keeps a record.

    ``spare``: dice rolled for an attempt of the same action that stored nothing (games.live.moves: a
    move tried on a row that had moved on); nobody saw them, and they are taken first, in order, while
    their counts fit, so that a scripted source's rolls keep their order. Taken ones leave the list.
    """

    def __init__(self, kind: str, spare: list[list] | None = None):
        self._roll = source().roll(kind)
        self._spare = spare if spare is not None else []
        self.rolls: list[list] = []

    def __call__(self, n: int) -> list:
        dice = self._spare.pop(0) if self._spare and len(self._spare[0]) == n else self._roll(n)
        self.rolls.append(dice)
        return list(dice)


def give_back(spare: list[list]) -> None:
    """Spare dice (see RecordingDice) that no stored action took, handed back to their source."""
    if spare:
        source().give_back(spare)


class ReplayDice:
    """Feeds an action's recorded rolls back to the engine, refusing any difference."""

    def __init__(self, rolls: list[list]):
        self._rolls = list(rolls)

    def __call__(self, n: int) -> list:
        if not self._rolls:
            raise ValueError("the engine rolled more dice than were recorded for this action")
        dice = self._rolls.pop(0)
        if len(dice) != n:
            raise ValueError(f"the engine rolled {n} dice where {len(dice)} were recorded")
        return list(dice)

    @property
    def exhausted(self) -> bool:
        return not self._rolls
