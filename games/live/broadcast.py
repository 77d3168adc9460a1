"""Telling every socket of a game what happened, after the transaction that stored it has committed."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import weakref
from collections import deque
from contextlib import contextmanager

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction

from infra.jsontext import dumps
from infra.perloop import per_loop

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


# A database call made for a websocket consumer (games.live.game_threads) collects what its
# transactions send here, and the event loop publishes it when the call returns: the database thread
# does not wait for the event loop to publish (async_to_sync), which under load had every move's thread
# queue behind the loop's socket work (docs/BENCHMARKS.md).
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

# A broadcast the channel layer refused is sent again, every RETRY_EVERY seconds, for RETRY_FOR seconds:
# the first publish after Redis came back fails on the connection that Redis closed, while
# the other processes may have subscribed again already, and nothing else would tell their sockets.
# What waits is sent again in the order it was published, and every broadcast published meanwhile
# waits behind it (a game's events leave in seq order). At most BACKLOG_LIMIT calls wait; the oldest
# are given up first. A given-up broadcast is not lost for good: games.live.catchup.
RETRY_EVERY = 0.5
RETRY_FOR = 30.0
BACKLOG_LIMIT = 1000


class _Backlog:
    def __init__(self) -> None:
        self.calls: deque[tuple[float, list[tuple[str, dict]]]] = deque()
        self.task: asyncio.Task | None = None

    def add(self, messages: list[tuple[str, dict]]) -> None:
        self.calls.append((time.monotonic(), messages))
        while len(self.calls) > BACKLOG_LIMIT:
            self.calls.popleft()
            logger.warning("a broadcast waited behind %s others and was given up", BACKLOG_LIMIT)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._retry())

    async def _retry(self) -> None:
        while self.calls:
            await asyncio.sleep(RETRY_EVERY)
            while self.calls and time.monotonic() - self.calls[0][0] > RETRY_FOR:
                _, messages = self.calls.popleft()
                logger.warning("broadcast to %s given up after %s s", _groups(messages), RETRY_FOR)
            count = len(self.calls)
            waiting = [message for _, messages in self.calls for message in messages]
            if waiting and await _deliver(waiting, quiet=True):
                for _ in range(count):
                    self.calls.popleft()
                logger.info("%s broadcasts sent again", count)


@per_loop
def _backlog() -> _Backlog:
    return _Backlog()


def _groups(messages: list[tuple[str, dict]]) -> str:
    return ", ".join(dict.fromkeys(g for g, _ in messages))


async def publish(messages: list[tuple[str, dict]]) -> None:
    """Send collected (group, layer message) pairs from the event loop, each group's in order.

    Calls return to the loop in the order their database thread finished them (each game has one
    thread). A later call must not overtake an earlier one while it waits on the channel layer: a
    lock per group, first come first served, keeps them in order. A failed send is logged and sent
    again (``_Backlog``); the calls made meanwhile wait behind it.
    """
    if not messages:
        return
    backlog = _backlog()
    # While earlier broadcasts wait to be sent again, this one waits behind them.
    if backlog.calls or not await _deliver(messages):
        backlog.add(messages)


async def _deliver(messages: list[tuple[str, dict]], quiet: bool = False) -> bool:
    """Send the messages; False (logged unless ``quiet``) if the channel layer failed or timed out.
    Some of them may have gone out all the same: a client drops an event whose seq it has."""
    layer = get_channel_layer()
    loop = asyncio.get_running_loop()
    try:
        for group, message in messages:
            key = (id(loop), group)
            lock = _locks.get(key)
            if lock is None:
                lock = _locks[key] = asyncio.Lock()
            async with lock:
                # A timeout scope rather than wait_for: no task made for every message.
                async with asyncio.timeout(settings.WS_LAYER_TIMEOUT):
                    await layer.group_send(group, message)
    except Exception:
        if not quiet:
            logger.exception("broadcast to %s failed; it will be sent again", _groups(messages))
        return False
    return True


def send_now(game_id: int, payload: dict, text: str | None = None) -> bool:
    """Send ``payload`` to every socket of the game; False (logged) if the channel layer failed.

    A failed send loses nothing: the action is stored, its sender got an ack, and every socket is
    caught up with the database (games.live.catchup); one collected for the event loop is also sent
    again (``publish``).
    """
    return send_to(group_name(game_id), layer_message(payload, text))


def send_to(group: str, message: dict) -> bool:
    """Send one channel-layer message to a group from a thread (see ``send_now``)."""
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


def send_on_commit_to(messages) -> None:
    """Send (group, channel-layer message) pairs, in order, once the transaction has committed."""
    messages = list(messages)
    if messages:
        transaction.on_commit(lambda: [send_to(group, message) for group, message in messages])


def send_on_commit(game_id: int, payload: dict, text: str | None = None) -> None:
    """Send ``payload`` (``text``: the same, already encoded) once the transaction has committed."""
    transaction.on_commit(lambda: send_now(game_id, payload, text))
