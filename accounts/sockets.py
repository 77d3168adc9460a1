"""Ending a player's open websockets when a session of theirs ends: on sign-out (that session's), when
the password changes (every session but the one that changed it) and when the account is deleted (all).

Every socket of the site (games, notices, queue) joins its player's group at the handshake
(``account_group``) and remembers which session opened it (``session_mark``); one group message reaches
every socket of the player on every server process, and each socket decides from the message alone
whether it is one of those to close (games.live.sockets.AccountSocket). Nothing is read per frame: a
move costs what it did.

A socket is authenticated once, at its handshake (Channels reads the session there); without this a
socket opened before a sign-out went on making moves for the signed-out player."""

from __future__ import annotations

import asyncio
import hashlib
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import transaction

logger = logging.getLogger(__name__)


def account_group(user_id: int) -> str:
    """The channel-layer group of every socket of one player."""
    return f"account.{user_id}"


def session_mark(session_key: str | None) -> str:
    """What stands for a session in the group's messages: a digest of its key, never the key itself
    (the messages pass through Redis, where a key would be a session to take over)."""
    if not session_key:
        return ""
    return hashlib.sha256(f"dicehall-socket-session:{session_key}".encode()).hexdigest()[:32]


def ends(event: dict, mark: str) -> bool:
    """Whether an ``account.ended`` message closes the socket of the session ``mark``: ``only`` names
    the one session ended (a sign-out), ``keep`` the one that stays (the password's new holder)."""
    only, keep = event.get("only"), event.get("keep")
    return (only is None or only == mark) and (keep is None or keep != mark)


def end_sockets(*, user_id: int, only: str | None = None, keep: str | None = None) -> None:
    """Close the player's sockets (those of session ``only``, or all but those of ``keep``) once the
    transaction that ends their sessions has committed. A channel layer that is down is logged: the
    session is gone all the same, and the sockets end at their next handshake."""
    message = {"type": "account.ended", "only": only, "keep": keep}

    async def send() -> None:
        layer = get_channel_layer()
        if layer is not None:
            await asyncio.wait_for(
                layer.group_send(account_group(user_id), message), settings.WS_LAYER_TIMEOUT
            )

    def deliver() -> None:
        try:
            async_to_sync(send)()
        except Exception:
            logger.exception("closing the sockets of user %s failed", user_id)

    transaction.on_commit(deliver)
