"""What a channel layer on Redis pub/sub cannot say by itself: that one of its Redis connections
connected again. Production's layer with Redis is infra.pipelined_layer.PipelinedLayer (the default of
CHANNEL_LAYER_BACKEND); channels-redis's RedisPubSubChannelLayer, the alternative, is told the same way.

When the layer's pub/sub connection breaks (Redis stopped, restarted), redis-py's pub/sub connects
again and subscribes its channels anew; until then this process hears nothing, and a broadcast
published meanwhile is lost for its sockets. The handlers of the hook ``on_resubscribed`` run when that
happens (games.live.catchup brings the sockets up to date from the database).

The settings hand ``connected`` to redis-py as every layer connection's ``redis_connect_func`` (a
public argument of its connections, given in the layer's ``hosts``: either layer passes it to redis-py
as it is). redis-py calls it in
place of its own handshake on every connect, then runs the connection's connect callbacks: for the
pub/sub connection, the one that subscribes every channel again. Listeners are therefore called from
a task that starts after the handshake, once the resubscription was written; what they read from the
database (each committed move) was published either before that read (and is in it) or after the
resubscription (and is heard).
"""

from __future__ import annotations

import asyncio
import logging
import weakref

from infra.hooks import Hook

logger = logging.getLogger(__name__)

on_resubscribed = Hook(
    "infra.layer.on_resubscribed",
    "A connection of the channel layer connected again after it was lost (its channels subscribed anew).",
    receives="nothing",
    returns="None; one that raises is logged, and the others still run",
    runs="on the event loop, in a task of its own, once redis-py's own connect callbacks ran",
)
_connected_before: weakref.WeakSet = weakref.WeakSet()
_tasks: set[asyncio.Task] = set()


async def connected(connection) -> None:
    """redis-py's ``redis_connect_func``: its own handshake, then (on a connect after the first)
    the listeners, once redis-py's own connect callbacks ran."""
    await connection.on_connect()
    if connection not in _connected_before:
        _connected_before.add(connection)
        return
    task = asyncio.get_running_loop().create_task(_tell())
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


async def _tell() -> None:
    for callback in list(on_resubscribed.handlers):
        try:
            callback()
        except Exception:  # a failing listener must not break the others
            logger.exception("a resubscription listener failed")
