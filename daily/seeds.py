"""What makes a game a daily challenge's, read from the game row alone (no query: the core asks while it
decides a move, on the event loop too): its dice are dealt from its day's server seed and the client
seed ``daily-<date>-<kind>``, the same for everyone (docs/daily.md)."""

from __future__ import annotations

import re
from datetime import date

from django.utils.translation import gettext_lazy as _

from games.models import Game

PREFIX = "daily"
_SEED = re.compile(rf"{PREFIX}-(\d{{4}}-\d{{2}}-\d{{2}})-([a-z0-9-]+)")

NO_HINTS = _(
    "No hints in the daily challenge: it is your own play that counts. The coach reviews it afterwards."
)


def client_seed(day: date, kind: str) -> str:
    """The client seed of every game of ``kind`` on ``day``: "daily-2026-12-06-triple-quintzee"."""
    return f"{PREFIX}-{day.isoformat()}-{kind}"


def is_daily(game: Game) -> bool:
    """Whether ``game`` is a daily challenge's while its day is open: a solo game created private without
    a group (daily.services.attempt_start; made public when its day closes), not a "Play again" of one,
    dealt with its kind's daily client seed."""
    if not (game.private and game.group_id is None and game.rematch_of_id is None and game.max_seats == 1):
        return False
    seeds = game.client_seeds or []
    match = _SEED.fullmatch(seeds[0]) if len(seeds) == 1 and isinstance(seeds[0], str) else None
    return match is not None and match[2] == game.kind


def holds_seed(game: Game) -> bool:
    """games.models.hold_seed_back: a daily game's server seed is its day's, revealed with the day."""
    return is_daily(game)


def no_hints(game: Game):
    """coach.hints.refuse_hints: why a daily game gives no hint, or None for any other game."""
    return NO_HINTS if is_daily(game) else None
