"""Who sits with whom: the tables one queue's waiting players make now. Pure: no database, no clock.

The longest waiting player is seated first, with the players closest to their rating; two players may
sit together while their ratings differ by at most the wider of their two windows, and a window widens
with waiting (``window``): a newcomer's request meets close ratings first, and nobody waits long for a
game because nobody near them is online. A player whose chosen wait for computers has passed gets the
people found who also accepted computers by then, and computers in the seats left (docs/pairing.md).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

# Rating points (the shown scale) two players may differ by at first; the window doubles every
# WIDEN_EVERY seconds of waiting and is open to anyone after OPEN_AFTER. Steps, not a slope, so that
# a queue needs looking at only when a step is reached (pairing.services schedules those moments).
WINDOW_START = 100
WIDEN_EVERY = 10
OPEN_AFTER = 40


@dataclass(frozen=True)
class Waiting:
    id: int
    user_id: int
    rating: int
    waited: float  # seconds
    computers_after: int | None  # seconds; None: people only


@dataclass(frozen=True)
class Table:
    players: tuple[Waiting, ...]
    computers: int


def window(waited: float) -> float:
    """How far (in rating points) a player who has waited ``waited`` seconds may be seated from."""
    if waited >= OPEN_AFTER:
        return math.inf
    return WINDOW_START * 2 ** int(max(waited, 0) // WIDEN_EVERY)


def widenings() -> list[int]:
    """The seconds of waiting at which a player's window changes."""
    return list(range(WIDEN_EVERY, OPEN_AFTER + 1, WIDEN_EVERY))


def blocked_pairs(pairs: Iterable[tuple[int, int]]) -> set[frozenset[int]]:
    """The pairs of user ids never seated together, whoever blocked whom."""
    return {frozenset(pair) for pair in pairs}


def compatible(a: Waiting, b: Waiting, blocked: set[frozenset[int]]) -> bool:
    if a.user_id == b.user_id or frozenset((a.user_id, b.user_id)) in blocked:
        return False
    return abs(a.rating - b.rating) <= max(window(a.waited), window(b.waited))


def wants_computers(w: Waiting) -> bool:
    return w.computers_after is not None and w.waited >= w.computers_after


def _gather(anchor: Waiting, free: Sequence[Waiting], wanted: int, blocked) -> list[Waiting]:
    """Up to ``wanted`` players for ``anchor``'s table, the closest ratings first, each compatible with
    everyone already at it."""
    chosen: list[Waiting] = []
    for other in sorted(free, key=lambda w: (abs(w.rating - anchor.rating), -w.waited, w.id)):
        if len(chosen) == wanted:
            break
        if all(compatible(other, sitting, blocked) for sitting in (anchor, *chosen)):
            chosen.append(other)
    return chosen


def tables(waiting: Sequence[Waiting], seats: int, blocked: set[frozenset[int]]) -> list[Table]:
    """The tables of ``seats`` that the waiting players of one queue make now; each player at most once."""
    pool = sorted(waiting, key=lambda w: (-w.waited, w.id))
    used: set[int] = set()
    made: list[Table] = []
    for anchor in pool:
        if anchor.id in used:
            continue
        free = [w for w in pool if w.id not in used and w.id != anchor.id]
        chosen = _gather(anchor, free, seats - 1, blocked)
        if len(chosen) < seats - 1:
            if not wants_computers(anchor):
                continue
            chosen = _gather(anchor, [w for w in free if wants_computers(w)], seats - 1, blocked)
        table = Table((anchor, *chosen), seats - 1 - len(chosen))
        made.append(table)
        used.update(w.id for w in table.players)
    return made
