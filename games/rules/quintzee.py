"""Quintzee: one column of Triple Quintzee's 13 boxes, scored by the official Yahtzee rules as Verhoeff
and Glenn solved them: upper bonus 35 at 63, 100 for each further five of a kind once the Quintzee box
holds 50, and the free-choice Joker (docs/rules-engines.md, "Quintzee")."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from types import SimpleNamespace

from . import cardgame, sheet
from . import triple_quintzee as tq
from .cardgame import CardRules, Placement
from .declare import BY_SCORE
from .dice import is_five_of_a_kind
from .errors import refused
from .figures import CardFigures
from .messages import Message, gettext_noop, msg

slug = "quintzee"
name = "Quintzee"
min_players = 1
max_players = cardgame.MAX_PLAYERS

# Triple Quintzee's rows, labels and box values, on one column worth 1x.
TOP = tq.TOP
BOTTOM = tq.BOTTOM
BOXES = tq.BOXES
FACE = tq.FACE
LABELS = tq.LABELS
TOP_BONUS = tq.TOP_BONUS
TOP_BONUS_AT = tq.TOP_BONUS_AT
QUINTZEE_BONUS = tq.QUINTZEE_BONUS
QUINTZEE = 50
# What a five of a kind scores in these boxes as a Joker.
JOKER = {"full_house": 25, "small_straight": 30, "large_straight": 40}


def score(box: str, dice: Sequence[int]) -> int:
    """The box's value for five faces, no Joker: Triple Quintzee's values, except that a five of a kind
    is no Full House unless it is a Joker (the official rule)."""
    faces = list(dice)
    if box == "full_house" and is_five_of_a_kind(faces):
        return 0
    return tq.score(box, faces)


def joker_score(box: str, dice: Sequence[int]) -> int:
    """The value of a five of a kind played as a Joker: 25, 30 and 40 in Full House and the straights,
    every other box as it scores anyway."""
    faces = list(dice)
    if box in JOKER and is_five_of_a_kind(faces):
        return JOKER[box]
    return tq.score(box, faces)


def is_joker(card: dict, dice: Sequence[int]) -> bool:
    """A five of a kind is a Joker once the Quintzee box (with 50 or 0) and its own upper box are filled."""
    faces = list(dice)
    if not is_five_of_a_kind(faces) or card["boxes"]["quintzee"] is None:
        return False
    return card["boxes"][TOP[faces[0] - 1]] is not None


def _new_card() -> dict:
    return {
        "boxes": dict.fromkeys(BOXES),
        "top_subtotal": 0,
        "top_bonus": 0,
        "on_track": 0,
        "bottom_subtotal": 0,
        "quintzee_bonus": 0,
        "filled": 0,
        "complete": False,
        "total": 0,
    }


def _resolve(card: dict, box: str, picked: int | None, value: int, five: bool) -> Placement:
    boxes = card["boxes"]
    if boxes[box] is not None:
        raise refused("card.filled", label=LABELS[box])
    # A further five of a kind after a scored 50 earns 100 wherever it goes, a 0 included.
    if five and boxes["quintzee"] == QUINTZEE:
        note = (msg("quintzee.bonus", points=QUINTZEE_BONUS, column=1),)
        return Placement(box, None, None, value, QUINTZEE_BONUS, note)
    return Placement(box, None, None, value)


def _write(card: dict, placement: Placement, dice: list | None) -> list[dict]:
    boxes = card["boxes"]
    boxes[placement.box] = placement.value
    card["quintzee_bonus"] += placement.bonus
    top = [b for b in TOP if boxes[b] is not None]
    card["top_subtotal"] = sum(boxes[b] for b in top)
    card["top_bonus"] = TOP_BONUS if card["top_subtotal"] >= TOP_BONUS_AT else 0
    card["on_track"] = None if len(top) == len(TOP) else sum(boxes[b] - 3 * FACE[b] for b in top)
    card["bottom_subtotal"] = sum(boxes[b] for b in BOTTOM if boxes[b] is not None)
    card["filled"] += 1
    card["complete"] = card["filled"] == len(BOXES)
    card["total"] = (
        card["top_subtotal"] + card["top_bonus"] + card["bottom_subtotal"] + card["quintzee_bonus"]
    )
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
# The same game with the dice on the table scored as a Joker: a box's value depends on the card only
# through the Joker, so the turn in which the dice are one is played with these rules.
JOKER_RULES = dataclasses.replace(RULES, score=joker_score)


def rules_for(state: dict) -> CardRules:
    """The card rules that score the dice on the table for the player to move."""
    if state["over"] or not state["roll"]:
        return RULES
    return JOKER_RULES if is_joker(state["cards"][state["current"]], state["dice"]) else RULES


# The engine contract (docs/engine.md): the card games' mechanics, with the rules for the dice in play.
def new_game(players, options=None) -> dict:
    return cardgame.new_game(RULES, players, options)


def apply(state: dict, player: str, action: dict, dice) -> dict:
    return cardgame.apply(rules_for(state), state, player, action, dice)


def legal_actions(state: dict) -> list[dict]:
    return cardgame.legal_actions(rules_for(state), state)


def preview(state: dict) -> dict:
    return cardgame.preview(rules_for(state), state)


current_player = cardgame.current_player
scores = cardgame.scores
is_over = cardgame.is_over
winners = cardgame.winners


def words(state: dict, action: dict) -> Message:
    """The coach's words for an action, as every card game says them (cardgame.words), the Joker
    counted."""
    return cardgame.words(SimpleNamespace(RULES=rules_for(state), SHEET=SHEET), state, action)


# --- what the site asks of this game (docs/engine.md, "Declarations") --------------------------------

pitch = gettext_noop("One column of thirteen boxes, by the official rules: the solitaire classic.")
dice_kind = "plain"
view = "cards"
options = ()
ranking = BY_SCORE
FIGURES = CardFigures(
    boxes=BOXES,
    labels=LABELS,
    five_label=gettext_noop("Quintzees"),
    bonus_labels=(gettext_noop("Upper bonus"),),
    columns=(),
    bonuses=lambda card: [card["top_bonus"] > 0],
    five_kinds=lambda card: (
        (card["boxes"].get("quintzee") == QUINTZEE) + card["quintzee_bonus"] // QUINTZEE_BONUS
    ),
)
SHEET = sheet.card(
    1,
    [
        *sheet.boxes(LABELS, TOP),
        sheet.total(gettext_noop("Top subtotal"), "top_subtotal", "subtotal"),
        sheet.total(gettext_noop("Bonus (63+)"), "top_bonus", "bonus"),
        sheet.total(gettext_noop("On track"), "on_track", "on-track", "signed"),
        *sheet.boxes(LABELS, BOTTOM),
        sheet.total(gettext_noop("Bottom subtotal"), "bottom_subtotal", "subtotal"),
        sheet.total(gettext_noop("Quintzee bonus"), "quintzee_bonus", "bonus"),
        sheet.total(gettext_noop("Total"), "total", "total"),
    ],
    bonus_moment=gettext_noop("Quintzee bonus!"),
)
# Its computer players (the expert plays the exact solitaire optimum) and the coach's expert, and its
# rules page, named rather than imported so that the engine stays pure.
PLAYERS = "games.bots.quintzee_expert.PLAYERS"
RULEBOOK = "games.rulebook.quintzee.RULEBOOK"
