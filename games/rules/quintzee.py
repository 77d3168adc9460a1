"""Quintzee: one column of Triple Quintzee's 13 boxes, scored by the official Yahtzee rules that
Verhoeff and Glenn solved (upper bonus 35 at 63, 100 for each further five of a kind after a scored 50,
the forced Joker rule; docs/rules-engines.md, "Quintzee")."""

from __future__ import annotations

from collections.abc import Sequence

from . import triple_quintzee as tq
from .dice import is_five_of_a_kind

slug = "quintzee"
name = "Quintzee"

TOP = tq.TOP
BOTTOM = tq.BOTTOM
BOXES = tq.BOXES
FACE = tq.FACE
LABELS = tq.LABELS
TOP_BONUS = tq.TOP_BONUS
TOP_BONUS_AT = tq.TOP_BONUS_AT
QUINTZEE_BONUS = tq.QUINTZEE_BONUS
QUINTZEE = 50
# What a five of a kind scores in these boxes as a Joker (the Quintzee box already filled).
JOKER = {"full_house": 25, "small_straight": 30, "large_straight": 40}


def score(box: str, dice: Sequence[int]) -> int:
    """The box's value for five faces as a plain roll (no Joker): Triple Quintzee's values, except that
    five of a kind is no Full House unless it is a Joker (the official rule)."""
    faces = list(dice)
    if box == "full_house" and is_five_of_a_kind(faces):
        return 0
    return tq.score(box, faces)


def joker_score(box: str, dice: Sequence[int]) -> int:
    """The value of a five of a kind played as a Joker in ``box`` (a lower box; an upper box that is not
    its face scores 0, as always)."""
    faces = list(dice)
    return JOKER.get(box, tq.score(box, faces))
