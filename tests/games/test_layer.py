"""infra.layer on a real Redis: a move's group messages in one round trip, as group_send sends them.

Runs where REDIS_URL is set (CI's second pass); the layer is built here with a prefix of its own, so
that no other test hears it.
"""

from __future__ import annotations

import asyncio
import os
import secrets

import pytest
from django.conf import settings

from games.live import broadcast
from infra.layer import PubSubLayer

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL)")


def new_layer() -> PubSubLayer:
    return PubSubLayer(hosts=[os.environ["REDIS_URL"]], prefix=f"test-layer-{secrets.token_hex(4)}")


async def receive_all(layer, channel: str, count: int) -> list[dict]:
    return [await asyncio.wait_for(layer.receive(channel), 5) for _ in range(count)]


async def test_the_default_layer_is_this_one_where_redis_is_set():
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == "infra.layer.PubSubLayer"


async def test_group_send_many_reaches_each_group_in_order():
    layer = new_layer()
    game, ann, bob = await layer.new_channel(), await layer.new_channel(), await layer.new_channel()
    await layer.group_add("game.1", game)
    await layer.group_add("notices.ann", ann)
    await layer.group_add("notices.bob", bob)
    try:
        await layer.group_send_many(
            [
                ("game.1", {"type": "game.message", "text": "1"}),
                ("notices.ann", {"type": "notices.turn", "n": 1}),
                ("notices.bob", {"type": "notices.turn", "n": 1}),
                ("game.1", {"type": "game.message", "text": "2"}),
                ("notices.nobody", {"type": "notices.turn", "n": 1}),
            ]
        )
        await layer.group_send("game.1", {"type": "game.message", "text": "3"})
        assert [m["text"] for m in await receive_all(layer, game, 3)] == ["1", "2", "3"]
        assert await receive_all(layer, ann, 1) == [{"type": "notices.turn", "n": 1}]
        assert await receive_all(layer, bob, 1) == [{"type": "notices.turn", "n": 1}]
    finally:
        await layer.flush()


async def test_calls_made_one_after_the_other_arrive_in_that_order():
    """Moves of one game publish from separate calls that overlap on the loop: the first call made is
    the first one published, as with group_send (the shard's lock is first come first served)."""
    layer = new_layer()
    channel = await layer.new_channel()
    await layer.group_add("game.7", channel)
    try:
        one = [[("game.7", {"type": "m", "n": n})] for n in range(50)]
        calls = [asyncio.ensure_future(layer.group_send_many(messages)) for messages in one]
        await asyncio.gather(*calls)
        assert [m["n"] for m in await receive_all(layer, channel, 50)] == list(range(50))
    finally:
        await layer.flush()


async def test_publish_goes_through_it_and_a_failure_is_only_logged(monkeypatch, caplog):
    layer = new_layer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    channel = await layer.new_channel()
    await layer.group_add("game.9", channel)
    try:
        await broadcast.publish([("game.9", {"type": "game.message", "text": "a"})])
        assert (await receive_all(layer, channel, 1))[0]["text"] == "a"

        async def broken(messages):
            raise ConnectionError("Redis is gone")

        monkeypatch.setattr(layer, "group_send_many", broken)
        await broadcast.publish([("game.9", {"type": "game.message", "text": "b"})])
        assert "broadcast to game.9 failed" in caplog.text
    finally:
        await layer.flush()


def _count_round_trips(layer, monkeypatch) -> list[int]:
    """The number of messages of each pipeline the layer's shard sends."""
    shard = layer._get_layer()._shards[0]
    shard._ensure_redis()
    sizes: list[int] = []
    real = shard._redis.pipeline

    def pipeline(*args, **kwargs):
        pipe = real(*args, **kwargs)
        execute = pipe.execute

        async def counted(*a, **kw):
            sizes.append(len(pipe.command_stack))
            return await execute(*a, **kw)

        pipe.execute = counted
        return pipe

    monkeypatch.setattr(shard._redis, "pipeline", pipeline)
    return sizes


