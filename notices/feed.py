"""What the header's notification list shows a player: the games waiting for their move, and the
notices they have not seen; and the channel-layer group through which their pages hear of changes."""

from __future__ import annotations

import hashlib

from django.utils import timezone

from games.tables import lobby
from notices.models import Notice, preferences_of

LIMIT = 10


def user_group(username: str) -> str:
    """The group of one player's notices sockets. Named from the username (every move names its
    players by it) through a digest, since group names take fewer characters than usernames."""
    return "user." + hashlib.sha256(username.encode()).hexdigest()[:24]


def _entry(game, now) -> dict:
    return {
        "game": game.pk,
        "title": f"{game.kind_name} #{game.pk}",
        "url": game.get_absolute_url(),
        "current": game.current_player or "",
        "waiting": int((now - (game.turn_started_at or now)).total_seconds()),
        "players": [s.user.username for s in game.seats.all()],
        "scores": game.scores,
    }


def feed(user) -> dict:
    now = timezone.now()
    mine = lobby.my_games(user, finished=False)
    unseen = list(Notice.objects.filter(user=user, seen=False)[:LIMIT])
    prefs = preferences_of(user)
    turns = [_entry(g, now) for g in mine["your_turn"][:LIMIT]]
    return {
        "type": "notices",
        "sound": prefs.sound,
        "browser": prefs.browser,
        "count": len(turns) + len(unseen),
        "turns": turns,
        "playing": [_entry(g, now) for g in mine["playing"][:LIMIT]],
        "notices": [
            {"id": n.pk, "text": n.text, "url": n.url, "at": n.created_at.isoformat()} for n in unseen
        ],
    }


def mark_seen(user, ids: list[int]) -> None:
    Notice.objects.filter(user=user, pk__in=ids).update(seen=True)


def tell(user, text: str, url: str) -> Notice:
    return Notice.objects.create(user=user, text=text, url=url)
