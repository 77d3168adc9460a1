"""Triple Yahtzee 99: three columns worth 1x, 2x and 3x that can upgrade to 2x, 3x and 5x, with Xtra Ones,
jokers, Yahtzee bonuses and waste boxes (rulings: shared/rules/RULINGS.md, section 2)."""

from __future__ import annotations

from collections.abc import Sequence

from . import cardgame, sheet
from .cardgame import COLUMNS, CardRules, Placement
from .declare import BY_SCORE
from .dice import FACES, contains_run, counts, is_five_of_a_kind, sum_of_face
from .errors import refused
from .figures import CardFigures, column_bonuses
from .messages import gettext_noop, msg

slug = "triple-yahtzee-99"
name = "Triple Yahtzee 99"
min_players = 1
max_players = cardgame.MAX_PLAYERS

FACE_BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes")
UPPER = ("ones", "xtra_ones", "twos", "threes", "fours", "fives", "sixes")
LOWER = (
    "two_pairs",
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "yahtzee_bonus",
    "first_chance",
    "second_chance",
)
WASTE = ("waste_upper", "waste_lower")
# Card order, as the sheet prints a column.
BOXES = (
    *UPPER,
    "waste_upper",
    *LOWER[:7],
    "yahtzee_bonus",
    "first_chance",
    "second_chance",
    "waste_lower",
)
# The 16 boxes per column that must all be filled; wastes and the Yahtzee bonus are optional.
SCORING = tuple(b for b in BOXES if b not in WASTE and b != "yahtzee_bonus")
CARD_BOXES = len(SCORING) * len(COLUMNS)
FACE = dict(zip(FACE_BOXES, FACES, strict=True)) | {"xtra_ones": 1}
# Lower boxes whose three-or-more of a kind counts toward an upgrade (only when they scored).
LOWER_COUNTED = frozenset(
    {"three_of_a_kind", "four_of_a_kind", "full_house", "yahtzee", "first_chance", "second_chance"}
)
LABELS = {
    "ones": gettext_noop("Ones"),
    "xtra_ones": gettext_noop("Xtra Ones"),
    "twos": gettext_noop("Twos"),
    "threes": gettext_noop("Threes"),
    "fours": gettext_noop("Fours"),
    "fives": gettext_noop("Fives"),
    "sixes": gettext_noop("Sixes"),
    "waste_upper": gettext_noop("Waste-A-Turn (upper)"),
    "two_pairs": gettext_noop("2 Pairs"),
    "three_of_a_kind": gettext_noop("3 of a Kind"),
    "four_of_a_kind": gettext_noop("4 of a Kind"),
    "full_house": gettext_noop("Full House"),
    "small_straight": gettext_noop("Small Straight"),
    "large_straight": gettext_noop("Large Straight"),
    "yahtzee": gettext_noop("Yahtzee"),
    "yahtzee_bonus": gettext_noop("Yahtzee Bonus"),
    "first_chance": gettext_noop("1st Chance"),
    "second_chance": gettext_noop("2nd Chance"),
    "waste_lower": gettext_noop("Waste-A-Turn (lower)"),
}
YAHTZEE = {1: 50, 2: 50, 3: 50, 4: 60, 5: 60, 6: 75}
YAHTZEE_BONUS = {1: 100, 2: 100, 3: 100, 4: 120, 5: 120, 6: 150}
SMALL_JOKER = {1: 30, 2: 30, 3: 30, 4: 35, 5: 35, 6: 40}
LARGE_JOKER = {1: 40, 2: 40, 3: 40, 4: 40, 5: 50, 6: 50}
SMALL_RUNS = (((3, 4, 5, 6), 40), ((2, 3, 4, 5), 35), ((1, 2, 3, 4), 30))
UPGRADE = {1: 2, 2: 3, 3: 5}
MIN_UPPER_COUNT = 4
MIN_LOWER_COUNT = 4
MIN_UPPER_SUBTOTAL = 50
MIN_LOWER_TOTAL = 200


def upper_bonus(subtotal: int) -> int:
    if subtotal >= 76:
        return 70
    if subtotal >= 70:
        return 50
    if subtotal >= 63:
        return 35
    return 0


