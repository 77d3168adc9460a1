"""A season's league table from its games' seats: pure Python, no Django.

Points by finishing place: in each game a player gets one point for every other seat they finished
ahead of and half a point for every seat they tied with, so two-, three- and four-seat games all fit
(a 4-seat game gives 3, 2, 1 and 0). Places are the game's own (games.results.places: the engine's
winners, its ranking, a resignation last), computers' seats included: a computer is an opponent like
any other, but has no row of its own. The order: points, then wins, then average score; players equal
on all three share a rank.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from games.results.places import places
from games.rules.declare import Ranking


@dataclass
class Row:
    player: str
    games: int = 0
    wins: int = 0
    half_points: int = 0
    total: int = 0
    best: int | None = None
    rating_change: int | None = None
    rank: int = 0

    @property
    def points(self) -> float:
        return self.half_points / 2

    @property
    def average(self) -> float:
        return self.total / self.games if self.games else 0.0

    def order(self) -> tuple:
        """What ranks rows: more points, more wins, a higher average (the earlier tuple comes first)."""
        return (-self.half_points, -self.wins, -self.average)


def half_points(own: int, all_places: list[int]) -> int:
    """Half-points of the seat in place ``own`` among ``all_places`` (its own included once): two for
    each seat behind it, one for each other seat on the same place."""
    behind = sum(1 for p in all_places if p > own)
    level = sum(1 for p in all_places if p == own) - 1
    return 2 * behind + level


def table(
    ranking: Ranking, seats: Iterable[Mapping], rating_changes: Mapping[str, int] | None = None
) -> list[Row]:
    """The league table of these seats, ranked. Each seat: ``game`` (any key of its game), ``player``,
    ``computer`` (true for a computer's seat: no row), ``final_score``, ``winner``, ``resigned``,
    ``laps``. ``rating_changes``: each player's rating change over the games (players without one
    have None)."""
    games: dict = defaultdict(list)
    for seat in seats:
        games[seat["game"]].append(seat)
    rows: dict[str, Row] = {}
    for game_seats in games.values():
        game_places = places(ranking, game_seats)
        for seat, place in zip(game_seats, game_places, strict=True):
            if seat.get("computer"):
                continue
            row = rows.setdefault(seat["player"], Row(seat["player"]))
            score = seat["final_score"] or 0
            row.games += 1
            row.wins += bool(seat["winner"])
            row.half_points += half_points(place, game_places)
            row.total += score
            row.best = score if row.best is None else max(row.best, score)
    for player, change in (rating_changes or {}).items():
        if player in rows:
            rows[player].rating_change = change
    return ranked(rows.values())


def ranked(rows: Iterable[Row]) -> list[Row]:
    """The rows in the table's order (by name among equals), each with its rank: 1, 1, 3 for a tie."""
    ordered = sorted(rows, key=lambda r: (r.order(), r.player.casefold(), r.player))
    for i, row in enumerate(ordered):
        previous = ordered[i - 1] if i else None
        row.rank = previous.rank if previous is not None and previous.order() == row.order() else i + 1
    return ordered


def champions(rows: list[Row]) -> list[str]:
    """The players ranked first (more than one when they are equal on points, wins and average)."""
    return [row.player for row in rows if row.rank == 1]
