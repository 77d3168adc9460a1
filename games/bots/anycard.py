"""Computer players for any card game from its engine alone: the card turn of games/bots/cards.py on
what a placement adds to the card now, read from the engine's ``RULES`` (games/rules/cardgame.py).

A card game that declares no players of its own gets these (games/declaration.py), so it is played by
computers, hinted and reviewed with no code of its own. Without figures fitted to the game (as the three
shipped card games have), a placement is worth what it adds to the card's total now: ``resolve`` says
where it lands, ``write`` what the card adds up to afterwards (given no dice, as when a turn is skipped:
a game whose card keeps more of the dice than their values wants an evaluation of its own). The expert
still looks ahead exactly over the rolls left; the good player one roll. A turn's worth is the expert's
expected points from a fresh card.
"""

from __future__ import annotations

import copy
import math
from functools import cached_property
from typing import Any

import numpy as np

from games.bots import cards
from games.rules.cardgame import COLUMNS
from games.rules.dice import COLOURS, is_five_of_a_kind
from games.rules.errors import IllegalAction

FACES = 6


def for_engine(engine: Any) -> cards.CardPlayers:
    """The computer players of a card ``engine`` that declares none (games/declaration.py)."""
    return cards.CardPlayers(RulesCard(engine))


class RulesCard:
    """A card game's evaluation (what cards.CardPlayers asks) read from its engine's ``RULES``."""

    def __init__(self, engine: Any):
        self.engine = engine
        self.slug = engine.slug
        self.rules = engine.RULES
        self.painted = engine.dice_kind == "painted"
        self.TYPES = FACES * len(COLOURS) if self.painted else FACES

    def side(self, die: Any) -> int:
        if self.painted:
            return (int(die[0]) - 1) * len(COLOURS) + COLOURS.index(die[1])
        return int(die) - 1

    def die(self, side: int) -> Any:
        if self.painted:
            return [side // len(COLOURS) + 1, COLOURS[side % len(COLOURS)]]
        return side + 1

    def box_arrays(self, rows: np.ndarray) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Each box's value for every row of five sides, as the engine scores it, flagged when the dice
        are five of a kind (what ``resolve`` is told)."""
        dice = [[self.die(int(s)) for s in row] for row in rows]
        fives = np.array([is_five_of_a_kind(self.rules.faces(d)) for d in dice], dtype=np.int64)
        values = [self.rules.values(d) for d in dice]
        return {box: (np.array([v[box] for v in values], dtype=np.int64), fives) for box in self.rules.boxes}

    def flag(self, box: str, faces: list) -> int:
        return int(is_five_of_a_kind(faces))

    # Named as the evaluation modules name theirs (a class there).
    def Evaluator(self, card: dict, expert: bool) -> Placements:
        return Placements(self.rules, card)

    @cached_property
    def TURN_WORTH(self) -> float:
        """The expert's expected points of a turn on a fresh card: the scale of the coach's costs."""
        return cards.Turn(self, self.rules.new_card(), True).start()


class Placements:
    """Every placement on one card, each worth what it adds to the card's total."""

    def __init__(self, rules: Any, card: dict):
        self.rules, self.card = rules, card
        picks = COLUMNS if rules.columns else (None,)
        self.placements = [(box, picked) for box in rules.boxes for picked in picks]

    def value(self, box: str, picked: int | None, v: int, five: int) -> float:
        try:
            placement = self.rules.resolve(self.card, box, picked, v, bool(five))
        except IllegalAction:
            return -math.inf
        after = copy.deepcopy(self.card)
        self.rules.write(after, placement, None)
        return float(after["total"] - self.card["total"])
