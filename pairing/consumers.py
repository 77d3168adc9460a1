"""The queue websocket at /ws/queue/, open on the "Play someone now" page of a signed-in player: the
player's place in the queue (``queue``), sent again whenever the queue changes, and ``seated`` with the
game once pairing has seated them.

Frames in: {"type": "ping"} (answered with a pong; it keeps a live seek in the queue: a page closed for
a while leaves it, pairing.services.STALE_AFTER). Everything else is answered with an error, as on the
other sockets. Leaving the queue is a form's POST (the page works without a socket too)."""

from __future__ import annotations

import logging

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from accounts.language import scope_language
from games.live.game_threads import database_sync_to_async
from games.live.sockets import CLOSE_UNAUTHENTICATED, CLOSE_UNAVAILABLE, PlayerSocket
from infra.ratelimit import ConnectionLimiter
from pairing import seating, services

logger = logging.getLogger(__name__)


class QueueConsumer(PlayerSocket, AsyncJsonWebsocketConsumer):
    NAME = "queue"

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.joined = False
        self.language = scope_language(self.scope)
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.limiter = ConnectionLimiter(self.user.pk)
        self.queue_group: str | None = None
        user_group = seating.user_group(self.user.pk)
        if not await self._layer("group_add", user_group) or not await self._layer(
            "group_add", self.account_group()
        ):
            await self._layer("group_discard", user_group)
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
            await self._layer("group_discard", self.account_group())

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

    async def on_ping(self, message: dict) -> None:
        await self._db(lambda: services.seek_seen(user=self.user))()
        await self.send_json({"type": "pong"})

    HANDLERS = {"ping": on_ping}

    # --- channel-layer handlers ---------------------------------------------------------------------

    async def pairing_changed(self, event: dict) -> None:
        await self._send_state()

    async def pairing_seated(self, event: dict) -> None:
        game = event["game"]
        await self.send_json({"type": "seated", "game": game, "url": seating.game_url(game)})
