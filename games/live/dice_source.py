"""Where the server's dice come from, and the record of every roll made for an action.

The site rolls fair dice (``FairDice``, DICE_SOURCE=fair): each action's dice derived from the game's
committed server seed and its players' client seeds (games.fair_dice, docs/fair-dice.md). A game created
before fair dice, which has no server seed, rolls with secrets.SystemRandom() (``SystemDice``). The test
settings add a scripted source (tests/dice_script.py, DICE_SOURCE=scripted), which the tests and the
end-to-end journeys' servers use to line up the dice.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from functools import cache

from django.conf import settings
from django.utils.module_loading import import_string

from games import fair_dice, rules
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
    """Dice from secrets.SystemRandom(). A source gives ``roll(kind, game)``, the engine's ``dice(n)``
    for the next action of ``game`` (a game of that kind, as the move read it: its seq is the last
    action's), and ``give_back(spare)`` for rolls no stored action took; ``derived``: whether the source
    derives an action's dice from the game and its seq (then a second attempt at the move derives them
    again and the first attempt's rolls are not reused). settings.DICE_SOURCES names the sources by
    DICE_SOURCE (the test settings add a scripted one)."""

    derived = False

    @staticmethod
    def roll(kind: str, game=None) -> Callable[[int], list]:
        return system_roll(kind)

    @staticmethod
    def give_back(spare: list[list]) -> None:
        """Real dice that nobody saw are dropped: nothing to do."""


class FairDice:
    """The site's dice source: the dice of the action that will have seq ``game.seq + 1`` derived from
    the game's server seed and client seeds (games.fair_dice). Stateless: nothing is written to roll,
    and the same action of the same game gets the same dice however often its move is tried."""

    derived = True

    @staticmethod
    def roll(kind: str, game=None) -> Callable[[int], list]:
        if game is None or not game.server_seed:
            return system_roll(kind)  # a game created before fair dice
        painted = rules.get(kind).dice_kind == "painted"
        dice = fair_dice.ActionDice(game.server_seed, game.client_seeds or [], game.seq + 1)

        def roll(n: int) -> list:
            return dice.roll(n, painted)

        return roll

    @staticmethod
    def give_back(spare: list[list]) -> None:
        """Derived dice are derived again: nothing to do."""


@cache
def _source(path: str):
    return import_string(path)


def source():
    return _source(settings.DICE_SOURCES[settings.DICE_SOURCE])


class RecordingDice:
    """The `dice(n)` callable handed to an engine: rolls through the configured source and keeps a record.

    ``game``: the game as the move read it, before the action (its seq is the last action's).

    ``spare``: dice rolled for an attempt of the same action that stored nothing (games.live.moves: a
    move tried on a row that had moved on); nobody saw them, and they are taken first, in order, while
    their counts fit, so that a scripted source's rolls keep their order. Taken ones leave the list. A
    source that derives the dice (FairDice) takes none: the action may now have another seq, and its
    dice are derived for the seq it gets.
    """

    def __init__(self, game, spare: list[list] | None = None):
        dice_source = source()
        self._roll = dice_source.roll(game.kind, game)
        self._spare = [] if dice_source.derived else spare if spare is not None else []
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
