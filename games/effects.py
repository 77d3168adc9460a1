"""What follows from a move or a table's change, as typed effects, and the apps' handlers of them.

The game core says what happened (the turn passed, a computer is to move, the game ended ...); the
apps that care register handlers for it in their ``AppConfig.ready`` and do their part: notices
promise a turn's e-mail, computers enqueue their next action, the coach reviews a finished game. The
core imports none of them.

Each effect has two hooks (infra.hooks), one for each kind of handler:

- ``on(Effect).register(handler)``: runs inside the transaction that made the change, through the ORM
  (and django-tasks' own ``enqueue``, whose database backend writes its row in that transaction), so
  that what follows is stored with the move or not at all. It may refuse the change by raising a
  ``GameError`` (the transaction rolls back). What must wait for the commit waits with
  ``transaction.on_commit``.
- ``announce(Effect).register(handler)``: no database; returns channel-layer messages
  ``(group, message)`` that are sent with the move's own event once it has committed (a notices
  socket's row of the game).

A move on the event loop (games.live.move_async) cannot run an ORM handler in its transaction: a move
whose effects have ``on`` handlers is made in a database thread instead (``needs_transaction``). The
effects that follow common moves (a roll, a score that passes the turn to a player at the table) have
none, so most moves stay on the event loop.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from infra.hooks import Hook

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


# --- the hooks ----------------------------------------------------------------------------------------

KINDS = (
    TurnPassed,
    AbsentPlayerToMove,
    ComputerToMove,
    GameEnded,
    GameStarted,
    LeftTable,
    SkipAsked,
    InvitedToTable,
)


def _summary(kind: type) -> str:
    return " ".join((kind.__doc__ or "").split("\n\n")[0].split())


_on: dict[type, Hook] = {
    kind: Hook(
        f"games.effects.on({kind.__name__})",
        _summary(kind),
        receives=f"the `{kind.__name__}`",
        returns="None; a `GameError` raised refuses the change",
        runs="inside the change's transaction, through the ORM (a move with one is made in a database "
        "thread: `needs_transaction`)",
    )
    for kind in KINDS
}
_announce: dict[type, Hook] = {
    kind: Hook(
        f"games.effects.announce({kind.__name__})",
        _summary(kind),
        receives=f"the `{kind.__name__}`",
        returns="the messages to send, `[(group, message)]`",
        runs="without the database, as the move is decided; sent with its event once it has committed",
    )
    for kind in KINDS
}


def on(kind: type) -> Hook:
    """The hook of ``kind``'s handlers inside the change's transaction: ``on(GameEnded).register(f)``."""
    return _on[kind]


def announce(kind: type) -> Hook:
    """The hook of what is sent when ``kind`` has committed: ``announce(TurnPassed).register(f)``."""
    return _announce[kind]


def needs_transaction(effects: Iterable) -> bool:
    """Whether any of ``effects`` has a handler that runs in the transaction."""
    return any(handled(type(effect)) for effect in effects)


def handled(kind: type) -> bool:
    """Whether effects of ``kind`` have a handler that runs in the transaction."""
    return bool(_on[kind].handlers)


def handle(effects: Iterable) -> None:
    """Run every handler of ``effects`` in order; the caller holds the transaction."""
    for effect in effects:
        _on[type(effect)].each(effect)


def messages(effects: Iterable) -> list[tuple[str, dict]]:
    """The channel-layer messages the announcers of ``effects`` ask for."""
    return [message for effect in effects for a in _announce[type(effect)].handlers for message in a(effect)]
