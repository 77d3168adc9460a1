"""Telling every socket of a game what happened, after the transaction that stored it has committed."""

from __future__ import annotations

import asyncio
import json
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)


def group_name(game_id: int) -> str:
    return f"game.{game_id}"


def layer_message(payload: dict) -> dict:
    """The channel-layer message that carries ``payload`` to the consumers of a game.

    The payload travels as its JSON text, encoded once here rather than once per socket (an event holds
    the whole game state), and the consumers send the text as it is. ``access_revoked`` travels as data:
    the consumers read it (it closes one user's sockets) and never forward it.
    """
    if payload.get("type") == "access_revoked":
        return {"type": "game.message", "payload": payload}
    return {"type": "game.message", "text": json.dumps(payload, separators=(",", ":"))}


def send_now(game_id: int, payload: dict) -> bool:
    """Send ``payload`` to every socket of the game; False (logged) if the channel layer failed.

    A failed send loses nothing: the action is stored, its sender got an ack, and every client
    catches up through `sync` when it sees a gap in seq.
    """
    layer = get_channel_layer()
    message = layer_message(payload)

    async def send() -> None:
        # A stalled Redis must not hold the thread that runs every database call of this process.
        await asyncio.wait_for(layer.group_send(group_name(game_id), message), settings.WS_LAYER_TIMEOUT)

    try:
        async_to_sync(send)()
    except Exception:
        logger.exception("broadcast to game %s failed; clients will resync", game_id)
        return False
    return True


def send_on_commit(game_id: int, payload: dict) -> None:
    transaction.on_commit(lambda: send_now(game_id, payload))
