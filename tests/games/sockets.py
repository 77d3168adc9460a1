"""A game's websocket as a test drives it: one browser tab that keeps everything it received."""

from __future__ import annotations

import json

from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.models import Game
from play.routing import websocket_urlpatterns
from tests.factories import GameFactory

app = URLRouter(websocket_urlpatterns)


class Client:
    """One browser tab: a communicator plus everything it has received, in order."""

    def __init__(self, user, game_id: int):
        self.user = user
        self.comm = WebsocketCommunicator(app, f"/ws/games/{game_id}/")
        self.comm.scope["user"] = user
        self.received: list[dict] = []
        self.n = 0

    async def open(self) -> dict:
        connected, code = await self.comm.connect()
        assert connected, code
        return await self.next("snapshot")

    async def next(self, kind: str, wait: float = 5) -> dict:
        """The next message of this type, keeping every message in `received`."""
        while True:
            message = json.loads(await self.comm.receive_from(timeout=wait))
            self.received.append(message)
            if message["type"] == kind:
                return message

    async def drain(self) -> None:
        while not await self.comm.receive_nothing(timeout=0.05):
            self.received.append(json.loads(await self.comm.receive_from()))

    async def act(self, action: dict, client_id: str | None = None) -> dict:
        self.n += 1
        client_id = client_id or f"{self.user.username}-{id(self)}-{self.n}"
        await self.comm.send_json_to({"type": "action", "id": client_id, "action": action})
        while True:
            reply = await self.next_any()
            if reply["type"] in ("ack", "error") and reply.get("id") == client_id:
                return reply

    async def next_any(self, wait: float = 5) -> dict:
        message = json.loads(await self.comm.receive_from(timeout=wait))
        self.received.append(message)
        return message

    async def until_seq(self, seq: int) -> dict:
        """Wait for the event with this seq (it may arrive after the ack)."""
        while not any(e["seq"] == seq for e in self.events()):
            await self.next("event")
        return next(e for e in self.events() if e["seq"] == seq)

    def events(self) -> list[dict]:
        return [m for m in self.received if m["type"] == "event"]

    async def close(self) -> None:
        await self.comm.disconnect()


@database_sync_to_async
def new_table(creator, others, kind, options=None, rated=True) -> Game:
    """The started table of ``creator`` and ``others`` (tests/factories.py GameFactory), off the loop."""
    return GameFactory(creator=creator, players=others, kind=kind, options=options, rated=rated)


async def ask_hint(tab: Client) -> dict:
    """Ask for a hint; the hint (or the error) that answers it."""
    await tab.comm.send_json_to({"type": "ask_hint"})
    while True:
        reply = await tab.next_any()
        if reply["type"] in ("hint", "error"):
            return reply


async def play_out_with_hints(tab: Client, game: Game, computer: str, engine) -> tuple[Game, list[str]]:
    """Play ``game`` to its end: the computer's turns through its task, the person's by the hints it is
    given (each checked against the engine and the coach's wording). The ended game, and the texts of
    the hints that were decisions."""
    from coach import judge
    from games.computers import tasks

    hinted: list[str] = []
    try:
        while game.status == Game.Status.PLAYING:
            if game.current_player == computer:
                assert await database_sync_to_async(tasks.play.call)(game.pk, game.seq) == "played"
            else:
                hint = await ask_hint(tab)
                assert hint["type"] == "hint" and hint["seq"] == game.seq, hint
                assert hint["action"] in engine.legal_actions(game.state)
                assert hint["text"] == judge.describe(game.kind, game.state, hint["action"])
                if hint["decision"]:
                    hinted.append(hint["text"])
                reply = await tab.act(hint["action"])
                assert reply["type"] == "ack", reply
            game = await Game.objects.aget(pk=game.pk)
    finally:
        await tab.close()
    return game, hinted
