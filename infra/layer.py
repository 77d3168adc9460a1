"""The channel layer of production: channels-redis's pub/sub layer, with group messages sent in batches.

A move that passes the turn sends five group messages: its event to the game's sockets and the turn to
each of its four players' notices sockets (games.live.broadcast.publish). channels-redis publishes each
on its own, under its shard's lock: one Redis round trip after the other, and the lock handed from one
caller to the next through the event loop, with every other publish and subscription of the process
waiting behind them. Under load a busy loop makes each handover slow, so a queue of moves behind that
lock grew until some broadcasts waited past WS_LAYER_TIMEOUT and were dropped (docs/BENCHMARKS.md).

``group_send_many`` puts the messages of a call in the shard's outbox instead; one task per shard sends
everything waiting there in one pipeline under the lock, again and again while calls keep coming, so
that a round trip carries every move that arrived meanwhile. Calls are sent in the order they were
made, and each returns once its messages are out (or raises what sending them raised).

Subscriptions go the same way: every socket that opens subscribes its own channel and its game's or
player's group, every socket that closes unsubscribes them, each a command of its own under that same
lock. When thousands of pages reconnect or leave at once, the queue behind the lock made layer calls
(broadcasts among them) wait past their time limit. Here a shard's subscription changes wait in a
queue of their own; one task sends each run of them as one SUBSCRIBE or UNSUBSCRIBE naming every
channel of the run, in the order they were asked for.

When a shard's pub/sub connection breaks (Redis stopped, restarted), redis-py's pub/sub connects
again and subscribes its channels anew; until then this process hears nothing, and a broadcast
published meanwhile is lost for its sockets. ``on_resubscribed`` callbacks run once that is done
(games.live.catchup brings the sockets up to date), through redis-py's public connect callbacks.

It reads private parts of channels-redis 4.3 (the loop layer's shards, their lock, client, pub/sub
connection and set of subscribed channels), pinned in requirements/base.txt; tests/games/test_layer.py
holds them to that version on a real Redis.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable

from channels_redis.pubsub import RedisPubSubChannelLayer

logger = logging.getLogger(__name__)

_resubscribed: list[Callable[[], None]] = []


def on_resubscribed(callback: Callable[[], None]) -> None:
    """Call ``callback`` (on the event loop) whenever a shard has subscribed its channels again after
    its pub/sub connection broke."""
    if callback not in _resubscribed:
        _resubscribed.append(callback)


class _Reconnects:
    """Watches a shard's pub/sub connection. redis-py calls a connection's connect callbacks in the
    order they were registered, each awaited, on every connect after the one it was registered on;
    the pub/sub's own (which subscribes every channel again) was registered first."""

    def __init__(self, shard):
        self.shard = shard
        self.watched = None

    def watch(self) -> None:
        connection = getattr(self.shard._pubsub, "connection", None)
        if connection is not None and connection is not self.watched:
            self.watched = connection
            connection.register_connect_callback(self.connected)  # kept as a weak method: self lives on

    def connected(self, connection) -> None:
        for callback in list(_resubscribed):
            try:
                callback()
            except Exception:  # a failing listener must not break redis-py's reconnect
                logger.exception("a resubscription listener failed")


class _Queue:
    """Calls waiting for one shard, and the task that serves all that waits at each turn, in order of
    arrival; each call returns once its turn was served (or raises what serving it raised)."""

    def __init__(self, shard):
        self.shard = shard
        self.waiting: list[tuple[object, asyncio.Future]] = []
        self.sender: asyncio.Task | None = None

    async def put(self, item) -> None:
        done = asyncio.get_running_loop().create_future()
        self.waiting.append((item, done))
        if self.sender is None or self.sender.done():
            self.sender = asyncio.ensure_future(self._serve())
        await done

    async def _serve(self) -> None:
        while self.waiting:
            batch, self.waiting = self.waiting, []
            outcome = None
            try:
                async with self.shard._lock:
                    await self.send([item for item, _ in batch])
            except Exception as exc:  # noqa: BLE001 - handed to every caller of the batch
                outcome = exc
            for _, done in batch:
                if (
                    done.done()
                ):  # its caller gave up waiting (a timeout); what it asked for was done all the same
                    continue
                if outcome is None:
                    done.set_result(None)
                else:
                    done.set_exception(outcome)

    async def send(self, items: list) -> None:
        raise NotImplementedError


class _Outbox(_Queue):
    """Group messages to publish: (channel, data) lists, all in one pipeline."""

    async def send(self, items: list[list[tuple[str, bytes]]]) -> None:
        self.shard._ensure_redis()
        pipe = self.shard._redis.pipeline(transaction=False)
        for messages in items:
            for channel, data in messages:
                pipe.publish(channel, data)
        await pipe.execute()


class _Subscriptions(_Queue):
    """Subscription changes, (subscribe, channel): each run of one kind as one command. Its
    ``change`` replaces the shard's own subscribe and unsubscribe."""

    async def change(self, subscribe: bool, channel: str) -> None:
        await self.put((subscribe, channel))

    async def send(self, items: list[tuple[bool, str]]) -> None:
        shard = self.shard
        shard._ensure_redis()
        shard._ensure_receiver()
        for subscribe, channels in _runs(items):
            # Only the channels not subscribed yet (or still subscribed), as the shard's own methods do.
            wanted = [c for c in dict.fromkeys(channels) if (c in shard._subscribed_to) != subscribe]
            if not wanted:
                continue
            if subscribe:
                await shard._pubsub.subscribe(*wanted)
                shard._subscribed_to.update(wanted)
            else:
                await shard._pubsub.unsubscribe(*wanted)
                shard._subscribed_to.difference_update(wanted)
        shard.dicehall_reconnects.watch()


def _runs(items: list[tuple[bool, str]]) -> list[tuple[bool, list[str]]]:
    """The changes as runs of one kind, in order: (subscribe, channels)."""
    runs: list[tuple[bool, list[str]]] = []
    for subscribe, channel in items:
        if runs and runs[-1][0] == subscribe:
            runs[-1][1].append(channel)
        else:
            runs.append((subscribe, [channel]))
    return runs


class PubSubLayer(RedisPubSubChannelLayer):
    def _get_layer(self):
        layer = super()._get_layer()
        for shard in layer._shards:
            if getattr(shard, "dicehall_subscriptions", None) is None:
                subscriptions = shard.dicehall_subscriptions = _Subscriptions(shard)
                shard.dicehall_reconnects = _Reconnects(shard)
                shard.subscribe = functools.partial(subscriptions.change, True)
                shard.unsubscribe = functools.partial(subscriptions.change, False)
        return layer

    async def group_send_many(self, messages: list[tuple[str, dict]]) -> None:
        """Send each (group, message) pair as ``group_send`` would, in order, batched with the other
        calls waiting for the same shard (see the module's docstring)."""
        layer = self._get_layer()
        by_shard: dict = {}
        for group, message in messages:
            channel = layer._get_group_channel_name(group)
            shard = layer._get_shard(channel)
            by_shard.setdefault(shard, []).append((channel, self.serialize(message)))
        for shard, items in by_shard.items():
            outbox = getattr(shard, "dicehall_outbox", None)
            if outbox is None:
                outbox = shard.dicehall_outbox = _Outbox(shard)
            await outbox.put(items)
