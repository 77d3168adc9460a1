"""Moves at the edges: the same action id from two tabs at once (on two server processes the game's
row lock is all they share), ids the database cannot store, and websocket paths that are not a game's."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connection, connections

from config.routing import websocket_urlpatterns
from games.live import move_async
from games.models import Action, Game
from games.tables import services
from tests.games.sockets import Client, new_table

pytestmark = pytest.mark.django_db(transaction=True)

ROLL = {"type": "roll", "keep": []}


def _in_own_thread(executor, **move):
    """The thread driver on a thread (and database connection) of its own, like another process."""

    def call():
        try:
            return services.game_apply_action(**move)
        finally:
            connections.close_all()

    return asyncio.wrap_future(executor.submit(call))


async def _waiting_for_the_lock(count: int) -> None:
    """Until ``count`` sessions wait for a row lock (both moves have sent their locking SELECT)."""
    params = move_async.connection_kwargs()
    params.pop("cursor_factory")
    async with await psycopg.AsyncConnection.connect(**params) as conn:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            cursor = await conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = %s",
                [params["dbname"]],
            )
            if (await cursor.fetchone())[0] >= count:
                return
            await asyncio.sleep(0.01)
    raise AssertionError(f"{count} moves never waited for the game's lock")


@pytest.mark.parametrize("first, second", [("thread", "thread"), ("loop", "loop"), ("thread", "loop")])
async def test_one_id_sent_by_two_tabs_at_once_is_applied_once_and_acked_twice(make_user, first, second):
    """Both moves wait for the game's row lock; the one that gets it second must see the first one's
    action (it reads the mover after taking the lock) and answer it as a duplicate."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite serialises whole transactions: the moves never wait side by side")
    ann, bob = await database_sync_to_async(make_user)("ann"), await database_sync_to_async(make_user)("bob")
    game = await new_table(ann, [bob], "farkle", {"goal": 3000})
    move = {"game_id": game.pk, "user": ann, "client_id": "tab-1", "action": ROLL}
    params = move_async.connection_kwargs()
    params.pop("cursor_factory")
    with ThreadPoolExecutor(max_workers=2) as executor:
        async with await psycopg.AsyncConnection.connect(**params) as holder:
            await holder.execute("BEGIN")
            await holder.execute("SELECT 1 FROM games_game WHERE id = %s FOR UPDATE", [game.pk])
            moves = [
                _in_own_thread(executor, **move) if path == "thread" else move_async.apply_action(**move)
                for path in (first, second)
            ]
            tasks = [asyncio.ensure_future(m) for m in moves]
            await _waiting_for_the_lock(2)
            await holder.execute("COMMIT")
            outcomes = await asyncio.gather(*tasks)
    assert sorted(o.duplicate for o in outcomes) == [False, True]
    assert {o.seq for o in outcomes} == {1}
    assert await Action.objects.filter(game_id=game.pk).acount() == 1
    assert (await Game.objects.aget(pk=game.pk)).seq == 1


@pytest.mark.parametrize("path", ["thread", "loop"])
@pytest.mark.parametrize("client_id", ["nul\x00id", "lone\ud800surrogate", "", "x" * 65, 17])
async def test_an_id_the_database_cannot_store_is_a_bad_request(make_user, settings, path, client_id):
    if path == "loop" and connection.vendor != "postgresql":
        pytest.skip("moves on the event loop are for PostgreSQL")
    settings.WS_ASYNC_MOVES = path == "loop"
    ann = await database_sync_to_async(make_user)("ann")
    game = await new_table(ann, [], "farkle", {"goal": 3000})
    tab = Client(ann, game.pk)
    await tab.open()
    await tab.comm.send_json_to({"type": "action", "id": client_id, "action": ROLL})
    reply = await tab.next("error")
    assert reply["code"] == "bad_request", reply
    assert await tab.act(ROLL)  # the socket goes on
    await tab.close()


@pytest.mark.parametrize("path", ["/ws/games/abc/", "/ws/nothing/", "/ws/games/99999999999999999999/", "/"])
async def test_a_websocket_to_a_path_that_is_no_game_is_refused_at_the_handshake(make_user, path):
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path)
    comm.scope["user"] = await database_sync_to_async(make_user)("ann")
    connected, _ = await comm.connect()
    assert not connected
