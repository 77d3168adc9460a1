"""Triple Yahtzee 99's worked examples: the card, Two Pairs, Full House, straights and jokers, Xtra Ones,
waste boxes, the upper bonus tiers, the Yahtzee bonus order and column upgrades, all from the engine."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.rules import triple_yahtzee_99 as engine
from games.rules.dice import FACES
from games.rules.triple_yahtzee_99 import FACE, FACE_BOXES, LABELS, LOWER, UPPER, WASTE

from . import Rulebook
from .shared import (
    YOU,
    Scripted,
    card_fills,
    card_rows,
    card_turn,
    example,
    face_texts,
    par_rolls,
    played_turns,
    refused,
)

TEXTS = face_texts(FACE) | {
    "xtra_ones": _("A second Ones box: add up the 1s again. It never counts toward an upgrade."),
    "waste_upper": _("Spend the turn without scoring: an X, no points. Optional."),
    "two_pairs": _("Only the two best pairs are added up (a three or four of a kind supplies pairs too)."),
    "three_of_a_kind": _("Three or more alike: all five dice added up."),
    "four_of_a_kind": _("Four or more alike: all five dice added up."),
    "full_house": _("Three alike and a pair, or five alike: the dice total, but never less than 25."),
    "small_straight": _("A run of four: 30 for 1-4, 35 for 2-5, 40 for 3-6. Five alike is a joker."),
    "large_straight": _("A run of five: 40 for 1-5, 50 for 2-6. Five alike is a joker."),
    "yahtzee": _("Five alike: 50 for 1s to 3s, 60 for 4s and 5s, 75 for 6s."),
    "yahtzee_bonus": _("Five alike, once all three Yahtzee boxes are filled: 100, 120 or 150."),
    "first_chance": _("Anything: all five dice added up."),
    "second_chance": _("A second Chance box, used the same way."),
    "waste_lower": _("A second waste box in the lower part of the column. Optional."),
}
SAMPLES = {
    "ones": [1, 1, 1, 4, 6],
    "xtra_ones": [1, 1, 3, 5, 6],
    "twos": [2, 2, 4, 5, 6],
    "threes": [3, 3, 3, 3, 5],
    "fours": [4, 4, 4, 1, 2],
    "fives": [5, 5, 5, 6, 6],
    "sixes": [6, 6, 6, 6, 1],
    "waste_upper": [1, 2, 4, 4, 6],
    "two_pairs": [2, 2, 5, 5, 6],
    "three_of_a_kind": [5, 5, 5, 2, 1],
    "four_of_a_kind": [3, 3, 3, 3, 6],
    "full_house": [2, 2, 2, 3, 3],
    "small_straight": [1, 3, 4, 5, 6],
    "large_straight": [2, 3, 4, 5, 6],
    "yahtzee": [4, 4, 4, 4, 4],
    "yahtzee_bonus": [4, 4, 4, 4, 4],
    "first_chance": [6, 5, 4, 2, 1],
    "second_chance": [3, 3, 5, 6, 2],
    "waste_lower": [1, 1, 2, 3, 6],
}
SECTIONS = {UPPER[0]: _("Upper section"), LOWER[0]: _("Lower section")}
# Rolls shown in one box each, by table: (dice, box, why).
SINGLES = {
    "two_pairs": (
        ([2, 2, 5, 5, 6], "two_pairs", _("Two pairs: only the four paired dice count.")),
        ([3, 3, 3, 6, 6], "two_pairs", _("A full house: the three 3s give one pair.")),
        ([4, 4, 4, 4, 2], "two_pairs", _("Four of a kind counts as two pairs of 4s.")),
        ([6, 6, 6, 6, 6], "two_pairs", _("Five 6s: two pairs of 6s, the fifth die left over.")),
        ([6, 6, 5, 5, 2], "two_pairs", _("The 2 is not part of a pair, so it is left out.")),
        ([2, 2, 3, 4, 5], "two_pairs", _("Only one pair: 0.")),
    ),
    "full_house": (
        ([2, 2, 2, 3, 3], "full_house", _("The dice add up to 12, so the 25 floor applies.")),
        ([6, 6, 6, 5, 5], "full_house", _("The dice add up to more than 25: the sum counts.")),
        ([5, 5, 5, 5, 5], "full_house", _("Five alike is accepted: exactly 25.")),
        ([6, 6, 6, 6, 6], "full_house", _("Five 6s: 30.")),
        ([6, 6, 6, 6, 5], "full_house", _("Four and one is not a full house: 0.")),
    ),
    "straights": (
        ([1, 2, 3, 4, 6], "small_straight", _("1-2-3-4.")),
        ([2, 3, 4, 5, 5], "small_straight", _("2-3-4-5.")),
        ([1, 3, 4, 5, 6], "small_straight", _("3-4-5-6, the best run of four.")),
        ([1, 2, 3, 4, 5], "large_straight", _("1-2-3-4-5.")),
        ([2, 3, 4, 5, 6], "large_straight", _("2-3-4-5-6.")),
        ([2, 3, 4, 5, 6], "small_straight", _("The run 3-4-5-6 is inside, so the small straight gets 40.")),
    ),
    "xtra_ones": (
        (
            [1, 1, 1, 5, 6],
            "xtra_ones",
            _("Three 1s score 3 here, but this box never counts as a three of a kind."),
        ),
        ([1, 1, 1, 5, 6], "ones", _("The same dice in Ones score 3 and do count toward an upgrade.")),
    ),
}
THREE_OF_EACH = par_rolls({box: FACE[box] for box in FACE_BOXES})
# Upper-section fills for the bonus tiers (column 1, no lower boxes, so the multiplier stays 1).
UPPER_TIERS: tuple[tuple[str, dict[str, list[int]]], ...] = (
    (_("Two 1s instead of three"), THREE_OF_EACH | {"ones": [1, 1, 2, 3, 4]}),
    (_("Three of every face"), THREE_OF_EACH),
    (
        _("Four 4s, and three 1s in Xtra Ones"),
        THREE_OF_EACH | {"fours": [4, 4, 4, 4, 1], "xtra_ones": [1, 1, 1, 2, 3]},
    ),
    (
        _("Five 6s, and a single 1 in Xtra Ones"),
        THREE_OF_EACH | {"sixes": [6] * 5, "xtra_ones": [1, 2, 3, 4, 5]},
    ),
)
# Five of a kinds for the Yahtzee boxes, then two bonuses: (dice, box, column picked, what happens).
YAHTZEE_BONUS_SCRIPT = (
    ([2] * 5, "yahtzee", 1, _("Yahtzee, column 1: 50 x 1.")),
    ([3] * 5, "yahtzee", 2, _("Yahtzee, column 2: 50 x 2.")),
    ([1] * 5, "yahtzee", 3, _("Yahtzee, column 3: 50 x 3. All three Yahtzee boxes are filled now.")),
    (
        [6] * 5,
        "yahtzee_bonus",
        3,
        _("Picked in column 3, but the first bonus always goes to column 1: 150 x 1."),
    ),
    ([5] * 5, "yahtzee_bonus", 3, _("The second bonus goes to column 2: 120 x 2.")),
)
# The columns of the five-of-a-kind table, each the box it is valued in.
BY_FACE_COLUMNS = {
    "yahtzee": "yahtzee",
    "bonus": "yahtzee_bonus",
    "small": "small_straight",
    "large": "large_straight",
}
WASTE_DICE = [1, 2, 4, 4, 6]
# One column's worth of fills that meets every upgrade minimum with its last box: four upper boxes with
# three of their face (54 points), four counted lower boxes with three or more alike, and a large straight
# to lift the lower total over 200 (215). Before the multiplier the column holds 269.
UPGRADE_RECIPE: tuple[tuple[str, list[int]], ...] = (
    *((box, THREE_OF_EACH[box]) for box in ("threes", "fours", "fives", "sixes")),
    ("large_straight", [2, 3, 4, 5, 6]),
    *((box, [6] * 5) for box in ("three_of_a_kind", "four_of_a_kind", "full_house", "yahtzee")),
)
UPGRADE_ORDERS = (
    ((1, 2, 3), _("Left to right")),
    ((3, 1, 2), _("Column 3 first")),
    ((2, 1, 3), _("Column 2 first")),
)


def _valued(dice: list[int], box: str, note: str = "", **extra) -> dict:
    return example(dice, engine.score(box, dice), box=box, label=_(LABELS[box]), note=note, **extra)


def _by_face() -> list[dict]:
    """Five of a kind of every face in the boxes where the face changes what it is worth."""
    rows = []
    for face in FACES:
        five = [face] * 5
        worth = {key: engine.score(box, five) for key, box in BY_FACE_COLUMNS.items()}
        rows.append(example(five, worth["yahtzee"], face=face, **worth))
    return rows


def _tiers() -> list[dict]:
    tiers = []
    for title, fills in UPPER_TIERS:
        total = engine.scores(card_fills(engine, list(fills.items()), 1))[YOU]
        shown = [_valued(roll, box) for box, roll in fills.items()]
        subtotal = sum(e["value"] for e in shown)
        tiers.append({"title": title, "fills": shown, "subtotal": subtotal, "bonus": total - subtotal})
    return tiers


def _yahtzee_bonus_refused_early() -> bool:
    """Whether a Yahtzee Bonus is refused while the Yahtzee boxes are still empty."""
    rolled = engine.apply(engine.new_game([YOU]), YOU, {"type": "roll", "hold": []}, Scripted([6] * 5))
    return refused(engine, rolled, YOU, {"type": "score", "box": "yahtzee_bonus", "column": 1})


def _yahtzee_bonus() -> list[dict]:
    return played_turns(engine, YAHTZEE_BONUS_SCRIPT, _("{box}, picked in column {column}"))


def _waste() -> dict:
    """A waste box: the turn passes and nothing changes."""
    _state, gain = card_turn(engine, engine.new_game([YOU]), WASTE_DICE, "waste_upper", 1)
    note = _("An X: the turn is used and the total does not move.")
    return _valued(WASTE_DICE, "waste_upper", note, gain=gain)


def _upgrade_order(order: tuple[int, ...], raw: int) -> tuple[list[dict], int]:
    """The recipe filled into the columns in ``order``: what each column became worth, and the card total."""
    state = engine.new_game([YOU])
    columns = []
    for column in order:
        before = engine.scores(state)[YOU]
        for box, roll in UPGRADE_RECIPE:
            state, _gain = card_turn(engine, state, roll, box, column)
        worth = engine.scores(state)[YOU] - before
        columns.append(
            {"column": column, "base": column, "multiplier": worth // raw, "worth": worth, "raw": raw}
        )
    return columns, engine.scores(state)[YOU]


def _upgrades() -> dict:
    recipe = [_valued(roll, box) for box, roll in UPGRADE_RECIPE]
    raw = sum(e["value"] for e in recipe)
    orders = []
    for order, title in UPGRADE_ORDERS:
        columns, total = _upgrade_order(order, raw)
        orders.append({"title": title, "order": list(order), "columns": columns, "total": total})
    return {"recipe": recipe, "raw": raw, "orders": orders}


def build() -> dict:
    singles = {key: [_valued(*row) for row in rows] for key, rows in SINGLES.items()}
    return {
        "card": card_rows(engine, TEXTS, SAMPLES, SECTIONS, dict.fromkeys(WASTE, "X")),
        **singles,
        "by_face": _by_face(),
        "tiers": _tiers(),
        "yahtzee_bonus_refused_early": _yahtzee_bonus_refused_early(),
        "yahtzee_bonus": _yahtzee_bonus(),
        "waste": _waste(),
        "upgrade": _upgrades(),
    }


# What the game's declaration names (its engine's RULEBOOK): this page and its examples.
RULEBOOK = Rulebook(f"games/rules/{engine.slug}.html", build)
