"""Quintzee's worked examples: the card, the top bonus, the Quintzee bonus and the Joker, each valued or
played by the engine (games/rules/quintzee.py)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.rules import quintzee as engine
from games.rules.quintzee import BOTTOM, FACE, LABELS, TOP

from . import Rulebook, triple_quintzee
from .shared import YOU, card_rows, card_turn, example, face_texts, par_rolls

TEXTS = face_texts(FACE) | {
    "three_of_a_kind": _("Three or more dice alike: all five dice added up."),
    "four_of_a_kind": _("Four or more dice alike: all five dice added up."),
    "full_house": _("Three alike and a pair of another face: a flat 25 (five alike only as a Joker)."),
    "small_straight": _("Four faces in a row anywhere among the dice (1-4, 2-5 or 3-6): 30."),
    "large_straight": _("Five faces in a row (1-5 or 2-6): 40."),
    "quintzee": _("All five dice alike: 50."),
    "chance": _("Anything at all: all five dice added up."),
}
# The same boxes as a column of Triple Quintzee: the same sample rolls.
SAMPLES = triple_quintzee.SAMPLES
SECTIONS = {TOP[0]: _("Top section"), BOTTOM[0]: _("Bottom section")}
# Single rolls on an empty card, one box each: (dice, box, why).
SINGLES = (
    ([3, 3, 3, 3, 3], "three_of_a_kind", _("Five alike is also three alike: all five dice count.")),
    ([3, 3, 3, 3, 3], "full_house", _("Five alike is no full house unless it is a Joker, so 0.")),
    ([3, 4, 5, 6, 6], "small_straight", _("3-4-5-6 is in there; the spare 6 does not matter.")),
    ([2, 3, 4, 4, 6], "small_straight", _("2-3-4 and a 6: no run of four, so 0.")),
    ([1, 2, 3, 4, 5], "large_straight", _("Five in a row.")),
    ([4, 4, 4, 4, 4], "large_straight", _("Five alike is no straight unless it is a Joker, so 0.")),
    ([6, 6, 6, 6, 6], "sixes", _("Five alike in the top section: just the sum of the sixes.")),
    ([4, 4, 4, 4, 4], "twos", _("Allowed, but it scores 0.")),
)
# One card played turn by turn: (dice, box, what happens). The Quintzee box first, then five of a kinds.
BONUS_SCRIPT = (
    ([6] * 5, "quintzee", _("The Quintzee box now holds 50.")),
    ([4] * 5, "fours", _("Five 4s in Fours: 20, plus the Quintzee bonus of 100.")),
    ([4] * 5, "full_house", _("Quintzee and Fours are filled, so five 4s are a Joker: 25, plus 100.")),
    (
        [2] * 5,
        "large_straight",
        _("Twos is still open, so five 2s are no Joker: 0 here, but the 100 all the same."),
    ),
)


def _singles() -> list[dict]:
    return [
        example(dice, engine.score(box, dice), box=box, label=_(LABELS[box]), note=note)
        for dice, box, note in SINGLES
    ]


def _top_bonus() -> dict:
    """Three of each face, played turn by turn: the last box brings the bonus with it."""
    state = engine.new_game([YOU])
    rows = []
    for box, roll in par_rolls(FACE).items():
        state, gain = card_turn(engine, state, roll, box)
        total = engine.scores(state)[YOU]
        rows.append(
            example(roll, engine.score(box, roll), box=box, label=_(LABELS[box]), gain=gain, running=total)
        )
    subtotal = sum(r["value"] for r in rows)
    total = engine.scores(state)[YOU]
    return {"rows": rows, "subtotal": subtotal, "bonus": total - subtotal, "total": total}


def _bonus_turns() -> list[dict]:
    """BONUS_SCRIPT played on a new card: each box's value as the engine wrote it (a Joker's 25 with
    ``joker`` set), what the total gained and the running total."""
    state = engine.new_game([YOU])
    rows = []
    for roll, box, note in BONUS_SCRIPT:
        joker = engine.is_joker(state["cards"][YOU], roll)
        state, gain = card_turn(engine, state, roll, box)
        card = state["cards"][YOU]
        value = card["boxes"][box]
        rows.append(
            example(
                roll,
                value,
                box=box,
                label=_(LABELS[box]),
                note=note,
                gain=gain,
                running=card["total"],
                joker=joker,
            )
        )
    return rows


def build() -> dict:
    return {
        "card": card_rows(engine, TEXTS, SAMPLES, SECTIONS),
        "examples": _singles(),
        "top_bonus": _top_bonus(),
        "bonus_turns": _bonus_turns(),
        "joker": engine.JOKER,
    }


# What the game's declaration names (its engine's RULEBOOK): this page and its examples.
RULEBOOK = Rulebook(f"games/rules/{engine.slug}.html", build)
