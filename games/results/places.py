"""A finished game's finishing order: each seat's place, from the engine's winners and its ranking.

Everything that needs places (ratings, the ratings' benchmark) reads them here, so that there is one
way to say who came where. Seats tie when the game cannot tell them apart; a seat that resigned comes
last (tied with any other that resigned), whatever its score.

The figures a place is read from are the ones a game's end stores on its seats (``seat_results``, from
the engine's final state: games.live.moves writes them), so a game's places can be had from the stored
seats (``places``) or from the engine's state alone (``final_places``), with no database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.rules.declare import Ranking


def seat_results(engine: Any, state: Mapping) -> list[dict]:
    """Each seat's result as a game's end stores it on the seat (``final_score``, ``winner``,
    ``resigned``, ``laps``), in the order of the state's players: the engine's score and winners, the
    resignations, and the laps for a game ranked by them (else None)."""
    winners = set(engine.winners(state))
    scores = engine.scores(state)
    resigned = set(state.get("resigned", []))
    laps = state.get("laps") if engine.ranking.uses_laps else None
    return [
        {
            "final_score": scores.get(player, 0),
            "winner": player in winners,
            "resigned": player in resigned,
            "laps": laps,
        }
        for player in state["players"]
    ]


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


def final_places(engine: Any, state: Mapping) -> list[int]:
    """Each seat's place in a finished game, in the order of the state's players, from the engine's
    final state alone: what ``places`` makes of the seats the game's end stores."""
    return places(engine.ranking, seat_results(engine, state))
