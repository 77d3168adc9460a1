"""Painted DiceZ: a 20-box Yahtzee card where every die also shows a colour
(rulings: shared/rules/RULINGS.md, section 3)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from . import cardgame, sheet
from .cardgame import CardRules, Placement
from .declare import BY_SCORE
from .dice import COLOURS, FACES, counts, is_five_of_a_kind, is_full_house, sum_of_face
from .errors import refused
from .figures import CardFigures
from .messages import gettext_noop

slug = "painted-dicez"
name = "Painted DiceZ"
min_players = 1
max_players = cardgame.MAX_PLAYERS

# The letter printed on a die of each colour, so that colour is never told by sight alone.
COLOUR_LETTERS = {"blue": "B", "red": "R", "pink": "P", "green": "G", "yellow": "Y"}
UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")
CENTER = ("blues", "reds", "pinks", "greens", "yellows")
LOWER = (
    "four_of_a_kind",
    "four_of_a_color",
    "full_house",
    "painted_house",
    "straight",
    "rainbow",
    "flush",
    "dicez",
    "chance",
)
BOXES = UPPER + CENTER + LOWER
FACE = dict(zip(UPPER, FACES, strict=True))
COLOUR = dict(zip(CENTER, COLOURS, strict=True))
LABELS = {
    "ones": gettext_noop("Ones"),
    "twos": gettext_noop("Twos"),
    "threes": gettext_noop("Threes"),
    "fours": gettext_noop("Fours"),
    "fives": gettext_noop("Fives"),
    "sixes": gettext_noop("Sixes"),
    "blues": gettext_noop("Blues"),
    "reds": gettext_noop("Reds"),
    "pinks": gettext_noop("Pinks"),
    "greens": gettext_noop("Greens"),
    "yellows": gettext_noop("Yellows"),
    "four_of_a_kind": gettext_noop("4 of a Kind"),
    "four_of_a_color": gettext_noop("4 of a Color"),
    "full_house": gettext_noop("Full House"),
    "painted_house": gettext_noop("Painted House"),
    "straight": gettext_noop("Straight"),
    "rainbow": gettext_noop("Rainbow"),
    "flush": gettext_noop("Flush"),
    "dicez": gettext_noop("DiceZ"),
    "chance": gettext_noop("Chance"),
}
BONUS = 35
BONUS_AT = 63


def _faces(dice: Sequence[Any]) -> list[int]:
    return [d[0] for d in dice]


def score(box: str, dice: Sequence[Any]) -> int:
    """The box's value for five ``[face, colour]`` dice."""
    faces = _faces(dice)
    colours = [d[1] for d in dice]
    if box in FACE:
        return sum_of_face(faces, FACE[box])
    if box in COLOUR:
        return sum(face for face, colour in zip(faces, colours, strict=True) if colour == COLOUR[box])
    if box == "four_of_a_kind":
        return sum(faces) if max(counts(faces).values(), default=0) >= 4 else 0
    if box == "four_of_a_color":
        return sum(faces) if max(Counter(colours).values(), default=0) >= 4 else 0
    if box == "full_house":
        return 25 if is_full_house(faces) else 0
    if box == "painted_house":
        return 25 if sorted(Counter(colours).values()) == [2, 3] else 0
    if box == "straight":
        return 40 if sorted(faces) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]) else 0
    if box == "rainbow":
        return 40 if len(colours) == 5 and set(colours) == set(COLOURS) else 0
    if box == "flush":
        return 50 if len(colours) == 5 and len(set(colours)) == 1 else 0
    if box == "dicez":
        return 50 if is_five_of_a_kind(faces) else 0
    if box == "chance":
        return sum(faces)
    raise refused("card.no_box", box=repr(box), game=name)


def _new_card() -> dict:
    return {
        "boxes": dict.fromkeys(BOXES),
        "upper_subtotal": 0,
        "upper_bonus": 0,
        "color_subtotal": 0,
        "color_bonus": 0,
        "lower_subtotal": 0,
        "filled": 0,
        "complete": False,
        "total": 0,
    }


