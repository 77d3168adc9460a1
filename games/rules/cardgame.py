"""Turn mechanics shared by the three card games (rolls, holds, scoring turns, skip as a scratch) on top
of the core every engine shares (``turns``: seats, checks, resign, the end); each game plugs in a
``CardRules``: its boxes, their values, where a score lands and how a card adds up."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache, partial
from itertools import combinations
from typing import Any, NamedTuple

from . import turns
from .dice import Dice, check_indices, is_five_of_a_kind, reroll, shown
from .errors import IllegalAction, refused
from .messages import Message, english, msg

DICE = 5
MAX_ROLLS = 3
COLUMNS = (1, 2, 3)
MAX_PLAYERS = turns.MAX_PLAYERS

# Every hold a re-roll may name: sorted index lists, never all five (nothing would be rolled).
HOLDS: tuple[tuple[int, ...], ...] = tuple(h for k in range(DICE) for h in combinations(range(DICE), k))

_ACTION_KEYS = {
    "roll": frozenset({"type", "hold"}),
    "score": frozenset({"type", "box", "column"}),
}


class Placement(NamedTuple):
    """Where a score goes: the picked box, the column it lands in, its raw value and any bonus."""

    box: str
    picked: int | None
    column: int | None
    value: int
    bonus: int = 0
    note: tuple[dict, ...] = ()  # messages that follow "scored N in BOX" (games.rules.messages)
    phrase: str | None = None  # a message code that replaces "scored N in BOX" (waste boxes)


@dataclass(frozen=True)
class CardRules:
    """What a card game plugs into the shared turn mechanics."""

    slug: str
    name: str
    boxes: tuple[str, ...]
    labels: Mapping[str, str]
    columns: bool
    new_card: Callable[[], dict]
    score: Callable[[str, Sequence], int]
    # (card, box, picked column, value, five of a kind) -> Placement; IllegalAction if not allowed.
    resolve: Callable[[dict, str, int | None, int, bool], Placement]
    # (card, placement, dice or None for a skip) -> extra event messages; updates the card in place.
    write: Callable[[dict, Placement, list | None], list[dict]]
    skip_placement: Callable[[dict], Placement]
    faces: Callable[[list], list[int]] = list
    normalize_die: Callable[[Any], Any] = int
    # The dice as a message parameter: a text of faces, or (Painted DiceZ) the [face, colour] pairs.
    dice_param: Callable[[list], Any] = lambda dice: ", ".join(str(d) for d in dice)
    _table: Callable[[tuple], dict[str, int]] = field(init=False, repr=False, compare=False)
    core: turns.Turns = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # A game without columns takes no column field, not even null.
        actions = _ACTION_KEYS if self.columns else {**_ACTION_KEYS, "score": frozenset({"type", "box"})}
        object.__setattr__(self, "core", turns.Turns(self.slug, self.name, actions))
        score, boxes = self.score, self.boxes

        # legal_actions and preview score every box for the same dice over and over; few distinct
        # rolls come up in a game, so a small cache makes bots and benchmarks several times faster.
        @lru_cache(maxsize=4096)
        def table(key: tuple) -> dict[str, int]:
            return {box: score(box, key) for box in boxes}

        object.__setattr__(self, "_table", table)

    def values(self, dice: list) -> dict[str, int]:
        """Every box's value for ``dice``; the dict is shared, so do not change it."""
        # No box depends on the order of the dice, so sorting lets every permutation share an entry.
        return self._table(tuple(sorted(tuple(d) if isinstance(d, list) else d for d in dice)))


# --- state -----------------------------------------------------------------------------------------


def _clone(value: Any) -> Any:
    # A plain recursive copy: several times faster than copy.deepcopy on these small JSON trees.
    if isinstance(value, dict):
        return {k: _clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clone(v) for v in value]
    return value


def _with_card(state: dict, player: str) -> tuple[dict, dict]:
    """A new state whose card for ``player`` is a fresh copy the caller may change.

    States are never changed after apply returns them, so the new state shares every part that
    this action leaves alone (other cards, the seat list) instead of copying the whole tree.
    """
    new = dict(state)
    new["cards"] = dict(state["cards"])
    card = new["cards"][player] = _clone(state["cards"][player])
    return new, card


def new_game(rules: CardRules, players: Any, options: Any = None) -> dict:
    state, _ = turns.start(rules.core, players, options, {})
    state.update(roll=0, dice=[], held=[], cards={p: rules.new_card() for p in state["players"]})
    return state


current_player = turns.current_player
is_over = turns.is_over


def scores(state: dict) -> dict[str, int]:
    return {p: state["cards"][p]["total"] for p in state["players"]}


def _highest(state: dict, alive: list[str]) -> list[str]:
    best = max(state["cards"][p]["total"] for p in alive)
    return [p for p in alive if state["cards"][p]["total"] == best]


