"""GET /healthz: really touches the database and the channel layer, 503 naming what failed."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse

logger = logging.getLogger(__name__)


def _check_database() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        if cursor.fetchone() != (1,):
            raise RuntimeError("unexpected answer to SELECT 1")


async def _check_channel_layer() -> None:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer configured")
    channel = await layer.new_channel("healthz.")
    await layer.send(channel, {"type": "healthz.ping"})
    message = await layer.receive(channel)
    if message.get("type") != "healthz.ping":
        raise RuntimeError("channel layer returned a different message")
    # A receive that is cancelled is how Channels gives a channel back (the pub/sub layer
    # unsubscribes then); without it every probe would leave a subscription behind.
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(layer.receive(channel), 0.01)


async def healthz(request: HttpRequest) -> JsonResponse:
    # The whole probe's bound (HEALTHZ_TIMEOUT), each check's at once: a hung Redis (a paused process
    # accepts connections and never answers) is named within it, not after the layer's own socket
    # timeouts add up.
    timeout = settings.HEALTHZ_TIMEOUT
    checks = {
        "database": asyncio.wait_for(sync_to_async(_check_database)(), timeout),
        "channel_layer": asyncio.wait_for(_check_channel_layer(), timeout),
    }
    results = await asyncio.gather(*checks.values(), return_exceptions=True)
    body = {}
    for name, result in zip(checks, results, strict=True):
        if isinstance(result, BaseException):
            logger.warning("healthz: %s failed: %r", name, result)
            if isinstance(result, TimeoutError):
                body[name] = f"error: no answer within {timeout:g} s"
            else:
                body[name] = f"error: {type(result).__name__}: {result}"[:200]
        else:
            body[name] = "ok"
    ok = all(value == "ok" for value in body.values())
    return JsonResponse(body, status=200 if ok else 503)
