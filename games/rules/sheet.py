"""The score sheet of a card game as data: rows of boxes and sums, as the printed card shows them.

Each card engine declares its ``SHEET`` with these helpers (docs/engine.md), and the browser draws every
card game from it with one renderer (static/js/game/cards.js): a new card game needs no JavaScript.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .cardgame import DICE, MAX_ROLLS
from .messages import gettext_noop

RIGHT_MOST = gettext_noop("right-most rule")
BONUS_ORDER = gettext_noop("bonuses fill columns 1, 2, 3 in turn")


def boxes(labels: Mapping[str, str], names: Iterable[str], **extra: dict) -> list[dict]:
    """One row per box, labelled as the engine labels it; ``extra`` adds fields to named boxes."""
    return [{"box": name, "label": labels[name], **extra.get(name, {})} for name in names]


def total(label: str, field: str, cls: str, show: str = "value", need: int | None = None) -> dict:
    """A row that prints a figure the engine keeps on the card (or column): ``field``."""
    row = {"label": label, "field": field, "cls": cls, "show": show}
    if need is not None:
        row["need"] = need
    return row


def card(columns: int, rows: list[dict], **extra) -> dict:
    return {"columns": columns, "rows": rows, "dice": DICE, "rolls": MAX_ROLLS, **extra}
