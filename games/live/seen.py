"""Pings: a socket says every 25 s that its player is still there (a game's socket: its connection and
the player's seat; the notices socket of any page: notices.Preferences.seen_at). With thousands of
sockets open that is hundreds of pings a second, and one transaction each was most of what a quiet
socket cost the server (docs/BENCHMARKS.md). So the pings a process hears are written
together, at most FLUSH_EVERY seconds later, in one transaction. Presence is judged over
PRESENCE_TIMEOUT (75 s): a second's delay changes nothing, and a ping lost with a crashed process is
made good by the next one.

Who is at a game's table (a socket of theirs on the game that pinged within PRESENCE_TIMEOUT) is defined
here once, with its cut-off, as the ORM's queries read it (``connections``, ``at_table``) and as the
move's hand-written statements read it (``at_table_sql``, compiled from the same queryset), so that a
page, the computers' pause and the move never disagree on who is there."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.models import Connection, Seat
from infra.hooks import Hook
from infra.orm_sql import column, exists_sql
from infra.perloop import per_loop

logger = logging.getLogger(__name__)

FLUSH_EVERY = 1.0  # seconds

# Who records that a player is on the site (their notices socket pinged): the notices app, which keeps
# it (notices.Preferences.seen_at).
records_site_pings = Hook(
    "games.live.seen.records_site_pings",
    "Record that these players are on the site (their notices sockets pinged).",
    receives="the players' pks (a set) and the time of the pings",
    returns="None",
    runs="inside the transaction that writes a second's pings (a database thread), not a move's",
)


class _Batch:
    def __init__(self) -> None:
        self.channels: set[str] = set()
        self.users: set[int] = set()
        self.scheduled = False


_batch = per_loop(_Batch)


def game_socket(channel_name: str) -> None:
    """A game's socket pinged (its player, seated or watching, is at the table)."""
    batch = _batch()
    batch.channels.add(channel_name)
    _schedule(batch)


def notices_socket(user_id: int) -> None:
    """A player's notices socket pinged (they are on the site)."""
    batch = _batch()
    batch.users.add(user_id)
    _schedule(batch)


def _schedule(batch: _Batch) -> None:
    if not batch.scheduled:
        batch.scheduled = True
        loop = asyncio.get_running_loop()
        loop.call_later(FLUSH_EVERY, lambda: loop.create_task(_flush(batch)))


async def _flush(batch: _Batch) -> None:
    channels, users = batch.channels, batch.users
    batch.channels, batch.users, batch.scheduled = set(), set(), False
    try:
        await database_sync_to_async(write)(channels, users)
    except Exception:
        logger.warning("pings of %s sockets could not be recorded", len(channels) + len(users), exc_info=True)


def write(channels, users, now=None) -> None:
    """Record the pings of these game sockets (by channel name) and notices sockets (by user id)."""
    now = now or timezone.now()
    with transaction.atomic():
        if channels:
            Connection.objects.filter(channel_name__in=channels).update(seen_at=now)
            watching = Connection.objects.filter(
                channel_name__in=channels, game_id=OuterRef("game_id"), user_id=OuterRef("user_id")
            )
            Seat.objects.filter(Exists(watching)).update(last_seen=now)
        if users:
            records_site_pings.each(users, now)


# --- who is at the table -----------------------------------------------------------------------

# A stand-in for the cut-off while the statement's SQL is compiled: the statement passes its own.
_ANY_TIME = datetime(2000, 1, 1, tzinfo=UTC)


def cutoff(now: datetime | None = None) -> datetime:
    """The time since which a ping counts: ``now`` (the current time) less PRESENCE_TIMEOUT."""
    return (now or timezone.now()) - timedelta(seconds=settings.PRESENCE_TIMEOUT)


def connections(*, game, since: datetime, user=None):
    """The sockets that count as at the table of ``game`` (a pk or an expression), of ``user`` if
    given (a user, a pk or an expression), for a cut-off ``since`` (``cutoff()``)."""
    rows = Connection.objects.filter(game_id=game, seen_at__gte=since)
    return rows if user is None else rows.filter(user_id=getattr(user, "pk", user))


def at_table(*, game, user, since: datetime) -> Exists:
    """Whether ``user`` is at the table of ``game``: a condition for a query (OuterRef for its rows)."""
    return Exists(connections(game=game, user=user, since=since))


def at_table_sql(*, game: str, user: str) -> str:
    """``at_table`` as SQL for a hand-written statement whose rows hold the game and the user in the
    columns ``game`` and ``user`` (``p.game_id``); its one %s is the cut-off."""
    return exists_sql(connections(game=column(game), user=column(user), since=_ANY_TIME), params=1)
