"""The tests' dice: rolls lined up in a JSON file that a test (or an end-to-end journey, whose server is
another process) fills and the server takes from in order.

The test settings select it with DICE_SOURCE=scripted and DICE_SCRIPT_PATH (config/settings/test.py);
the site's own settings know only the system dice (games/live/dice_source.py).
"""

from __future__ import annotations

import fcntl
import json
from collections.abc import Callable
from pathlib import Path

from django.conf import settings


class ScriptExhausted(RuntimeError):
    pass


class ScriptedDice:
    """A dice source (games.live.dice_source) that rolls from the script and fails loudly on any roll
    the test did not line up."""

    derived = False

    @staticmethod
    def roll(kind: str, game=None) -> Callable[[int], list]:
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

    @staticmethod
    def give_back(spare: list[list]) -> None:
        """Spare rolls go back to the front of the script, so that the next action gets the rolls a
        test lined up for it."""
        with Path(settings.DICE_SCRIPT_PATH).open("r+") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)
            script = json.load(fh)
            fh.seek(0)
            fh.truncate()
            json.dump([*spare, *script], fh)
        spare.clear()


def write_script(path: Path | str, rolls: list[list]) -> None:
    """Append rolls to a dice script."""
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
