"""Triple Quintzee's worked examples: the card, the right-most rule, the top bonus, the on-track number
and the Quintzee bonus, each valued or played by the engine."""

from __future__ import annotations

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.rules import triple_quintzee as engine
from games.rules.triple_quintzee import BOTTOM, FACE, LABELS, TOP

from . import Rulebook
from .shared import YOU, card_rows, card_turn, example, face_texts, par_rolls, played_turns

TEXTS = face_texts(FACE) | {
    "three_of_a_kind": _("Three or more dice alike: all five dice added up."),
    "four_of_a_kind": _("Four or more dice alike: all five dice added up."),
    "full_house": _("Three alike and a pair of another face, or all five alike: a flat 25."),
    "small_straight": _("Four faces in a row anywhere among the dice (1-4, 2-5 or 3-6): 30."),
    "large_straight": _("Five faces in a row (1-5 or 2-6): 40. Five alike never counts here."),
    "quintzee": _("All five dice alike: 50."),
    "chance": _("Anything at all: all five dice added up."),
}
SAMPLES = {
    "ones": [1, 4, 1, 6, 1],
    "twos": [2, 5, 2, 3, 2],
    "threes": [3, 3, 1, 6, 4],
    "fours": [4, 4, 4, 4, 2],
    "fives": [5, 1, 5, 2, 3],
    "sixes": [6, 6, 6, 2, 6],
    "three_of_a_kind": [4, 4, 1, 4, 6],
    "four_of_a_kind": [2, 2, 6, 2, 2],
    "full_house": [3, 6, 3, 6, 3],
    "small_straight": [1, 2, 3, 4, 6],
    "large_straight": [2, 3, 4, 5, 6],
    "quintzee": [5, 5, 5, 5, 5],
    "chance": [6, 5, 4, 3, 3],
}
SECTIONS = {TOP[0]: _("Top section"), BOTTOM[0]: _("Bottom section")}
# Single rolls and one box each: (dice, box, why).
SINGLES = (
    ([3, 3, 3, 3, 3], "three_of_a_kind", _("Five alike is also three alike: all five dice count.")),
    ([3, 3, 3, 3, 3], "full_house", _("Five alike may be used as a full house.")),
    ([3, 4, 5, 6, 6], "small_straight", _("3-4-5-6 is in there; the spare 6 does not matter.")),
    ([2, 3, 4, 4, 6], "small_straight", _("2-3-4 and a 6: no run of four, so 0.")),
    ([1, 2, 3, 4, 5], "large_straight", _("Five in a row.")),
    ([4, 4, 4, 4, 4], "large_straight", _("Five alike is no straight: 0.")),
    ([6, 6, 6, 6, 6], "sixes", _("Five alike in the top section: just the sum of the sixes.")),
    ([4, 4, 4, 4, 4], "twos", _("Allowed, but it scores 0 (and earns no Quintzee bonus).")),
)
# One Full House row played on an empty card: (dice, column picked, what happens).
RIGHT_MOST_BOX = "full_house"
RIGHT_MOST_TURNS = (
    (
        [2, 2, 2, 5, 5],
        1,
        _(
            "Worth {value}, so it goes to the right-most empty {label} box, column {column}: "
            "{value} x {column} = {gain}."
        ),
    ),
    (
        [1, 2, 4, 4, 6],
        1,
        _(
            "Not a full house, so it is a scratch: the 0 stays in column 1, as picked, "
            "although column 2 is still empty."
        ),
    ),
    ([6, 6, 1, 1, 1], 2, _("The last empty {label} box: {value} x {column} = {gain}.")),
)
TOP_BONUS_COLUMN = 2
ON_TRACK_FILLS = (("ones", [1, 1, 2, 3, 4]), ("fives", [5, 5, 5, 5, 2]), ("sixes", [6, 6, 1, 2, 3]))
# Fill the three Quintzee boxes, then score more five of a kinds: (dice, box, column picked, what happens).
QUINTZEE_SCRIPT = (
    ([6] * 5, "quintzee", 1, _("The first Quintzee goes to the right-most empty box: column 3, 50 x 3.")),
    ([6] * 5, "quintzee", 1, _("The next one lands in column 2: 50 x 2.")),
    ([2] * 5, "quintzee", 1, _("The last Quintzee box, column 1: 50 x 1. All three are now filled.")),
    ([4] * 5, "fours", 2, _("Five 4s in Fours, column 2: 20 plus the 100 bonus, both doubled.")),
    ([3] * 5, "large_straight", 3, _("Five 3s in Large Straight score 0, so no bonus.")),
    ([5] * 5, "chance", 3, _("Five 5s in Chance, column 3: 25 plus the 100 bonus, both tripled.")),
)


