"""Rate limits per connection and per user, on actions and on every other frame (sync, ping, garbage).

The limits are settings (WS_RATE_*_PER_10S); these tests lower them and move the limiter's clock. The
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
from infra import ratelimit
from play.routing import websocket_urlpatterns
from tests.factories import GameFactory
from tests.reliability.conftest import Socket, requires_real_backends, session_cookie

app = URLRouter(websocket_urlpatterns)
NOW = 1_800_000_000.0


@pytest.fixture
def clock(monkeypatch):
    """The limiter's clock, frozen; `clock.advance(s)` moves it."""

    class Clock:
        now = NOW

        def __call__(self):
            return self.now

        def advance(self, seconds):
            self.now += seconds

    fake = Clock()
    monkeypatch.setattr(ratelimit, "clock", fake)
    return fake


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
    return GameFactory(creator=ann, players=[bob])


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
    for n in range(4):  # 8 messages from bob now, 4 of them actions
        frame = {"type": "action", "id": f"x{n}", "action": {"type": "bank", "keep": [0]}}
        assert (await answer(tabs[n % 2], frame))["code"] == "illegal_action"
    for tab in tabs:
        reply = await answer(tab, {"type": "ping"})
        assert reply["code"] == "rate_limited"
        assert "from your account: at most 8 every 10 seconds" in reply["message"]
    # Another user is not affected.
    assert (await answer(other, {"type": "ping"}))["type"] == "pong"
    clock.advance(10)  # the previous window still weighs fully at its end...
    assert (await answer(tabs[0], {"type": "ping"}))["code"] == "rate_limited"
    clock.advance(5)  # ...half of it five seconds later: 4 of 8 left
    for n in range(4):
        assert (await answer(tabs[n % 2], {"type": "ping"}))["type"] == "pong"
    assert (await answer(tabs[0], {"type": "ping"}))["code"] == "rate_limited"
    for comm in [*tabs, other]:
        await comm.disconnect()


@pytest.mark.django_db
def test_sliding_window_counter(clock):
    key = "unit:sliding"
    assert all(ratelimit.shared_hit(key, 10) is None for _ in range(10))
    # At the next window's start the ten still weigh fully (10 + 1 > 10): one second more.
    assert ratelimit.shared_hit(key, 10) == 11
    clock.advance(7.5)
    assert ratelimit.shared_hit(key, 10) == 4
    clock.advance(2.5 + 2.5)  # a quarter into the next window: 10 * 0.75 = 7.5 counted
    assert ratelimit.shared_hit(key, 10) is None
    assert ratelimit.shared_hit(key, 10) is None
    assert ratelimit.shared_hit(key, 10) is not None  # 7.5 + 3 > 10


@pytest.mark.django_db(transaction=True)
async def test_a_broken_cache_fails_open_and_says_so(make_user, limits, monkeypatch, caplog):
    limits(user_messages=1)

    class Down:
        def __getattr__(self, name):
            raise ConnectionError("redis is gone")

    ann, bob = await database_sync_to_async(lambda: (make_user("ann"), make_user("bob")))()
    game = await table(ann, bob)
    comm = await opened(ann, game.pk)
    monkeypatch.setattr(ratelimit, "_last_warning", 0.0)
    monkeypatch.setattr(ratelimit, "_cache", lambda: Down())
    with caplog.at_level(logging.WARNING, logger="infra.ratelimit"):
        for _ in range(3):
            assert (await answer(comm, {"type": "ping"}))["type"] == "pong"
    assert "rate-limit cache unavailable" in caplog.text
    await comm.disconnect()


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
    """Two daphne processes share the per-user count through Redis. A process sends the hits it let
    through far from the limit in batches (ratelimit.FLUSH_EVERY), so the other may let through, beyond
    the limit, the hits it has not heard of: at most FAST_SHARE of the limit (a process lets no more
    through without asking Redis). Plus what the sliding window forgets while the test runs."""
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
    assert answers.count("pong") <= limit + limit * ratelimit.FAST_SHARE + forgotten, answers
    assert "rate_limited" in answers
    for sock in sockets:
        await sock.close()


@requires_real_backends
async def test_hits_far_from_the_limit_reach_redis_in_a_batch():
    """The hits that passed without waiting for Redis are counted there by the next batch."""
    key = f"user:batch-{uuid.uuid4().hex}:messages"
    for _ in range(5):
        assert await ratelimit.shared_hits([(key, 400)]) is None
    await asyncio.sleep(3 * ratelimit.FLUSH_EVERY)
    window = int(ratelimit.clock() // ratelimit.PERIOD)
    cache = ratelimit._cache()
    counted = [cache.get(f"rl:{key}:{w}") or 0 for w in (window - 1, window)]
    assert sum(int(n) for n in counted) == 5
