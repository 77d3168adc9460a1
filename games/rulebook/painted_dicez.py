"""Painted DiceZ's worked examples: the card, colour boxes, houses and flushes, five alike, rainbows and
the two bonuses, valued or played by the engine."""

from __future__ import annotations

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from games.rules import painted_dicez as engine
from games.rules.painted_dicez import CENTER, COLOUR, COLOUR_LETTERS, COLOURS, FACE, LABELS, LOWER, UPPER

from . import Rulebook
from .shared import YOU, card_rows, card_turn, example, face_texts, shown_die

B, R, P, G, Y = COLOURS


def painted(*pairs: tuple[int, str]) -> list[list]:
    """Painted dice from (face, colour) pairs."""
    return [[face, colour] for face, colour in pairs]


TEXTS = (
    face_texts(FACE)
    | {
        box: format_lazy(_("Add up the faces of the {colour} dice."), colour=_(colour))
        for box, colour in COLOUR.items()
    }
    | {
        "ones": _("Add up the dice that show 1, whatever their colour."),
        "four_of_a_kind": _("Four or more dice with one face: all five dice added up."),
        "four_of_a_color": _("Four or more dice with one colour: all five faces added up."),
        "full_house": _("Exactly three of one face and two of another: 25. Five alike does not count."),
        "painted_house": _("Exactly three dice of one colour and two of another: 25."),
        "straight": _("Five faces in a row (1-5 or 2-6): 40."),
        "rainbow": _("All five colours showing, one die each: 40."),
        "flush": _("All five dice in one colour: 50."),
        "dicez": _("All five dice with one face: 50."),
        "chance": _("Anything: all five faces added up."),
    }
)
SAMPLES = {
    "ones": painted((1, B), (1, R), (3, G), (4, Y), (6, P)),
    "twos": painted((2, G), (5, G), (2, B), (2, R), (3, Y)),
    "threes": painted((3, P), (3, P), (1, B), (6, G), (4, R)),
    "fours": painted((4, Y), (4, B), (6, R), (5, P), (4, G)),
    "fives": painted((5, R), (1, R), (5, B), (2, Y), (3, G)),
    "sixes": painted((6, B), (6, G), (6, P), (2, R), (1, Y)),
    "blues": painted((5, B), (6, B), (2, R), (4, B), (3, G)),
    "reds": painted((6, R), (3, R), (1, B), (6, Y), (2, P)),
    "pinks": painted((2, P), (5, P), (5, P), (1, G), (3, B)),
    "greens": painted((4, G), (6, G), (3, Y), (4, R), (5, G)),
    "yellows": painted((1, Y), (6, Y), (6, B), (3, Y), (2, Y)),
    "four_of_a_kind": painted((4, B), (4, R), (4, G), (4, Y), (2, P)),
    "four_of_a_color": painted((6, G), (2, G), (5, G), (3, G), (1, R)),
    "full_house": painted((5, B), (5, R), (5, R), (2, G), (2, Y)),
    "painted_house": painted((1, P), (4, P), (6, P), (3, Y), (2, Y)),
    "straight": painted((3, R), (1, B), (4, G), (2, R), (5, P)),
    "rainbow": painted((6, B), (5, R), (4, P), (3, G), (2, Y)),
    "flush": painted((6, Y), (2, Y), (4, Y), (3, Y), (1, Y)),
    "dicez": painted((3, B), (3, R), (3, P), (3, G), (3, Y)),
    "chance": painted((6, B), (4, R), (3, P), (2, G), (5, Y)),
}
SECTIONS = {UPPER[0]: _("Faces"), CENTER[0]: _("Colours"), LOWER[0]: _("Combinations")}
ALL_BLUE = painted((4, B), (4, B), (4, B), (2, B), (6, B))
FIVE_FIVES = painted((5, B), (5, R), (5, P), (5, G), (5, Y))
RAINBOW_STRAIGHT = painted((2, G), (3, Y), (4, B), (5, P), (6, R))
MIXED = painted((6, B), (3, B), (6, R), (2, G), (5, G))
# One roll read in several boxes, by table: (dice, box, why).
READINGS = {
    "colours": (
        (MIXED, "blues", _("Only the blue 6 and the blue 3 count.")),
        (MIXED, "greens", _("The green 2 and the green 5.")),
        (MIXED, "reds", _("One red die, a 6.")),
        (MIXED, "sixes", _("By face instead: the two 6s, whatever their colour.")),
        (MIXED, "pinks", _("No pink die: 0.")),
    ),
    "houses": (
        (ALL_BLUE, "painted_house", _("Five blue dice are not three of one colour and two of another: 0.")),
        (ALL_BLUE, "flush", _("The same dice are a flush: 50.")),
        (ALL_BLUE, "four_of_a_color", _("Five of one colour is also at least four: the faces add up.")),
        (ALL_BLUE, "full_house", _("Three 4s and a 2 and a 6: no full house by face, 0.")),
    ),
    "kinds": (
        (FIVE_FIVES, "full_house", _("Five 5s are not a full house here: 0.")),
        (FIVE_FIVES, "dicez", _("They are a DiceZ: 50.")),
        (FIVE_FIVES, "rainbow", _("All five colours show, so the same roll is a rainbow too.")),
        (FIVE_FIVES, "four_of_a_kind", _("And at least four alike: the faces add up.")),
    ),
    "rainbow": (
        (RAINBOW_STRAIGHT, "rainbow", _("One die of every colour.")),
        (RAINBOW_STRAIGHT, "straight", _("The same dice also run 2-6: a straight.")),
    ),
}
# Three of each face, the last box reaching the face bonus.
UPPER_FILLS = (
    ("ones", painted((1, B), (1, R), (1, G), (2, Y), (3, P))),
    ("twos", painted((2, B), (2, R), (2, G), (1, Y), (3, P))),
    ("threes", painted((3, B), (3, R), (3, G), (1, Y), (2, P))),
    ("fours", painted((4, B), (4, R), (4, G), (1, Y), (2, P))),
    ("fives", painted((5, B), (5, R), (5, G), (1, Y), (2, P))),
    ("sixes", painted((6, B), (6, R), (6, G), (1, Y), (2, P))),
)
# Two perfect colours and a little more: the colour bonus.
COLOUR_FILLS = (
    ("blues", painted(*[(6, B)] * 5)),
    ("reds", painted(*[(6, R)] * 5)),
    ("pinks", painted((3, P), (1, B), (2, G), (4, Y), (5, R))),
)
# The die the colour legend draws in every colour.
LEGEND_FACE = 6


