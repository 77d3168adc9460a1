"""The game websocket: complete games over real sockets, what every other socket saw, reconnects, refusals."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.db import connection

from config.routing import websocket_urlpatterns as all_websockets
from games import rules
from games.models import Action, Game
from games.results import replays
from games.tables import services
from tests.games.sockets import Client, app, new_table

pytestmark = pytest.mark.django_db(transaction=True)


@database_sync_to_async
def reload(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


@pytest.fixture(autouse=True, params=["thread", "loop"])
async def move_path(request, settings):
    """Every test twice on PostgreSQL: moves on the event loop (games.live.move_async, the default there)
    and in the database thread; both run games.live.moves.decide."""
    if request.param == "loop" and connection.vendor != "postgresql":
        pytest.skip("moves on the event loop are for PostgreSQL")
    settings.WS_ASYNC_MOVES = request.param == "loop"
    yield request.param


@pytest.fixture
def trio(make_user):
    return make_user("ann"), make_user("bob"), make_user("cid")


def assert_everyone_saw_everything(clients: list[Client], n: int) -> None:
    reference = clients[0].events()
    assert [e["seq"] for e in reference] == list(range(1, n + 1))
    for client in clients[1:]:
        assert client.events() == reference, f"{client.user.username} saw something else"


async def test_complete_farkle_game_two_players_and_a_spectator(trio, scripted_dice):
    ann, bob, cid = trio
    game = await new_table(ann, [bob], "farkle", {"goal": 3000})
    scripted_dice(
        [5, 2, 3, 4, 6, 6], [1, 1, 1, 2, 3], [2, 2, 3, 4, 6, 6], [1, 1, 1, 1, 1, 2],
        [1, 2, 3, 4, 5, 6], [5, 5, 5, 2, 3, 4],
    )  # fmt: skip
    a, b, c = Client(ann, game.pk), Client(bob, game.pk), Client(cid, game.pk)
    snapshot = await a.open()
    assert snapshot["you"] == {"user": "ann", "seat": 0}
    assert snapshot["state"]["current"] == "ann"
    assert (snapshot["game"]["view"], snapshot["game"]["sheet"]) == ("farkle", None)
    assert (snapshot["scores"], snapshot["winners"]) == ({"ann": 0, "bob": 0}, [])
    await b.open()
    spectator_view = await c.open()
    assert spectator_view["you"] == {"user": "cid", "seat": None}

    script = [
        (a, {"type": "roll", "keep": []}),
        (a, {"type": "roll", "keep": [0]}),
        (a, {"type": "bank", "keep": [0, 1, 2]}),
        (b, {"type": "roll", "keep": []}),  # Farkle
        (a, {"type": "roll", "keep": []}),
        (a, {"type": "bank", "keep": [0, 1, 2, 3, 4]}),
        (b, {"type": "roll", "keep": []}),
        (b, {"type": "roll", "keep": [0, 1, 2, 3, 4, 5]}),  # hot dice, confirmed by rolling all six
        (b, {"type": "bank", "keep": [0, 1, 2]}),
    ]
    for seq, (client, action) in enumerate(script, start=1):
        reply = await client.act(action)
        assert reply == {"type": "ack", "id": reply["id"], "seq": seq, "duplicate": False}
        for other in (a, b, c):
            event = await other.next("event")
            assert event["seq"] == seq
            assert event["action"] == action
            assert event["player"] == client.user.username

    refused = await c.act({"type": "roll", "keep": []})
    assert refused["code"] == "spectator"
    for client in (a, b, c):
        await client.until_seq(len(script))
    assert_everyone_saw_everything([a, b, c], len(script))
    last = a.events()[-1]
    assert last["status"] == "finished"
    assert last["state"]["over"] is True
    assert rules.get("farkle").winners(last["state"]) == last["winners"] == ["ann"]
    assert last["scores"] == rules.get("farkle").scores(last["state"])
    game = await reload(game)
    assert game.status == "finished"
    await database_sync_to_async(replays.game_verify_replay)(game_id=game.pk)
    for client in (a, b, c):
        await client.close()


PAINTED_ROLL = [[1, "blue"], [2, "red"], [3, "pink"], [4, "green"], [5, "yellow"]]


async def test_complete_painted_dicez_game(trio, scripted_dice):
    ann, bob, cid = trio
    game = await new_table(ann, [bob], "painted-dicez")
    engine = rules.get("painted-dicez")
    boxes = list(engine.BOXES)
    assert len(boxes) == 20
    scripted_dice(*([PAINTED_ROLL] * 40))
    a, b, c = Client(ann, game.pk), Client(bob, game.pk), Client(cid, game.pk)
    for client in (a, b, c):
        snapshot = await client.open()
    assert snapshot["game"]["view"] == "cards"
    assert snapshot["game"]["sheet"] == rules.get("painted-dicez").SHEET
    seq = 0
    for box in boxes:
        for client in (a, b):
            for action in ({"type": "roll", "hold": []}, {"type": "score", "box": box}):
                reply = await client.act(action)
                seq += 1
                assert reply["type"] == "ack" and reply["seq"] == seq, reply
    for client in (a, b, c):
        await client.until_seq(80)
    assert_everyone_saw_everything([a, b, c], 80)
    last = a.events()[-1]
    final = last["state"]
    expected = sum(engine.score(box, PAINTED_ROLL) for box in boxes)
    assert engine.scores(final) == last["scores"] == {"ann": expected, "bob": expected}
    assert final["over"] is True
    assert sorted(engine.winners(final)) == sorted(last["winners"]) == ["ann", "bob"]
    game = await reload(game)
    assert game.status == "finished"
    for client in (a, b, c):
        await client.close()


async def test_reconnect_mid_turn_restores_the_state(trio, scripted_dice):
    ann, bob, _ = trio
    game = await new_table(ann, [bob], "triple-quintzee")
    scripted_dice([1, 2, 3, 4, 6], [5])
    a = Client(ann, game.pk)
    await a.open()
    await a.act({"type": "roll", "hold": []})
    await a.act({"type": "roll", "hold": [0, 1, 2, 3]})
    before = (await a.until_seq(2))["state"]
    await a.close()

    again = Client(ann, game.pk)
    snapshot = await again.open()
    assert snapshot["seq"] == 2
    assert snapshot["state"]["dice"] == before["dice"] == [1, 2, 3, 4, 5]
    assert snapshot["state"]["roll"] == 2
    assert [e["seq"] for e in snapshot["events"]] == [1, 2]
    await again.comm.send_json_to({"type": "sync", "seq": 1})
    synced = await again.next("snapshot")
    assert [e["seq"] for e in synced["events"]] == [2]
    assert synced["state"] == snapshot["state"]
    await again.close()


async def test_an_event_broadcast_again_reaches_each_socket_once(trio, scripted_dice):
    """A broadcast sent again (games.live.broadcast retries one whose layer call timed out, though the
    message may have gone out) and an event a snapshot already held are not sent to a socket twice."""
    from games.live import broadcast

    ann, bob, cid = trio
    game = await new_table(ann, [bob], "farkle")
    scripted_dice([5, 2, 3, 4, 6, 6], [1, 2, 3, 4, 6])
    clients = [Client(ann, game.pk), Client(bob, game.pk), Client(cid, game.pk)]
    for client in clients:
        await client.open()
    await clients[0].act({"type": "roll", "keep": []})
    for client in clients:
        await client.until_seq(1)
    first = clients[1].events()[0]
    await broadcast.publish([(f"game.{game.pk}", broadcast.layer_message(first))])
    late = Client(cid, game.pk)
    assert (await late.open())["seq"] == 1
    await broadcast.publish([(f"game.{game.pk}", broadcast.layer_message(first))])
    await clients[0].act({"type": "roll", "keep": [0]})
    for client in [*clients, late]:
        await client.until_seq(2)
    assert_everyone_saw_everything(clients, 2)
    assert [e["seq"] for e in late.events()] == [2]
    for client in [*clients, late]:
        await client.close()


async def test_duplicate_action_id_applies_once(trio, scripted_dice):
    ann, bob, _ = trio
    game = await new_table(ann, [bob], "farkle")
    scripted_dice([5, 2, 3, 4, 6, 6])
    a = Client(ann, game.pk)
    await a.open()
    for _ in range(2):
        await a.comm.send_json_to({"type": "action", "id": "same", "action": {"type": "roll", "keep": []}})
    first = await a.next("ack")
    second = await a.next("ack")
    assert (first["seq"], first["duplicate"]) == (1, False)
    assert (second["seq"], second["duplicate"]) == (1, True)
    assert await database_sync_to_async(Action.objects.filter(game_id=game.pk).count)() == 1
    await a.close()


async def test_bad_frames_get_errors_and_the_socket_survives(trio, settings):
    ann, bob, _ = trio
    game = await new_table(ann, [bob], "farkle")
    a = Client(ann, game.pk)
    await a.open()
    cases = [
        ({"bytes_data": b"\x00\x01"}, "binary"),
        ({"text_data": "{nope"}, "bad_json"),
        ({"text_data": "[1, 2]"}, "bad_message"),
        ({"text_data": json.dumps({"type": "dance"})}, "unknown_type"),
        (
            {"text_data": json.dumps({"type": "action", "action": {"type": "roll", "keep": []}})},
            "bad_request",
        ),
        ({"text_data": json.dumps({"type": "action", "id": "x", "action": "roll"})}, "bad_request"),
        (
            {"text_data": json.dumps({"type": "action", "id": "y", "action": {"type": "fly"}})},
            "illegal_action",
        ),
        ({"text_data": json.dumps({"type": "sync", "seq": -1})}, "bad_request"),
        ({"text_data": "x" * (settings.WS_MAX_MESSAGE_BYTES + 1)}, "too_large"),
    ]
    for frame, code in cases:
        await a.comm.send_to(**frame)
        error = await a.next("error")
        assert error["code"] == code, (frame, error)
        assert error["message"]
    await a.comm.send_json_to({"type": "ping"})
    assert (await a.next("pong"))["type"] == "pong"
    game = await reload(game)
    assert game.seq == 0
    await a.close()


HUGE = "9" * 5000  # past the 4,300 digits Python's int() reads


async def test_huge_numbers_nul_and_lone_surrogates_in_frames_never_crash(trio):
    """In every field a frame carries, numbers past a bigint, 5,000 digits, NUL and
    a lone surrogate (JSON's escape gives it raw); each frame is answered, none with server_error, and
    nothing changes."""
    ann, bob, _ = trio
    game = await new_table(ann, [bob], "farkle")
    a = Client(ann, game.pk)
    await a.open()
    roll = {"type": "roll", "keep": []}
    cases = [
        ('{"type": "sync", "seq": ' + HUGE + "}", "bad_json"),
        (json.dumps({"type": "sync", "seq": 2**63}), "snapshot"),
        (json.dumps({"type": "sync", "seq": -(2**63) - 1}), "bad_request"),
        (json.dumps({"type": "unsay", "message": 2**63}), "not_found"),
        (json.dumps({"type": "unsay", "message": -(2**63) - 1}), "not_found"),
        ('{"type": "unsay", "message": ' + HUGE + "}", "bad_json"),
        (json.dumps({"type": "say", "text": "\x00"}), "bad_request"),
        (json.dumps({"type": "say", "text": "\ud800"}), "bad_request"),
        (json.dumps({"type": "ping", "game": 2**63}), "bad_request"),
        (json.dumps({"type": "ask_hint", "game": "\x00"}), "bad_request"),
        (json.dumps({"type": "action", "id": "nul\x00", "action": roll}), "bad_request"),
        (json.dumps({"type": "action", "id": "\ud800", "action": roll}), "bad_request"),
        (
            json.dumps({"type": "action", "id": "big", "action": {"type": "roll", "keep": [2**63]}}),
            "illegal_action",
        ),
        ('{"type": "action", "id": "huge", "action": {"type": "roll", "keep": [' + HUGE + "]}}", "bad_json"),
        (json.dumps({"type": "\x00"}), "unknown_type"),
        (json.dumps({"type": "\ud800"}), "unknown_type"),
    ]
    for text, expected in cases:
        await a.comm.send_to(text_data=text)
        while (reply := await a.next_any())["type"] in ("presence", "event"):
            pass
        got = reply["code"] if reply["type"] == "error" else reply["type"]
        assert got == expected, (text[:80], reply)
    await a.comm.send_json_to({"type": "ping"})
    assert (await a.next("pong"))["type"] == "pong"
    assert (await reload(game)).seq == 0
    await a.close()


@pytest.mark.parametrize("game_id", [0, 2**63, 2**64, int(HUGE[:30]), "-1"])
async def test_a_socket_to_a_game_id_no_row_can_have_is_refused(trio, game_id):
    """Refused at the handshake as a missing game is (the route's converter, infra.params)."""
    comm = WebsocketCommunicator(URLRouter(all_websockets), f"/ws/games/{game_id}/")
    comm.scope["user"] = trio[0]
    assert await comm.connect() == (False, 4404)


async def test_anonymous_socket_is_refused(trio):
    from django.contrib.auth.models import AnonymousUser

    ann, bob, _ = trio
    game = await new_table(ann, [bob], "farkle")
    comm = WebsocketCommunicator(app, f"/ws/games/{game.pk}/")
    comm.scope["user"] = AnonymousUser()
    connected, code = await comm.connect()
    assert not connected
    assert code == 4401


async def test_unknown_game_is_refused(trio):
    ann, _, _ = trio
    comm = WebsocketCommunicator(app, "/ws/games/999999/")
    comm.scope["user"] = ann
    connected, code = await comm.connect()
    assert (connected, code) == (False, 4404)


async def test_presence_is_announced(trio):
    ann, bob, _ = trio
    game = await new_table(ann, [bob], "farkle")
    a, b = Client(ann, game.pk), Client(bob, game.pk)
    await a.open()
    await b.open()
    own = await a.next("presence")
    assert own["user"] == "ann" and own["online"]
    joined = await a.next("presence")
    assert joined["user"] == "bob" and joined["online"] and joined["connected"] == ["ann", "bob"]
    await b.close()
    left = await a.next("presence")
    assert left["user"] == "bob" and not left["online"] and left["connected"] == ["ann"]
    await a.close()


async def test_lobby_updates_reach_the_waiting_room(trio):
    ann, bob, _ = trio
    game = await database_sync_to_async(services.game_create)(creator=ann, kind="farkle", seats=2)
    a = Client(ann, game.pk)
    snapshot = await a.open()
    assert snapshot["game"]["status"] == "open" and snapshot["state"] is None
    await database_sync_to_async(services.game_join)(game_id=game.pk, user=bob)
    lobby = await a.next("lobby")
    assert [s["user"] for s in lobby["seats"]] == ["ann", "bob"]
    await database_sync_to_async(services.game_start)(game_id=game.pk, user=ann)
    started = await a.next("lobby")
    assert started["status"] == "playing"
    await a.comm.send_json_to({"type": "sync", "seq": 0})
    fresh = await a.next("snapshot")
    assert fresh["state"]["players"] == ["ann", "bob"]
    await a.close()


async def test_concurrent_tabs_of_one_player(trio, scripted_dice):
    """Two tabs of one player send different actions at once: one applies, the other is refused."""
    ann, bob, _ = trio
    game = await new_table(ann, [bob], "farkle")
    scripted_dice([5, 2, 3, 4, 6, 6], [2, 3, 4, 6, 6])
    t1, t2 = Client(ann, game.pk), Client(ann, game.pk)
    await t1.open()
    await t2.open()
    await t1.act({"type": "roll", "keep": []})
    r1, r2 = await asyncio.gather(
        t1.act({"type": "roll", "keep": [0]}), t2.act({"type": "bank", "keep": [0]})
    )
    assert sorted([r1["type"], r2["type"]]) == ["ack", "error"]
    game = await reload(game)
    assert game.seq == 2
    await database_sync_to_async(replays.game_verify_replay)(game_id=game.pk)
    await t1.close()
    await t2.close()
