"""Telling every socket of a game what happened, after the transaction that stored it has committed."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)


def group_name(game_id: int) -> str:
    return f"game.{game_id}"


def send_now(game_id: int, payload: dict) -> bool:
    """Send ``payload`` to every socket of the game; False (logged) if the channel layer failed.

    A failed send loses nothing: the action is stored, its sender got an ack, and every client
    catches up through `sync` when it sees a gap in seq.
    """
    layer = get_channel_layer()
    try:
        async_to_sync(layer.group_send)(group_name(game_id), {"type": "game.message", "payload": payload})
    except Exception:
        logger.exception("broadcast to game %s failed; clients will resync", game_id)
        return False
    return True


def send_on_commit(game_id: int, payload: dict) -> None:
    transaction.on_commit(lambda: send_now(game_id, payload))
