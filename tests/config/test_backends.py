"""The backends in use are the ones the environment asks for, proven by a round trip through each.

In CI's second run DATABASE_URL and REDIS_URL are set: these tests then prove the suite really ran on
PostgreSQL and channels-redis; on the embedded default they prove SQLite and the in-memory layer.
"""

from __future__ import annotations

import asyncio
import os

import pytest
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings
from django.db import connection
from django.utils.module_loading import import_string

from accounts.models import User
from infra.pipelined_layer import PipelinedLayer


@pytest.mark.django_db
def test_database_backend_matches_environment_and_round_trips():
    expected = "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "sqlite"
    assert connection.vendor == expected
    User.objects.create_user(username="roundtrip", password="x-very-long-pass")
    assert User.objects.get(username="roundtrip").check_password("x-very-long-pass")
    if expected == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT version()")
            assert cursor.fetchone()[0].startswith("PostgreSQL")


async def test_channel_layer_matches_environment_and_round_trips():
    layer = get_channel_layer()
    if os.environ.get("REDIS_URL"):
        assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == settings.CHANNEL_LAYER_BACKEND
        assert type(layer) is import_string(settings.CHANNEL_LAYER_BACKEND)
        assert isinstance(layer, RedisPubSubChannelLayer | RedisChannelLayer | PipelinedLayer)
    else:
        assert type(layer).__name__ == "InMemoryChannelLayer"
    channel = await layer.new_channel()
    await layer.group_add("roundtrip", channel)
    await layer.group_send("roundtrip", {"type": "probe", "n": 7})
    message = await asyncio.wait_for(layer.receive(channel), 5)
    assert message == {"type": "probe", "n": 7}
    await layer.group_discard("roundtrip", channel)


def test_ci_really_uses_real_backends():
    """CI sets REQUIRE_REAL_BACKENDS in its second run: fail loudly if the URLs did not take effect."""
    if os.environ.get("REQUIRE_REAL_BACKENDS") != "1":
        assert "DATABASE_URL" not in os.environ or settings.DATABASES["default"]["ENGINE"].endswith(
            "postgresql"
        )
        return
    assert settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    layer_class = import_string(settings.CHANNEL_LAYERS["default"]["BACKEND"])
    assert issubclass(layer_class, RedisPubSubChannelLayer | RedisChannelLayer | PipelinedLayer)
