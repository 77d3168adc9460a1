"""The queue socket (/ws/queue/): the waiting player's place in the queue, live, and ``seated`` for
every player of a table pairing made; nothing for the players of other queues."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from config.routing import websocket_urlpatterns
from pairing import services
from tests.protocol import message_types

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]
app = URLRouter(websocket_urlpatterns)


class Page:
    def __init__(self, user):
        self.comm = WebsocketCommunicator(app, "/ws/queue/")
        self.comm.scope["user"] = user

    async def open(self) -> dict:
        connected, code = await self.comm.connect()
        assert connected, code
        return await self.next()

    async def next(self, wait: float = 5) -> dict:
        return json.loads(await self.comm.receive_from(timeout=wait))

    async def send(self, message) -> dict:
        await self.comm.send_to(text_data=message if isinstance(message, str) else json.dumps(message))
        return await self.next()

    async def quiet(self) -> bool:
        return await self.comm.receive_nothing(timeout=0.3)


@database_sync_to_async
def ask(user, goal=3000):
    return services.seek_create(user=user, kind="farkle", options={"goal": goal})


async def test_a_signed_out_page_gets_no_socket():
    comm = WebsocketCommunicator(app, "/ws/queue/")
    comm.scope["user"] = AnonymousUser()
    connected, code = await comm.connect()
    assert not connected and code == 4401


async def test_the_waiting_players_see_the_queue_and_both_hear_that_they_are_seated(make_user):
    ann, bob, cid = [await database_sync_to_async(make_user)(n) for n in ("ann", "bob", "cid")]
    await ask(ann)
    await ask(cid, goal=10000)  # another queue: hears nothing of ann's
    pages = {"ann": Page(ann), "cid": Page(cid)}
    first = await pages["ann"].open()
    assert first["waiting"] and first["others"] == 0 and first["window"] == 100
    assert first["game_name"] == "Farkle (3000)" and first["rating"] == 1500
    assert (await pages["cid"].open())["waiting"]
    bob_page = Page(bob)
    assert await bob_page.open() == {"type": "queue", "waiting": False}
    seek = await ask(bob)
    assert seek.game_id is not None
    url = f"/games/{seek.game_id}/"
    # ann's page hears the seating (and the queue's change, which now says where she sits), bob's too.
    ann_frames = [await pages["ann"].next(), await pages["ann"].next()]
    assert {"type": "seated", "game": seek.game_id, "url": url} in ann_frames
    bob_frames = [await bob_page.next()]
    assert bob_frames == [{"type": "seated", "game": seek.game_id, "url": url}]
    assert await pages["cid"].quiet()
    for page in (*pages.values(), bob_page):
        await page.comm.disconnect()


async def test_a_ping_keeps_the_request_and_garbage_gets_an_error(make_user):
    ann = await database_sync_to_async(make_user)("ann")
    await ask(ann)
    page = Page(ann)
    await page.open()
    assert await page.send({"type": "ping"}) == {"type": "pong"}
    for bad, code in (("{", "bad_json"), ({"type": "dance"}, "unknown_type"), ("[]", "bad_message")):
        frame = await page.send(bad)
        assert frame["type"] == "error" and frame["code"] == code and frame["id"] is None
    # Leaving in another tab: this page hears it.
    await database_sync_to_async(services.seek_leave)(user=ann)
    assert await page.next() == {"type": "queue", "waiting": False}
    await page.comm.disconnect()


async def test_the_queue_socket_sends_only_its_schemas_messages():
    assert set(message_types("queue")) == {"queue", "seated", "pong", "error"}
