"""The move pool's known states (games.live.move_async): a process that made a game's last move reads
the next one's row without its state, and takes the state from the database again whenever anything
else may have changed it: another process's move, a reused game id, a move that did not commit."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from games.errors import InvalidAction
from games.live import move_async, move_sql
from games.live.moves import Known
from games.results.replays import game_verify_replay
from games.tables import services
from tests.games.sockets import new_table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def on_the_loop():
    if connection.vendor != "postgresql":
        pytest.skip("moves on the event loop are for PostgreSQL")


@pytest.fixture
def rows(monkeypatch):
    """Whether each move's game row came without its state (the statement's last column)."""
    seen: list[bool] = []
    real = move_sql.row_to_game

    def spy(row, known=None):
        seen.append(bool(row[-1]))
        return real(row, known)

    monkeypatch.setattr(move_sql, "row_to_game", spy)
    return seen


async def _table(make_user, kind="triple-quintzee"):
    ann, bob = await database_sync_to_async(make_user)("ann"), await database_sync_to_async(make_user)("bob")
    return ann, bob, await new_table(ann, [bob], kind)


async def _loop_move(game, user, client_id, action=None):
    return await move_async.apply_action(
        game_id=game.pk, user=user, client_id=client_id, action=action or {"type": "roll", "hold": []}
    )


async def _stored_state(game_id: int) -> dict:
    return await database_sync_to_async(game_verify_replay)(game_id=game_id)


async def test_the_next_move_of_a_game_moved_here_is_read_without_its_state(on_the_loop, make_user, rows):
    ann, _bob, game = await _table(make_user)
    first = await _loop_move(game, ann, "a-1")
    second = await _loop_move(game, ann, "a-2", {"type": "roll", "hold": [0, 1]})
    assert rows == [False, True]
    assert move_async._known[game.pk].seq == second.seq == 2
    assert first.known.state["roll"] == 1 and second.known.state["roll"] == 2
    assert await _stored_state(game.pk) == second.known.state


async def test_a_move_made_elsewhere_meanwhile_is_read_again(on_the_loop, make_user, rows):
    ann, _bob, game = await _table(make_user)
    await _loop_move(game, ann, "a-1")
    # Another process (here the services' own transport) moves the game on: seq 2.
    await database_sync_to_async(services.game_apply_action)(
        game_id=game.pk, user=ann, client_id="a-2", action={"type": "roll", "hold": []}
    )
    third = await _loop_move(game, ann, "a-3", {"type": "roll", "hold": [4]})
    assert rows[-1] is False
    assert third.seq == 3 and third.known.state["roll"] == 3
    assert await _stored_state(game.pk) == third.known.state


async def test_the_state_of_another_game_with_the_same_id_and_seq_is_not_taken(on_the_loop, make_user, rows):
    ann, _bob, game = await _table(make_user)
    await _loop_move(game, ann, "a-1")
    held = move_async._known[game.pk]
    bogus = {**held.state, "roll": 3, "dice": [6, 6, 6, 6, 6]}
    move_async._known[game.pk] = Known(held.created_at - timedelta(microseconds=1), held.seq, bogus)
    second = await _loop_move(game, ann, "a-2", {"type": "roll", "hold": []})
    assert rows[-1] is False
    assert second.known.state["roll"] == 2
    assert await _stored_state(game.pk) == second.known.state


async def test_a_refused_move_changes_nothing_held(on_the_loop, make_user, rows):
    ann, bob, game = await _table(make_user)
    await _loop_move(game, ann, "a-1")
    held = move_async._known[game.pk]
    with pytest.raises(InvalidAction):
        await _loop_move(game, bob, "b-1")  # not bob's turn
    assert move_async._known[game.pk] is held
    second = await _loop_move(game, ann, "a-2", {"type": "roll", "hold": [2]})
    assert rows == [False, True, True]
    assert await _stored_state(game.pk) == second.known.state


def test_only_the_latest_games_are_held(monkeypatch):
    monkeypatch.setattr(move_async, "KNOWN_GAMES", 2)
    monkeypatch.setattr(move_async, "_known", {})
    for game_id in (1, 2, 3, 2):
        move_async._remember(game_id, Known(None, game_id, {}))
    assert list(move_async._known) == [3, 2]