async def test_calls_waiting_together_share_one_round_trip(monkeypatch):
    """Under load the moves of many tables wait for the shard at once: one pipeline carries them all,
    instead of one round trip each with the lock handed over between them."""
    layer = new_layer()
    channel = await layer.new_channel()
    await layer.group_add("game.8", channel)
    sizes = _count_round_trips(layer, monkeypatch)
    try:
        calls = [
            asyncio.ensure_future(layer.group_send_many([("game.8", {"type": "m", "n": n})]))
            for n in range(40)
        ]
        await asyncio.gather(*calls)
        assert sum(sizes) == 40 and len(sizes) <= 2, sizes
        assert [m["n"] for m in await receive_all(layer, channel, 40)] == list(range(40))
        # A call made while a batch is out goes in the next one, after it.
        first = asyncio.ensure_future(layer.group_send_many([("game.8", {"type": "m", "n": 40})]))
        await asyncio.sleep(0)
        second = asyncio.ensure_future(layer.group_send_many([("game.8", {"type": "m", "n": 41})]))
        await asyncio.gather(first, second)
        assert [m["n"] for m in await receive_all(layer, channel, 2)] == [40, 41]
    finally:
        await layer.flush()


async def test_a_failed_round_trip_is_raised_to_every_call_it_carried(monkeypatch):
    layer = new_layer()
    shard = layer._get_layer()._shards[0]
    shard._ensure_redis()

    def broken(*args, **kwargs):
        raise ConnectionError("Redis is gone")

    monkeypatch.setattr(shard._redis, "pipeline", broken)
    calls = [asyncio.ensure_future(layer.group_send_many([("game.3", {"type": "m"})])) for _ in range(3)]
    results = await asyncio.gather(*calls, return_exceptions=True)
    assert [type(r) for r in results] == [ConnectionError] * 3
    monkeypatch.undo()
    channel = await layer.new_channel()
    await layer.group_add("game.3", channel)
    try:
        await layer.group_send_many([("game.3", {"type": "m", "n": 1})])  # the next call goes out
        assert (await receive_all(layer, channel, 1))[0]["n"] == 1
    finally:
        await layer.flush()


async def test_sockets_opening_and_closing_at_once_share_one_command_each_way(monkeypatch):
    """A reconnect storm: many sockets subscribe their channels and groups at once, then leave at once;
    each wave is one SUBSCRIBE and one UNSUBSCRIBE, and the subscriptions are what they should be."""
    layer = new_layer()
    shard = layer._get_layer()._shards[0]
    shard._ensure_redis()
    sent: list[tuple[str, int]] = []
    pubsub = shard._pubsub
    real = pubsub.execute_command

    async def counted(*args):
        sent.append((args[0], len(args) - 1))
        return await real(*args)

    monkeypatch.setattr(pubsub, "execute_command", counted)
    try:
        channels = await asyncio.gather(*(layer.new_channel() for _ in range(30)))
        await asyncio.gather(*(layer.group_add(f"game.{n % 10}", c) for n, c in enumerate(channels)))
        assert [kind for kind, _ in sent] == ["SUBSCRIBE", "SUBSCRIBE"]
        assert sum(n for _, n in sent) == 40  # 30 sockets' channels, then 10 groups
        await layer.group_send("game.3", {"type": "m", "n": 3})
        listeners = [c for n, c in enumerate(channels) if n % 10 == 3]
        assert [(await receive_all(layer, c, 1))[0]["n"] for c in listeners] == [3, 3, 3]
        sent.clear()
        await asyncio.gather(*(layer.group_discard(f"game.{n % 10}", c) for n, c in enumerate(channels)))
        assert sent == [("UNSUBSCRIBE", 10)]
        assert not any(k.startswith(f"{layer._get_layer().prefix}__group__") for k in shard._subscribed_to)
    finally:
        await layer.flush()


async def test_a_group_left_and_joined_again_in_one_wave_stays_subscribed():
    layer = new_layer()
    one, two = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("game.5", one)
    try:
        await asyncio.gather(layer.group_discard("game.5", one), layer.group_add("game.5", two))
        await layer.group_send("game.5", {"type": "m", "n": 5})
        assert (await receive_all(layer, two, 1))[0]["n"] == 5
    finally:
        await layer.flush()
