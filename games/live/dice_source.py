"""Where the server's dice come from, and the record of every roll made for an action.

Production rolls with secrets.SystemRandom(). Tests (and the end-to-end journeys, whose server runs in
another process) select a scripted source with DICE_SOURCE=scripted: rolls are taken in order from the
JSON file DICE_SCRIPT_PATH. production.py refuses any source but "system".
"""

from __future__ import annotations

import fcntl
import json
import secrets
from collections.abc import Callable
from pathlib import Path

from django.conf import settings

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


class ScriptExhausted(RuntimeError):
    pass


def scripted_roll(kind: str) -> Callable[[int], list]:
    path = Path(settings.DICE_SCRIPT_PATH)

    def roll(n: int) -> list:
        # A lock, because the e2e server and the test that feeds it are different processes.
        with path.open("r+") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            script = json.load(fh)
            if not script:
                raise ScriptExhausted(f"the dice script {path} is empty; {n} dice were asked for")
            dice = script.pop(0)
            if len(dice) != n:
                raise ScriptExhausted(
                    f"the dice script's next roll has {len(dice)} dice, the game rolled {n}"
                )
            fh.seek(0)
            fh.truncate()
            json.dump(script, fh)
        return dice

    return roll


def write_script(path: Path | str, rolls: list[list]) -> None:
    """Append rolls to a dice script (tests and e2e journeys use it to line up the dice)."""
    path = Path(path)
    path.touch()
    with path.open("r+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        text = fh.read()
        script = json.loads(text) if text.strip() else []
        script.extend(rolls)
        fh.seek(0)
        fh.truncate()
        json.dump(script, fh)


SOURCES = {"system": system_roll, "scripted": scripted_roll}


class RecordingDice:
    """The `dice(n)` callable handed to an engine: rolls through the configured source and keeps a record.

    ``spare``: dice rolled for an attempt of the same action that stored nothing (games.live.moves: a
    move tried on a row that had moved on); nobody saw them, and they are taken first, in order, while
    their counts fit, so that a scripted source's rolls keep their order. Taken ones leave the list.
    """

    def __init__(self, kind: str, spare: list[list] | None = None):
        source = getattr(settings, "DICE_SOURCE", "system")
        self._roll = SOURCES[source](kind)
        self._spare = spare if spare is not None else []
        self.rolls: list[list] = []

    def __call__(self, n: int) -> list:
        dice = self._spare.pop(0) if self._spare and len(self._spare[0]) == n else self._roll(n)
        self.rolls.append(dice)
        return list(dice)


def give_back(spare: list[list]) -> None:
    """Spare dice (see RecordingDice) that no stored action took: a scripted source puts them back at the
    front of its script, so that the next action gets the rolls a test lined up for it; real dice that
    nobody saw are dropped."""
    if not spare or getattr(settings, "DICE_SOURCE", "system") != "scripted":
        return
    with Path(settings.DICE_SCRIPT_PATH).open("r+") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        script = json.load(fh)
        fh.seek(0)
        fh.truncate()
        json.dump([*spare, *script], fh)
    spare.clear()


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