def _resolve(card: dict, box: str, picked: int | None, value: int, five: bool) -> Placement:
    if card["boxes"][box] is not None:
        raise refused("card.filled", label=LABELS[box])
    return Placement(box, None, None, value)


def _write(card: dict, placement: Placement, dice: list | None) -> list[dict]:
    boxes = card["boxes"]
    boxes[placement.box] = placement.value

    def subtotal(section: tuple[str, ...]) -> int:
        return sum(boxes[b] for b in section if boxes[b] is not None)

    card["upper_subtotal"] = subtotal(UPPER)
    card["upper_bonus"] = BONUS if card["upper_subtotal"] >= BONUS_AT else 0
    card["color_subtotal"] = subtotal(CENTER)
    card["color_bonus"] = BONUS if card["color_subtotal"] >= BONUS_AT else 0
    card["lower_subtotal"] = subtotal(LOWER)
    card["filled"] += 1
    card["complete"] = card["filled"] == len(BOXES)
    card["total"] = (
        card["upper_subtotal"]
        + card["upper_bonus"]
        + card["color_subtotal"]
        + card["color_bonus"]
        + card["lower_subtotal"]
    )
    return []


def _skip_placement(card: dict) -> Placement:
    box = next(b for b in BOXES if card["boxes"][b] is None)
    return Placement(box, None, None, 0)


def _normalize_die(die: Any) -> list:
    face, colour = die
    return [face, colour]


RULES = CardRules(
    slug=slug,
    name=name,
    boxes=BOXES,
    labels=LABELS,
    columns=False,
    new_card=_new_card,
    score=score,
    resolve=_resolve,
    write=_write,
    skip_placement=_skip_placement,
    faces=_faces,
    normalize_die=_normalize_die,
    dice_param=lambda dice: [list(d) for d in dice],
)


# The engine contract (docs/engine.md), with this game's rules bound in.
new_game, apply, legal_actions, preview, current_player, scores, is_over, winners = cardgame.contract(RULES)


# --- what the site asks of this game (docs/engine.md, "Declarations") --------------------------------

pitch = gettext_noop("Every die has a colour too: flushes, rainbows and painted houses on a 20-box card.")
dice_kind = "painted"
view = "cards"
options = ()
ranking = BY_SCORE
FIGURES = CardFigures(
    boxes=BOXES,
    labels=LABELS,
    five_label=gettext_noop("DiceZ"),
    bonus_labels=(gettext_noop("Upper bonus"), gettext_noop("Color bonus")),
    columns=(),
    bonuses=lambda card: [card["upper_bonus"] > 0, card["color_bonus"] > 0],
    five_kinds=lambda card: 1 if card["boxes"].get("dicez") else 0,
)
SHEET = sheet.card(
    1,
    [
        *sheet.boxes(LABELS, UPPER),
        sheet.total(gettext_noop("Upper subtotal"), "upper_subtotal", "subtotal"),
        sheet.total(gettext_noop("Upper bonus (63+)"), "upper_bonus", "bonus"),
        *sheet.boxes(LABELS, CENTER, **{box: {"colour": c} for box, c in zip(CENTER, COLOURS, strict=True)}),
        sheet.total(gettext_noop("Color subtotal"), "color_subtotal", "subtotal"),
        sheet.total(gettext_noop("Color bonus (63+)"), "color_bonus", "bonus"),
        *sheet.boxes(LABELS, LOWER),
        sheet.total(gettext_noop("Lower subtotal"), "lower_subtotal", "subtotal"),
    ],
)
# Its computer players (and the coach's expert) and its rules page, named rather than imported, so that
# the engine stays pure (games/declaration.py loads them when the site first asks). The coach says its
# moves as every card game does (cardgame.words).
PLAYERS = "games.bots.painted.PLAYERS"
RULEBOOK = "games.rulebook.painted_dicez.RULEBOOK"
