"""Redis outage: with the channel layer down, actions are still stored and acknowledged; when it comes
back, everyone catches up through sync.

The test starts its own redis-server on a free port (the shared one is never touched) and a daphne on
PostgreSQL whose channel layer and rate-limit cache use it. Two players and a spectator are connected.
Then:

1. Redis is stalled (DEBUG SLEEP): an action is still acked within the layer timeout, not after the
   stall, and stored once.
2. Redis is killed (SIGKILL): the players keep playing; every action is stored and acked to its sender
   (no broadcast reaches anyone), pings are answered, a socket that closes is forgotten (its presence
   row removed), and a new socket is refused at once rather than left hanging.
3. Redis is started again on the same port: the server's layer reconnects by itself, the next
   broadcasts arrive, the tabs that missed events see the gap and sync, and every tab ends on the
   database's state; the log has no gap or duplicate and replays.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
import uuid

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from chat.models import Message
from games.live.broadcast import collected
from games.models import Action, Connection, Game
from games.results import replays
from games.tables import services
from groups import services as groups
from infra import ratelimit
from play.routing import websocket_urlpatterns
from tests.reliability.conftest import ARTIFACTS, Socket, requires_real_backends, session_cookie
from tests.reliability.players import Ledger, Tab, choose, ledger_problems

pytestmark = pytest.mark.django_db(transaction=True)

LAYER_TIMEOUT = 1.0


@database_sync_to_async
def setup(make_user):
    users = {name: make_user(name) for name in ("ann", "bob", "cid")}
    game = services.game_create(creator=users["ann"], kind="farkle", seats=2, options={"goal": 10000})
    services.game_join(game_id=game.pk, user=users["bob"])
    services.game_start(game_id=game.pk, user=users["ann"])
    return game.pk, {name: session_cookie(user) for name, user in users.items()}


async def act_from_database(
    players: dict[str, Tab], game_id: int, rng: random.Random
) -> tuple[dict, float, str]:
    """The player to move (as the database has it) acts; return the answer, how long it took, and who.

    While broadcasts are lost a tab does not know it is its turn; the player is told here, as the
    person at a stale screen would reload it: the tab syncs first.
    """
    game = await database_sync_to_async(Game.objects.get)(pk=game_id)
    tab = players[game.state["current"]]
    await tab.catch_up(game.seq)
    began = time.monotonic()
    (answer,) = await tab.act(choose(tab.state, rng))
    return answer, time.monotonic() - began, tab.username


@requires_real_backends
async def test_actions_survive_a_channel_layer_outage(make_user, daphne, own_redis):
    server = await asyncio.to_thread(
        daphne,
        "outage",
        REDIS_URL=own_redis.url,
        WS_LAYER_TIMEOUT=LAYER_TIMEOUT,
        CHANNEL_LAYER_PREFIX="outage",
    )
    game_id, cookies = await setup(make_user)
    ledger = Ledger()
    tabs = {name: Tab(Socket(server, game_id, cookies[name]), name, ledger, name) for name in cookies}
    for tab in tabs.values():
        await tab.open()
    players = {"ann": tabs["ann"], "bob": tabs["bob"]}
    rng = random.Random(5)
    figures: dict = {}
    for _ in range(4):  # normal play: acks and broadcasts
        answer, _took, _who = await act_from_database(players, game_id, rng)
        assert answer["type"] == "ack"
    for tab in tabs.values():
        await tab.catch_up(answer["seq"])

    # 1. A stalled Redis: the ack comes after the layer timeout, not after the stall.
    stall = await asyncio.create_subprocess_exec(
        "redis-cli", "-p", str(own_redis.port), "DEBUG", "SLEEP", "4"
    )
    await asyncio.sleep(0.3)
    answer, took, _who = await act_from_database(players, game_id, rng)
    assert answer["type"] == "ack" and not answer["duplicate"], answer
    assert took < 4 - 0.3, f"an action waited {took:.1f} s for a stalled Redis"
    figures["ack_while_redis_stalled_s"] = round(took, 2)
    await asyncio.wait_for(stall.wait(), 10)

    # 2. Redis is gone.
    own_redis.kill()
    down_from = await database_sync_to_async(lambda: Game.objects.get(pk=game_id).seq)()
    latencies = []
    for _ in range(8):
        answer, took, _who = await act_from_database(players, game_id, rng)
        assert answer["type"] == "ack" and not answer["duplicate"], answer
        latencies.append(took)
    assert (
        await database_sync_to_async(Action.objects.filter(game_id=game_id, seq__gt=down_from).count)() == 8
    )
    figures["actions_acked_while_redis_down"] = 8
    figures["ack_latency_while_down_max_s"] = round(max(latencies), 2)
    assert max(latencies) < 5
    # Pings are still answered.
    spectator = tabs["cid"]
    await spectator.sock.send({"type": "ping"})
    while (await spectator.sock.recv(5))["type"] != "pong":
        pass
    # A socket that closes now is forgotten all the same.
    leaving = Tab(Socket(server, game_id, cookies["cid"]), "cid", ledger, "leaving")
    with pytest.raises(Exception):  # noqa: B017 - refused at the handshake, however it is worded
        await leaving.open(5)
    before_close = await database_sync_to_async(Connection.objects.filter(game_id=game_id).count)()
    await tabs["cid"].close()
    deadline = time.monotonic() + 5
    while (
        await database_sync_to_async(Connection.objects.filter(game_id=game_id).count)() != before_close - 1
    ):
        assert time.monotonic() < deadline, "the closed socket's presence row was not removed"
        await asyncio.sleep(0.1)
    figures["new_socket_while_down"] = "refused at the handshake"

    # 3. Redis is back: broadcasts flow again (the layer reconnects by itself).
    own_redis.start()
    began = time.monotonic()
    recovered = None
    while recovered is None:
        assert time.monotonic() - began < 30, "broadcasts did not come back after Redis returned"
        answer, _took, who = await act_from_database(players, game_id, rng)
        other = players["bob" if who == "ann" else "ann"]
        deadline = time.monotonic() + 1
        while recovered is None and time.monotonic() < deadline:
            message = await other.pump(0.2)
            if message and message["type"] == "event" and message["seq"] == answer["seq"]:
                recovered = time.monotonic() - began
    figures["broadcasts_back_after_s"] = round(recovered, 2)
    # The tabs that missed events saw the gap (or the ack's seq) and synced.
    game = await database_sync_to_async(Game.objects.get)(pk=game_id)
    for name in ("ann", "bob"):
        await tabs[name].catch_up(game.seq)
        assert json.dumps(tabs[name].state, sort_keys=True) == json.dumps(game.state, sort_keys=True)
    assert ledger.gaps + ledger.syncs > 0
    late = Tab(Socket(server, game_id, cookies["cid"]), "cid", ledger, "cid-again")
    await late.open()
    assert late.seq == game.seq
    problems = await database_sync_to_async(ledger_problems)(ledger, game_id)
    assert not problems, problems
    await database_sync_to_async(replays.game_verify_replay)(game_id=game_id)
    for tab in (*players.values(), late):
        await tab.close()
    assert server.alive()
    figures.update(log_entries=game.seq, duplicates_in_log=0, lost_actions=0)
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "reliability-redis-outage.json").write_text(json.dumps(figures, indent=2))


@pytest.fixture
def limits_on(settings):
    """Point the rate limits' shared cache at a given redis-server (a key prefix of the test's own)."""

    def point(redis) -> None:
        settings.CACHES = {
            **settings.CACHES,
            settings.RATE_LIMIT_CACHE: {
                "BACKEND": "django_redis.cache.RedisCache",
                "LOCATION": redis.url,
                "KEY_PREFIX": f"failopen-{uuid.uuid4().hex}",
                "OPTIONS": {"SOCKET_TIMEOUT": 0.5, "SOCKET_CONNECT_TIMEOUT": 0.5},
            },
        }

    return point


def sign_up(client: Client, name: str):
    password = "dice-are-nice-42"
    return client.post(
        reverse("accounts:signup"), {"username": name, "password1": password, "password2": password}
    )


@pytest.mark.parametrize("fault", ["stopped", "paused"])
def test_sign_up_and_group_chat_fail_open_while_redis_is_down(
    make_user, own_redis, limits_on, settings, fault
):
    """docs/RELIABILITY.md: every rate limit fails open (logged) while its cache is down, so that an
    outage of Redis stops no sign-up and no chat."""
    limits_on(own_redis)
    client = Client(REMOTE_ADDR="203.0.113.31", raise_request_exception=False)
    assert sign_up(client, "before").status_code == 302
    ann = make_user("ann")
    group = groups.group_create(creator=ann, name="Dice")
    member = Client(raise_request_exception=False)
    member.force_login(ann)
    url = reverse("chat:group_post", args=[group.pk])
    assert member.post(url, {"text": "up"}).status_code == 302
    if fault == "stopped":
        own_redis.stop()
    else:
        own_redis.pause()
    for n in range(3):
        assert (
            sign_up(
                Client(REMOTE_ADDR="203.0.113.31", raise_request_exception=False), f"during{n}"
            ).status_code
            == 302
        )
        assert member.post(url, {"text": f"down {n}"}).status_code == 302
    assert User.objects.filter(username__startswith="during").count() == 3
    assert list(Message.objects.filter(group=group).values_list("text", flat=True).order_by("pk")) == [
        "up",
        "down 0",
        "down 1",
        "down 2",
    ]
    if fault == "paused":
        own_redis.resume()
    else:
        own_redis.start()
    # Redis is back: the limit holds again once the break after a failure is over.
    settings.SIGNUPS_PER_IP_PER_HOUR = 1
    ratelimit._broken_until = 0.0
    after = Client(REMOTE_ADDR="203.0.113.32", raise_request_exception=False)
    assert sign_up(after, "after").status_code == 302
    assert sign_up(after, "after2").status_code == 429


def test_password_resets_are_limited_and_fail_open_while_redis_is_stopped(
    make_user, own_redis, limits_on, settings
):
    """The password-reset limits (accounts/throttle.py) count in the same cache and fail open the same
    way: while Redis is stopped every reset sends its e-mail; once it is back the limit holds again."""
    limits_on(own_redis)
    settings.PASSWORD_RESETS_PER_EMAIL_PER_HOUR = 2
    make_user("ann", email="ann@example.com")

    def ask() -> int:
        client = Client(REMOTE_ADDR="198.51.100.31", raise_request_exception=False)
        return client.post(reverse("accounts:password_reset"), {"email": "ann@example.com"}).status_code

    assert [ask() for _ in range(3)] == [302, 302, 429]
    assert len(mail.outbox) == 2
    own_redis.stop()
    assert [ask() for _ in range(3)] == [302, 302, 302]
    assert len(mail.outbox) == 5
    own_redis.start()  # empty: it kept nothing (--save "")
    ratelimit._broken_until = 0.0
    assert [ask() for _ in range(3)] == [302, 302, 429]
    assert len(mail.outbox) == 7


@pytest.mark.django_db(transaction=True)
async def test_table_chat_fails_open_while_redis_is_stopped(make_user, own_redis, limits_on):
    """`say` on a game's socket is stored and answered without `server_error` while Redis is down."""
    limits_on(own_redis)
    ann = await database_sync_to_async(make_user)("ann")
    game = await database_sync_to_async(
        lambda: services.game_create(creator=ann, kind="farkle", seats=2, options={"goal": 10000})
    )()
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game.pk}/")
    comm.scope["user"] = ann
    connected, _ = await comm.connect()
    assert connected
    assert (await comm.receive_json_from(timeout=5))["type"] == "snapshot"
    await asyncio.to_thread(own_redis.stop)
    for n in range(3):
        await comm.send_json_to({"type": "say", "text": f"still here {n}"})
        await comm.send_json_to({"type": "ping"})
        while (frame := await comm.receive_json_from(timeout=10))["type"] != "pong":
            assert frame["type"] != "error", frame
    texts = await database_sync_to_async(
        lambda: list(Message.objects.filter(game_id=game.pk).values_list("text", flat=True))
    )()
    assert sorted(texts) == [f"still here {n}" for n in range(3)]
    await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_socket_limits_fail_open_without_stalling_the_event_loop_while_redis_hangs(
    make_user, own_redis, limits_on, settings
):
    """The per-user counts of a socket's frames (counted in Redis through the async client) hold while
    Redis answers; once it hangs (SIGSTOP) a frame waits at most a short timeout, on the event loop
    without blocking it, then the limit fails open for every frame that follows; once Redis is back
    the limit holds again."""
    limits_on(own_redis)
    settings.WS_RATE_USER_MESSAGES_PER_10S = 2
    ann = await database_sync_to_async(make_user)("ann")
    game = await database_sync_to_async(
        lambda: services.game_create(creator=ann, kind="farkle", seats=2, options={"goal": 10000})
    )()
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game.pk}/")
    comm.scope["user"] = ann
    connected, _ = await comm.connect()
    assert connected
    assert (await comm.receive_json_from(timeout=5))["type"] == "snapshot"

    async def ping() -> str:
        await comm.send_json_to({"type": "ping"})
        while (frame := await comm.receive_json_from(timeout=10))["type"] not in ("pong", "error"):
            pass
        return frame.get("code", "pong")

    assert [await ping() for _ in range(3)] == ["pong", "pong", "rate_limited"]
    gaps = []

    async def tick() -> None:  # how long the event loop goes without running a callback
        while True:
            before = time.monotonic()
            await asyncio.sleep(0.01)
            gaps.append(time.monotonic() - before)

    ticker = asyncio.create_task(tick())
    await asyncio.to_thread(own_redis.pause)
    started = time.monotonic()
    assert [await ping() for _ in range(3)] == ["pong"] * 3
    assert time.monotonic() - started < ratelimit.REDIS_TIMEOUT + 1
    ticker.cancel()
    assert max(gaps) < 0.25, max(gaps)
    await asyncio.to_thread(own_redis.resume)
    ratelimit._broken_until = 0.0
    assert await ping() == "rate_limited"
    await comm.disconnect()


