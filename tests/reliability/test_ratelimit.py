"""Rate limits per connection and per user, on actions and on every other frame (sync, ping, garbage).

The limits are settings (WS_RATE_*_PER_10S); these tests lower them and move the clock (time_machine:
the per-socket logs and the `limits` library's moving windows read time.time, in memory and on Redis,
where the hits' timestamps are the client's). The
defaults never bite normal play: the full-game consumer tests (tests/games/test_consumers.py) send their
actions as fast as the server answers, with the default settings.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import time
import uuid

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.models import Game
from games.tables import services
from infra import ratelimit
from play.routing import websocket_urlpatterns
from tests.reliability.conftest import Socket, requires_real_backends, session_cookie

app = URLRouter(websocket_urlpatterns)
NOW = 1_800_000_000.0


@pytest.fixture
def clock(time_machine):
    """The wall clock, frozen at NOW; `clock.advance(s)` moves it (asyncio's monotonic clock runs on)."""
    time_machine.move_to(NOW, tick=False)

    class Clock:
        @staticmethod
        def advance(seconds):
            time_machine.shift(seconds)

    return Clock()


@pytest.fixture
def limits(settings):
    def set_limits(actions=10**6, messages=10**6, user_actions=10**6, user_messages=10**6):
        settings.WS_RATE_ACTIONS_PER_10S = actions
        settings.WS_RATE_MESSAGES_PER_10S = messages
        settings.WS_RATE_USER_ACTIONS_PER_10S = user_actions
        settings.WS_RATE_USER_MESSAGES_PER_10S = user_messages

    return set_limits


@database_sync_to_async
def table(ann, bob) -> Game:
    game = services.game_create(creator=ann, kind="farkle", seats=2)
    services.game_join(game_id=game.pk, user=bob)
    services.game_start(game_id=game.pk, user=ann)
    return game


async def opened(user, game_id):
    comm = WebsocketCommunicator(app, f"/ws/games/{game_id}/")
    comm.scope["user"] = user
    connected, code = await comm.connect()
    assert connected, code
    assert (await comm.receive_json_from(timeout=5))["type"] == "snapshot"
    return comm


async def answer(comm, frame: dict) -> dict:
    await comm.send_json_to(frame)
    while True:
        message = json.loads(await comm.receive_from(timeout=5))
        if message["type"] not in ("presence", "event"):
            return message


@pytest.mark.django_db(transaction=True)
async def test_actions_per_connection(make_user, limits, clock):
    limits(actions=5)
    ann, bob = await database_sync_to_async(lambda: (make_user("ann"), make_user("bob")))()
    game = await table(ann, bob)
    comm = await opened(bob, game.pk)  # out of turn: every action is refused by the rules, not applied
    for n in range(5):
        reply = await answer(comm, {"type": "action", "id": f"b{n}", "action": {"type": "roll", "keep": []}})
        assert reply["code"] == "illegal_action"
    limited = await answer(comm, {"type": "action", "id": "b5", "action": {"type": "roll", "keep": []}})
    assert limited["code"] == "rate_limited" and limited["id"] == "b5"
    assert limited["message"] == (
        "Too many actions on this connection: at most 5 every 10 seconds. Wait 10 s and try again."
    )
    assert limited["retry_after"] == 10
    # Other frames are not actions: they still pass.
    assert (await answer(comm, {"type": "ping"}))["type"] == "pong"
    clock.advance(4)
    assert (await answer(comm, {"type": "action", "id": "b6", "action": {}}))["retry_after"] == 6
    clock.advance(6.01)  # the window has slid past the first five; refused frames did not count
    reply = await answer(comm, {"type": "action", "id": "b7", "action": {"type": "roll", "keep": []}})
    assert reply["code"] == "illegal_action"
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_sync_and_ping_per_connection(make_user, limits, clock):
    limits(messages=6)
    ann, bob = await database_sync_to_async(lambda: (make_user("ann"), make_user("bob")))()
    game = await table(ann, bob)
    comm = await opened(ann, game.pk)
    for frame in [{"type": "ping"}, {"type": "sync", "seq": 0}] * 3:
        assert (await answer(comm, frame))["type"] in ("pong", "snapshot")
    for frame in ({"type": "ping"}, {"type": "sync", "seq": 0}, "garbage"):
        if isinstance(frame, str):
            await comm.send_to(text_data=frame)
            reply = json.loads(await comm.receive_from(timeout=5))
        else:
            reply = await answer(comm, frame)
        assert reply["code"] == "rate_limited", reply
        assert reply["id"] is None
        assert reply["message"].startswith(
            "Too many messages on this connection: at most 6 every 10 seconds."
        )
    # An action is a message too: refused with its id, and nothing applied.
    reply = await answer(comm, {"type": "action", "id": "a1", "action": {"type": "roll", "keep": []}})
    assert (reply["code"], reply["id"]) == ("rate_limited", "a1")
    assert (await database_sync_to_async(Game.objects.get)(pk=game.pk)).seq == 0
    clock.advance(10)
    assert (await answer(comm, {"type": "ping"}))["type"] == "pong"
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_per_user_limit_spans_connections(make_user, limits, clock):
    limits(user_messages=8, user_actions=4)
    ann, bob = await database_sync_to_async(lambda: (make_user("ann"), make_user("bob")))()
    game = await table(ann, bob)
    tabs = [await opened(bob, game.pk) for _ in range(2)]
    other = await opened(ann, game.pk)
    for n in range(4):
        assert (await answer(tabs[n % 2], {"type": "ping"}))["type"] == "pong"
    clock.advance(5)
    for n in range(4):  # 8 messages from bob now, 4 of them actions
        frame = {"type": "action", "id": f"x{n}", "action": {"type": "bank", "keep": [0]}}
        assert (await answer(tabs[n % 2], frame))["code"] == "illegal_action"
    frame = {"type": "action", "id": "x4", "action": {"type": "bank", "keep": [0]}}
    reply = await answer(tabs[0], frame)
    assert (reply["code"], reply["id"]) == ("rate_limited", "x4")
    assert "actions from your account: at most 4 every 10 seconds" in reply["message"]
    for tab in tabs:
        reply = await answer(tab, {"type": "ping"})
        assert reply["code"] == "rate_limited"
        assert "messages from your account: at most 8 every 10 seconds" in reply["message"]
        assert reply["retry_after"] == 5  # when the first four pings leave the last 10 s
    # Another user is not affected.
    assert (await answer(other, {"type": "ping"}))["type"] == "pong"
    clock.advance(4.9)  # the first four pings are 9.9 s old: still inside the window
    assert (await answer(tabs[0], {"type": "ping"}))["retry_after"] == 1
    clock.advance(0.11)  # ...and out of it now: four of eight free; the refused frames did not count
    for n in range(4):
        assert (await answer(tabs[n % 2], {"type": "ping"}))["type"] == "pong"
    reply = await answer(tabs[0], {"type": "ping"})
    assert (reply["code"], reply["retry_after"]) == ("rate_limited", 5)
    for comm in [*tabs, other]:
        await comm.disconnect()


@pytest.mark.django_db
def test_shared_limit_is_a_moving_window(clock):
    """At most the limit in any period: a hit leaves the count exactly one period after it was made."""
    key = f"unit:moving-{uuid.uuid4().hex}"
    assert all(ratelimit.shared_hit(key, 10) is None for _ in range(5))
    clock.advance(5)
    assert all(ratelimit.shared_hit(key, 10) is None for _ in range(5))
    assert ratelimit.shared_hit(key, 10) == 5  # the first five leave in 5 s
    clock.advance(2.5)
    assert ratelimit.shared_hit(key, 10) == 3
    clock.advance(2.51)  # the first five are gone, and the refused hits never counted
    assert all(ratelimit.shared_hit(key, 10) is None for _ in range(5))
    assert ratelimit.shared_hit(key, 10) == 5
    # Another key counts apart.
    assert ratelimit.shared_hit(f"{key}:other", 10) is None


# A Redis that is not there: nothing listens on port 9 (discard) of this machine.
NO_REDIS = "redis://127.0.0.1:9/0"


@pytest.mark.django_db(transaction=True)
async def test_a_broken_cache_fails_open_and_says_so(make_user, limits, settings, monkeypatch, caplog):
    limits(user_messages=1)
    ann, bob = await database_sync_to_async(lambda: (make_user("ann"), make_user("bob")))()
    game = await table(ann, bob)
    comm = await opened(ann, game.pk)
    monkeypatch.setattr(ratelimit, "_last_warning", 0.0)
    settings.RATE_LIMIT_STORAGE = NO_REDIS
    with caplog.at_level(logging.WARNING, logger="infra.ratelimit"):
        for _ in range(3):
            assert (await answer(comm, {"type": "ping"}))["type"] == "pong"
    assert "rate-limit cache unavailable" in caplog.text
    assert ratelimit.cache_down()
    await comm.disconnect()


def test_a_broken_cache_fails_open_in_sync_code_too(settings, monkeypatch, caplog):
    monkeypatch.setattr(ratelimit, "_last_warning", 0.0)
    settings.RATE_LIMIT_STORAGE = NO_REDIS
    with caplog.at_level(logging.WARNING, logger="infra.ratelimit"):
        assert [ratelimit.shared_hit("unit:down", 1) for _ in range(3)] == [None] * 3
    assert "rate-limit cache unavailable" in caplog.text


async def _pings(sockets, count: int) -> list[str]:
    """``count`` pings sent alternately on ``sockets``, each after the answer to the one before."""
    answers = []
    for n in range(count):
        sock = sockets[n % 2]
        await sock.send({"type": "ping"})
        while True:
            message = await sock.recv()
            if message["type"] in ("pong", "error"):
                answers.append(message.get("code", "pong"))
                break
    return answers


@requires_real_backends
@pytest.mark.django_db(transaction=True)
async def test_per_user_limit_holds_across_server_processes(make_user, daphne):
    """Two daphne processes share the per-user count through Redis, where every hit is counted before
    its frame passes: no more than the limit gets through, plus what the moving window forgets while
    the test runs (hits older than 10 s)."""
    limit = 10
    env = {"WS_RATE_USER_MESSAGES_PER_10S": limit, "WS_RATE_MESSAGES_PER_10S": 1000}
    one, two = await asyncio.gather(
        asyncio.to_thread(daphne, "one", **env), asyncio.to_thread(daphne, "two", **env)
    )
    ann, bob = await database_sync_to_async(lambda: (make_user("ann"), make_user("bob")))()
    game = await table(ann, bob)
    cookie = await database_sync_to_async(session_cookie)(bob)
    sockets = [Socket(one, game.pk, cookie), Socket(two, game.pk, cookie)]
    for sock in sockets:
        await sock.open()
    started = time.monotonic()
    answers = await _pings(sockets, 30)
    forgotten = math.ceil(limit * (time.monotonic() - started) / ratelimit.PERIOD)
    # No refusal before the limit: a refusal is decided on Redis's count, which lags, never leads.
    assert answers[:limit] == ["pong"] * limit, answers
    assert answers.count("pong") <= limit + forgotten, answers
    assert "rate_limited" in answers
    for sock in sockets:
        await sock.close()


@requires_real_backends
@pytest.mark.django_db
async def test_a_limit_on_redis_refuses_past_it_and_allows_again_after_its_period(settings):
    """On the real Redis, in real time: the event loop's count (limits.aio) and the sync one (limits'
    sync storage, another client) are one count; the N+1th hit within the period is refused with the
    time to wait, the hits after it are allowed again."""
    assert settings.RATE_LIMIT_STORAGE.startswith("redis")
    key = f"unit:redis-{uuid.uuid4().hex}"
    for _ in range(2):
        assert await ratelimit.shared_hits([(key, 3)], period=1) is None
    assert await asyncio.to_thread(ratelimit.shared_hit, key, 3, 1) is None
    assert await ratelimit.shared_hits([(key, 3)], period=1) == (0, 1)
    assert await asyncio.to_thread(ratelimit.shared_hit, key, 3, 1) == 1
    await asyncio.sleep(1.1)
    assert await asyncio.to_thread(ratelimit.shared_hit, key, 3, 1) is None
    assert await ratelimit.shared_hits([(key, 3)], period=1) is None
    # Refused on the second limit: its index and its wait; the hit on the first stays counted.
    other = f"{key}:other"
    assert await ratelimit.shared_hits([(other, 3), (key, 3)], period=1) is None
    assert await ratelimit.shared_hits([(other, 3), (key, 3)], period=1) == (1, 1)
    assert await ratelimit.shared_hits([(other, 3)], period=1) is None
    assert await ratelimit.shared_hits([(other, 3)], period=1) == (0, 1)
