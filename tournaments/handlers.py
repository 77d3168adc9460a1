"""What tournaments do when a game ends (games.effects); registered by tournaments.apps."""

from __future__ import annotations

from games import effects
from tournaments import services


def game_ended(effect: effects.GameEnded) -> None:
    """A tournament game's end may end its round: the next one is enqueued in the same transaction."""
    services.game_ended(effect.game)
