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

It reads three private parts of channels-redis 4.3 (the shard, its lock and its client), pinned in
requirements/base.txt; tests/games/test_layer.py holds them to that version on a real Redis.
"""

from __future__ import annotations

import asyncio

from channels_redis.pubsub import RedisPubSubChannelLayer


class _Outbox:
    """The messages waiting to be published on one shard, and the task that sends them."""

    def __init__(self, shard):
        self.shard = shard
        self.waiting: list[tuple[list[tuple[str, bytes]], asyncio.Future]] = []
        self.sender: asyncio.Task | None = None

    async def send(self, items: list[tuple[str, bytes]]) -> None:
        done = asyncio.get_running_loop().create_future()
        self.waiting.append((items, done))
        if self.sender is None or self.sender.done():
            self.sender = asyncio.ensure_future(self._send_waiting())
        await done

    async def _send_waiting(self) -> None:
        while self.waiting:
            batch, self.waiting = self.waiting, []
            try:
                async with self.shard._lock:
                    self.shard._ensure_redis()
                    pipe = self.shard._redis.pipeline(transaction=False)
                    for items, _ in batch:
                        for channel, data in items:
                            pipe.publish(channel, data)
                    await pipe.execute()
            except Exception as exc:  # noqa: BLE001 - handed to every caller of the batch
                outcome = exc
            else:
                outcome = None
            for _, done in batch:
                if done.done():  # its caller gave up waiting (a timeout); the messages went all the same
                    continue
                if outcome is None:
                    done.set_result(None)
                else:
                    done.set_exception(outcome)


class PubSubLayer(RedisPubSubChannelLayer):
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
            await outbox.send(items)