def _two_pairs(faces: list[int]) -> int:
    # A face seen four or five times gives two pairs, three times one pair.
    pairs = sorted((f for f, n in counts(faces).items() for _ in range(n // 2)), reverse=True)
    return 2 * (pairs[0] + pairs[1]) if len(pairs) >= 2 else 0


def score(box: str, dice: Sequence[int]) -> int:
    """The box's value for five faces, before multipliers and placement (waste boxes are 0)."""
    faces = list(dice)
    if box in FACE:
        return sum_of_face(faces, FACE[box])
    five = is_five_of_a_kind(faces)
    most = max(counts(faces).values(), default=0)
    if box in WASTE:
        return 0
    if box == "two_pairs":
        return _two_pairs(faces)
    if box == "three_of_a_kind":
        return sum(faces) if most >= 3 else 0
    if box == "four_of_a_kind":
        return sum(faces) if most >= 4 else 0
    if box == "full_house":
        return max(25, sum(faces)) if five or sorted(counts(faces).values()) == [2, 3] else 0
    if box == "small_straight":
        if five:
            return SMALL_JOKER[faces[0]]
        return next((value for run, value in SMALL_RUNS if contains_run(faces, run)), 0)
    if box == "large_straight":
        if five:
            return LARGE_JOKER[faces[0]]
        ordered = sorted(faces)
        return 50 if ordered == [2, 3, 4, 5, 6] else 40 if ordered == [1, 2, 3, 4, 5] else 0
    if box == "yahtzee":
        return YAHTZEE[faces[0]] if five else 0
    if box == "yahtzee_bonus":
        return YAHTZEE_BONUS[faces[0]] if five else 0
    if box in ("first_chance", "second_chance"):
        return sum(faces)
    raise refused("card.no_box", box=repr(box), game=name)


def _new_column(k: int) -> dict:
    return {
        "column": k,
        "base_multiplier": k,
        "multiplier": k,
        # "pending" until the column first meets the minimums, then "upgraded" or "blocked" for good;
        # a column right of a blocked one is blocked at once, since it can no longer upgrade.
        "status": "pending",
        "upgraded": False,
        "meets_minimums": False,
        "boxes": dict.fromkeys(BOXES),
        "three_kinds": [],
        "upper_count": 0,
        "lower_count": 0,
        "upper_subtotal": 0,
        "upper_bonus": 0,
        "upper_total": 0,
        "lower_total": 0,
        "total": 0,
    }


def _new_card() -> dict:
    return {"columns": [_new_column(k) for k in COLUMNS], "filled": 0, "complete": False, "total": 0}


def _resolve(card: dict, box: str, picked: int | None, value: int, five: bool) -> Placement:
    columns = card["columns"]
    if box == "yahtzee_bonus":
        if any(col["boxes"]["yahtzee"] is None for col in columns):
            raise refused("yahtzee.bonus_closed")
        free = [col["column"] for col in columns if col["boxes"]["yahtzee_bonus"] is None]
        if not free:
            raise refused("yahtzee.bonus_full")
        if not value:
            raise refused("yahtzee.bonus_five")
        # Bonuses fill columns 1, 2, 3 in that order whatever column was picked.
        lands = free[0]
        note = (msg("yahtzee.bonus_column", column=lands),) if lands != picked else ()
        return Placement(box, picked, lands, value, bonus=value, note=note)
    if columns[picked - 1]["boxes"][box] is not None:
        raise refused("card.filled_column", label=LABELS[box], column=picked)
    if box in WASTE:
        return Placement(box, picked, picked, 0, phrase="yahtzee.wasted")
    return Placement(box, picked, picked, value)


def _counts_as_three(box: str, value: int, faces: list[int]) -> bool:
    if box in FACE_BOXES:
        return faces.count(FACE[box]) >= 3
    return box in LOWER_COUNTED and value > 0 and max(counts(faces).values()) >= 3


def _add_up(col: dict) -> None:
    boxes = col["boxes"]
    col["upper_subtotal"] = sum(boxes[b] for b in UPPER if boxes[b] is not None)
    col["upper_bonus"] = upper_bonus(col["upper_subtotal"])
    col["upper_total"] = col["upper_subtotal"] + col["upper_bonus"]
    col["lower_total"] = sum(boxes[b] for b in LOWER if boxes[b] is not None)
    col["upper_count"] = sum(1 for b in col["three_kinds"] if b in FACE_BOXES)
    col["lower_count"] = sum(1 for b in col["three_kinds"] if b in LOWER_COUNTED)
    col["total"] = col["multiplier"] * (col["upper_total"] + col["lower_total"])


def meets_minimums(col: dict) -> bool:
    return (
        col["upper_count"] >= MIN_UPPER_COUNT
        and col["lower_count"] >= MIN_LOWER_COUNT
        and col["upper_subtotal"] >= MIN_UPPER_SUBTOTAL
        and col["lower_total"] >= MIN_LOWER_TOTAL
    )


def _check_upgrade(columns: list[dict], col: dict) -> list[dict]:
    """Settle a column's upgrade at the moment it first meets the minimums (they never unmeet)."""
    if col["meets_minimums"] or not meets_minimums(col):
        return []
    col["meets_minimums"] = True
    k = col["column"]
    if col["status"] != "pending":
        return []
    if k == 1 or columns[k - 2]["status"] == "upgraded":
        col["status"] = "upgraded"
        col["upgraded"] = True
        col["multiplier"] = UPGRADE[k]
        _add_up(col)
        return [msg("yahtzee.upgraded", column=k, multiplier=col["multiplier"])]
    for right in columns[k - 1 :]:
        if right["status"] == "pending":
            right["status"] = "blocked"
    return [msg("yahtzee.blocked", column=k, previous=k - 1)]


def _write(card: dict, placement: Placement, dice: list | None) -> list[dict]:
    col = card["columns"][placement.column - 1]
    col["boxes"][placement.box] = placement.value
    if dice is not None and _counts_as_three(placement.box, placement.value, list(dice)):
        col["three_kinds"].append(placement.box)
    _add_up(col)
    note = _check_upgrade(card["columns"], col)
    if placement.box in SCORING:
        card["filled"] += 1
    card["complete"] = card["filled"] == CARD_BOXES
    card["total"] = sum(c["total"] for c in card["columns"])
    return note


def _skip_placement(card: dict) -> Placement:
    for col in card["columns"]:
        for box in WASTE:
            if col["boxes"][box] is None:
                return Placement(box, col["column"], col["column"], 0)
    for col in card["columns"]:
        for box in SCORING:
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

pitch = gettext_noop("Triple Yahtzee with Xtra Ones, jokers and columns that upgrade to 2x, 3x and 5x.")
dice_kind = "plain"
view = "cards"
options = ()
ranking = BY_SCORE
FIGURES = CardFigures(
    boxes=SCORING,
    labels=LABELS,
    five_label=gettext_noop("Yahtzees"),
    bonus_labels=(
        gettext_noop("Bonus, column 1"),
        gettext_noop("Bonus, column 2"),
        gettext_noop("Bonus, column 3"),
    ),
    columns=COLUMNS,
    bonuses=column_bonuses("upper_bonus"),
    five_kinds=lambda card: sum(
        bool(col["boxes"].get("yahtzee")) + bool(col["boxes"].get("yahtzee_bonus")) for col in card["columns"]
    ),
    upgrades=lambda card: sum(1 for col in card["columns"] if col.get("upgraded")),
)
# The sheet prints both waste rows as plain "Waste-A-Turn"; the engine's labels tell them apart.
_SHEET_ROWS = {w: {"label": "Waste-A-Turn", "waste": True} for w in WASTE} | {
    "yahtzee_bonus": {"moves": sheet.BONUS_ORDER}
}
_SHEET_UPPER = BOXES[: BOXES.index("waste_upper") + 1]
SHEET = sheet.card(
    3,
    [
        *sheet.boxes(LABELS, _SHEET_UPPER, **_SHEET_ROWS),
        sheet.total(gettext_noop("Upper subtotal"), "upper_subtotal", "subtotal"),
        sheet.total(gettext_noop("Upper bonus"), "upper_bonus", "bonus"),
        sheet.total(gettext_noop("3-of-a-kinds (upper)"), "upper_count", "count", "count", MIN_UPPER_COUNT),
        *sheet.boxes(LABELS, BOXES[len(_SHEET_UPPER) :], **_SHEET_ROWS),
        sheet.total(gettext_noop("Lower total"), "lower_total", "subtotal"),
        sheet.total(gettext_noop("3-of-a-kinds (lower)"), "lower_count", "count", "count", MIN_LOWER_COUNT),
        sheet.total(gettext_noop("Upgrade"), "status", "status", "status"),
        sheet.total(gettext_noop("Column total"), "total", "total"),
    ],
    upgrades=[UPGRADE[c] for c in COLUMNS],
)
# Its computer players (and the coach's expert) and its rules page, named rather than imported, so that
# the engine stays pure (games/declaration.py loads them when the site first asks). The coach says its
# moves as every card game does (cardgame.words).
PLAYERS = "games.bots.yahtzee99.PLAYERS"
RULEBOOK = "games.rulebook.triple_yahtzee_99.RULEBOOK"