def _valued(dice: list[list], box: str, note: str = "", **extra) -> dict:
    return example(dice, engine.score(box, dice), box=box, label=_(LABELS[box]), note=note, **extra)


def _bonus_game(fills: tuple[tuple[str, list[list]], ...]) -> dict:
    """A solo card with ``fills`` scored in turn: what each gained, and the bonus the last one brought."""
    state = engine.new_game([YOU])
    shown = []
    for box, roll in fills:
        state, gain = card_turn(engine, state, roll, box)
        shown.append(_valued(roll, box, gain=gain))
    subtotal = sum(f["value"] for f in shown)
    total = engine.scores(state)[YOU]
    return {"fills": shown, "subtotal": subtotal, "bonus": total - subtotal, "total": total}


def build() -> dict:
    readings = {key: [_valued(*row) for row in rows] for key, rows in READINGS.items()}
    return {
        "card": card_rows(engine, TEXTS, SAMPLES, SECTIONS),
        **readings,
        "upper_bonus": _bonus_game(UPPER_FILLS),
        "colour_bonus": _bonus_game(COLOUR_FILLS),
        "letters": [shown_die([LEGEND_FACE, colour]) for colour in COLOUR_LETTERS],
    }


# What the game's declaration names (its engine's RULEBOOK): this page and its examples.
RULEBOOK = Rulebook(f"games/rules/{engine.slug}.html", build)
