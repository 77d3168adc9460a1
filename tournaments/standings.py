"""A tournament's standings from its games' places and its byes (pure Python, no Django).

Match points: at a table, 1 for each opponent a player finished ahead of and 0.5 for each they tied
with (games.results.places says who came where), scaled to the tournament's table size, so that a win
is worth ``size - 1`` points at every table (a smaller table's points count as much as a full one's).
A bye is worth a win. Ties in points are broken by the Buchholz score (the sum of the points of every
opponent met, once per game played against them), then by the total score of the player's games; what
is still equal shares a place.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

Player = Hashable


@dataclass(frozen=True)
class Result:
    """One finished game of the tournament: its players with their places (1 first, equal for a tie)
    and their final scores, in seat order."""

    players: Sequence[Player]
    places: Sequence[int]
    scores: Sequence[int]


@dataclass
class Line:
    player: Player
    points: float = 0.0
    buchholz: float = 0.0
    score: int = 0
    games: int = 0
    wins: int = 0
    byes: int = 0
    place: int = 0
    opponents: list[Player] = field(default_factory=list)


def game_points(places: Sequence[int], size: int) -> list[float]:
    """Each seat's match points for a table with these places, scaled to tables of ``size``."""
    n = len(places)
    if n < 2:
        return [0.0] * n
    scale = (size - 1) / (n - 1)
    out = []
    for mine in places:
        ahead = sum(1 for other in places if other > mine)
        tied = sum(1 for other in places if other == mine) - 1
        out.append((ahead + 0.5 * tied) * scale)
    return out


def standings(
    players: Iterable[Player], results: Iterable[Result], byes: Iterable[Player], size: int
) -> list[Line]:
    """Every player's line, best first, each with its place (shared when all three figures tie)."""
    lines = {p: Line(p) for p in players}
    for result in results:
        points = game_points(result.places, size)
        for seat, player in enumerate(result.players):
            line = lines.setdefault(player, Line(player))
            line.points += points[seat]
            line.score += result.scores[seat] or 0
            line.games += 1
            line.wins += result.places[seat] == 1
            line.opponents += [p for p in result.players if p != player]
    for player in byes:
        line = lines.setdefault(player, Line(player))
        line.points += size - 1
        line.byes += 1
    for line in lines.values():
        line.buchholz = sum(lines[o].points for o in line.opponents if o in lines)
    order = sorted(lines.values(), key=_rank)
    for i, line in enumerate(order):
        line.place = order[i - 1].place if i and _rank(order[i - 1])[:3] == _rank(line)[:3] else i + 1
    return order


def _rank(line: Line) -> tuple:
    return (-line.points, -line.buchholz, -line.score, str(line.player))


def met_pairs(tables: Iterable[Sequence[Player]]) -> set[frozenset]:
    """Every pair of players who have sat at one of these tables."""
    met = set()
    for table in tables:
        ps = list(table)
        for i, a in enumerate(ps):
            for b in ps[i + 1 :]:
                met.add(frozenset((a, b)))
    return met


def points_of(lines: Iterable[Line]) -> dict[Player, float]:
    return {line.player: line.points for line in lines}


def byes_of(byes: Iterable[Player]) -> dict[Player, int]:
    counts: dict[Player, int] = defaultdict(int)
    for p in byes:
        counts[p] += 1
    return dict(counts)
