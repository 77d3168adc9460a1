"""Two sites on one Redis do not hear each other.

Redis's pub/sub ignores the database number of the URL, so two DiceHall sites on one Redis server
shared every group (a stranger's game events on our game's page) while both kept the default
CHANNEL_LAYER_PREFIX. The default is now derived from the database's name: different for two sites,
the same for every process of one site.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys

import pytest
from channels_redis.pubsub import RedisPubSubChannelLayer

from config.settings.base import BASE_DIR


def default_prefixes(database_url: str, redis_url: str) -> dict:
    """The channel layer's and the rate limits' prefixes as a process of that site sets them, with
    neither prefix given in its environment."""
    env = {k: v for k, v in os.environ.items() if not k.endswith("_PREFIX") and k != "DJANGO_SETTINGS_MODULE"}
    env.update(DATABASE_URL=database_url, REDIS_URL=redis_url)
    code = (
        "import json; from config.settings import base as s; "
        "print(json.dumps([s.CHANNEL_LAYERS['default']['CONFIG']['prefix'], s.RATE_LIMIT_KEY_PREFIX]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=BASE_DIR, env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def test_the_default_prefixes_differ_between_databases_and_not_within_one(own_redis):
    one = default_prefixes("postgres://dice@db:5432/dicehall", own_redis.url)
    again = default_prefixes("postgres://other-host:5432/dicehall", own_redis.url)
    two = default_prefixes("postgres://dice@db:5432/dicehall_staging", own_redis.url)
    assert one == again  # the processes of one site hear each other
    assert one[0] != two[0] and one[1] != two[1]


async def test_a_second_site_on_the_same_redis_server_is_not_heard(own_redis):
    """Two layers as two sites' processes set them up, on two database numbers of one redis-server: a
    game event of the second site reaches no socket of the first."""
    ours = await asyncio.to_thread(default_prefixes, "postgres://db/dicehall", own_redis.url)
    theirs = await asyncio.to_thread(default_prefixes, "postgres://db/dicehall_other", own_redis.url)
    port = own_redis.port
    our_layer = RedisPubSubChannelLayer(hosts=[f"redis://127.0.0.1:{port}/0"], prefix=ours[0])
    their_layer = RedisPubSubChannelLayer(hosts=[f"redis://127.0.0.1:{port}/1"], prefix=theirs[0])
    try:
        channel = await our_layer.new_channel()
        await our_layer.group_add("game.1", channel)
        await their_layer.group_send("game.1", {"type": "game.message", "text": "c514cb9 wins"})
        # Published after theirs on the same server: if theirs reached us, it came first.
        await our_layer.group_send("game.1", {"type": "game.message", "text": "ours"})
        heard = await asyncio.wait_for(our_layer.receive(channel), 10)
        assert heard["text"] == "ours"
    finally:
        await our_layer.flush()
        await their_layer.flush()


@pytest.mark.parametrize("name", ["/srv/dice hall/db.sqlite3", "x" * 200, "dicehall"])
def test_the_derived_prefix_is_a_valid_channel_name_start(name, own_redis):
    from channels.layers import BaseChannelLayer

    prefix = default_prefixes(f"sqlite:///{name}" if "/" in name else f"postgres://db/{name}", own_redis.url)[
        0
    ]
    layer = BaseChannelLayer()
    assert layer.require_valid_group_name(f"{prefix}__group__game.1")
    assert layer.require_valid_channel_name(f"{prefix}specific.{'0' * 32}!{'0' * 12}")
