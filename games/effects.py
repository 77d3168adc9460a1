"""What follows from a move or a table's change, as typed effects, and the apps' handlers of them.

The game core says what happened (the turn passed, a computer is to move, the game ended ...); the
apps that care register handlers for it in their ``AppConfig.ready`` and do their part: notices
promise a turn's e-mail, computers enqueue their next action, the coach reviews a finished game. The
core imports none of them.

Two kinds of handler:

- ``on(Effect)``: runs inside the transaction that made the change, through the ORM (and django-tasks'
  own ``enqueue``, whose database backend writes its row in that transaction), so that what follows
  is stored with the move or not at all. It may refuse the change by raising a ``GameError`` (the
  transaction rolls back). What must wait for the commit waits with ``transaction.on_commit``.
- ``announce(Effect)``: no database; returns channel-layer messages ``(group, message)`` that are sent
  with the move's own event once it has committed (a notices socket's row of the game).

A move on the event loop (games.live.move_async) cannot run an ORM handler in its transaction: a move
whose effects have ``on`` handlers is made in a database thread instead (``needs_transaction``). The
effects that follow common moves (a roll, a score that passes the turn to a player at the table) have
none, so most moves stay on the event loop.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

# --- the effects --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TurnPassed:
    """The turn passed to another player (``game`` as the move leaves it)."""

    game: Any


@dataclass(frozen=True, slots=True)
class AbsentPlayerToMove:
    """The turn passed to a person who has no socket open on the game (at seat ``position``)."""

    game: Any
    position: int


@dataclass(frozen=True, slots=True)
class ComputerToMove:
    """A computer player is to make the game's next action, after ``game.seq``."""

    game: Any


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game is over (finished, or abandoned by everyone's resignation)."""

    game: Any


@dataclass(frozen=True, slots=True)
class GameStarted:
    """The game started (its first turn may be a computer's or an absent player's too): ``by`` the
    player who started it, None when the site did (a table pairing or a tournament filled)."""

    game: Any
    by: Any = None


@dataclass(frozen=True, slots=True)
class LeftTable:
    """A player closed the last socket they had on a game."""

    game_id: int
    user: Any


@dataclass(frozen=True, slots=True)
class SkipAsked:
    """``user`` asks to skip the turn of ``player`` (``player_id``), who is away: the core has checked the
    absence limit; a handler may refuse (e.g. the player was not told of the turn yet)."""

    game: Any
    user: Any
    player: str
    player_id: int


@dataclass(frozen=True, slots=True)
class InvitedToTable:
    """``user`` is invited to take a seat at the open table ``game`` by ``by`` (a "Play again": the
    players of the game before are asked, not seated)."""

    game: Any
    user: Any
    by: Any


# --- the registry -------------------------------------------------------------------------------------

_handlers: dict[type, list[Callable[[Any], None]]] = defaultdict(list)
_announcers: dict[type, list[Callable[[Any], list[tuple[str, dict]]]]] = defaultdict(list)


def on(kind: type) -> Callable:
    """Register the decorated function as a handler of ``kind`` inside the change's transaction."""

    def register(handler: Callable[[Any], None]) -> Callable[[Any], None]:
        if handler not in _handlers[kind]:
            _handlers[kind].append(handler)
        return handler

    return register


def announce(kind: type) -> Callable:
    """Register the decorated function as giving the messages to send when ``kind`` has committed."""

    def register(announcer: Callable[[Any], list[tuple[str, dict]]]) -> Callable:
        if announcer not in _announcers[kind]:
            _announcers[kind].append(announcer)
        return announcer

    return register


def needs_transaction(effects: Iterable) -> bool:
    """Whether any of ``effects`` has a handler that runs in the transaction."""
    return any(handled(type(effect)) for effect in effects)


def handled(kind: type) -> bool:
    """Whether effects of ``kind`` have a handler that runs in the transaction."""
    return bool(_handlers.get(kind))


def handle(effects: Iterable) -> None:
    """Run every handler of ``effects`` in order; the caller holds the transaction."""
    for effect in effects:
        for handler in _handlers.get(type(effect), ()):
            handler(effect)


def messages(effects: Iterable) -> list[tuple[str, dict]]:
    """The channel-layer messages the announcers of ``effects`` ask for."""
    return [message for effect in effects for a in _announcers.get(type(effect), ()) for message in a(effect)]
