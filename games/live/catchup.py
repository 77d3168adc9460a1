"""Bringing a game socket up to date when a broadcast may have been lost to the channel layer.

A move is stored and acknowledged whether or not Redis takes its broadcast; a socket that missed it
learns of it only from a later event (a gap, then `sync`), and when no later event comes its page
stays behind: the next player never learns it is their turn. Two things catch such a
socket up with the database, without any help from its page:

- this process's subscriptions coming back after their Redis connection broke (``everyone``, a
  handler of infra.layer's ``on_resubscribed`` that games.apps registers): every broadcast lost while
  Redis was down, or published in the seconds after it returned while this process was not subscribed
  yet, was committed before that, so one read of the seqs of this process's games finds every socket
  that is behind;
- each ping of a socket (every 25 s from a page): the game's seq as stored, read at most once a
  second per game for all of this process's sockets of it. This covers whatever else loses a
  broadcast (a publish refused while the subscriptions stayed up).

A socket that is behind is sent what `sync` would answer: a snapshot with the events since the last
seq it was sent (``GameConsumer.catch_up``).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref

from games.live.game_threads import database_sync_to_async
from infra.perloop import per_loop

logger = logging.getLogger(__name__)

SEQ_FRESH = 1.0  # seconds a game's stored seq, once read, answers the pings of its other sockets
_KEEP = 4096  # reads kept at most per event loop; older ones are forgotten first


@per_loop
def _open() -> weakref.WeakSet:
    """This loop's game consumers that are accepted and not yet disconnected."""
    return weakref.WeakSet()


@per_loop
def _reads() -> dict[int, tuple[float, asyncio.Future]]:
    return {}


@per_loop
def _tasks() -> set[asyncio.Task]:
    return set()


def opened(consumer) -> None:
    _open().add(consumer)


def closed(consumer) -> None:
    _open().discard(consumer)


def _read_seqs(game_ids: list[int]) -> dict[int, int]:
    from games.models import Game

    return dict(Game.objects.filter(pk__in=game_ids).values_list("pk", "seq"))


async def stored_seq(game_id: int) -> int | None:
    """The game's seq as stored (None if it is gone), shared by the sockets that ask within SEQ_FRESH."""
    reads = _reads()
    now = time.monotonic()
    entry = reads.get(game_id)
    if entry is None or now - entry[0] > SEQ_FRESH:
        read = database_sync_to_async(_read_seqs, game_id)
        entry = reads[game_id] = (now, asyncio.ensure_future(read([game_id])))
        if len(reads) > _KEEP:
            for stale in [g for g, (at, _) in reads.items() if now - at > SEQ_FRESH]:
                del reads[stale]
    seqs = await asyncio.shield(entry[1])
    return seqs.get(game_id)


async def _everyone() -> None:
    consumers = list(_open())
    if not consumers:
        return
    games = sorted({c.game_id for c in consumers})
    seqs = await database_sync_to_async(_read_seqs, games[0])(games)
    behind = [c for c in consumers if seqs.get(c.game_id, 0) > c.sent_seq]
    results = await asyncio.gather(*(c.catch_up(seqs[c.game_id]) for c in behind), return_exceptions=True)
    for result in results:
        if isinstance(result, Exception):
            logger.warning("catching a socket up after a layer reconnect failed", exc_info=result)
    if behind:
        logger.info("%s sockets caught up after the channel layer resubscribed", len(behind))


def everyone() -> None:
    """Catch up every socket of this loop that is behind its game (on the loop, in a task)."""
    task = asyncio.get_running_loop().create_task(_everyone())
    tasks = _tasks()
    tasks.add(task)
    task.add_done_callback(tasks.discard)