def winners(state: dict) -> list[str]:
    return turns.winners(state, _highest)


def _advance(state: dict, after: str) -> None:
    """Start the next turn with the next player after ``after`` who still has boxes to fill."""
    state["roll"] = 0
    state["dice"] = []
    state["held"] = []
    players = state["players"]
    start = players.index(after)
    for step in range(1, len(players) + 1):
        p = players[(start + step) % len(players)]
        if p not in state["resigned"] and not state["cards"][p]["complete"]:
            state["current"] = p
            return
    turns.finish(state)


def _ending(state: dict) -> list[dict]:
    if not state["over"]:
        return []
    players = state["players"]
    solo = scores(state)[players[0]] if len(players) == 1 else None
    return [turns.outcome(winners(state), solo=solo)]


def _said(event: dict, parts: list[dict]) -> dict:
    """The event with what happened, as messages and in the engines' English."""
    event["msg"] = parts
    event["text"] = english(parts)
    return event


# --- actions ---------------------------------------------------------------------------------------


def apply(rules: CardRules, state: dict, player: str, action: dict, dice: Dice) -> dict:
    kind = turns.check_action(rules.core, state, player, action)
    if kind == "resign":
        return _resign(state, player)
    if kind == "skip":
        return _skip(rules, state, player)
    if kind == "roll":
        return _roll(rules, state, player, action, dice)
    return _score(rules, state, player, action)


def _roll(rules: CardRules, state: dict, player: str, action: dict, dice: Dice) -> dict:
    rolled = state["roll"]
    if rolled >= MAX_ROLLS:
        raise refused("card.rolls_used")
    # A missing hold means "hold nothing", the shape of every first roll.
    hold = action.get("hold", [])
    if rolled == 0:
        if not isinstance(hold, list):
            check_indices(hold, DICE)
        if hold:
            raise refused("card.hold_first")
        hold = []
        fresh = reroll([None] * DICE, hold, dice)
    else:
        hold = check_indices(hold, DICE)
        fresh = reroll(state["dice"], hold, dice)
    new = dict(state)
    new["dice"] = [rules.normalize_die(d) for d in fresh]
    new["held"] = hold
    new["roll"] = rolled + 1
    said = {"player": player, "dice": rules.dice_param(new["dice"])}
    if rolled == 0:
        text = msg("rolled", **said)
    elif hold:
        text = msg("card.held", count=len(hold), roll=rolled + 1, rolls=MAX_ROLLS, **said)
    else:
        text = msg("card.rerolled", roll=rolled + 1, rolls=MAX_ROLLS, **said)
    new["last_event"] = _said(
        {
            "player": player,
            "type": "roll",
            "dice": _clone(new["dice"]),
            "held": list(hold),
            "roll": rolled + 1,
            "points": 0,
        },
        [text],
    )
    return new


def _check_choice(rules: CardRules, action: dict) -> tuple[str, int | None]:
    box = action.get("box")
    if not isinstance(box, str) or box not in rules.labels:
        raise refused("card.no_box", box=repr(box), game=rules.name)
    if not rules.columns:
        return box, None
    if "column" not in action:
        raise refused("card.choose_column")
    column = action["column"]
    if isinstance(column, bool) or not isinstance(column, int) or column not in COLUMNS:
        raise refused("card.no_column", column=repr(column))
    return box, column


def _where(rules: CardRules, placement: Placement, code: str, **params: Any) -> dict:
    """The message ``code`` about the box of ``placement``, with "column N" when the game has columns."""
    label = rules.labels[placement.box]
    if placement.column is None:
        return msg(code, label=label, **params)
    return msg(f"{code}_column", label=label, column=placement.column, **params)


def _score(rules: CardRules, state: dict, player: str, action: dict) -> dict:
    if state["roll"] == 0:
        raise refused("card.roll_first")
    box, column = _check_choice(rules, action)
    dice = state["dice"]
    five = is_five_of_a_kind(rules.faces(dice))
    placement = rules.resolve(state["cards"][player], box, column, rules.values(dice)[box], five)
    new, card = _with_card(state, player)
    note = rules.write(card, placement, dice)
    new["turn"] += 1
    _advance(new, player)
    if placement.phrase is not None:
        text = msg(
            placement.phrase, player=player, label=rules.labels[placement.box], column=placement.column
        )
    else:
        text = _where(rules, placement, "card.scored", player=player, points=placement.value)
    new["last_event"] = _said(
        {
            "player": player,
            "type": "score",
            "box": placement.box,
            "column": placement.column,
            "picked": placement.picked,
            "points": placement.value,
            "dice": _clone(dice),
            "five_of_a_kind": five,
            "bonus": placement.bonus,
        },
        [text, *placement.note, *note, *_ending(new)],
    )
    return new