def _right_most() -> tuple[dict, list[dict]]:
    """One Full House row on an empty card: a score jumps right, a scratch stays where it was put."""
    state = engine.new_game([YOU])
    rows = []
    for dice, picked, note in RIGHT_MOST_TURNS:
        state, gain = card_turn(engine, state, dice, RIGHT_MOST_BOX, picked)
        rows.append(_right_most_turn(dice, picked, note, gain))
    return rows[0], rows[1:]


def _right_most_turn(dice: list[int], picked: int, note: str, gain: int) -> dict:
    box = RIGHT_MOST_BOX
    value = engine.score(box, dice)
    # On a card with nothing else in it the gain is the value times the column the score landed in.
    column = gain // value if value else picked
    return example(
        dice,
        value,
        box=box,
        label=format_lazy(_("{box}, picked in column {column}"), box=_(LABELS[box]), column=picked),
        note=format_lazy(note, value=value, column=column, gain=gain, label=_(LABELS[box])),
        gain=gain,
        column=column,
    )


def _singles() -> list[dict]:
    return [
        example(dice, engine.score(box, dice), box=box, label=_(LABELS[box]), note=note)
        for dice, box, note in SINGLES
    ]


def _top_bonus() -> dict:
    """Three of each face in one column, played turn by turn: the last box brings the bonus with it."""
    column = TOP_BONUS_COLUMN
    state = engine.new_game([YOU])
    rows = []
    for box, roll in par_rolls(FACE).items():
        state, gain = card_turn(engine, state, roll, box, column)
        total = engine.scores(state)[YOU]
        rows.append(
            example(roll, engine.score(box, roll), box=box, label=_(LABELS[box]), gain=gain, running=total)
        )
    subtotal = sum(r["value"] for r in rows)
    column_total = engine.scores(state)[YOU]
    return {
        "column": column,
        "rows": rows,
        "subtotal": subtotal,
        "bonus": column_total // column - subtotal,
        "total": column_total,
        "without": column * subtotal,
    }


def _on_track() -> dict:
    """Each filled top box against three of its face, and the figure the card shows for them."""
    rows = []
    for box, roll in ON_TRACK_FILLS:
        value, par = engine.score(box, roll), 3 * FACE[box]
        rows.append(example(roll, value, box=box, label=_(LABELS[box]), par=par, diff=value - par))
    return {"rows": rows, "number": sum(r["diff"] for r in rows)}


def _quintzee_bonus() -> list[dict]:
    return played_turns(engine, QUINTZEE_SCRIPT, _("{box}, column {column}"))


def build() -> dict:
    right_most, right_most_more = _right_most()
    return {
        "card": card_rows(engine, TEXTS, SAMPLES, SECTIONS),
        "right_most": right_most,
        "right_most_more": right_most_more,
        "examples": _singles(),
        "top_bonus": _top_bonus(),
        "on_track": _on_track(),
        "quintzee_bonus": _quintzee_bonus(),
    }


# What the game's declaration names (its engine's RULEBOOK): this page and its examples.
RULEBOOK = Rulebook(f"games/rules/{engine.slug}.html", build)
