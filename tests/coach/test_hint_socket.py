"""The Hint button's frames over the game websocket: given to the asker alone where no other person
sits at the table, refused where one does."""

from __future__ import annotations

import pytest

from coach.hints import RATED, REFUSED
from games.bots.farkle_expert import expected_turn
from tests.games.sockets import Client, new_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def people(make_user):
    return make_user("ann"), make_user("bob"), make_user("cid"), make_user("robot", computer="expert")


async def ask(client: Client) -> dict:
    await client.comm.send_json_to({"type": "ask_hint"})
    while True:
        reply = await client.next_any()
        if reply["type"] in ("hint", "error"):
            return reply


async def test_a_hint_against_a_computer_goes_to_the_asker_alone(people, scripted_dice):
    ann, _, cid, robot = people
    game = await new_table(ann, [robot], "farkle", {"goal": 3000}, rated=False)
    scripted_dice([1, 1, 1, 5, 2, 3])
    a, other_tab, watcher = Client(ann, game.pk), Client(ann, game.pk), Client(cid, game.pk)
    for client in (a, other_tab, watcher):
        await client.open()
    first = await ask(a)
    assert first == {
        "type": "hint",
        "seq": 0,
        "action": {"type": "roll", "keep": []},
        "text": "roll the dice",
        "value": round(expected_turn(6), 1),  # a whole turn, played by the expert
        "measure": "points",
        "decision": False,
    }
    ack = await a.act({"type": "roll", "keep": []})
    assert (ack["type"], ack["seq"]) == ("ack", 1)
    hint = await ask(a)
    assert hint == {
        "type": "hint",
        "seq": 1,
        "action": {"type": "bank", "keep": [0, 1, 2, 3]},
        "text": "set aside 1 1 1 5 and bank 1050",
        "value": 1050.0,
        "measure": "points",
        "decision": True,
    }
    for client in (other_tab, watcher):
        await client.until_seq(1)
        await client.drain()
        assert not [m for m in client.received if m["type"] == "hint"], client.user.username
    # A spectator sits at no seat: no hint for them.
    refused = await ask(watcher)
    assert (refused["type"], refused["code"]) == ("error", "forbidden")
    for client in (a, other_tab, watcher):
        await client.close()


async def test_a_hint_is_refused_with_another_person_at_the_table(people, scripted_dice):
    ann, bob, _, _ = people
    game = await new_table(ann, [bob], "farkle", {"goal": 3000})
    scripted_dice([1, 1, 1, 5, 2, 3])
    a, b = Client(ann, game.pk), Client(bob, game.pk)
    await a.open()
    await b.open()
    await a.act({"type": "roll", "keep": []})
    refused = await ask(a)
    assert refused == {"type": "error", "id": None, "code": "forbidden", "message": REFUSED}
    await b.until_seq(1)
    await b.drain()
    assert not [m for m in b.received if m["type"] in ("hint", "error")]
    await a.close()
    await b.close()


async def test_a_rated_game_against_a_computer_gives_no_hint(people, scripted_dice):
    """A rating won with the expert's moves would be the expert's: the socket refuses, and only the
    asker hears it; the other tab and a spectator hear nothing of it."""
    ann, _, cid, robot = people
    game = await new_table(ann, [robot], "farkle", {"goal": 3000})  # rated, as tables are by default
    scripted_dice([1, 1, 1, 5, 2, 3])
    a, other_tab, watcher = Client(ann, game.pk), Client(ann, game.pk), Client(cid, game.pk)
    for client in (a, other_tab, watcher):
        await client.open()
    assert await ask(a) == {"type": "error", "id": None, "code": "forbidden", "message": str(RATED)}
    await a.act({"type": "roll", "keep": []})
    assert (await ask(a))["message"] == str(RATED)
    for client in (other_tab, watcher):
        await client.until_seq(1)
        await client.drain()
        assert not [m for m in client.received if m["type"] in ("hint", "error")], client.user.username
    for client in (a, other_tab, watcher):
        await client.close()


async def test_a_hint_is_only_for_ones_own_turn(people):
    ann, _, _, robot = people
    game = await new_table(robot, [ann], "farkle", {"goal": 3000}, rated=False)  # the computer moves first
    a = Client(ann, game.pk)
    await a.open()
    refused = await ask(a)
    assert (refused["type"], refused["code"]) == ("error", "illegal_action")
    assert "not your turn" in refused["message"]
    await a.close()
