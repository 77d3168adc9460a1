"""The rules pages' worked examples, one module per game, every number valued or played by the engine.

Each game module's ``build()`` returns plain data (dicts and lists) that its template just loops over;
the engines are pure, so each game's examples are built once per process.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from . import farkle, painted_dicez, triple_quintzee, triple_yahtzee_99

BUILDERS: dict[str, Callable[[], dict]] = {
    game.engine.slug: game.build for game in (triple_quintzee, triple_yahtzee_99, painted_dicez, farkle)
}


@lru_cache(maxsize=len(BUILDERS))
def examples(slug: str) -> dict:
    """Every worked example of a game's rules page (KeyError for an unknown slug).

    The result is shared between requests: treat it as read-only.
    """
    return BUILDERS[slug]()
