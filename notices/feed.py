"""What the header's notification list shows a player: the games waiting for their move, and the
notices they have not seen; and the channel-layer group through which their pages hear of changes."""

from __future__ import annotations

import hashlib

from django.utils import timezone

from games.tables import lobby
from notices.models import Notice

LIMIT = 10


def user_group(username: str) -> str:
    """The group of one player's notices sockets. Named from the username (every move names its
    players by it) through a digest, since group names take fewer characters than usernames."""
    return "user." + hashlib.sha256(username.encode()).hexdigest()[:24]


def feed(user) -> dict:
    now = timezone.now()
    turns = [
        {
            "game": g.pk,
            "title": f"{g.kind_name} #{g.pk}",
            "url": g.get_absolute_url(),
            "waiting": int((now - (g.turn_started_at or now)).total_seconds()),
            "players": [s.user.username for s in g.seats.all()],
        }
        for g in lobby.games_waiting_for(user)[:LIMIT]
    ]
    unseen = list(Notice.objects.filter(user=user, seen=False)[:LIMIT])
    return {
        "type": "notices",
        "count": len(turns) + len(unseen),
        "turns": turns,
        "notices": [
            {"id": n.pk, "text": n.text, "url": n.url, "at": n.created_at.isoformat()} for n in unseen
        ],
    }


def mark_seen(user, ids: list[int]) -> None:
    Notice.objects.filter(user=user, pk__in=ids).update(seen=True)


def tell(user, text: str, url: str) -> Notice:
    return Notice.objects.create(user=user, text=text, url=url)
