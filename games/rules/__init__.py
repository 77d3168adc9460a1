"""The rules of the four games as pure engines behind one contract (the contract is docs/engine.md).

No Django, no clock, no global random state: an engine turns (state, player, action, dice)
into a new state, so every game can be replayed from its action log.
"""

from __future__ import annotations

from types import MappingProxyType, ModuleType

from . import farkle, painted_dicez, triple_quintzee, triple_yahtzee_99
from .errors import IllegalAction

ENGINES: MappingProxyType[str, ModuleType] = MappingProxyType(
    {engine.slug: engine for engine in (triple_quintzee, triple_yahtzee_99, painted_dicez, farkle)}
)


def get(slug: str) -> ModuleType:
    """The engine for ``slug``; KeyError for an unknown one."""
    return ENGINES[slug]


__all__ = ["ENGINES", "IllegalAction", "get"]
