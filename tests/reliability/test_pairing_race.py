"""Play someone now across two daphne processes: players ask at the same moment, half of
them through each process, several rounds; nobody is seated at two tables, every table is full, and
every player's queue socket, on whichever process, hears the table it sits at."""

from __future__ import annotations

import asyncio
import threading
from collections import Counter

import pytest
from channels.db import database_sync_to_async

from games.models import Game
from pairing.models import Seek
from tests.protocol import check_server_frame
from tests.reliability.conftest import form_page, post_form, requires_real_backends, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)
PLAYERS = 12
ROUNDS = 3


def _form_token(server, cookie: str) -> tuple[str, str]:
    """The page's CSRF form token and the cookie header that goes with it."""
    _html, token, with_csrf = form_page(server, "/play/", cookie)
    return token, with_csrf


def _ask(server, cookie: str, token: str) -> int:
    fields = {"csrfmiddlewaretoken": token, "kind": "farkle", "goal": 3000, "seats": 2, "pace": "live"}
    return post_form(server, "/play/ask/", cookie, fields)[0]


async def _queue_socket(server, cookie: str):
    from websockets.asyncio.client import connect

    ws = await connect(
        f"ws://127.0.0.1:{server.port}/ws/queue/",
        origin=server.url,
        additional_headers={"Cookie": cookie},
        open_timeout=10,
        ping_interval=None,
    )
    first = check_server_frame(await asyncio.wait_for(ws.recv(), 10), "queue")
    assert first["type"] == "queue" and not first["waiting"]
    return ws


async def _seated(ws, wait: float = 20) -> int:
    while True:
        frame = check_server_frame(await asyncio.wait_for(ws.recv(), wait), "queue")
        if frame["type"] == "seated":
            return frame["game"]


def _all_ask_at_once(servers, asks: list[tuple[int, str, str]]) -> list[int]:
    """Every (server index, form token, cookie) posted at the same moment, one thread each."""
    barrier = threading.Barrier(len(asks))
    statuses = [0] * len(asks)

    def go(i: int) -> None:
        where, token, cookie = asks[i]
        barrier.wait()
        statuses[i] = _ask(servers[where], cookie, token)

    threads = [threading.Thread(target=go, args=(i,)) for i in range(len(asks))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return statuses


def _tables(game_ids: list[int]) -> tuple[list[tuple[int, int]], dict[int, list[int]], int]:
    """The seated seeks (user, game) of these games, each game's seated users, and how many still wait."""
    seated = list(
        Seek.objects.filter(status=Seek.Status.SEATED, game_id__in=game_ids).values_list("user_id", "game_id")
    )
    games = {
        g.pk: sorted(g.seats.values_list("user_id", flat=True)) for g in Game.objects.filter(pk__in=game_ids)
    }
    return seated, games, Seek.objects.filter(status=Seek.Status.WAITING).count()


@requires_real_backends
async def test_two_processes_never_seat_a_player_twice(make_user, daphne):
    servers = [daphne("a"), daphne("b")]
    users = [await database_sync_to_async(make_user)(f"p{i}") for i in range(PLAYERS)]
    cookies = [await database_sync_to_async(session_cookie)(u) for u in users]
    for round_ in range(ROUNDS):
        # Each player's page on one process; their request, in this round, through either.
        sockets = [await _queue_socket(servers[i % 2], c) for i, c in enumerate(cookies)]
        asks = []
        for i, cookie in enumerate(cookies):
            where = (i + round_) % 2
            token, with_csrf = await asyncio.to_thread(_form_token, servers[where], cookie)
            asks.append((where, token, with_csrf))
        statuses = await asyncio.to_thread(_all_ask_at_once, servers, asks)
        assert statuses == [302] * PLAYERS, statuses
        heard = await asyncio.gather(*(_seated(ws) for ws in sockets))
        for ws in sockets:
            await ws.close()
        seated, games, waiting = await database_sync_to_async(_tables)(list(set(heard)))
        assert sorted(u for u, _ in seated) == sorted(u.pk for u in users)  # each player once
        assert dict(seated) == {u.pk: g for u, g in zip(users, heard, strict=True)}  # heard its own table
        assert set(Counter(g for _, g in seated).values()) == {2}  # every table full
        assert len(games) == PLAYERS // 2 and all(len(set(seats)) == 2 for seats in games.values())
        assert waiting == 0
