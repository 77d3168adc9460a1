"""What ratings do when a game ends (games.effects); registered by ratings.apps."""

from __future__ import annotations

from games import effects
from ratings import services


def game_ended(effect: effects.GameEnded) -> None:
    """A rated game's players' ratings change in the transaction that ends it: stored with the end or
    not at all."""
    services.game_rate(effect.game)
