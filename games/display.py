"""How the game page and the replay draw each kind of game: which view module draws it (static/js/game/
views.js) and, for the card games, the score sheet as printed (rows, labels, sums, column headers).

The sheet is data so that the browser has one card renderer for every card game: a new card game adds
its sheet here, not a branch in the JavaScript. Box order and values come from the engines.
"""

from __future__ import annotations

from games.rules import painted_dicez, triple_quintzee, triple_yahtzee_99
from games.rules.cardgame import DICE, MAX_ROLLS

RIGHT_MOST = "right-most rule"
BONUS_ORDER = "bonuses fill columns 1, 2, 3 in turn"


def _boxes(engine, names, **extra) -> list[dict]:
    return [{"box": name, "label": engine.LABELS[name], **extra.get(name, {})} for name in names]


def _sum(label: str, field: str, cls: str, show: str = "value", need: int | None = None) -> dict:
    row = {"label": label, "field": field, "cls": cls, "show": show}
    if need is not None:
        row["need"] = need
    return row


def _triple_quintzee() -> dict:
    tq = triple_quintzee
    marked = {b: {"right_most": True, "moves": RIGHT_MOST} for b in tq.RIGHT_MOST}
    return {
        "columns": 3,
        "bonus_moment": "Quintzee bonus!",
        "rows": [
            *_boxes(tq, tq.TOP),
            _sum("Top subtotal", "top_subtotal", "subtotal"),
            _sum("Bonus (63+)", "top_bonus", "bonus"),
            _sum("On track", "on_track", "on-track", "signed"),
            *_boxes(tq, tq.BOTTOM, **marked),
            _sum("Bottom subtotal", "bottom_subtotal", "subtotal"),
            _sum("Quintzee bonus", "quintzee_bonus", "bonus"),
            _sum("Column total", "total", "total"),
        ],
    }


def _triple_yahtzee_99() -> dict:
    ty = triple_yahtzee_99
    # The sheet prints both waste rows as plain "Waste-A-Turn"; the engine's labels tell them apart.
    special = {w: {"label": "Waste-A-Turn", "waste": True} for w in ty.WASTE}
    special["yahtzee_bonus"] = {"moves": BONUS_ORDER}
    upper = ty.BOXES[: ty.BOXES.index("waste_upper") + 1]
    lower = ty.BOXES[len(upper) :]
    return {
        "columns": 3,
        "upgrades": [ty.UPGRADE[c] for c in (1, 2, 3)],
        "rows": [
            *_boxes(ty, upper, **special),
            _sum("Upper subtotal", "upper_subtotal", "subtotal"),
            _sum("Upper bonus", "upper_bonus", "bonus"),
            _sum("3-of-a-kinds (upper)", "upper_count", "count", "count", ty.MIN_UPPER_COUNT),
            *_boxes(ty, lower, **special),
            _sum("Lower total", "lower_total", "subtotal"),
            _sum("3-of-a-kinds (lower)", "lower_count", "count", "count", ty.MIN_LOWER_COUNT),
            _sum("Upgrade", "status", "status", "status"),
            _sum("Column total", "total", "total"),
        ],
    }


def _painted_dicez() -> dict:
    pd = painted_dicez
    colours = {box: {"colour": colour} for box, colour in zip(pd.CENTER, pd.COLOURS, strict=True)}
    return {
        "columns": 1,
        "rows": [
            *_boxes(pd, pd.UPPER),
            _sum("Upper subtotal", "upper_subtotal", "subtotal"),
            _sum("Upper bonus (63+)", "upper_bonus", "bonus"),
            *_boxes(pd, pd.CENTER, **colours),
            _sum("Colour subtotal", "color_subtotal", "subtotal"),
            _sum("Colour bonus (63+)", "color_bonus", "bonus"),
            *_boxes(pd, pd.LOWER),
            _sum("Lower subtotal", "lower_subtotal", "subtotal"),
        ],
    }


SHEETS = {
    "triple-quintzee": _triple_quintzee(),
    "triple-yahtzee-99": _triple_yahtzee_99(),
    "painted-dicez": _painted_dicez(),
}
for _sheet in SHEETS.values():
    _sheet.update(dice=DICE, rolls=MAX_ROLLS)


VIEWS = {**dict.fromkeys(SHEETS, "cards"), "farkle": "farkle"}


def view_of(kind: str) -> str:
    """The name of the view module (static/js/game/views.js) that draws a game of this kind."""
    return VIEWS[kind]


def sheet_of(kind: str) -> dict | None:
    """The score sheet of a card game; None for a game without one."""
    return SHEETS.get(kind)
