"""Selectors for a player's finished games and for replays."""

from __future__ import annotations

from django.db.models import QuerySet

from games import catalogue
from games.access import watchable
from games.models import Game
from games.results.highscores import period_start
from games.results.places import places


def finished_games(
    player, viewer, *, kind: str | None = None, group_id: int | None = None, period: str = "all"
):
    qs: QuerySet = Game.objects.filter(seats__user=player, status__in=Game.OVER)
    # The player's own list too: a game of a group they were removed from is no longer theirs to open.
    qs = qs.filter(watchable(viewer))
    if kind:
        qs = qs.filter(kind=kind)
    if group_id:
        qs = qs.filter(group_id=group_id)
    start = period_start(period)
    if start is not None:
        qs = qs.filter(finished_at__gte=start)
    return (
        qs.distinct().select_related("group").prefetch_related("seats__user").order_by("-finished_at", "-pk")
    )


RECENT = 10


def recent_games(player, viewer, limit: int = RECENT) -> list[Game]:
    """The player's latest finished games that ``viewer`` may see (games.access), newest first, each
    with its seats in order and ``place``: the player's place in it (games.results.places), 1 for a win
    shared or not. Two queries, whatever the number of games."""
    games = list(
        Game.objects.filter(seats__user=player, status=Game.Status.FINISHED)
        .filter(watchable(viewer))
        .select_related("group")
        .prefetch_related("seats__user")
        .order_by("-finished_at", "-pk")[:limit]
    )
    for game in games:
        seats = list(game.seats.all())
        order = places(catalogue.resolve(game.kind).ranking, [_figures(s) for s in seats])
        game.place = next(p for s, p in zip(seats, order, strict=True) if s.user_id == player.pk)
        game.players = len(seats)
    return games


def _figures(seat) -> dict:
    return {
        "resigned": seat.resigned,
        "winner": seat.winner,
        "final_score": seat.final_score,
        "laps": seat.laps,
    }
