"""Two Boxes: a test-only dice game of two boxes, Sum and Pairs, on one card per player.

It exists to prove that a game is declared in one place: this module and one registration line
(``rules.register(two_boxes)``) put it in the lobby, live play, history, statistics, high scores and
replays, and give it a rules page, computer players, hints and the coach's reviews (the generic ones of
games/declaration.py: it names none of its own) without a change anywhere else.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.rules import cardgame, sheet
from games.rules.cardgame import CardRules, Placement
from games.rules.declare import BY_SCORE
from games.rules.dice import counts
from games.rules.errors import IllegalAction
from games.rules.figures import CardFigures

slug = "two-boxes"
name = "Two Boxes"
min_players = 1
max_players = cardgame.MAX_PLAYERS

BOXES = ("sum", "pairs")
LABELS = {"sum": "Sum", "pairs": "Pairs"}
PAIR_POINTS = 10


def score(box: str, dice: Sequence[int]) -> int:
    if box == "sum":
        return sum(dice)
    return PAIR_POINTS * sum(1 for n in counts(dice).values() if n >= 2)


def _new_card() -> dict:
    return {"boxes": dict.fromkeys(BOXES), "total": 0, "complete": False}


def _resolve(card: dict, box: str, picked: int | None, value: int, five: bool) -> Placement:
    if card["boxes"][box] is not None:
        raise IllegalAction(f"{LABELS[box]} is already filled.")
    return Placement(box, None, None, value)


def _write(card: dict, placement: Placement, dice: list | None) -> list[dict]:
    card["boxes"][placement.box] = placement.value
    card["total"] = sum(v or 0 for v in card["boxes"].values())
    card["complete"] = all(v is not None for v in card["boxes"].values())
    return []


def _skip_placement(card: dict) -> Placement:
    return Placement(next(b for b in BOXES if card["boxes"][b] is None), None, None, 0)


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
)


# The engine contract (docs/engine.md), with this game's rules bound in.
new_game, apply, legal_actions, preview, current_player, scores, is_over, winners = cardgame.contract(RULES)

pitch = "Two boxes, five dice: the sum of the dice, or ten points a pair."
dice_kind = "plain"
view = "cards"
options = ()
ranking = BY_SCORE
FIGURES = CardFigures(
    boxes=BOXES,
    labels=LABELS,
    five_label="Five of a kind",
    bonus_labels=(),
    columns=(),
    bonuses=lambda card: [],
    five_kinds=lambda card: 0,
)
SHEET = sheet.card(1, [*sheet.boxes(LABELS, BOXES), sheet.total("Total", "total", "total")])
