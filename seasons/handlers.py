"""What seasons do when a game ends (games.effects); registered by seasons.apps."""

from __future__ import annotations

from games import effects
from games.models import Game
from groups.models import Membership
from ratings import kinds
from seasons import live
from seasons.models import Season


def game_ended(effect: effects.GameEnded) -> None:
    """A group's game that a running season counts has ended: the members' pages that show the season's
    table read it again once the end has committed. One query for any other game of a group, none for
    a game outside groups."""
    game = effect.game
    if game.group_id is None or game.status != Game.Status.FINISHED or game.max_seats < 2:
        return
    counted = Season.objects.filter(
        group_id=game.group_id,
        kind=kinds.of(game),
        closed_at__isnull=True,
        starts_at__lte=game.finished_at,
        ends_at__gt=game.finished_at,
    )
    if counted.exists():
        members = Membership.objects.filter(group_id=game.group_id).values_list("user__username", flat=True)
        live.refresh_on_commit(game.group_id, members)
