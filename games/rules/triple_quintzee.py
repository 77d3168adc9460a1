"""Triple Quintzee: Yahtzee on three columns worth 1x, 2x and 3x, with the right-most rule and Quintzee
bonuses (rulings: shared/rules/RULINGS.md, section 1)."""

from __future__ import annotations

from collections.abc import Sequence

from . import cardgame, sheet
from .cardgame import COLUMNS, CardRules, Placement
from .declare import BY_SCORE
from .dice import FACES, contains_run, counts, is_five_of_a_kind, is_full_house, sum_of_face
from .errors import refused
from .figures import CardFigures, column_bonuses
from .messages import gettext_noop, msg

slug = "triple-quintzee"
name = "Triple Quintzee"
min_players = 1
max_players = cardgame.MAX_PLAYERS

TOP = ("ones", "twos", "threes", "fours", "fives", "sixes")
BOTTOM = (
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "quintzee",
    "chance",
)
BOXES = TOP + BOTTOM
FACE = dict(zip(TOP, FACES, strict=True))
# Rows where a non-zero score takes the right-most empty box, whichever column (empty or not) was picked.
RIGHT_MOST = frozenset({"full_house", "small_straight", "large_straight", "quintzee"})
LABELS = {
    "ones": gettext_noop("Ones"),
    "twos": gettext_noop("Twos"),
    "threes": gettext_noop("Threes"),
    "fours": gettext_noop("Fours"),
    "fives": gettext_noop("Fives"),
    "sixes": gettext_noop("Sixes"),
    "three_of_a_kind": gettext_noop("3 of a Kind"),
    "four_of_a_kind": gettext_noop("4 of a Kind"),
    "full_house": gettext_noop("Full House"),
    "small_straight": gettext_noop("Small Straight"),
    "large_straight": gettext_noop("Large Straight"),
    "quintzee": gettext_noop("Quintzee"),
    "chance": gettext_noop("Chance"),
}
SMALL_RUNS = ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6))
LARGE_RUNS = ((1, 2, 3, 4, 5), (2, 3, 4, 5, 6))
TOP_BONUS = 35
TOP_BONUS_AT = 63
QUINTZEE_BONUS = 100
CARD_BOXES = len(BOXES) * len(COLUMNS)


def score(box: str, dice: Sequence[int]) -> int:
    """The box's value for five faces, before multipliers, bonuses and the right-most rule."""
    faces = list(dice)
    if box in FACE:
        return sum_of_face(faces, FACE[box])
    most = max(counts(faces).values(), default=0)
    if box == "three_of_a_kind":
        return sum(faces) if most >= 3 else 0
    if box == "four_of_a_kind":
        return sum(faces) if most >= 4 else 0
    if box == "full_house":
        return 25 if is_full_house(faces) or is_five_of_a_kind(faces) else 0
    if box == "small_straight":
        return 30 if any(contains_run(faces, run) for run in SMALL_RUNS) else 0
    if box == "large_straight":
        return 40 if sorted(faces) in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6]) else 0
    if box == "quintzee":
        return 50 if is_five_of_a_kind(faces) else 0
    if box == "chance":
        return sum(faces)
    raise refused("card.no_box", box=repr(box), game=name)


def _new_column(c: int) -> dict:
    return {
        "column": c,
        "multiplier": c,
        "boxes": dict.fromkeys(BOXES),
        "top_subtotal": 0,
        "top_bonus": 0,
        "top_total": 0,
        "on_track": 0,
        "bottom_subtotal": 0,
        "bottom_total": 0,
        "quintzee_bonus": 0,
        "total": 0,
    }


def _new_card() -> dict:
    return {"columns": [_new_column(c) for c in COLUMNS], "filled": 0, "complete": False, "total": 0}


def _resolve(card: dict, box: str, picked: int | None, value: int, five: bool) -> Placement:
    columns = card["columns"]
    note: list[dict] = []
    if value and box in RIGHT_MOST:
        # RULINGS 1: a non-zero score takes the right-most empty box of the row "whichever column the
        # player picked", so the picked box itself may already be filled (by a scratch or a score).
        empty = [col["column"] for col in columns if col["boxes"][box] is None]
        if not empty:
            raise refused("card.row_full", label=LABELS[box])
        lands = max(empty)
        if lands != picked:
            note.append(msg("quintzee.right_most", column=lands, label=LABELS[box]))
    else:
        # A scratch, and every score in the other rows, goes into the picked box.
        if columns[picked - 1]["boxes"][box] is not None:
            raise refused("card.filled_column", label=LABELS[box], column=picked)
        lands = picked
    bonus = 0
    # Checked on the card before this turn: the five of a kind that fills the last Quintzee box earns none.
    if five and value and all(col["boxes"]["quintzee"] is not None for col in columns):
        bonus = QUINTZEE_BONUS
        note.append(msg("quintzee.bonus", points=QUINTZEE_BONUS, column=lands))
    return Placement(box, picked, lands, value, bonus, tuple(note))