async def listen_until(tabs: list[Tab], seq: int, wait: float, ping_every: float | None = None) -> None:
    """Each tab reads what comes (and pings, if asked) until it has reached ``seq``; a tab never asks
    for a sync of itself here: it is an idle page that does not know it is behind."""
    deadline = time.monotonic() + wait
    for tab in tabs:
        pinged = 0.0
        while tab.seq < seq:
            assert time.monotonic() < deadline, f"{tab.name} stayed at {tab.seq} of {seq}"
            if ping_every is not None and time.monotonic() - pinged > ping_every:
                await tab.sock.send({"type": "ping"})
                pinged = time.monotonic()
            await tab.pump(0.2)


@requires_real_backends
async def test_a_broadcast_lost_to_redis_reaches_every_socket_once_redis_is_back(
    make_user, daphne, own_redis
):
    """Moves made while Redis is stopped (SIGTERM), and right after it started
    again, are stored and acked, and every other socket (the next player's, a spectator's, on either
    of two server processes) reaches the stored game without a later move, a ping or a sync of its
    own."""
    env = {
        "REDIS_URL": own_redis.url,
        "WS_LAYER_TIMEOUT": LAYER_TIMEOUT,
        "CHANNEL_LAYER_PREFIX": f"lost{uuid.uuid4().hex[:8]}",
    }
    # Two processes, as in production: ann's moves are published by one, bob's by the other.
    one, two = await asyncio.gather(
        asyncio.to_thread(daphne, "lost-one", **env), asyncio.to_thread(daphne, "lost-two", **env)
    )
    game_id, cookies = await setup(make_user)
    ledger = Ledger()
    where = {"ann": one, "bob": two, "cid": two}
    tabs = {name: Tab(Socket(where[name], game_id, cookies[name]), name, ledger, name) for name in cookies}
    for tab in tabs.values():
        await tab.open()
    players = {"ann": tabs["ann"], "bob": tabs["bob"]}
    rng = random.Random(7)
    for _ in range(2):
        answer, _took, _who = await act_from_database(players, game_id, rng)
    await listen_until(list(tabs.values()), answer["seq"], 20)

    figures: dict = {}
    group = f"{env['CHANNEL_LAYER_PREFIX']}__group__game.{game_id}"
    for fault in ("stopped", "just restarted", "subscribed again"):
        if fault == "stopped":
            await asyncio.to_thread(own_redis.stop)
        elif fault == "subscribed again":
            # Stopped and started with no publish meanwhile: each process's publishing connection is
            # one Redis has closed, while both processes have subscribed the game's group again.
            await asyncio.to_thread(own_redis.stop)
            await asyncio.to_thread(own_redis.start)
            deadline = time.monotonic() + 30
            while (await asyncio.to_thread(own_redis.cli, "PUBSUB", "NUMSUB", group)).split()[-1] != "2":
                assert time.monotonic() < deadline, "the servers did not subscribe again"
                await asyncio.sleep(0.1)
        answer, _took, who = await act_from_database(players, game_id, rng)
        assert answer["type"] == "ack" and not answer["duplicate"], answer
        if fault == "stopped":
            await asyncio.to_thread(own_redis.start)
        if fault != "just restarted":
            began = time.monotonic()  # from Redis's start, or from the move's ack
        others = [tab for name, tab in tabs.items() if name != who]
        syncs = ledger.syncs
        await listen_until(others, answer["seq"], 30)
        assert ledger.syncs == syncs  # nobody asked (no gap, no sync): the server caught them up
        figures[f"caught_up_redis_{fault.replace(' ', '_')}_s"] = round(time.monotonic() - began, 2)
    game = await database_sync_to_async(Game.objects.get)(pk=game_id)
    for tab in tabs.values():
        await listen_until([tab], game.seq, 30)
        assert json.dumps(tab.state, sort_keys=True) == json.dumps(game.state, sort_keys=True)
    for tab in tabs.values():
        await tab.close()
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "reliability-redis-lost-broadcast.json").write_text(json.dumps(figures, indent=2))


