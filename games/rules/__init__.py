"""The rules of the five games as pure engines behind one contract (the contract is docs/engine.md).

No Django, no clock, no global random state: an engine turns (state, player, action, dice)
into a new state, so every game can be replayed from its action log.
"""

from __future__ import annotations

from types import MappingProxyType, ModuleType

from . import farkle, painted_dicez, quintzee, triple_quintzee, triple_yahtzee_99
from .errors import IllegalAction

# The order of the lobby, the home page and every list of games: the card games, the single-column
# classic after the three variants, then Farkle.
_ENGINES = {
    engine.slug: engine for engine in (triple_quintzee, triple_yahtzee_99, painted_dicez, quintzee, farkle)
}
ENGINES: MappingProxyType[str, ModuleType] = MappingProxyType(_ENGINES)


def get(slug: str) -> ModuleType:
    """The engine for ``slug``; KeyError for an unknown one."""
    return ENGINES[slug]


def register(engine: ModuleType) -> None:
    """Offer one more game: the engine must declare everything docs/engine.md lists."""
    if engine.slug in _ENGINES:
        raise ValueError(f"an engine called {engine.slug!r} is already registered")
    _ENGINES[engine.slug] = engine


def unregister(slug: str) -> None:
    _ENGINES.pop(slug)


__all__ = ["ENGINES", "IllegalAction", "get", "register", "unregister"]
