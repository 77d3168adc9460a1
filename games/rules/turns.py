"""The turn core all four engines share: seats and options, the shape of an action and the order of
checks in apply, resign and skip, the end of a game when one player is left, winners and the result.

A game keeps its own turns (rolls, boxes, banks, laps); what is the same in every game lives here, so
the same mistake gets the same sentence everywhere (resigning: rules/RULINGS.md, first section).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import refused
from .messages import msg

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


# --- a new game ------------------------------------------------------------------------------------


def check_players(game: Turns, players: Any) -> list[str]:
    if isinstance(players, str | bytes) or not isinstance(players, Sequence):
        raise refused("players.list")
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise refused("players.count", game=game.name, min=MIN_PLAYERS, max=MAX_PLAYERS)
    if not all(isinstance(p, str) and p for p in players):
        raise refused("players.empty_id")
    if len(set(players)) != len(players):
        raise refused("players.twice")
    return list(players)


def check_options(game: Turns, options: Any, defaults: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` over ``defaults``, after refusing a key the game does not have; the game checks values."""
    if options is None:
        return dict(defaults)
    if not isinstance(options, Mapping):
        raise refused("options.mapping")
    unknown = [k for k in options if not isinstance(k, str) or k not in defaults]
    if unknown:
        option = repr(min(unknown, key=repr))
        if defaults:
            raise refused("options.unknown", game=game.name, option=option, names=list(defaults))
        raise refused("options.none", game=game.name, option=option)
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
        raise refused("game.wrong", game=game.name)
    if state["over"]:
        raise refused("game.over")
    if not isinstance(player, str) or player not in state["players"]:
        raise refused("game.not_seated")
    kind = action.get("type") if isinstance(action, Mapping) else None
    if not (isinstance(kind, str) and kind in OUT_OF_TURN) and player != state["current"]:
        raise refused("turn.not_yours")
    if not isinstance(action, Mapping):
        raise refused("action.not_object")
    if not isinstance(kind, str) or kind not in game._fields:
        names = list(game._fields)
        if isinstance(kind, str) and len(kind) <= _QUOTED:
            raise refused("action.unknown", game=game.name, action=repr(kind), names=names)
        raise refused("action.unknown_shape", game=game.name, names=names)
    extra = [k for k in action if k not in game._fields[kind]]
    if extra:
        raise refused("action.extra_field", action=kind, field=repr(min(extra, key=repr)))
    return kind


def check_resign(state: dict, player: str) -> None:
    if player in state["resigned"]:
        raise refused("resign.again")


def check_skip(state: dict, player: str) -> None:
    if player in state["resigned"]:
        raise refused("skip.resigned")
    if player == state["current"]:
        raise refused("skip.own")


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


def outcome(won: Sequence[str], laps: int | None = None, *, solo: int | None = None) -> dict:
    """The message that ends a game's last event; ``laps``: the win took that many (Farkle). ``solo``:
    the total of a game played alone, which ends with that total: with nobody to beat, no win to tell,
    although the player counts as its winner in statistics and high scores."""
    if solo is not None and won:
        if laps is None:
            return msg("over.solo", player=won[0], points=solo)
        return msg("over.solo_laps", player=won[0], points=solo, laps=laps)
    if not won:
        return msg("over.nobody")
    if len(won) == 1:
        return (
            msg("over.winner", winner=won[0])
            if laps is None
            else msg("over.winner_laps", winner=won[0], laps=laps)
        )
    if laps is None:
        return msg("over.shared", winners=list(won))
    return msg("over.shared_laps", winners=list(won), laps=laps)