async def next_frame(comm) -> dict:
    """The next frame but presence (this very socket's arrival is announced to it too)."""
    while (frame := await comm.receive_json_from(timeout=10))["type"] == "presence":
        pass
    return frame


@pytest.mark.django_db(transaction=True)
async def test_a_socket_behind_the_stored_game_is_caught_up_at_its_next_ping(make_user):
    """Whatever lost a broadcast (here: a move whose messages were collected and never sent), an idle
    page's next ping brings what `sync` would: the snapshot since the last seq its socket was sent."""
    ann, bob = await database_sync_to_async(lambda: (make_user("ann"), make_user("bob")))()

    def table() -> Game:
        game = services.game_create(creator=ann, kind="farkle", seats=2, options={"goal": 10000})
        services.game_join(game_id=game.pk, user=bob)
        services.game_start(game_id=game.pk, user=ann)
        return Game.objects.get(pk=game.pk)

    game = await database_sync_to_async(table)()
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game.pk}/")
    comm.scope["user"] = bob
    assert (await comm.connect())[0]
    first = await comm.receive_json_from(timeout=5)
    assert first["type"] == "snapshot"

    def move_unheard() -> int:
        mover = ann if game.state["current"] == "ann" else bob
        with collected() as lost:
            outcome = services.game_apply_action(
                game_id=game.pk,
                user=mover,
                client_id="unheard-1",
                action=choose(game.state, random.Random(3)),
            )
        assert lost  # its event was never sent
        return outcome.seq

    seq = await database_sync_to_async(move_unheard)()
    assert seq == first["seq"] + 1
    await comm.send_json_to({"type": "ping"})
    caught = await next_frame(comm)
    assert caught["type"] == "snapshot" and caught["seq"] == seq, caught
    assert [e["seq"] for e in caught["events"]] == [seq]
    assert (await next_frame(comm))["type"] == "pong"
    # Up to date now: the next ping is a ping.
    await comm.send_json_to({"type": "ping"})
    assert (await next_frame(comm))["type"] == "pong"
    await comm.disconnect()
