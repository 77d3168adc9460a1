"""PostgreSQL connections of a server process: bounded, and a terminated one costs no move.

1. A soak of one daphne process with the production settings (``CONN_MAX_AGE=60``, the collector
   tuned): thousands of HTTP requests from concurrent clients, hundreds of websockets opened, used and
   closed, and moves played meanwhile. A watcher reads pg_stat_activity every few milliseconds: the
   process's connections (told apart by their application_name, PGAPPNAME in its environment) must
   never exceed its bound, the size of its pool of connections plus that of its pool of moves
   (DB_POOL_SIZE + WS_DB_THREADS, docs/RELIABILITY.md). A server that breaks the bound is killed at
   once, so that a leak never takes the shared PostgreSQL's last connections.
2. The server's backends are terminated for real (pg_terminate_backend on the test database's
   backends with that application_name, no one else's), between moves and while a move is in flight:
   no ``server_error``, every move applied exactly once, the pages and a spectator's sync still served.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import random
import threading
import time
import uuid
from collections import Counter

import psycopg
import pytest
from channels.db import database_sync_to_async
from django.conf import settings

from games.live import move_async
from games.models import Action, Game
from games.results import replays
from games.tables import services
from tests.reliability.conftest import ARTIFACTS, Socket, requires_real_backends, session_cookie
from tests.reliability.players import Ledger, Tab, choose, ledger_problems

pytestmark = pytest.mark.django_db(transaction=True)

# Not what is tested here: the sockets of a few users may send as many frames as they like.
UNLIMITED = {
    name: 10**9
    for name in (
        "WS_RATE_ACTIONS_PER_10S",
        "WS_RATE_MESSAGES_PER_10S",
        "WS_RATE_USER_ACTIONS_PER_10S",
        "WS_RATE_USER_MESSAGES_PER_10S",
    )
}
PRODUCTION = {"CONN_MAX_AGE": "60", "SERVER_GC_TUNING": "true"}
# The soak's server saturates its process on purpose, so a page, a probe or a handshake waits for the
# CPU as long as the machine makes it wait. The probe's bound (HEALTHZ_TIMEOUT, 1.5 s) and daphne's
# handshake bound (5 s) are about time, which a busy machine takes away (with the other test worker
# running browser journeys and four spinning processes, 15 of 2000 probes passed 1.5 s and 5 of 200
# handshakes passed 5 s): both are 60 s here, and what counts is that nothing is refused or lost for want
# of a connection. The pool's own wait (DB_POOL_TIMEOUT, 30 s) stays, so a starved pool still fails.
PATIENT = {"HEALTHZ_TIMEOUT": "60"}
PATIENT_FLAGS = ("--websocket_connect_timeout", "60")

HTTP_REQUESTS = 2000
HTTP_CLIENTS = 8
SOCKETS = 200
SOCKETS_AT_ONCE = 20
MOVES = 40


def bound() -> int:
    """The most connections one web process may hold: its pool's and its pool of moves'."""
    return settings.DB_POOL_SIZE + settings.WS_DB_THREADS


def watcher_connection() -> psycopg.Connection:
    params = move_async.connection_kwargs()
    params.pop("cursor_factory")
    return psycopg.connect(**params, application_name="connection-watcher")


def held(cursor, tag: str) -> int:
    cursor.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = %s",
        [tag],
    )
    return cursor.fetchone()[0]


class Watcher(threading.Thread):
    """Counts the server's connections until stopped; kills the server the moment it holds too many."""

    def __init__(self, tag: str, limit: int, server):
        super().__init__(daemon=True)
        self.tag, self.limit, self.server = tag, limit, server
        self.most = 0
        self.samples = 0
        self.broken: int | None = None
        self.done = threading.Event()

    def run(self) -> None:
        with watcher_connection() as conn, conn.cursor() as cursor:
            while not self.done.is_set():
                count = held(cursor, self.tag)
                self.samples += 1
                self.most = max(self.most, count)
                if count > self.limit:
                    self.broken = count
                    self.server.kill()
                    return
                self.done.wait(0.01)

    def stop(self) -> None:
        self.done.set()
        self.join(10)


@database_sync_to_async
def setup(make_user, tables: int = 1):
    users = {name: make_user(name) for name in ("ann", "bob", "cid", "dee")}
    games = []
    for _ in range(tables):
        game = services.game_create(creator=users["ann"], kind="farkle", seats=2, options={"goal": 10000})
        services.game_join(game_id=game.pk, user=users["bob"])
        services.game_start(game_id=game.pk, user=users["ann"])
        games.append(game.pk)
    return games, {name: session_cookie(user) for name, user in users.items()}


