"""A finished game's finishing order: each seat's place, from the engine's winners and its ranking.

Everything that needs places (ratings) reads them here, so that there is one way to say who came
where. Seats tie when the game cannot tell them apart; a seat that resigned comes last (tied with any
other that resigned), whatever its score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.rules.declare import Ranking


def place_key(ranking: Ranking, seat: Mapping) -> tuple:
    """What orders one seat (``resigned``, ``winner``, ``final_score``, ``laps``): playing to the end
    before resigning, the engine's winners before the others, then the game's own ranking of results
    (Farkle's laps, then score; the card games' totals). Lower comes first."""
    figures = {"final_score": seat["final_score"] or 0, "laps": seat["laps"] or 0}
    return (bool(seat["resigned"]), not seat["winner"], *ranking.key(figures))


def places(ranking: Ranking, seats: Sequence[Mapping]) -> list[int]:
    """Each seat's place, in the order given: 1 for the first, equal places for seats that tie, and
    the next place after a tie skips the tied ones (1, 1, 3)."""
    keys = [place_key(ranking, seat) for seat in seats]
    return [1 + sum(1 for other in keys if other < key) for key in keys]
