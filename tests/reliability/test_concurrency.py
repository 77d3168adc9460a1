"""Concurrency: many sockets of two players hammer one game, through two server processes at once.

Each player has several tabs spread over two daphne processes (so the database's row lock, not one
process's thread, is what orders the actions). Every tab acts on its own view of the game as fast as
answers come: all the tabs of the player to move race each other with different actions, the other
player's tabs send actions out of turn, some tabs send the same action twice in a row, and some re-send
an id another tab of the same player already used. Afterwards the log must run 1..n with no gap or
duplicate, each entry must have been acked as new exactly once (to the tab that sent it), every ack
(duplicate or not) must name the log entry of its id, the replay check must pass, and every tab must
come to the database's final state through sync.

PostgreSQL + Redis: 30 seconds (CI's second run). SQLite: a 5-second run of the same on two processes
sharing the database file (the in-memory channel layer does not cross processes, so tabs there learn of
the other process's moves through sync).
"""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from games.models import Game
from games.results import replays
from games.tables import services
from tests.reliability.conftest import ARTIFACTS, ON_POSTGRES, Socket, requires_real_backends, session_cookie
from tests.reliability.players import Ledger, Tab, choose, ledger_problems, my_turn

pytestmark = pytest.mark.django_db(transaction=True)

UNLIMITED = {
    name: 10**9
    for name in (
        "WS_RATE_ACTIONS_PER_10S",
        "WS_RATE_MESSAGES_PER_10S",
        "WS_RATE_USER_ACTIONS_PER_10S",
        "WS_RATE_USER_MESSAGES_PER_10S",
    )
}


@database_sync_to_async
def setup(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, kind="farkle", seats=2, options={"goal": 10000})
    services.game_join(game_id=game.pk, user=bob)
    services.game_start(game_id=game.pk, user=ann)
    return {"ann": ann, "bob": bob}, game.pk, {"ann": session_cookie(ann), "bob": session_cookie(bob)}


async def tab_loop(tab: Tab, mates: list[Tab], rng: random.Random, until: float, stats: dict) -> None:
    while time.monotonic() < until:
        if my_turn(tab) or rng.random() < 0.3:
            state = tab.state
            if not state or state.get("over"):
                await tab.pump(0.05)
                continue
            action = choose(state, rng)  # out of turn: the mover's action, refused as not ours
            pick = rng.random()
            if pick < 0.06:
                used = [a for m in mates for a in m.ledger.acks if a[3] == tab.username][-20:]
                if used:
                    client_id = rng.choice(used)[0]
                    stats["reused_ids"] += 1
                    await tab.act(action, client_id)
                    continue
            if pick < 0.12:
                stats["double_sends"] += 1
                first, second = await tab.act(action, twice=True)
                if first["type"] == "ack":
                    assert second["type"] == "ack" and second["duplicate"] and second["seq"] == first["seq"]
                continue
            await tab.act(action)
        else:
            await tab.pump(0.02)


async def hammer(servers, cookies, game_id: int, seconds: float, tabs_per_player: int, seed: int) -> dict:
    ledger = Ledger()
    tabs = []
    for username in ("ann", "bob"):
        for i in range(tabs_per_player):
            server = servers[i % len(servers)]
            tab = Tab(Socket(server, game_id, cookies[username]), username, ledger, f"{username}{i}")
            await tab.open()
            tabs.append(tab)
    stats = {"reused_ids": 0, "double_sends": 0}
    began = time.monotonic()
    until = began + seconds
    await asyncio.gather(
        *(tab_loop(t, tabs, random.Random(seed + i), until, stats) for i, t in enumerate(tabs))
    )
    elapsed = time.monotonic() - began
    game = await database_sync_to_async(Game.objects.get)(pk=game_id)
    for tab in tabs:
        await tab.catch_up(game.seq)
    problems = await database_sync_to_async(ledger_problems)(ledger, game_id)
    assert not problems, problems[:20]
    for tab in tabs:
        assert tab.seq == game.seq, f"{tab.name} ended at {tab.seq}, the game at {game.seq}"
        assert json.dumps(tab.state, sort_keys=True) == json.dumps(game.state, sort_keys=True), tab.name
        await tab.close()
    await database_sync_to_async(replays.game_verify_replay)(game_id=game_id)
    new_acks = [a for a in ledger.acks if not a[2]]
    assert len(new_acks) == game.seq > 0
    return {
        "seconds": round(elapsed, 1),
        "server_processes": len(servers),
        "sockets": len(tabs),
        "actions_sent": ledger.sent,
        "actions_applied": game.seq,
        "acks_new": len(new_acks),
        "acks_duplicate": len(ledger.acks) - len(new_acks),
        "refused": dict(ledger.errors),
        "double_sends": stats["double_sends"],
        "reused_ids": stats["reused_ids"],
        "syncs": ledger.syncs,
        "events_late": ledger.late_events,
        "event_gaps": ledger.gaps,
        "log_gaps_or_duplicates": 0,
        "acks_not_matching_the_log": 0,
        "actions_per_second": round(game.seq / elapsed, 1),
    }


def record(name: str, figures: dict) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / "reliability-concurrency.json"
    data = json.loads(path.read_text()) if path.exists() else {}
    data[name] = figures
    path.write_text(json.dumps(data, indent=2, sort_keys=True))


@requires_real_backends
async def test_thirty_second_hammer_on_postgresql(make_user, daphne):
    servers = await asyncio.gather(
        asyncio.to_thread(daphne, "a", **UNLIMITED), asyncio.to_thread(daphne, "b", **UNLIMITED)
    )
    _users, game_id, cookies = await setup(make_user)
    figures = await hammer(servers, cookies, game_id, seconds=30, tabs_per_player=4, seed=1)
    record("postgresql", figures)
    assert figures["acks_duplicate"] > 0 and figures["refused"].get("illegal_action", 0) > 0
    for server in servers:
        assert server.alive() and "Traceback" not in server.log_text(), server.log_tail()


@pytest.mark.slow_subprocess
@pytest.mark.skipif(ON_POSTGRES, reason="the SQLite variant; PostgreSQL runs the 30-second hammer")
async def test_brief_hammer_on_sqlite(make_user, daphne):
    assert connection.vendor == "sqlite"
    servers = await asyncio.gather(
        asyncio.to_thread(daphne, "a", **UNLIMITED), asyncio.to_thread(daphne, "b", **UNLIMITED)
    )
    _users, game_id, cookies = await setup(make_user)
    figures = await hammer(servers, cookies, game_id, seconds=5, tabs_per_player=3, seed=2)
    record("sqlite", figures)
    for server in servers:
        assert server.alive() and "Traceback" not in server.log_text(), server.log_tail()
