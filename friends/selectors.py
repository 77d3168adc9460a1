"""What the players one follows are doing now, and finding a player by name.

"Online" is the site's one definition of being on a page (notices.services.on_pages: the notices
socket of any page pinged within PRESENCE_TIMEOUT). "Playing" is a game in play at whose table the
player is now (games.live.seen.at_table: a socket of theirs on the game pinged within the same
timeout), and only a game the viewer may see counts (games.access.watchable): someone at a private
group's table is, to an outsider, just online.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Q
from django.db.models.functions import Length
from django.utils import timezone

from friends.models import Follow
from games.access import watchable
from games.live import seen
from games.models import Game, Seat
from notices.services import on_pages
from pairing.models import Block

SEARCH_LIMIT = 20


@dataclass
class Followed:
    """A player the viewer follows, and what they are doing now."""

    player: object  # the user
    online: bool
    game: Game | None  # a game in play, at whose table they are, that the viewer may see


def is_following(user, other) -> bool:
    return Follow.objects.filter(follower=user, followed=other).exists()


def following_among(user, players) -> set[int]:
    """The pks of those of ``players`` whom ``user`` follows."""
    ids = [p.pk for p in players]
    rows = Follow.objects.filter(follower=user, followed_id__in=ids)
    return set(rows.values_list("followed_id", flat=True))


def followed_players(viewer):
    """The active people ``viewer`` follows, a block between them either way left out, by name."""
    blocked = Block.objects.filter(
        Q(blocker=viewer, blocked=OuterRef("pk")) | Q(blocker=OuterRef("pk"), blocked=viewer)
    )
    follows = Follow.objects.filter(follower=viewer, followed=OuterRef("pk"))
    return (
        get_user_model()
        .objects.filter(Exists(follows), is_active=True)
        .exclude(Exists(blocked))
        .order_by("username")
    )


def following_now(viewer, *, now=None, only_active: bool = False) -> list[Followed]:
    """The players ``viewer`` follows (``only_active``: those online or playing), playing first, then
    online, then the others, each by name. One query when they follow nobody, three otherwise."""
    now = now or timezone.now()
    players = list(followed_players(viewer))
    if not players:
        return []
    ids = [p.pk for p in players]
    online = on_pages(ids, now)
    seats = (
        Seat.objects.filter(user_id__in=ids, game__status=Game.Status.PLAYING)
        .filter(watchable(viewer, via="game"))
        .filter(seen.at_table(game=OuterRef("game_id"), user=OuterRef("user_id"), since=seen.cutoff(now)))
        .select_related("game")
        .order_by("-game__started_at", "-game_id")
    )
    playing: dict[int, Game] = {}
    for seat in seats:
        playing.setdefault(seat.user_id, seat.game)  # the latest started, when at two tables
    entries = [Followed(p, p.pk in online or p.pk in playing, playing.get(p.pk)) for p in players]
    if only_active:
        entries = [e for e in entries if e.online]
    entries.sort(key=lambda e: (e.game is None, not e.online))  # stable: by name within each
    return entries


def search_players(query: str, *, limit: int = SEARCH_LIMIT):
    """Active players (people and computers) whose username starts with ``query``, case ignored, the
    shortest names first (an exact match leads), at most ``limit``; none for an empty query."""
    query = query.strip()
    if not query:
        return []
    return list(
        get_user_model()
        .objects.filter(is_active=True, username__istartswith=query)
        .order_by(Length("username"), "username")[:limit]
    )
