"""Fair dice on the game socket (docs/fair-dice.md, docs/protocol.md): the client_seed message before the
start, and no frame of a game in progress holds the server seed, which the end reveals. On the site's
own move path only: both paths decide a move in one function (games.live.moves.decide), and the tests of
the moves and the consumers run both."""

from __future__ import annotations

import json
import random

import pytest
from channels.db import database_sync_to_async

from games import fair_dice
from games.models import Game
from games.tables import services
from tests.games.conftest import random_legal_action
from tests.games.sockets import Client, new_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def trio(make_user):
    return make_user("ann"), make_user("bob"), make_user("cid")


@pytest.fixture
def solo_player(make_user):
    return make_user("ann")


@database_sync_to_async
def reload(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


async def test_a_player_sets_their_client_seed_until_the_start(trio):
    ann, bob, _ = trio
    game = await database_sync_to_async(services.game_create)(creator=ann, kind="farkle", seats=2)
    await database_sync_to_async(services.game_join)(game_id=game.pk, user=bob)
    a, b = Client(ann, game.pk), Client(bob, game.pk)
    snapshot = await a.open()
    await b.open()
    fair = snapshot["game"]["fair_dice"]
    assert fair["commitment"] == fair_dice.commitment(game.server_seed) and fair["server_seed"] is None
    await b.comm.send_json_to({"type": "client_seed", "seed": "bobs-lucky_7"})
    lobby = await a.next("lobby")
    assert [s["client_seed"] for s in lobby["seats"]][1] == "bobs-lucky_7"
    await b.comm.send_json_to({"type": "client_seed", "seed": "no spaces"})
    refused = await b.next("error")
    assert refused["code"] == "bad_seed"
    await database_sync_to_async(services.game_start)(game_id=game.pk, user=ann)
    await b.next("lobby")
    await b.comm.send_json_to({"type": "client_seed", "seed": "changed-my-mind"})
    refused = await b.next("error")
    assert refused["code"] == "seeds_fixed"
    await b.comm.send_json_to({"type": "sync", "seq": 0})
    started = await b.next("snapshot")
    assert started["game"]["fair_dice"]["client_seeds"][1] == "bobs-lucky_7"
    await a.close()
    await b.close()


async def test_no_frame_of_a_game_in_progress_holds_the_seed_and_the_end_reveals_it(trio):
    ann, bob, cid = trio
    game = await new_table(ann, [bob], "painted-dicez")
    clients = {"ann": Client(ann, game.pk), "bob": Client(bob, game.pk)}
    spectator = Client(cid, game.pk)
    for client in [*clients.values(), spectator]:
        await client.open()
    rng, state = random.Random(5), game.state
    for _ in range(25):
        player = state["current"]
        reply = await clients[player].act(random_legal_action(state, rng))
        assert reply["type"] == "ack", reply
        state = (await clients[player].until_seq(reply["seq"]))["state"]
    await clients["ann"].comm.send_json_to({"type": "sync", "seq": 0})
    await clients["ann"].next("snapshot")
    game = await reload(game)
    assert game.status == Game.Status.PLAYING
    for client in [*clients.values(), spectator]:
        await client.drain()
        assert client.received and all(game.server_seed not in json.dumps(m) for m in client.received)
    # The end: a resignation of one of two players.
    reply = await clients["bob"].act({"type": "resign"})
    ending = await spectator.until_seq(reply["seq"])
    assert ending["status"] == "finished" and ending["fair_dice"]["server_seed"] == game.server_seed
    await spectator.comm.send_json_to({"type": "sync", "seq": 0})
    snapshot = await spectator.next("snapshot")
    fair = snapshot["game"]["fair_dice"]
    assert fair["server_seed"] == game.server_seed and fair["commitment"] == fair_dice.commitment(
        game.server_seed
    )
    # Every roll the sockets saw is the derived one.
    for event in snapshot["events"]:
        sizes = [len(r) for r in event["dice"]]
        assert event["dice"] == fair_dice.action_rolls(
            game.server_seed, fair["client_seeds"], event["seq"], sizes, True
        )
    for client in [*clients.values(), spectator]:
        await client.close()


async def test_a_hint_holds_no_seed(solo_player):
    """The Hint button's answer (the coach's expert) is worked out from the state alone."""
    ann = solo_player
    game = await database_sync_to_async(services.game_create)(creator=ann, kind="painted-dicez", seats=1)
    tab = Client(ann, game.pk)
    await tab.open()
    assert (await tab.act({"type": "roll", "hold": []}))["type"] == "ack"
    await tab.comm.send_json_to({"type": "ask_hint"})
    await tab.next("hint", wait=30)
    await tab.drain()
    assert all(game.server_seed not in json.dumps(m) for m in tab.received)
    await tab.close()
