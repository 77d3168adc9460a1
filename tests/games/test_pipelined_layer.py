"""infra.pipelined_layer on a real Redis: the Channels layer API, messages between two processes' layers,
order, batching, a consumer's channel given back when its receive is cancelled, and Redis lost and back.

Runs where REDIS_URL is set (CI's second pass); each layer gets a prefix of its own, so that no other test
hears it.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from games.live import broadcast
from infra import layer as hooks
from infra.pipelined_layer import PipelinedLayer

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL)")


def new_layer(prefix: str | None = None, **options) -> PipelinedLayer:
    host = {"address": os.environ["REDIS_URL"], "redis_connect_func": hooks.connected, **options}
    return PipelinedLayer(hosts=[host], prefix=prefix or f"test-pl-{secrets.token_hex(4)}")


def redis(*args: str) -> str:
    return subprocess.run(
        ["redis-cli", "-u", os.environ["REDIS_URL"], *args], capture_output=True, text=True, check=True
    ).stdout


async def receive_all(layer, channel: str, count: int) -> list[dict]:
    return [await asyncio.wait_for(layer.receive(channel), 5) for _ in range(count)]


async def test_a_group_message_reaches_every_member_in_both_processes():
    prefix = f"test-pl-{secrets.token_hex(4)}"
    one, two = new_layer(prefix), new_layer(prefix)
    try:
        a, b, c = await one.new_channel(), await one.new_channel(), await two.new_channel()
        for layer, channel in ((one, a), (one, b), (two, c)):
            await layer.group_add("game.1", channel)
        await two.group_send("game.1", {"type": "game.message", "text": "rolled", "seq": 3})
        for layer, channel in ((one, a), (one, b), (two, c)):
            heard = await receive_all(layer, channel, 1)
            assert heard == [{"type": "game.message", "text": "rolled", "seq": 3}]
        await one.send(c, {"type": "direct"})
        assert await receive_all(two, c, 1) == [{"type": "direct"}]
    finally:
        await one.flush()
        await two.flush()


async def test_calls_made_at_once_arrive_in_the_order_made(monkeypatch):
    """Moves of one game publish from calls that overlap on the loop: the first made is the first heard."""
    layer = new_layer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    channel = await layer.new_channel()
    await layer.group_add("game.7", channel)
    try:
        calls = [
            asyncio.ensure_future(broadcast.publish([("game.7", {"type": "m", "n": n})])) for n in range(50)
        ]
        await asyncio.gather(*calls)
        assert [m["n"] for m in await receive_all(layer, channel, 50)] == list(range(50))
    finally:
        await layer.flush()


async def test_messages_of_many_games_at_once_travel_in_few_pipelines(monkeypatch):
    layer = new_layer()
    channels = [await layer.new_channel() for _ in range(40)]
    for n, channel in enumerate(channels):
        await layer.group_add(f"game.{n}", channel)
    state = layer._here()  # our own class: count its pipelines
    publish = state._publish
    sizes = []

    async def counting(messages):
        sizes.append(len(messages))
        await publish(messages)

    monkeypatch.setattr(state.outbox, "_send", counting)
    try:
        await asyncio.gather(*(layer.group_send(f"game.{n}", {"n": n}) for n in range(40)))
        assert sum(sizes) == 40 and len(sizes) <= 2, sizes
        for n, channel in enumerate(channels):
            assert await receive_all(layer, channel, 1) == [{"n": n}]
    finally:
        await layer.flush()


async def test_a_discarded_channel_hears_the_group_no_more_and_a_cancelled_receive_gives_its_channel_back():
    layer = new_layer()
    try:
        stays, goes = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("g", stays)
        await layer.group_add("g", goes)
        await layer.group_discard("g", goes)
        await layer.group_send("g", {"n": 1})
        assert await receive_all(layer, stays, 1) == [{"n": 1}]
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(layer.receive(goes), 0.3)
        # The timeout cancelled the receive: the channel is no longer subscribed on Redis.
        channels = redis("PUBSUB", "CHANNELS", f"{layer.prefix}*").split()
        assert goes not in channels and stays in channels
        await layer.group_discard("g", stays)
        await layer.group_discard("g", stays)  # a second time does nothing
    finally:
        await layer.flush()


async def test_names_are_checked_and_group_add_wants_a_channel_of_this_process():
    layer = new_layer()
    try:
        with pytest.raises(TypeError):
            await layer.send("bad name with spaces", {"x": 1})
        with pytest.raises(RuntimeError):
            await layer.group_add("g", "not.mine")
    finally:
        await layer.flush()


async def test_redis_gone_makes_the_call_raise_and_broadcast_logs_it(monkeypatch, caplog):
    gone = PipelinedLayer(hosts=["redis://127.0.0.1:1/0"], prefix="test-pl-gone")
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: gone)
    try:
        with pytest.raises(RedisConnectionError):
            await gone.group_send("g", {"x": 1})
        assert not await broadcast._deliver([("game.9", {"type": "game.message", "text": "b"})])
        assert "broadcast to game.9 failed" in caplog.text
    finally:
        await gone.flush()


async def test_a_killed_connection_is_made_again_with_every_subscription_and_the_hook_is_told():
    """A real fault: Redis closes the layer's pub/sub connection (CLIENT KILL, as a restart would); redis-py
    connects again and subscribes every channel anew, and infra.layer's listeners hear it."""
    name = f"test-pl-{secrets.token_hex(4)}"
    layer = new_layer(client_name=name)
    told = asyncio.Event()
    hooks.on_resubscribed.register(told.set)
    try:
        channel = await layer.new_channel()
        await layer.group_add("game.3", channel)
        await layer.group_send("game.3", {"n": -1})
        assert await receive_all(layer, channel, 1) == [{"n": -1}]
        assert not told.is_set()
        listed = await asyncio.to_thread(redis, "CLIENT", "LIST", "TYPE", "pubsub")
        ids = [line.split("id=")[1].split()[0] for line in listed.splitlines() if f"name={name} " in line]
        assert len(ids) == 1, ids
        await asyncio.to_thread(redis, "CLIENT", "KILL", "ID", ids[0])
        await asyncio.wait_for(told.wait(), 10)
        heard = None
        for n in range(50):
            await layer.group_send("game.3", {"n": n})
            try:
                heard = await asyncio.wait_for(layer.receive(channel), 0.2)
                break
            except TimeoutError:
                continue
        assert heard is not None and heard["n"] >= 0
    finally:
        hooks.on_resubscribed.unregister(told.set)
        await layer.flush()


def test_one_host_only():
    with pytest.raises(ValueError):
        PipelinedLayer(hosts=["redis://a", "redis://b"])
