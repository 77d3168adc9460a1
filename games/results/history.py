"""Selectors for a player's finished games and for replays."""

from __future__ import annotations

from django.db.models import QuerySet

from games.access import watchable
from games.models import Game
from games.results.highscores import period_start


def finished_games(
    player, viewer, *, kind: str | None = None, group_id: int | None = None, period: str = "all"
):
    qs: QuerySet = Game.objects.filter(
        seats__user=player, status__in=[Game.Status.FINISHED, Game.Status.ABANDONED]
    )
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
