"""channels-redis's pub/sub layer as shipped (selectable with CHANNEL_LAYER_BACKEND; the default is the
project's own, tests/games/test_pipelined_layer.py) on a real Redis, configured as the settings
configure it, with infra.layer's connect hook; and broadcast.publish through it.

Runs where REDIS_URL is set (CI's second pass); each layer is built here with a prefix of its own, so
that no other test hears it.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings

from games.live import broadcast
from infra import layer as hooks

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL)")


def new_layer(client_name: str | None = None) -> RedisPubSubChannelLayer:
    host = {"address": os.environ["REDIS_URL"], "redis_connect_func": hooks.connected}
    if client_name:
        host["client_name"] = client_name
    return RedisPubSubChannelLayer(hosts=[host], prefix=f"test-layer-{secrets.token_hex(4)}")


async def receive_all(layer, channel: str, count: int) -> list[dict]:
    return [await asyncio.wait_for(layer.receive(channel), 5) for _ in range(count)]


def redis(*args: str) -> str:
    url = os.environ["REDIS_URL"]
    return subprocess.run(["redis-cli", "-u", url, *args], capture_output=True, text=True, check=True).stdout


async def test_the_default_layer_is_the_pipelined_one():
    config = settings.CHANNEL_LAYERS["default"]
    assert config["BACKEND"] == "infra.pipelined_layer.PipelinedLayer"
    assert [host["redis_connect_func"] for host in config["CONFIG"]["hosts"]] == [hooks.connected]


async def test_calls_made_one_after_the_other_arrive_in_that_order(monkeypatch):
    """Moves of one game publish from separate calls that overlap on the loop: the first call made is
    the first one published (the group's lock in broadcast is first come first served)."""
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


async def test_publish_goes_through_it_and_a_failure_is_only_logged(monkeypatch, caplog):
    layer = new_layer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    channel = await layer.new_channel()
    await layer.group_add("game.9", channel)
    try:
        await broadcast.publish([("game.9", {"type": "game.message", "text": "a"})])
        assert (await receive_all(layer, channel, 1))[0]["text"] == "a"
        # A layer whose Redis is gone: nothing listens on port 1.
        gone = RedisPubSubChannelLayer(hosts=["redis://127.0.0.1:1/0"], prefix="test-layer-gone")
        monkeypatch.setattr(broadcast, "get_channel_layer", lambda: gone)
        assert not await broadcast._deliver([("game.9", {"type": "game.message", "text": "b"})])
        assert "broadcast to game.9 failed" in caplog.text
    finally:
        await layer.flush()


async def test_a_subscribing_connection_killed_by_redis_is_told_once_it_is_back():
    """Redis closes the layer's pub/sub connection (CLIENT KILL, as a restart would): redis-py connects
    again and subscribes anew; the listeners of infra.layer hear of it, and the group is heard again.
    The first connect tells nobody."""
    name = f"test-layer-{secrets.token_hex(4)}"
    layer = new_layer(client_name=name)
    told: list[str] = []

    def listener() -> None:
        told.append("again")

    hooks.on_resubscribed.register(listener)
    try:
        channel = await layer.new_channel()
        await layer.group_add("game.4", channel)
        await layer.group_send("game.4", {"type": "m", "n": 0})
        assert (await receive_all(layer, channel, 1))[0]["n"] == 0
        assert told == []
        ids = [
            line.split("id=")[1].split()[0]
            for line in (await asyncio.to_thread(redis, "CLIENT", "LIST", "TYPE", "pubsub")).splitlines()
            if f"name={name} " in line
        ]
        assert len(ids) == 1, ids
        await asyncio.to_thread(redis, "CLIENT", "KILL", "ID", ids[0])
        for _ in range(100):
            if told:
                break
            await asyncio.sleep(0.1)
        assert told == ["again"]
        # Subscribed again: a message published now is heard.
        heard = None
        for n in range(50):
            await layer.group_send("game.4", {"type": "m", "n": n})
            try:
                heard = await asyncio.wait_for(layer.receive(channel), 0.2)
                break
            except TimeoutError:
                continue
        assert heard is not None and heard["type"] == "m"
    finally:
        hooks.on_resubscribed.unregister(listener)
        await layer.flush()