def _resign(state: dict, player: str) -> dict:
    turns.check_resign(state, player)
    new = dict(state)
    new["resigned"] = [*state["resigned"], player]
    if turns.left_alone(new):
        # Checked here only, so a stored game in which one player was left to play on still does.
        new.update(roll=0, dice=[], held=[])
        turns.finish(new)
    elif new["current"] == player:
        _advance(new, player)
    new["last_event"] = _said(
        {"player": player, "type": "resign", "dice": [], "points": 0},
        [msg("resigned", player=player), *_ending(new)],
    )
    return new


def _skip(rules: CardRules, state: dict, player: str) -> dict:
    turns.check_skip(state, player)
    absent = state["current"]
    new, card = _with_card(state, absent)
    placement = rules.skip_placement(card)
    note = rules.write(card, placement, None)
    new["turn"] += 1
    _advance(new, absent)
    new["last_event"] = _said(
        {
            "player": absent,
            "type": "skip",
            "by": player,
            "box": placement.box,
            "column": placement.column,
            "picked": placement.picked,
            "points": placement.value,
            "dice": [],
            "five_of_a_kind": False,
            "bonus": 0,
        },
        [_where(rules, placement, "card.skipped", by=player, player=absent), *note, *_ending(new)],
    )
    return new


# --- queries ---------------------------------------------------------------------------------------


def choices(rules: CardRules, state: dict) -> list[Placement]:
    """Every legal score for the current player with the current dice (none before the first roll)."""
    if state["over"] or state["roll"] == 0:
        return []
    card = state["cards"][state["current"]]
    dice = state["dice"]
    five = is_five_of_a_kind(rules.faces(dice))
    picks = COLUMNS if rules.columns else (None,)
    out = []
    for box, value in rules.values(dice).items():
        for column in picks:
            try:
                out.append(rules.resolve(card, box, column, value, five))
            except IllegalAction:
                continue
    return out


def legal_actions(rules: CardRules, state: dict) -> list[dict]:
    if state["over"]:
        return []
    if state["roll"] == 0:
        return [{"type": "roll", "hold": []}]
    actions: list[dict] = []
    if state["roll"] < MAX_ROLLS:
        actions.extend({"type": "roll", "hold": list(h)} for h in HOLDS)
    for p in choices(rules, state):
        action = {"type": "score", "box": p.box}
        if rules.columns:
            action["column"] = p.picked
        actions.append(action)
    return actions


def preview(rules: CardRules, state: dict) -> dict:
    return {
        "boxes": [
            {"box": p.box, "column": p.picked, "value": p.value, "lands": p.column}
            for p in choices(rules, state)
        ]
    }


def words(engine: Any, state: dict, action: dict) -> Message:
    """An action of a card ``engine`` (a module with its ``RULES`` and ``SHEET``) before it is played, in
    words a player understands (the coach's hint and review): "hold 6 6 and roll", "score Full House in
    column 2 (+25)", the box named as the sheet prints it; a message (games.rules.messages) that each
    reader gets in their own language. Every card game says its moves so (games/declaration.py)."""
    if action["type"] == "roll":
        hold = action.get("hold", [])
        if not state.get("roll"):
            return msg("coach.roll")
        return msg("coach.card.hold", dice=shown(state["dice"], hold)) if hold else msg("coach.card.reroll")
    if action["type"] != "score":
        return msg("coach.action", action=action["type"])
    player = current_player(state)
    after = apply(engine.RULES, state, player, action, lambda n: [])
    gain = scores(after)[player] - scores(state)[player]
    box = action["box"]
    rows = (engine.SHEET or {}).get("rows", [])
    label = next((r["label"] for r in rows if r.get("box") == box), box.replace("_", " "))
    if "column" in action:
        # The column the score lands in, which a rule may move from the one picked (Triple Quintzee's
        # right-most rule): the gain is that column's, and so is the word.
        lands = next(
            (p.column for p in choices(engine.RULES, state) if p.box == box and p.picked == action["column"]),
            action["column"],
        )
        return msg("coach.card.score_column", label=label, column=lands, gain=gain)
    return msg("coach.card.score", label=label, gain=gain)


class Contract(NamedTuple):
    """The functions of the engine contract (docs/engine.md) for one card game."""

    new_game: Callable[..., dict]
    apply: Callable[..., dict]
    legal_actions: Callable[[dict], list[dict]]
    preview: Callable[[dict], dict]
    current_player: Callable[[dict], str | None]
    scores: Callable[[dict], dict[str, int]]
    is_over: Callable[[dict], bool]
    winners: Callable[[dict], list[str]]


def contract(rules: CardRules) -> Contract:
    """What a card engine module exports, its ``CardRules`` bound in: one line per game instead of
    eight wrappers."""
    return Contract(
        partial(new_game, rules),
        partial(apply, rules),
        partial(legal_actions, rules),
        partial(preview, rules),
        current_player,
        scores,
        is_over,
        winners,
    )
