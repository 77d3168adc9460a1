"""A player's open websockets end with their session: a sign-out closes that session's sockets, a
password change every other session's, a reset every session's (accounts.sockets). The whole ASGI stack
(origin check, session authentication) as daphne runs it, on the embedded backends and on PostgreSQL +
Redis alike (the channel layer from the settings)."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from config.asgi import application
from games.models import Action, Game
from tests.factories import PASSWORD, started_farkle_pair

pytestmark = pytest.mark.django_db(transaction=True)

ORIGIN = b"http://127.0.0.1"
NEW_PASSWORD = "a-brand-new-password-77"


def signed_in(user) -> tuple[Client, str]:
    """A real sign-in (a session of its own) and its cookie."""
    client = Client()
    assert (
        client.post("/accounts/login/", {"username": user.username, "password": PASSWORD}).status_code == 302
    )
    return client, f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


@database_sync_to_async
def setup(make_user):
    return started_farkle_pair(make_user)


async def open_socket(path: str, cookie: str) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(
        application,
        path,
        headers=[(b"host", b"127.0.0.1"), (b"origin", ORIGIN), (b"cookie", cookie.encode())],
    )
    connected, code = await comm.connect(timeout=5)
    assert connected, code
    await comm.receive_json_from(timeout=5)  # the snapshot, the feed or the queue
    return comm


async def close_code(comm: WebsocketCommunicator) -> int:
    """The code the server closed the socket with (frames sent before the close are skipped)."""
    async with asyncio.timeout(10):
        while True:
            output = await comm.receive_output(timeout=10)
            if output["type"] == "websocket.close":
                return output.get("code")


async def still_open(comm: WebsocketCommunicator) -> None:
    await comm.send_json_to({"type": "ping"})
    while (frame := await comm.receive_json_from(timeout=10))["type"] != "pong":
        assert frame["type"] in {"presence", "event", "lobby", "notices"}, frame


async def sockets_of(cookie: str, game_id: int) -> list[WebsocketCommunicator]:
    return [
        await open_socket(f"/ws/games/{game_id}/", cookie),
        await open_socket("/ws/notices/", cookie),
        await open_socket("/ws/queue/", cookie),
    ]


async def stored(game_id: int) -> tuple[int, int]:
    """The game's seq and its stored actions."""

    def read() -> tuple[int, int]:
        return Game.objects.get(pk=game_id).seq, Action.objects.filter(game_id=game_id).count()

    return await database_sync_to_async(read)()


async def an_action_is_not_applied(game_socket: WebsocketCommunicator, game_id: int) -> None:
    before = await stored(game_id)
    await game_socket.send_json_to(
        {"type": "action", "id": "after-the-end", "action": {"type": "roll", "keep": []}}
    )
    # Nothing answers it; a ping after it on the same socket is not answered either, so the frame
    # was seen and dropped, not merely slow.
    await game_socket.send_json_to({"type": "ping"})
    assert await game_socket.receive_nothing(timeout=0.5)
    assert await stored(game_id) == before


async def test_signing_out_closes_that_sessions_sockets_and_no_action_is_applied(make_user):
    game_id, mover = await setup(make_user)
    client, cookie = await sync_to_async(signed_in)(mover)
    _, other_cookie = await sync_to_async(signed_in)(mover)
    mine = await sockets_of(cookie, game_id)
    other = await sockets_of(other_cookie, game_id)
    assert (await sync_to_async(client.post)("/accounts/logout/")).status_code == 302
    for comm in mine:
        assert await close_code(comm) == 4401
    await an_action_is_not_applied(mine[0], game_id)
    # The player's other session (another device) is still signed in, and plays on.
    for comm in other:
        await still_open(comm)
    await other[0].send_json_to(
        {"type": "action", "id": "other-device", "action": {"type": "roll", "keep": []}}
    )
    while (frame := await other[0].receive_json_from(timeout=10))["type"] != "ack":
        assert frame["type"] in {"event", "presence"}, frame
    assert frame["id"] == "other-device"
    for comm in mine + other:
        await comm.disconnect()


async def test_a_password_change_closes_the_other_sessions_sockets_not_its_own(make_user):
    game_id, mover = await setup(make_user)
    _, stolen_cookie = await sync_to_async(signed_in)(mover)  # say, a session someone else took
    changer, changer_cookie = await sync_to_async(signed_in)(mover)
    stolen = await sockets_of(stolen_cookie, game_id)
    own = await sockets_of(changer_cookie, game_id)
    response = await sync_to_async(changer.post)(
        "/accounts/password/change/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    for comm in stolen:
        assert await close_code(comm) == 4401
    await an_action_is_not_applied(stolen[0], game_id)
    for comm in own:
        await still_open(comm)
    # The device that changed it stays signed in: it may open new sockets (with its new session key).
    new_cookie = f"{settings.SESSION_COOKIE_NAME}={changer.cookies[settings.SESSION_COOKIE_NAME].value}"
    again = await open_socket(f"/ws/games/{game_id}/", new_cookie)
    # The other session is over: its handshake is refused.
    refused = WebsocketCommunicator(
        application,
        f"/ws/games/{game_id}/",
        headers=[(b"host", b"127.0.0.1"), (b"origin", ORIGIN), (b"cookie", stolen_cookie.encode())],
    )
    assert await refused.connect(timeout=5) == (False, 4401)
    for comm in [*stolen, *own, again]:
        await comm.disconnect()


async def test_a_password_reset_closes_every_sessions_sockets(make_user):
    game_id, mover = await setup(make_user)
    _, cookie = await sync_to_async(signed_in)(mover)
    mine = await sockets_of(cookie, game_id)
    uid = urlsafe_base64_encode(force_bytes(mover.pk))
    await database_sync_to_async(mover.refresh_from_db)()  # the token is of the user as signed in
    token = await sync_to_async(default_token_generator.make_token)(mover)
    stranger = Client()
    assert (await sync_to_async(stranger.get)(f"/accounts/reset/{uid}/{token}/")).status_code == 302
    response = await sync_to_async(stranger.post)(
        f"/accounts/reset/{uid}/set-password/", {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert response.status_code == 302
    for comm in mine:
        assert await close_code(comm) == 4401
    await an_action_is_not_applied(mine[0], game_id)
    for comm in mine:
        await comm.disconnect()
