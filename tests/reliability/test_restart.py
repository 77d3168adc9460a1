"""Restart: the server is killed (SIGKILL) mid-game and started again; nothing is lost or duplicated.

daphne runs on PostgreSQL and Redis. Two players and a spectator play part of a Farkle game over real
websockets; the player to move sends one more action and the server is killed at once, so that the
action's fate is unknown to its sender (applied or not, the ack never came). The server is started
again on the same port; the tabs reconnect with back-off, sync, the sender re-sends the unanswered
action with the same id (answered as a duplicate if it had been applied), and the game is played to
its end. The log must run 1..n, every ack must match it, the replay check must pass, and every tab's
final state must be the database's.
"""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest
from channels.db import database_sync_to_async
from websockets.exceptions import ConnectionClosed

from games import rules
from games.models import Action, Game
from games.results import replays
from games.tables import services
from tests.reliability.conftest import ARTIFACTS, Socket, requires_real_backends, session_cookie
from tests.reliability.players import Ledger, Tab, choose, ledger_problems, reconnect

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def setup(make_user):
    users = {name: make_user(name) for name in ("ann", "bob", "cid")}
    game = services.game_create(creator=users["ann"], kind="farkle", seats=2, options={"goal": 3000})
    services.game_join(game_id=game.pk, user=users["bob"])
    services.game_start(game_id=game.pk, user=users["ann"])
    return game.pk, {name: session_cookie(user) for name, user in users.items()}


async def settle(tabs: list[Tab], seq: int) -> None:
    """Every tab has seen `seq` (through events, or a sync if it noticed a gap)."""
    for tab in tabs:
        await tab.catch_up(seq)


async def play(players: dict[str, Tab], watchers: list[Tab], rng: random.Random, actions: int | None) -> int:
    """Play legal moves: `actions` of them (never ending the game), or None: to the end; the last seq."""
    engine = rules.get("farkle")
    done = 0
    seq = players["ann"].seq
    while actions is None or done < actions:
        state = players["ann"].state
        if engine.is_over(state):
            break
        tab = players[state["current"]]
        (answer,) = await tab.act(choose(state, rng, endless=actions is not None))
        assert answer["type"] == "ack" and not answer["duplicate"], answer
        seq = answer["seq"]
        await settle([*players.values(), *watchers], seq)
        done += 1
    return seq


@requires_real_backends
async def test_sigkill_and_restart_mid_game(make_user, daphne):
    server = await asyncio.to_thread(daphne, "restart")
    game_id, cookies = await setup(make_user)
    ledger = Ledger()
    tabs = {name: Tab(Socket(server, game_id, cookies[name]), name, ledger, name) for name in cookies}
    for tab in tabs.values():
        await tab.open()
    players = {"ann": tabs["ann"], "bob": tabs["bob"]}
    rng = random.Random(11)
    figures = {"rounds": []}
    last = await play(players, [tabs["cid"]], rng, actions=10)

    # Twice: one more action, and the server dies. The first time at once (before it is applied, as a
    # rule); the second time as soon as the action is in the database (its ack may never leave).
    for round_, wait_for_commit in enumerate((False, True)):
        client_id = f"in-flight-{round_}"
        state = tabs["ann"].state
        mover = players[state["current"]]
        action = choose(state, rng)
        await mover.sock.send({"type": "action", "id": client_id, "action": action})
        exists = Action.objects.filter(game_id=game_id, client_id=client_id).exists
        if wait_for_commit:
            deadline = time.monotonic() + 10
            while not await database_sync_to_async(exists)():
                assert time.monotonic() < deadline, "the action was never applied"
                await asyncio.sleep(0.002)
        server.kill()
        killed_at = time.monotonic()
        for tab in tabs.values():  # every socket notices the loss
            with pytest.raises(ConnectionClosed):
                for _ in range(100):
                    await tab.pump(5)
        noticed = time.monotonic() - killed_at
        applied = await database_sync_to_async(exists)()
        assert applied or not wait_for_commit

        restart_seconds = await asyncio.to_thread(server.start)
        reconnects = await asyncio.gather(*(reconnect(tab) for tab in tabs.values()))
        # The sender does not know what became of its action: it re-sends it with the same id.
        (retry,) = await mover.act(action, client_id=client_id)
        assert retry["type"] == "ack", retry
        assert retry["duplicate"] is applied
        assert retry["seq"] == last + 1
        last = retry["seq"]
        await settle(list(tabs.values()), last)
        figures["rounds"].append(
            {
                "killed": "after commit" if wait_for_commit else "at once",
                "action_applied_before_kill": applied,
                "sockets_noticed_within_s": round(noticed, 2),
                "restart_to_healthy_s": round(restart_seconds, 2),
                "reconnect_and_sync_s": [round(r, 2) for r in reconnects],
            }
        )
        last = await play(players, [tabs["cid"]], rng, actions=5)

    last = await play(players, [tabs["cid"]], rng, actions=None)
    game = await database_sync_to_async(Game.objects.get)(pk=game_id)
    assert game.status == "finished" and game.seq == last
    problems = await database_sync_to_async(ledger_problems)(ledger, game_id)
    assert not problems, problems
    for round_ in (0, 1):
        in_flight = Action.objects.filter(game_id=game_id, client_id=f"in-flight-{round_}").count
        assert await database_sync_to_async(in_flight)() == 1
    await database_sync_to_async(replays.game_verify_replay)(game_id=game_id)
    for tab in tabs.values():
        await tab.catch_up(game.seq)
        assert tab.seq == game.seq
        assert json.dumps(tab.state, sort_keys=True) == json.dumps(game.state, sort_keys=True), tab.name
        await tab.close()
    ARTIFACTS.mkdir(exist_ok=True)
    figures.update(log_entries=game.seq, duplicates_in_log=0, lost_actions=0)
    (ARTIFACTS / "reliability-restart.json").write_text(json.dumps(figures, indent=2))
