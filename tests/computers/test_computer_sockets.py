"""The person's socket (and a spectator's) receive the computer's moves, played by the worker."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from games import rules
from games.models import Game
from tests.computers.worker import run_due_tasks
from tests.factories import GameFactory
from tests.games.sockets import Client

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True, params=["thread", "loop"])
def move_path(request, settings):
    """The person's moves on both websocket paths (the event loop is PostgreSQL's)."""
    if request.param == "loop" and connection.vendor != "postgresql":
        pytest.skip("moves on the event loop are for PostgreSQL")
    settings.WS_ASYNC_MOVES = request.param == "loop"
    # The worker here runs what is due and stops: the computer's pause is left out.
    settings.COMPUTER_PAUSE = 0
    return request.param


@database_sync_to_async
def versus(ann) -> Game:
    return GameFactory(creator=ann, kind="triple-quintzee", computers=1, strength="easy")


@database_sync_to_async
def worker() -> None:
    run_due_tasks()


@database_sync_to_async
def reload(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


@pytest.fixture
def people(make_user):
    return make_user("ann"), make_user("cid")


async def test_the_persons_socket_receives_the_computers_moves(people):
    ann, cid = people
    game = await versus(ann)
    a, c = Client(ann, game.pk), Client(cid, game.pk)
    snapshot = await a.open()
    await c.open()
    assert [s["computer"] for s in snapshot["seats"]] == ["", "easy"]
    engine = rules.get(game.kind)
    for kind in ("roll", "score"):
        state = (await reload(game)).state
        action = next(x for x in engine.legal_actions(state) if x["type"] == kind)
        assert (await a.act(action))["type"] == "ack"
    assert (await reload(game)).current_player == "computer-easy-1"
    await worker()  # the computer's turn, one task per action, until ann is to move again
    game = await reload(game)
    assert game.current_player == "ann"
    assert game.seq >= 4  # at least a roll and a score of the computer's
    await a.until_seq(game.seq)
    await c.until_seq(game.seq)
    computer = [e for e in a.events() if e["seq"] > 2]
    assert {e["player"] for e in computer} == {"computer-easy-1"}
    assert computer[-1]["action"]["type"] == "score"
    assert computer[-1]["state"]["current"] == "ann"
    # Everyone at the table saw the same moves in the same order.
    assert c.events() == a.events()
    assert [e["seq"] for e in a.events()] == list(range(1, game.seq + 1))
    await a.close()
    await c.close()
