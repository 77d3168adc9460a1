"""The benchmark's baseline: Channels itself, with no database and no rules.

Served at /ws/bench/<id>/ by the benchmark's own server (bench/asgi.py), never by the site's. A seat's
frame is `group_send`-ed unchanged (so the same size) to every socket of the "game"; the load generator
puts the event it would have received from the real server in that frame, so both servers carry the same
bytes. The handshake passes through the same authentication stack as the game socket (a session lookup,
games.live.sockets.UserMiddlewareStack), and a socket that is not signed in is refused the same way. A
ping is answered with a pong to its sender only, as the real sockets answer it (the quiet sockets of
bench/loadgen.py ping every 25 s); the real server also writes a "seen" time per ping, which the baseline
does not.
"""

from __future__ import annotations

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path

READY = '{"type":"snapshot"}'
PING, PONG = '{"type":"ping"}', '{"type":"pong"}'


class BaselineConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        self.group = f"bench.{int(self.scope['url_route']['kwargs']['game_id'])}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=READY)  # the client knows it is in the group from here on

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if text_data == PING:
            await self.send(text_data=PONG)
        elif text_data is not None:
            await self.channel_layer.group_send(self.group, {"type": "bench.relay", "text": text_data})

    async def bench_relay(self, event: dict) -> None:
        await self.send(text_data=event["text"])


websocket_urlpatterns = [path("ws/bench/<int:game_id>/", BaselineConsumer.as_asgi())]
