"""Under heavy load one socket got seq 18 before seq 9-17, its "event 18" then
differed from the other seats' copy, and two refused actions were followed by an event.

The mechanism, reproduced here without the load: each server process publishes a game's events after
its own commits, so a process whose loop is starved publishes late, and a later event (the move of the
seat that had dropped and reconnected onto another process) overtakes them. The socket sees a gap and
syncs; the answer brings 9-18 as log entries, which have no state, status, scores or preview: that is
the "event 18" that differed, in shape only; the move is the same. The late events 9-17 are not sent
to a socket that was sent 18 already (play.consumers, game_message). A client starved of CPU reads its socket
late: the actions it sends meanwhile are made on its old view and refused, then it reads the events
waiting for it. Nothing is lost or applied twice, and every socket ends on the stored state
(docs/RELIABILITY.md).
"""

from __future__ import annotations

import random

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.live.broadcast import collected, publish
from games.models import Game
from games.tables import services
from play.routing import websocket_urlpatterns
from tests.reliability.players import choose

pytestmark = pytest.mark.django_db(transaction=True)

LOG_FIELDS = ("seq", "seat", "player", "action", "dice", "result", "at")


async def frame(comm, kind: str) -> dict:
    while (message := await comm.receive_json_from(timeout=10))["type"] != kind:
        pass
    return message


async def test_a_late_publish_overtaken_by_a_later_event_costs_nothing(make_user):
    ann, bob = await database_sync_to_async(lambda: (make_user("ann"), make_user("bob")))()

    def table() -> int:
        game = services.game_create(creator=ann, kind="farkle", seats=2, options={"goal": 10000})
        services.game_join(game_id=game.pk, user=bob)
        services.game_start(game_id=game.pk, user=ann)
        return game.pk

    game_id = await database_sync_to_async(table)()
    sockets = []
    for user in (ann, bob):
        comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/games/{game_id}/")
        comm.scope["user"] = user
        assert (await comm.connect())[0]
        sockets.append((comm, (await frame(comm, "snapshot"))["seq"]))
    users = {"ann": ann, "bob": bob}
    rng = random.Random(15)

    def move(n: int) -> int:
        game = Game.objects.get(pk=game_id)
        return services.game_apply_action(
            game_id=game_id,
            user=users[game.state["current"]],
            client_id=f"late-{n}",
            action=choose(game.state, rng),
        ).seq

    def moves_published_late(count: int) -> list:
        with collected() as held:  # a starved process: committed, not yet published
            for n in range(count):
                move(n)
        return held

    held = await database_sync_to_async(moves_published_late)(5)
    last = await database_sync_to_async(move)(99)  # the other process's move, published at once
    await publish(held)  # the starved process's publishes, late
    stored = await database_sync_to_async(Game.objects.get)(pk=game_id)
    for comm, seen in sockets:
        overtaking = await frame(comm, "event")
        assert overtaking["seq"] == last > seen + 1  # a gap: the client syncs
        await comm.send_json_to({"type": "sync", "seq": seen})
        late, answer = [], None
        while answer is None:
            message = await comm.receive_json_from(timeout=10)
            if message["type"] == "event":
                late.append(message["seq"])
            elif message["type"] == "snapshot":
                answer = message
        assert [e["seq"] for e in answer["events"]] == list(range(seen + 1, last + 1))
        entry = answer["events"][-1]
        # The sync's "event" is the log entry: the same move, without the state the event carries.
        assert entry == {key: overtaking[key] for key in LOG_FIELDS}
        assert set(overtaking) - set(entry) >= {"type", "state", "status"}
        assert answer["seq"] == stored.seq and answer["state"] == stored.state == overtaking["state"]
        # The late events are older than what the socket was sent: not sent at all.
        assert late == []
        assert await comm.receive_nothing(timeout=0.5)
        await comm.disconnect()
