"""Farkle's worked examples: the scoring table, sets from one roll, Farkles, and whole turns (the bank
minimum, hot dice, the last lap) played through the engine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext_lazy as _

from games.rules import farkle as engine
from games.rules.farkle import BANK_MINIMUM, DICE_COUNTS, GOALS

from . import Rulebook
from .shared import YOU, Scripted, example, refused

# Lazy: the examples are built once per process and said in each reader's language.
TABLE: tuple[tuple[Any, Any, list[int]], ...] = (
    (_("Single 1"), _("100 each"), [1]),
    (_("Single 5"), _("50 each"), [5]),
    (_("Three of a kind"), _("face x 100"), [4, 4, 4]),
    (_("Three 1s"), "1000", [1, 1, 1]),
    (_("Four of a kind"), _("twice the three"), [6, 6, 6, 6]),
    (_("Five of a kind"), _("five times the three"), [3, 3, 3, 3, 3]),
    (_("Five 1s"), "10000", [1, 1, 1, 1, 1]),
    (_("Six of a kind"), "10000", [2, 2, 2, 2, 2, 2]),
    (_("Six 1s"), "20000", [1, 1, 1, 1, 1, 1]),
    (_("Three of a kind and a pair"), _("twice the three"), [4, 4, 4, 2, 2]),
    (_("Four of a kind and a pair"), _("twice the four"), [5, 5, 5, 5, 3, 3]),
    (_("Two threes of a kind"), _("twice both threes"), [3, 3, 3, 6, 6, 6]),
    (_("Three pairs"), "1000", [2, 2, 4, 4, 6, 6]),
    (_("Four of a kind and a pair, taken as three pairs"), _("1000 when that is more"), [2, 2, 2, 2, 3, 3]),
    (_("Straight 1 to 6"), "1000", [1, 2, 3, 4, 5, 6]),
    (_("Straight 1 to 5"), "500", [1, 2, 3, 4, 5]),
    (_("Straight 2 to 6"), "500", [2, 3, 4, 5, 6]),
)
# The examples RULINGS.md gives, with the value it states (the tests hold the engine to them).
RULINGS: tuple[tuple[list[int], int, Any], ...] = (
    ([1, 1, 1, 4, 4], 2000, _("Three 1s with a pair of 4s: the pair doubles the 1000.")),
    ([2, 2, 2, 5, 5], 400, _("Three 2s with a pair of 5s: twice 200.")),
    ([5, 5], 100, _("Two single 5s.")),
    ([2, 2, 2, 3, 3, 3], 1000, _("Two threes of a kind: twice (200 + 300).")),
    ([2, 3, 4, 5, 6, 5], 550, _("A 2-to-6 straight and a single 5.")),
    ([1, 1, 1, 1, 1], 10000, _("Five 1s.")),
    ([2, 3], 0, _("Neither die scores, so they cannot be set aside.")),
)
SETS: tuple[tuple[list[int], Any], ...] = (
    ([5, 5, 2], _("The 2 does not help, so this set is not allowed; keep just the 5s.")),
    ([1, 1, 1, 1], _("Four 1s together: twice 1000, better than four singles.")),
    ([1, 5], _("Two singles from the same roll.")),
)
ROLLS: tuple[tuple[list[int], Any], ...] = (
    ([2, 2, 3, 4, 6, 6], _("No 1, no 5, nothing three alike, no straight and only two pairs.")),
    ([2, 2, 3, 3, 4, 4], _("Three pairs score, so this is not a Farkle.")),
    ([6, 4, 3, 3, 2, 6], _("Two pairs are not three pairs: a Farkle.")),
    ([4, 4, 4, 2, 3, 6], _("Three 4s: not a Farkle.")),
)


def _step(kind: str, note: Any, keep: Sequence[int] = (), roll: Sequence[int] = ()) -> dict:
    """One step of a scripted turn: ``kind`` (roll or bank), the indices kept, and the roll that follows."""
    return {"type": kind, "keep": list(keep), "roll": list(roll), "note": note}


# Bank minimum: the turn is refused a bank below it, then banked.
MINIMUM_STEPS = (
    _step("roll", _("The turn's first roll."), roll=[1, 2, 3, 3, 4, 6]),
    _step("roll", _("Set the 1 aside and roll the other five."), [0], [5, 5, 2, 3, 6]),
    _step("roll", _("Set the two 5s aside and roll the last three."), [0, 1], [1, 1, 4]),
    _step("bank", _("Set the two 1s aside and bank."), [0, 1]),
)
# Hot dice: every die set aside; the confirmation roll that follows decides.
HOT_STEPS = (
    _step("roll", _("The turn's first roll."), roll=[1, 1, 1, 5, 2, 3]),
    _step("roll", _("Set three 1s and a 5 aside; two dice are left to roll."), [0, 1, 2, 3], [5, 1]),
)
HOT_LOST_STEPS = (
    _step(
        "roll",
        _("Both dice score: hot dice. All six are rolled again, and nothing scores."),
        [0, 1],
        [2, 2, 3, 4, 6, 6],
    ),
)
HOT_KEPT_STEPS = (
    _step(
        "roll",
        _("Both dice score: hot dice. All six are rolled again, and a 5 shows."),
        [0, 1],
        [5, 2, 2, 3, 6, 6],
    ),
    _step("bank", _("Set the 5 aside and bank."), [0]),
)
# The last lap: Ann reaches the goal, Bob still has his turn, then the game is over.
LAPS_GOAL = 3000
LAPS_STEPS = (
    ("ann", _step("roll", _("Ann rolls five 1s."), roll=[1, 1, 1, 1, 1, 4])),
    ("ann", _step("bank", _("She banks them: past the goal in the first lap."), [0, 1, 2, 3, 4])),
    ("bob", _step("roll", _("Bob still has his turn in the same lap."), roll=[6, 6, 6, 2, 3, 4])),
    ("bob", _step("bank", _("He banks three 6s."), [0, 1, 2])),
)


class Turn:
    """Turns played step by step through the engine, each step described for a table row.

    ``table`` is the latest roll and ``points`` what the running turn has set aside so far; ``fork``
    lets two tellings go on from the same moment (after hot dice, say).
    """

    def __init__(self, state: dict, table: Sequence[int] = (), points: int = 0) -> None:
        self.state, self.table, self.points = state, list(table), points

    def play(self, player: str, steps: Sequence[dict]) -> list[dict]:
        return [self.step(player, step) for step in steps]

    def step(self, player: str, step: dict) -> dict:
        keep, roll = step["keep"], step["roll"]
        kept = [self.table[i] for i in keep]
        value = engine.score(kept) if kept else 0
        self.points += value
        row: dict[str, Any] = {
            "player": player,
            "kind": step["type"],
            "kept": example(kept, value),
            "turn": self.points,
            "note": step["note"],
            "can_bank": self._can_bank(player, keep),
            "rolled": None,
            "lost": 0,
        }
        action = {"type": step["type"], "keep": keep}
        self.state = engine.apply(self.state, player, action, Scripted(*([roll] if roll else [])))
        if roll:
            self._rolled(row, roll)
        if step["type"] == "bank":
            self.table, self.points = [], 0  # the next player starts a turn of their own
        row["banked"] = engine.scores(self.state)[player]
        return row

    def _can_bank(self, player: str, keep: list[int]) -> bool | None:
        """Whether the engine would let the player bank here; None before anything is set aside."""
        if not keep:
            return None
        return not refused(engine, self.state, player, {"type": "bank", "keep": keep})

    def _rolled(self, row: dict, roll: list[int]) -> None:
        farkle = not engine.has_score(roll)
        row["rolled"] = example(roll, None, farkle=farkle)  # a roll has no value until dice are kept
        self.table = roll
        if farkle:
            row["lost"], self.points = self.points, 0

    def fork(self) -> Turn:
        return Turn(self.state, self.table, self.points)


def _table() -> list[dict]:
    return [{"name": name, "rule": rule, **example(dice, engine.score(dice))} for name, rule, dice in TABLE]


def _rulings() -> list[dict]:
    return [example(dice, engine.score(dice), stated=stated, note=note) for dice, stated, note in RULINGS]


def _sets() -> list[dict]:
    return [example(dice, engine.score(dice), note=note) for dice, note in SETS]


def _rolls() -> list[dict]:
    return [example(roll, None, farkle=not engine.has_score(roll), note=note) for roll, note in ROLLS]


def _minimum() -> list[dict]:
    return Turn(engine.new_game([YOU])).play(YOU, MINIMUM_STEPS)


def _hot_dice() -> dict:
    """Hot dice, then the same confirmation roll failing in one telling and scoring in the other."""
    hot = Turn(engine.new_game([YOU]))
    rows = hot.play(YOU, HOT_STEPS)
    lost = hot.fork()
    lost_rows = lost.play(YOU, HOT_LOST_STEPS)
    kept_rows = hot.fork().play(YOU, HOT_KEPT_STEPS)
    return {
        "hot": rows,
        "hot_bank_refused": refused(engine, hot.state, YOU, {"type": "bank", "keep": [0, 1]}),
        "hot_turn": lost_rows[0]["turn"],
        "hot_lost_points": lost_rows[0]["lost"],
        "hot_lost": rows + lost_rows,
        "hot_lost_total": engine.scores(lost.state)[YOU],
        "hot_kept": rows + kept_rows,
    }


def _laps() -> dict:
    """The round is finished after someone reaches the goal; then the game ends."""
    turn = Turn(engine.new_game(["ann", "bob"], {"goal": LAPS_GOAL}))
    rows = [turn.step(player, step) for player, step in LAPS_STEPS]
    return {
        "goal": LAPS_GOAL,
        "rows": rows,
        "scores": engine.scores(turn.state),
        # The game is over once the lap is finished: the engine refuses Ann another turn.
        "over_after_one_lap": refused(
            engine, turn.state, "ann", {"type": "roll", "keep": []}, [1, 2, 3, 4, 6, 6]
        ),
    }


def build() -> dict:
    return {
        "table": _table(),
        "rulings": _rulings(),
        "sets": _sets(),
        "rolls": _rolls(),
        "minimum": _minimum(),
        **_hot_dice(),
        "laps": _laps(),
        "goals": list(GOALS),
        # The engine plays the first of its goals and dice counts when the table names none.
        "default_goal": GOALS[0],
        "dice_counts": list(DICE_COUNTS),
        "bank_minimum": BANK_MINIMUM,
    }


# What the game's declaration names (its engine's RULEBOOK): this page and its examples.
RULEBOOK = Rulebook(f"games/rules/{engine.slug}.html", build)
