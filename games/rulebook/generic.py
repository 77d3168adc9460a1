"""The rules page of a game without a page of its own, made from what its engine declares: for a card
game its boxes with their labels, each shown with the example roll that scores most there (valued by the
engine), and for every game its options and how its results rank. games/declaration.py gives it to any
engine that names no ``RULEBOOK``, so no game's rules page is missing."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.utils.translation import gettext_lazy

from games.declaration import is_card_game
from games.rules.dice import COLOURS

from . import Rulebook
from .shared import example

TEMPLATE = "games/rules/generic.html"
# A few rolls of different shapes (straights, pairs, a full house, four and five alike, a high sum):
# each box of a card is shown with the first of those that scores most in it.
PLAIN_ROLLS = (
    [1, 2, 3, 4, 5],
    [2, 3, 4, 5, 6],
    [1, 1, 3, 3, 6],
    [2, 2, 5, 5, 5],
    [6, 6, 6, 6, 3],
    [4, 4, 4, 4, 4],
    [6, 6, 6, 5, 5],
    [1, 1, 1, 2, 4],
)
# The same faces painted: each roll in its own run of colours, then five alike in colour.
PAINTED_ROLLS = (
    *(
        [[face, COLOURS[(i + j) % len(COLOURS)]] for j, face in enumerate(roll)]
        for i, roll in enumerate(PLAIN_ROLLS)
    ),
    [[face, COLOURS[0]] for face in PLAIN_ROLLS[-2]],
)


def for_engine(engine: Any) -> Rulebook:
    """The rules page of ``engine``, which names none (games/declaration.py)."""
    return Rulebook(TEMPLATE, partial(build, engine))


def build(engine: Any) -> dict:
    return {
        "card": _card(engine) if is_card_game(engine) else [],
        "columns": is_card_game(engine) and engine.RULES.columns,
        "options": [
            {
                "label": gettext_lazy(o.label),
                # Lazy, as the examples are built once per process: said in each reader's language.
                "choices": [gettext_lazy(label) for _, label in o.choices],
                "default": gettext_lazy(dict(o.choices)[o.default]),
            }
            for o in engine.options
        ],
        "ranking": gettext_lazy(engine.ranking.text),
    }


def _card(engine: Any) -> list[dict]:
    """Every box in the card's order, with the sample roll that scores most there and its value."""
    rolls = PAINTED_ROLLS if engine.dice_kind == "painted" else PLAIN_ROLLS
    rows = []
    for box in engine.RULES.boxes:
        roll = max(rolls, key=lambda r, box=box: engine.RULES.score(box, r))
        label = gettext_lazy(engine.RULES.labels[box])
        rows.append(example(roll, engine.RULES.score(box, roll), box=box, label=label))
    return rows
