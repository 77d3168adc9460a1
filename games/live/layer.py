"""The channel layer of production: channels-redis's pub/sub layer, with several group messages sent in
one round trip.

A move that passes the turn sends five group messages: its event to the game's sockets and the turn to
each of its four players' notices sockets (games.live.broadcast.publish). channels-redis publishes each
on its own, under its shard's lock: one Redis round trip after the other, with every other publish
and subscription of the process waiting behind them (docs/BENCHMARKS.md). ``group_send_many`` sends
them as one pipeline under that lock, once.

It reads three private parts of channels-redis 4.3 (the shard, its lock and its client), pinned in
requirements/base.txt; tests/games/test_layer.py holds them to that version on a real Redis.
"""

from __future__ import annotations

from channels_redis.pubsub import RedisPubSubChannelLayer


class PubSubLayer(RedisPubSubChannelLayer):
    async def group_send_many(self, messages: list[tuple[str, dict]]) -> None:
        """Send each (group, message) pair as ``group_send`` would, in order, in one round trip a shard.

        Nothing is awaited before the shard's lock is asked for, and that lock is first come first
        served: two calls made one after the other publish in that order, as two ``group_send`` do.
        """
        layer = self._get_layer()
        by_shard: dict = {}
        for group, message in messages:
            channel = layer._get_group_channel_name(group)
            shard = layer._get_shard(channel)
            by_shard.setdefault(shard, []).append((channel, self.serialize(message)))
        for shard, items in by_shard.items():
            async with shard._lock:
                shard._ensure_redis()
                pipe = shard._redis.pipeline(transaction=False)
                for channel, data in items:
                    pipe.publish(channel, data)
                await pipe.execute()
