"""The turn core all four engines share: seats and options, the shape of an action and the order of
checks in apply, resign and skip, the end of a game when one player is left, winners and the result.

A game keeps its own turns (rolls, boxes, banks, laps); what is the same in every game lives here, so
the same mistake gets the same sentence everywhere (resigning: rules/RULINGS.md, first section).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalAction

MIN_PLAYERS = 1
MAX_PLAYERS = 6
# Every engine takes these, from any seated player who has not resigned, in turn or not.
OUT_OF_TURN: Mapping[str, frozenset[str]] = {"resign": frozenset({"type"}), "skip": frozenset({"type"})}
# An unknown action type is quoted back only when it is short text (it comes from a client).
_QUOTED = 30


@dataclass(frozen=True)
class Turns:
    """What the core needs to know of a game: its slug, name and own actions with their fields."""

    slug: str
    name: str
    actions: Mapping[str, frozenset[str]]
    _fields: Mapping[str, frozenset[str]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_fields", {**self.actions, **OUT_OF_TURN})


def _and(words: Iterable[str]) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


# --- a new game ------------------------------------------------------------------------------------


def check_players(game: Turns, players: Any) -> list[str]:
    if isinstance(players, str | bytes) or not isinstance(players, Sequence):
        raise IllegalAction("The players must be a list of player ids.")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise IllegalAction(f"{game.name} is for {MIN_PLAYERS} to {MAX_PLAYERS} players.")
    if not all(isinstance(p, str) and p for p in players):
        raise IllegalAction("Every player id must be a non-empty string.")
    if len(set(players)) != len(players):
        raise IllegalAction("A player can take only one seat.")
    return list(players)


def check_options(game: Turns, options: Any, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` over ``defaults``, after refusing a key the game does not have; the game checks values."""
    if options is None:
        return dict(defaults)
    if not isinstance(options, Mapping):
        raise IllegalAction("The options must be a mapping.")
    unknown = [k for k in options if not isinstance(k, str) or k not in defaults]
    if unknown:
        known = f"the options are {_and(defaults)}" if defaults else "it takes no options"
        raise IllegalAction(f"{game.name} has no option {min(unknown, key=repr)!r}; {known}.")
    return {**defaults, **options}


def start(game: Turns, players: Any, options: Any, defaults: Mapping[str, Any]) -> tuple[dict, dict]:
    """The state keys every engine has at the start, and the options to play with."""
    seats = check_players(game, players)
    chosen = check_options(game, options, defaults)
    state = {
        "slug": game.slug,
        "players": seats,
        "current": seats[0],
        "resigned": [],
        "over": False,
        "turn": 0,
        "last_event": None,
    }
    return state, chosen


# --- checking an action ----------------------------------------------------------------------------


def check_action(game: Turns, state: dict, player: Any, action: Any) -> str:
    """The action's type, once every check common to the games has passed, in this order.

    The game is over; the player has no seat; it is not their turn (resign and skip may come out of
    turn); the action is not an object with one of the game's types; it has a field that type has not.
    """
    if state.get("slug") != game.slug:
        raise IllegalAction(f"This is not a {game.name} game.")
    if state["over"]:
        raise IllegalAction("The game is over.")
    if not isinstance(player, str) or player not in state["players"]:
        raise IllegalAction("You are not playing in this game.")
    kind = action.get("type") if isinstance(action, Mapping) else None
    if not (isinstance(kind, str) and kind in OUT_OF_TURN) and player != state["current"]:
        raise IllegalAction("It is not your turn.")
    if not isinstance(action, Mapping):
        raise IllegalAction("An action must be an object with a type.")
    if not isinstance(kind, str) or kind not in game._fields:
        shown = f" {kind!r}" if isinstance(kind, str) and len(kind) <= _QUOTED else ""
        raise IllegalAction(f"{game.name} has no action{shown}; the actions are {_and(game._fields)}.")
    extra = [k for k in action if k not in game._fields[kind]]
    if extra:
        raise IllegalAction(f"A {kind} action has no field {min(extra, key=repr)!r}.")
    return kind


def check_resign(state: dict, player: str) -> None:
    if player in state["resigned"]:
        raise IllegalAction("You have already resigned.")


def check_skip(state: dict, player: str) -> None:
    if player in state["resigned"]:
        raise IllegalAction("You have resigned, so you cannot skip a turn.")
    if player == state["current"]:
        raise IllegalAction("You cannot skip your own turn.")


# --- who plays on, and the end ---------------------------------------------------------------------


def active(state: dict) -> list[str]:
    """The players who have not resigned, in seat order."""
    return [p for p in state["players"] if p not in state["resigned"]]


def left_alone(state: dict) -> bool:
    """Whether resignations end the game now: nobody is left, or one of two or more players."""
    left = len(active(state))
    return left == 0 or (left == 1 and len(state["players"]) >= 2)


def finish(state: dict) -> None:
    state["over"] = True
    state["current"] = None


def current_player(state: dict) -> str | None:
    return None if state["over"] else state["current"]


def is_over(state: dict) -> bool:
    return bool(state["over"])


def winners(state: dict, best: Callable[[dict, list[str]], list[str]]) -> list[str]:
    """Once the game is over: the last player standing, else those of the active players ``best`` picks.

    A resigned player never wins; with nobody left there is no winner.
    """
    if not state["over"]:
        return []
    alive = active(state)
    return alive if len(alive) <= 1 else best(state, alive)


def outcome(won: Sequence[str], after: str = "") -> str:
    """The sentence that ends a game's last event; ``after`` qualifies the win (" after 3 laps")."""
    if not won:
        return "The game is over with no winner."
    if len(won) == 1:
        return f"The game is over: {won[0]} wins{after}."
    return f"The game is over: {_and(won)} share the win{after}."
