"""The queue websocket at /ws/queue/, open on the "Play someone now" page of a signed-in player: the
player's place in the queue (``queue``), sent again whenever the queue changes, and ``seated`` with the
game once pairing has seated them.

Frames in: {"type": "ping"} (answered with a pong; it keeps a live seek in the queue: a page closed for
a while leaves it, pairing.services.STALE_AFTER). Everything else is answered with an error, as on the
other sockets. Leaving the queue is a form's POST (the page works without a socket too)."""

from __future__ import annotations

import asyncio
import logging

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.language import scope_language
from games.errors import Sentence
from games.live.dbpool import database_sync_to_async
from games.live.sockets import CLOSE_UNAUTHENTICATED, CLOSE_UNAVAILABLE, NoConnectionHop, parse
from infra.ratelimit import ConnectionLimiter
from pairing import seating, services

logger = logging.getLogger(__name__)


class QueueConsumer(NoConnectionHop, AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.joined = False
        self.language = scope_language(self.scope)
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.limiter = ConnectionLimiter(self.user.pk)
        self.queue_group: str | None = None
        if not await self._layer("group_add", seating.user_group(self.user.pk)):
            await self.close(code=CLOSE_UNAVAILABLE)
            return
        self.joined = True
        await self.accept()
        await self._send_state()

    async def disconnect(self, code: int) -> None:
        if self.joined:
            self.joined = False
            if self.queue_group:
                await self._layer("group_discard", self.queue_group)
            await self._layer("group_discard", seating.user_group(self.user.pk))

    async def _layer(self, method: str, group: str) -> bool:
        try:
            async with asyncio.timeout(settings.WS_LAYER_TIMEOUT):
                await getattr(self.channel_layer, method)(group, self.channel_name)
        except Exception:
            logger.warning("channel layer %s for the queue failed", method, exc_info=True)
            return False
        return True

    def _db(self, func):
        return database_sync_to_async(func, self.user.pk)

    def _read(self) -> tuple[dict, str | None]:
        services.seek_seen(user=self.user)
        seek = services.waiting_seek(self.user)
        return services.queue_state(self.user), seek.queue if seek is not None else None

    async def _send_state(self) -> None:
        """Send the player's place in the queue, and hear their queue's changes while they wait."""
        state, queue = await self._db(self._read)()
        group = seating.queue_group(queue) if queue else None
        if group != self.queue_group:
            if self.queue_group:
                await self._layer("group_discard", self.queue_group)
            self.queue_group = group if group and await self._layer("group_add", group) else None
        await self.send_json(state)

    async def receive(self, text_data=None, bytes_data=None) -> None:
        message, error = parse(text_data, bytes_data)
        refusal = await self.limiter.check("messages")
        if refusal is not None:
            await self._error("rate_limited", refusal, retry_after=refusal.retry_after)
            return
        if error is not None:
            await self._error(*error)
            return
        kind = message["type"]
        if kind == "ping":
            await self._db(lambda: services.seek_seen(user=self.user))()
            await self.send_json({"type": "pong"})
        else:
            await self._error(
                "unknown_type", Sentence(_("Unknown message type %(type)s."), type=repr(kind[:40]))
            )

    async def _error(self, code: str, message, **extra) -> None:
        with translation.override(self.language):
            text = message.message if hasattr(message, "message") else str(message)
        await self.send_json({"type": "error", "id": None, "code": code, "message": text, **extra})

    # --- channel-layer handlers ---------------------------------------------------------------------

    async def pairing_changed(self, event: dict) -> None:
        await self._send_state()

    async def pairing_seated(self, event: dict) -> None:
        game = event["game"]
        await self.send_json({"type": "seated", "game": game, "url": seating.game_url(game)})
