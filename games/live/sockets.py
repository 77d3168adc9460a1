"""What every websocket of the site shares (the game's, play.consumers, the notices', notices.consumers,
and the queue's, pairing.consumers): the close codes, the authentication that puts the user itself in
the scope, a dispatch without Channels' database hop, the parsing of a frame, the frame handling of the
sockets beside the game's, and the consumer that refuses any other path."""

from __future__ import annotations

import asyncio
import json
import logging

from channels.auth import AuthMiddleware, get_user
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts import sockets as account_sockets
from games.errors import Sentence

logger = logging.getLogger(__name__)

CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
CLOSE_UNAVAILABLE = 4503  # the channel layer (Redis) is down: try again later


class UserMiddleware(AuthMiddleware):
    """Channels' AuthMiddleware, with the user itself in ``scope["user"]`` instead of a lazy proxy to
    it: every attribute read through the proxy is a call of its own, and a move reads the user's
    several times (docs/BENCHMARKS.md). The session is read at the handshake, as Channels' does."""

    async def resolve_scope(self, scope) -> None:
        scope["user"] = await get_user(scope)


def UserMiddlewareStack(inner):
    return CookieMiddleware(SessionMiddleware(UserMiddleware(inner)))


class AccountSocket:
    """A signed-in player's socket that closes (4401) when its session ends: a sign-out, a password
    changed in another session, the account deleted (accounts.sockets). ``join_account`` at the
    handshake, ``leave_account`` at the close; ``ended`` is true once it closed so, and the consumer
    then handles no more frames (Channels still delivers what the client sent before it heard the
    close)."""

    ended = False

    def account_group(self) -> str:
        return account_sockets.account_group(self.scope["user"].pk)

    def session_mark(self) -> str:
        session = self.scope.get("session")
        return account_sockets.session_mark(session.session_key if session is not None else None)

    async def account_ended(self, event: dict) -> None:
        if self.ended or not account_sockets.ends(event, self.session_mark()):
            return
        self.ended = True
        await self.close(code=CLOSE_UNAUTHENTICATED)


class NoSuchPathConsumer(AsyncWebsocketConsumer):
    """Any websocket path that is not a game's: refused at the handshake (HTTP 403), as a game that
    does not exist is, instead of the router's exception (HTTP 500)."""

    async def connect(self) -> None:
        await self.close(code=CLOSE_NOT_FOUND)


class NoConnectionHop:
    """Channels' dispatch without its close_old_connections before every message: that is a hop to
    Channels' database thread per frame and per group message received (with thousands of quiet
    sockets, their pings and notices kept that thread and the event loop trading the GIL), and the
    consumers that take this do their database work in games.live.game_threads, whose calls close old
    connections themselves. Put it before Channels' consumer class in the bases."""

    async def dispatch(self, message: dict) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)


def parse(text_data: str | None, bytes_data: bytes | None) -> tuple[dict | None, tuple[str, str] | None]:
    """The frame as a message, or the (code, message) of the error that answers it."""
    limit = settings.WS_MAX_MESSAGE_BYTES
    if text_data is None:
        return None, ("binary", _("Binary frames are not understood; send JSON text."))
    # Characters first (cheap), then bytes: a character is up to four bytes of UTF-8.
    if len(text_data) > limit or (len(text_data) * 4 > limit and len(text_data.encode()) > limit):
        return None, ("too_large", Sentence(_("Messages may be at most %(limit)s bytes."), limit=limit))
    try:
        message = json.loads(text_data)
    except (ValueError, RecursionError):
        return None, ("bad_json", _("That message is not valid JSON."))
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        return None, ("bad_message", _("A message must be a JSON object with a type."))
    return message, None


class PlayerSocket(AccountSocket, NoConnectionHop):
    """A signed-in player's socket beside the game's (notices, the queue): each frame parsed and counted
    against the rate limits (``self.limiter``, set at connect), then handled by ``HANDLERS[type]``;
    errors in the reader's language (``self.language``) with a null id; channel-layer calls that report
    failure instead of raising. ``NAME`` says which socket in the logs."""

    NAME = "socket"
    HANDLERS: dict = {}

    async def receive(self, text_data=None, bytes_data=None) -> None:
        if self.ended:
            return
        message, error = parse(text_data, bytes_data)
        refusal = await self.limiter.check("messages")
        if refusal is not None:
            await self._error("rate_limited", refusal, retry_after=refusal.retry_after)
            return
        if error is not None:
            await self._error(*error)
            return
        handler = self.HANDLERS.get(message["type"])
        if handler is None:
            kind = message["type"][:40]
            await self._error("unknown_type", Sentence(_("Unknown message type %(type)s."), type=repr(kind)))
            return
        await handler(self, message)

    async def _error(self, code: str, message, **extra) -> None:
        """``message``: a lazy sentence, a GameError or a rate-limit refusal, in the reader's language."""
        with translation.override(self.language):
            text = message.message if hasattr(message, "message") else str(message)
        await self.send_json({"type": "error", "id": None, "code": code, "message": text, **extra})

    async def _layer(self, method: str, group: str) -> bool:
        try:
            async with asyncio.timeout(settings.WS_LAYER_TIMEOUT):
                await getattr(self.channel_layer, method)(group, self.channel_name)
        except Exception:
            logger.warning("channel layer %s for the %s socket failed", method, self.NAME, exc_info=True)
            return False
        return True