def http_load(server, paths: list[str], cookies: list[str], watcher: Watcher) -> tuple[Counter, float]:
    """HTTP_REQUESTS requests from HTTP_CLIENTS clients at once (keep-alive, as browsers do); their
    statuses, and the seconds they took."""
    statuses: Counter = Counter()
    lock = threading.Lock()
    numbers = iter(range(HTTP_REQUESTS))

    def client(k: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        try:
            while watcher.broken is None:
                with lock:
                    n = next(numbers, None)
                if n is None:
                    return
                headers = (
                    {"Cookie": cookies[(n + k) % len(cookies)]} if cookies[(n + k) % len(cookies)] else {}
                )
                try:
                    conn.request("GET", paths[n % len(paths)], headers=headers)
                    response = conn.getresponse()
                    response.read()
                    status = response.status
                except (OSError, http.client.HTTPException) as exc:
                    status = type(exc).__name__
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
                with lock:
                    statuses[status] += 1
        finally:
            conn.close()

    began = time.monotonic()
    threads = [threading.Thread(target=client, args=(k,)) for k in range(HTTP_CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses, round(time.monotonic() - began, 1)


async def socket_load(server, games: list[int], cookies: dict, watcher: Watcher) -> Counter:
    """SOCKETS websockets, SOCKETS_AT_ONCE opening together: each syncs and pings; every other one
    stays open to the end, so that well over a hundred are open at once."""
    outcomes: Counter = Counter()
    kept: list[Socket] = []
    names = list(cookies)
    gate = asyncio.Semaphore(SOCKETS_AT_ONCE)

    async def one(n: int) -> None:
        async with gate:
            if watcher.broken is not None:
                return
            sock = Socket(server, games[n % len(games)], cookies[names[n % len(names)]], f"s{n}")
            try:
                snapshot = await sock.open(60)
                await sock.send({"type": "sync", "seq": 0})
                await sock.next("snapshot", 60)
                await sock.send({"type": "ping"})
                await sock.next("pong", 60)
                outcomes["served"] += 1 if snapshot["type"] == "snapshot" else 0
            except Exception as exc:  # noqa: BLE001 - counted, and the test fails on any
                outcomes[f"{type(exc).__name__}: {exc}"[:160]] += 1
                await sock.close()
                return
            if n % 2:
                kept.append(sock)
            else:
                await sock.close()

    began = time.monotonic()
    await asyncio.gather(*(one(n) for n in range(SOCKETS)))
    outcomes["open_at_the_end"] = len(kept)
    outcomes["seconds"] = round(time.monotonic() - began, 1)
    await asyncio.gather(*(sock.close() for sock in kept))
    return outcomes


async def move_load(tabs: dict[str, Tab], watcher: Watcher, until) -> int:
    """The two players move while the load lasts (the pool of moves at work), MOVES at most."""
    rng = random.Random(31)
    moves = 0
    while not until() and watcher.broken is None:
        if moves >= MOVES:
            await asyncio.sleep(0.1)  # the other loads are still running: look again
            continue
        mover = tabs[tabs["ann"].state["current"]]
        await mover.catch_up(max(t.seq for t in tabs.values()))
        (answer,) = await mover.act(choose(mover.state, rng))
        assert answer["type"] == "ack", answer
        moves += 1
        for tab in tabs.values():
            await tab.catch_up(answer["seq"])
    return moves


def record(name: str, figures: dict) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / "reliability-db-connections.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    data[name] = figures
    path.write_text(json.dumps(data, indent=2, sort_keys=True))


@requires_real_backends
async def test_a_soaked_server_holds_no_more_connections_than_its_pools(make_user, daphne):
    tag = f"soak-{uuid.uuid4().hex[:8]}"
    server = await asyncio.to_thread(
        daphne, "soak", flags=PATIENT_FLAGS, PGAPPNAME=tag, **PRODUCTION, **PATIENT, **UNLIMITED
    )
    games, cookies = await setup(make_user, tables=4)
    watcher = Watcher(tag, bound(), server)
    watcher.start()
    try:
        ledger = Ledger()
        tabs = {
            name: Tab(Socket(server, games[0], cookies[name]), name, ledger, name) for name in ("ann", "bob")
        }
        for tab in tabs.values():
            await tab.open()
        # Pages of each kind (a game, the lobby, a player, the home page) and, for half the requests,
        # the health probe (an async view), as signed-in visitors: every one reads the database.
        paths = ["/healthz", "/games/", "/healthz", f"/games/{games[1]}/", "/healthz", "/players/ann/", "/"]
        visitors = [cookies["cid"], cookies["dee"]]
        began = time.monotonic()
        http = asyncio.ensure_future(asyncio.to_thread(http_load, server, paths, visitors, watcher))
        sockets = asyncio.ensure_future(socket_load(server, games, cookies, watcher))
        moves = await move_load(tabs, watcher, lambda: http.done() and sockets.done())
        (statuses, http_seconds), outcomes = await http, await sockets
        seconds = time.monotonic() - began
        for tab in tabs.values():
            await tab.close()
    except Exception:
        # The watcher killed the server for holding too many connections: that is the failure to tell.
        assert watcher.broken is None, f"the server held {watcher.broken} connections, above {bound()}"
        raise
    finally:
        watcher.stop()
    figures = {
        "bound": bound(),
        "most_connections": watcher.most,
        "samples": watcher.samples,
        "http": dict(statuses),
        "http_seconds": http_seconds,
        "sockets": dict(outcomes),
        "moves": moves,
        "seconds": round(seconds, 1),
    }
    record("soak", figures)
    assert watcher.broken is None, f"the server held {watcher.broken} connections, above {bound()}: {figures}"
    assert statuses == Counter({200: HTTP_REQUESTS}), figures
    assert outcomes["served"] == SOCKETS and outcomes["open_at_the_end"] == SOCKETS // 2, figures
    assert 0 < watcher.most <= bound() and moves > 0, figures
    assert server.alive() and "Traceback" not in server.log_text(), server.log_tail()


def terminate_and_wait(tag: str) -> int:
    """pg_terminate_backend on every backend of the server under test (the test database's, with its
    application_name, no one else's); returns how many, once all of them have exited."""
    with watcher_connection() as conn, conn.cursor() as cursor:
        # MATERIALIZED: the backends are chosen first, and only they are terminated (in one WHERE clause
        # PostgreSQL may call pg_terminate_backend before it has checked the other conditions).
        cursor.execute(
            "WITH mine AS MATERIALIZED (SELECT pid FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = %s AND pid <> pg_backend_pid())"
            " SELECT array_agg(pid) FROM mine WHERE pg_terminate_backend(pid)",
            [tag],
        )
        pids = cursor.fetchone()[0] or []
        deadline = time.monotonic() + 20
        while pids:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", [pids])
            if cursor.fetchone()[0] == 0:
                break
            assert time.monotonic() < deadline, f"backends {pids} still there 20 s after their termination"
            time.sleep(0.01)
    return len(pids)


def page(server, path: str, cookie: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        conn.request("GET", path, headers={"Cookie": cookie})
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


@requires_real_backends
async def test_terminated_backends_cost_no_move(make_user, daphne):
    tag = f"terminated-{uuid.uuid4().hex[:8]}"
    server = await asyncio.to_thread(daphne, "terminated", PGAPPNAME=tag, **PRODUCTION)
    (game_id,), cookies = await setup(make_user)
    ledger = Ledger()
    tabs = {
        name: Tab(Socket(server, game_id, cookies[name]), name, ledger, name)
        for name in ("ann", "bob", "cid")
    }
    for tab in tabs.values():
        await tab.open()
    players = {"ann": tabs["ann"], "bob": tabs["bob"]}
    rng = random.Random(6)
    sent: list[str] = []
    killed = []
    pages = Counter()

    async def move(during=None) -> dict:
        seq = max(t.seq for t in tabs.values())
        mover = players[tabs["cid"].state["current"]]
        await mover.catch_up(seq)
        mover.n += 1
        client_id = f"{mover.name}-{mover.n}"
        sent.append(client_id)
        acting = asyncio.ensure_future(mover.act(choose(mover.state, rng), client_id))
        if during is not None:
            await during()
        (answer,) = await acting
        assert answer["type"] == "ack", answer
        for tab in tabs.values():
            await tab.catch_up(answer["seq"])
            # No sync of a tab still on its way when the next termination comes: this test is about
            # what comes after one, and a call cut in the middle is the move's alone to survive.
            while tab.sync_pending:
                assert await tab.pump(20) is not None, f"{tab.name}: no answer to its sync"
        return answer

    async def kill() -> None:
        killed.append(await asyncio.to_thread(terminate_and_wait, tag))

    for _ in range(3):
        await move()
    for _ in range(6):
        # Between moves: every pooled connection of the server is dead when the next move comes.
        await kill()
        answer = await move()
        assert not answer["duplicate"], answer
        # A spectator's sync and a page, on connections terminated too.
        await kill()
        await tabs["cid"].sync()
        while tabs["cid"].sync_pending:
            message = await tabs["cid"].pump(20)
            assert message is not None and message["type"] != "error", message
        pages[await asyncio.to_thread(page, server, f"/games/{game_id}/", cookies["cid"])] += 1
        # While a move is in flight.
        await move(during=kill)
    game = await database_sync_to_async(Game.objects.get)(pk=game_id)
    ids = await database_sync_to_async(
        lambda: Counter(Action.objects.filter(game_id=game_id).values_list("client_id", flat=True))
    )()
    problems = await database_sync_to_async(ledger_problems)(ledger, game_id)
    await database_sync_to_async(replays.game_verify_replay)(game_id=game_id)
    for tab in tabs.values():
        await tab.close()
    record("terminated", {"terminated": killed, "moves": len(sent), "pages": dict(pages), "seq": game.seq})
    assert not ledger.errors, dict(ledger.errors)
    assert all(killed), killed  # every round found the server's backends and terminated them
    assert ids == Counter(sent) and game.seq == len(sent), (ids, sent)
    assert not problems, problems
    assert pages == Counter({200: 6}), pages
    assert server.alive() and "Traceback" not in server.log_text(), server.log_tail()