def _add_up(col: dict) -> None:
    boxes = col["boxes"]
    c = col["multiplier"]
    top = [b for b in TOP if boxes[b] is not None]
    col["top_subtotal"] = sum(boxes[b] for b in top)
    col["top_bonus"] = TOP_BONUS if col["top_subtotal"] >= TOP_BONUS_AT else 0
    col["top_total"] = c * (col["top_subtotal"] + col["top_bonus"])
    # The sheet's green figure; it has no meaning once the top is finished.
    col["on_track"] = None if len(top) == len(TOP) else sum(boxes[b] - 3 * FACE[b] for b in top)
    col["bottom_subtotal"] = sum(boxes[b] for b in BOTTOM if boxes[b] is not None)
    col["bottom_total"] = c * col["bottom_subtotal"]
    col["total"] = col["top_total"] + col["bottom_total"] + c * col["quintzee_bonus"]


def _write(card: dict, placement: Placement, dice: list | None) -> list[dict]:
    col = card["columns"][placement.column - 1]
    col["boxes"][placement.box] = placement.value
    col["quintzee_bonus"] += placement.bonus
    _add_up(col)
    card["filled"] += 1
    card["complete"] = card["filled"] == CARD_BOXES
    card["total"] = sum(c["total"] for c in card["columns"])
    return []


def _skip_placement(card: dict) -> Placement:
    for col in card["columns"]:
        for box in BOXES:
            if col["boxes"][box] is None:
                return Placement(box, col["column"], col["column"], 0)
    raise AssertionError("a complete card has no turn to skip")  # pragma: no cover


RULES = CardRules(
    slug=slug,
    name=name,
    boxes=BOXES,
    labels=LABELS,
    columns=True,
    new_card=_new_card,
    score=score,
    resolve=_resolve,
    write=_write,
    skip_placement=_skip_placement,
)


# The engine contract (docs/engine.md), with this game's rules bound in.
new_game, apply, legal_actions, preview, current_player, scores, is_over, winners = cardgame.contract(RULES)


# --- what the site asks of this game (docs/engine.md, "Declarations") --------------------------------

pitch = gettext_noop("Three columns worth 1x, 2x and 3x: 39 boxes to fill; big scores belong on the right.")
dice_kind = "plain"
view = "cards"
options = ()
ranking = BY_SCORE
FIGURES = CardFigures(
    boxes=BOXES,
    labels=LABELS,
    five_label=gettext_noop("Quintzees"),
    bonus_labels=(
        gettext_noop("Bonus, column 1"),
        gettext_noop("Bonus, column 2"),
        gettext_noop("Bonus, column 3"),
    ),
    columns=COLUMNS,
    bonuses=column_bonuses("top_bonus"),
    # A Quintzee box scored, plus every Quintzee bonus the column earned.
    five_kinds=lambda card: sum(
        bool(col["boxes"].get("quintzee")) + col["quintzee_bonus"] // QUINTZEE_BONUS
        for col in card["columns"]
    ),
)
SHEET = sheet.card(
    3,
    [
        *sheet.boxes(LABELS, TOP),
        sheet.total(gettext_noop("Top subtotal"), "top_subtotal", "subtotal"),
        sheet.total(gettext_noop("Bonus (63+)"), "top_bonus", "bonus"),
        sheet.total(gettext_noop("On track"), "on_track", "on-track", "signed"),
        *sheet.boxes(
            LABELS, BOTTOM, **{b: {"right_most": True, "moves": sheet.RIGHT_MOST} for b in RIGHT_MOST}
        ),
        sheet.total(gettext_noop("Bottom subtotal"), "bottom_subtotal", "subtotal"),
        sheet.total(gettext_noop("Quintzee bonus"), "quintzee_bonus", "bonus"),
        sheet.total(gettext_noop("Column total"), "total", "total"),
    ],
    bonus_moment=gettext_noop("Quintzee bonus!"),
)
# Its computer players (and the coach's expert) and its rules page, named rather than imported, so that
# the engine stays pure (games/declaration.py loads them when the site first asks). The coach says its
# moves as every card game does (cardgame.words).
PLAYERS = "games.bots.quintzee.PLAYERS"
RULEBOOK = "games.rulebook.triple_quintzee.RULEBOOK"
