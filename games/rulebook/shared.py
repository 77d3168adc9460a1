"""What the four games' worked examples share: dice as the templates draw them, and turns played
through an engine's contract (``new_game``, ``apply``, ``scores``) with scripted dice."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.functional import lazy
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy

from games.rules import IllegalAction
from games.rules.painted_dicez import COLOUR_LETTERS

YOU = "you"

# Three of each face, the par of an upper box: ``[face] * 3`` and two other dice, by face.
THREE_OF_EACH = {
    1: [1, 1, 1, 2, 3],
    2: [2, 2, 2, 1, 3],
    3: [3, 3, 3, 1, 2],
    4: [4, 4, 4, 1, 2],
    5: [5, 5, 5, 1, 2],
    6: [6, 6, 6, 1, 2],
}


def par_rolls(face_boxes: Mapping[str, int]) -> dict[str, list[int]]:
    """Three of its face for every upper box of a card (``face_boxes``: box name to face)."""
    return {box: THREE_OF_EACH[face] for box, face in face_boxes.items()}


def face_texts(face_boxes: Mapping[str, int]) -> dict[str, str]:
    """How every upper box of a card scores (``face_boxes``: box name to face)."""
    return {
        box: format_lazy(gettext_lazy("Add up the dice that show {face}."), face=face)
        for box, face in face_boxes.items()
    }


# --- dice as drawn ------------------------------------------------------------------------------------


def is_painted(die: Any) -> bool:
    return isinstance(die, list | tuple)


def shown_die(die: Any) -> dict:
    """One die as the ``die`` template tag draws it: the face, and for a painted die its colour and letter."""
    if is_painted(die):
        face, colour = die
        return {"face": face, "colour": colour, "letter": COLOUR_LETTERS[colour]}
    return {"face": die, "colour": "", "letter": ""}


def aria(dice: Sequence[Any]) -> str:
    """The accessible name of a group of dice: "dice 2 2 2 5 5" or "dice 5 blue, 4 red, ..."."""
    if not dice:
        return gettext_lazy("no dice")
    if is_painted(dice[0]):
        return format_lazy(gettext_lazy("dice {faces}"), faces=_painted_faces(dice))
    return format_lazy(gettext_lazy("dice {faces}"), faces=" ".join(str(d) for d in dice))


def _said_painted(dice: Sequence[Any]) -> str:
    return ", ".join(f"{face} {gettext(colour)}" for face, colour in dice)


# Lazy, as the examples are built once per process: each reader hears the colours in their language.
_painted_faces = lazy(_said_painted, str)


def example(
    dice: Sequence[Any], value: int | None, *, box: str = "", label: str = "", note: str = "", **extra
) -> dict:
    """One example row: the dice (engine form and drawn form), where they went, and what they are worth."""
    return {
        "dice": [list(d) if is_painted(d) else d for d in dice],
        "shown": [shown_die(d) for d in dice],
        "aria": aria(dice),
        "box": box,
        "label": label,
        "value": value,
        "note": note,
        **extra,
    }


def card_rows(
    engine,
    texts: Mapping[str, str],
    samples: Mapping[str, list],
    sections: Mapping[str, str],
    marks: Mapping[str, str] | None = None,
) -> list[dict]:
    """The scorecard table: every box of the engine with what it scores and one sample roll it values.

    ``sections`` names the section each box in it starts; ``marks`` is what the card writes in a box
    instead of its value (the X of a waste box).
    """
    marks = marks or {}
    return [
        example(
            samples[box],
            engine.score(box, samples[box]),
            box=box,
            label=gettext_lazy(label),
            note=texts[box],
            section=sections.get(box, ""),
            mark=marks.get(box, ""),
        )
        for box, label in engine.LABELS.items()
    ]


# --- turns played through the contract ---------------------------------------------------------------


class Scripted:
    """A ``dice(n)`` callable that hands out the given rolls in order, failing loudly on any other call."""

    def __init__(self, *rolls: Sequence[Any]) -> None:
        self._rolls = [list(r) for r in rolls]

    def __call__(self, n: int) -> list:
        if not self._rolls:
            raise RuntimeError(f"the engine asked for {n} dice but no roll is scripted")
        roll = self._rolls.pop(0)
        if len(roll) != n:
            raise RuntimeError(f"the engine asked for {n} dice; the scripted roll is {roll}")
        return roll


def card_turn(
    engine, state: dict, roll: Sequence[Any], box: str, column: int | None = None
) -> tuple[dict, int]:
    """Roll ``roll`` once and score it in ``box``; return the new state and what the total gained."""
    before = engine.scores(state)[YOU]
    state = engine.apply(state, YOU, {"type": "roll", "hold": []}, Scripted(roll))
    action: dict[str, Any] = {"type": "score", "box": box}
    if column is not None:
        action["column"] = column
    state = engine.apply(state, YOU, action, Scripted())
    return state, engine.scores(state)[YOU] - before


def card_fills(engine, fills: Sequence[tuple[str, list]], column: int | None = None) -> dict:
    """A new solo card with ``fills`` (box, roll) scored in turn, all in ``column``; the card's state."""
    state = engine.new_game([YOU])
    for box, roll in fills:
        state, _ = card_turn(engine, state, roll, box, column)
    return state


def played_turns(engine, script: Sequence[tuple[list, str, int, str]], label: str) -> list[dict]:
    """A new solo card played turn by turn through ``script`` (dice, box, column picked, what happens).

    ``label`` (lazy) names each turn's choice from ``{box}`` (the engine's label) and ``{column}``.
    """
    state = engine.new_game([YOU])
    steps = []
    for roll, box, column, note in script:
        state, gain = card_turn(engine, state, roll, box, column)
        chosen = format_lazy(label, box=gettext_lazy(engine.LABELS[box]), column=column)
        value, running = engine.score(box, roll), engine.scores(state)[YOU]
        steps.append(example(roll, value, box=box, label=chosen, note=note, gain=gain, running=running))
    return steps


def refused(engine, state: dict, player: str, action: dict, *rolls: Sequence[Any]) -> bool:
    """Whether the engine refuses ``action`` (the contract's IllegalAction)."""
    try:
        engine.apply(state, player, action, Scripted(*rolls))
    except IllegalAction:
        return True
    return False
