"""Telling every socket of a game what happened, after the transaction that stored it has committed."""

from __future__ import annotations

import asyncio
import logging
import threading
import weakref
from contextlib import contextmanager

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction

from games.live.jsontext import dumps

logger = logging.getLogger(__name__)


def group_name(game_id: int) -> str:
    return f"game.{game_id}"


def encode(payload, **encoded: str) -> str:
    """``payload`` as compact JSON text; the values of the keys in ``encoded`` are given already encoded.

    A move encodes the game state once, for the database, and its event carries the same text.
    """
    if not encoded:
        return dumps(payload)
    rest = dumps({k: v for k, v in payload.items() if k not in encoded})
    parts = ",".join(f"{dumps(key)}:{text}" for key, text in encoded.items())
    return f"{rest[:-1]},{parts}}}" if rest != "{}" else f"{{{parts}}}"


def layer_message(payload: dict, text: str | None = None) -> dict:
    """The channel-layer message that carries ``payload`` to the consumers of a game.

    The payload travels as its JSON text, encoded once here rather than once per socket (an event holds
    the whole game state), and the consumers send the text as it is. ``access_revoked`` travels as data:
    the consumers read it (it closes one user's sockets) and never forward it. An event's seq travels
    beside its text as well.
    """
    if payload.get("type") == "access_revoked":
        return {"type": "game.message", "payload": payload}
    message = {"type": "game.message", "text": encode(payload) if text is None else text}
    if payload.get("type") == "event":
        message["seq"] = payload["seq"]  # read by the process that hears it (move_async.heard)
    return message


# A database call made for a websocket consumer (games.live.dbpool) collects what its transactions send here,
# and the event loop publishes it when the call returns: the database thread does not wait for the
# event loop to publish (async_to_sync), which under load had every move's thread queue behind the
# loop's socket work (docs/BENCHMARKS.md).
_outbox = threading.local()


@contextmanager
def collected():
    """Collect the messages sent in this thread meanwhile, in order, instead of sending them."""
    _outbox.messages = messages = []
    try:
        yield messages
    finally:
        del _outbox.messages


_locks: weakref.WeakValueDictionary[tuple, asyncio.Lock] = weakref.WeakValueDictionary()


async def publish(messages: list[tuple[str, dict]]) -> None:
    """Send collected (group, layer message) pairs from the event loop, each group's in order.

    Calls return to the loop in the order their database thread finished them (each game has one
    thread). A later call must not overtake an earlier one while it waits on the channel layer: on
    Redis the layer's shard lock, first come first served, keeps them in order (games.live.layer);
    elsewhere a lock per group does. A failed send loses nothing (see send_now) and is logged.
    """
    if not messages:
        return
    layer = get_channel_layer()
    send_many = getattr(layer, "group_send_many", None)
    if send_many is not None:
        # One round trip for all of them (games.live.layer); its shard's lock keeps the calls' order.
        try:
            async with asyncio.timeout(settings.WS_LAYER_TIMEOUT):
                await send_many(messages)
        except Exception:
            logger.exception("broadcast to %s failed; clients will resync", ", ".join(g for g, _ in messages))
        return
    loop = asyncio.get_running_loop()
    for group, message in messages:
        key = (id(loop), group)
        lock = _locks.get(key)
        if lock is None:
            lock = _locks[key] = asyncio.Lock()
        async with lock:
            try:
                # A timeout scope rather than wait_for: no task made for every message.
                async with asyncio.timeout(settings.WS_LAYER_TIMEOUT):
                    await layer.group_send(group, message)
            except Exception:
                logger.exception("broadcast to %s failed; clients will resync", group)


def send_now(game_id: int, payload: dict, text: str | None = None) -> bool:
    """Send ``payload`` to every socket of the game; False (logged) if the channel layer failed.

    A failed send loses nothing: the action is stored, its sender got an ack, and every client
    catches up through `sync` when it sees a gap in seq.
    """
    return _send(group_name(game_id), layer_message(payload, text))


def _send(group: str, message: dict) -> bool:
    outbox = getattr(_outbox, "messages", None)
    if outbox is not None:
        outbox.append((group, message))
        return True
    layer = get_channel_layer()

    async def send() -> None:
        # A stalled Redis must not hold the thread that runs every database call of this process.
        await asyncio.wait_for(layer.group_send(group, message), settings.WS_LAYER_TIMEOUT)

    try:
        async_to_sync(send)()
    except Exception:
        logger.exception("broadcast to %s failed; clients will resync", group)
        return False
    return True


# The header of every page (notices.consumers) hears that a player's list changed; it reads it anew.
NOTICES_CHANGED = {"type": "notices.changed"}


def notices_messages(usernames, message: dict | None = None) -> list[tuple[str, dict]]:
    from notices.feed import user_group

    return [(user_group(name), message or NOTICES_CHANGED) for name in usernames]


def tell_users(usernames, message: dict | None = None) -> None:
    """Send these players' notices sockets a message (their lists changed, by default), from a thread."""
    for group, layer_message in notices_messages(usernames, message):
        _send(group, layer_message)


def tell_users_on_commit(usernames, message: dict | None = None) -> None:
    names = list(usernames)
    if names:
        transaction.on_commit(lambda: tell_users(names, message))


def send_on_commit(game_id: int, payload: dict, text: str | None = None) -> None:
    """Send ``payload`` (``text``: the same, already encoded) once the transaction has committed."""
    transaction.on_commit(lambda: send_now(game_id, payload, text))
