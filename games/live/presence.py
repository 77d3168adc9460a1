"""Presence: which sockets watch which game, kept in the database so that every server process sees it."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import effects
from games.access import can_watch
from games.errors import NotFound
from games.live.selectors import connected_usernames, game_snapshot
from games.models import Connection, Game, Seat


def connection_open(*, game_id: int, user, channel_name: str) -> dict:
    """Record an open socket and return the snapshot it starts from."""
    now = timezone.now()
    with transaction.atomic():
        try:
            game = Game.objects.select_related("creator", "group").get(pk=game_id)
        except Game.DoesNotExist:
            raise NotFound(_("There is no such game.")) from None
        if not can_watch(game, user):
            # As for a missing game: nobody learns that a private game exists (games.access).
            raise NotFound(_("There is no such game."))
        Connection.objects.update_or_create(
            channel_name=channel_name, defaults={"game": game, "user": user, "seen_at": now}
        )
        Seat.objects.filter(game=game, user=user).update(last_seen=now)
        snapshot = game_snapshot(game, user)
    return snapshot


def connection_close(*, channel_name: str, user) -> list[str]:
    """Forget a socket; return who is still connected to its game."""
    now = timezone.now()
    with transaction.atomic():
        conn = Connection.objects.filter(channel_name=channel_name).first()
        if conn is None:
            return []
        conn.delete()
        Seat.objects.filter(game_id=conn.game_id, user=user).update(last_seen=now)
        connected = connected_usernames(conn.game_id)
        if user.username not in connected:
            effects.handle([effects.LeftTable(conn.game_id, user)])
        return connected
