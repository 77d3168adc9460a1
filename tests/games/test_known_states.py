"""The move pool's known states (games.live.move_async): a process that made a game's last move makes
a player's next move in one round trip, writing only if the row is still as it left it, and reads the row
again whenever anything else may have changed it: another process's move, any other write to the row, a
reused game id, a move that did not commit, a removed member, a repeated action id."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games.computers.tasks import PLAY_TASK
from games.errors import Forbidden, InvalidAction
from games.live import move_async, move_sql
from games.live.moves import Known
from games.models import Action, Connection, Game
from games.results.replays import game_verify_replay
from games.tables import services
from groups import services as groups
from groups.models import Membership
from notices.models import TurnMail
from tests.games.sockets import new_table

pytestmark = pytest.mark.django_db(transaction=True)

_TURN = move_sql.FIELDS.index("turn_started_at")


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


@database_sync_to_async
def _group_table(ann, bob) -> Game:
    group = groups.group_create(creator=ann, name="Friday dice")
    groups.group_add_member(group_id=group.pk, user=ann, username=bob.username)
    game = services.game_create(creator=ann, kind="triple-quintzee", seats=2, group=group)
    services.game_join(game_id=game.pk, user=bob)
    return services.game_start(game_id=game.pk, user=ann)


@database_sync_to_async
def _computer_table(person) -> Game:
    game = services.game_create(creator=person, kind="triple-quintzee", seats=2, computers=1, strength="easy")
    return Game.objects.get(pk=game.pk)


async def _loop_move(game, user, client_id, action=None):
    return await move_async.apply_action(
        game_id=game.pk, user=user, client_id=client_id, action=action or {"type": "roll", "hold": []}
    )


async def _stored_state(game_id: int) -> dict:
    return await database_sync_to_async(game_verify_replay)(game_id=game_id)


@pytest.fixture
def trips(monkeypatch):
    """The statements of each round trip a move makes on the event loop, by name."""
    sent: list[list[str]] = []
    real = move_async._execute

    async def spy(cursor, batch):
        sent.append([name for name, _ in batch.statements])
        return await real(cursor, batch)

    monkeypatch.setattr(move_async, "_execute", spy)
    return sent


async def test_a_players_next_move_is_one_round_trip(on_the_loop, make_user, rows, trips):
    ann, _bob, game = await _table(make_user)
    first = await _loop_move(game, ann, "a-1")
    second = await _loop_move(game, ann, "a-2", {"type": "roll", "hold": [0, 1]})
    assert trips == [["game", "mover"], ["insert", "update"], ["known"]]
    assert rows == [False]
    assert move_async._known[game.pk].seq == second.seq == 2
    assert first.known.state["roll"] == 1 and second.known.state["roll"] == 2
    assert first.known.version != second.known.version
    assert await _stored_state(game.pk) == second.known.state


async def test_another_players_first_move_reads_the_row_without_its_state(
    on_the_loop, make_user, rows, trips
):
    ann, bob, game = await _table(make_user)
    await _at_table(game, bob)
    await _loop_move(game, ann, "a-1")
    await _loop_move(game, ann, "a-2", {"type": "score", "box": "chance", "column": 1})
    third = await _loop_move(game, bob, "b-1")  # bob's seat is not known here yet
    fourth = await _loop_move(game, bob, "b-2", {"type": "roll", "hold": []})
    assert rows == [False, True]
    assert [t[0] for t in trips] == ["game", "insert", "known_passed", "game", "insert", "known"]
    assert third.seq == 3 and fourth.seq == 4
    assert await _stored_state(game.pk) == fourth.known.state


@database_sync_to_async
def _at_table(game, user) -> None:
    Connection.objects.create(
        game=game, user=user, channel_name=f"test.{user.username}", seen_at=timezone.now()
    )


async def test_a_move_made_elsewhere_meanwhile_is_read_again(
    on_the_loop, make_user, rows, trips, scripted_dice
):
    scripted_dice([1, 2, 3, 4, 5], [6, 6, 6, 6, 6], [2, 2, 3, 3])
    ann, _bob, game = await _table(make_user)
    await _loop_move(game, ann, "a-1")
    # Another process (here the services' own transport) moves the game on: seq 2.
    await database_sync_to_async(services.game_apply_action)(
        game_id=game.pk, user=ann, client_id="a-2", action={"type": "roll", "hold": []}
    )
    trips.clear()
    third = await _loop_move(game, ann, "a-3", {"type": "roll", "hold": [4]})
    # Tried in one round trip on the row as held, which wrote nothing; then the long way.
    assert trips == [["known"], ["game", "mover"], ["insert", "update"]]
    assert rows[-1] is False
    assert third.seq == 3 and third.known.state["roll"] == 3
    # The attempt's dice were rolled once: the long way took them, and the script is used up in order.
    stored = await database_sync_to_async(Action.objects.get)(game=game, seq=3)
    assert stored.dice == [[2, 2, 3, 3]]
    assert sorted(third.known.state["dice"]) == [2, 2, 3, 3, 6]
    assert json.loads(scripted_dice.path.read_text()) == []
    assert await _stored_state(game.pk) == third.known.state


async def test_any_other_write_to_the_row_is_read_again(on_the_loop, make_user, trips):
    ann, _bob, game = await _table(make_user)
    await _loop_move(game, ann, "a-1")
    # Not a move: the same seq and state, another column (the row's version changes all the same).
    await database_sync_to_async(Game.objects.filter(pk=game.pk).update)(absence_limit=999)
    trips.clear()
    second = await _loop_move(game, ann, "a-2", {"type": "roll", "hold": []})
    assert trips == [["known"], ["game", "mover"], ["insert", "update"]]
    assert move_async._known[game.pk].row == move_sql.game_values(
        await database_sync_to_async(Game.objects.get)(pk=game.pk)
    )
    assert second.seq == 2


async def test_a_removed_member_cannot_move_on_a_known_row(on_the_loop, make_user, trips):
    ann, bob = await database_sync_to_async(make_user)("ann"), await database_sync_to_async(make_user)("bob")
    game = await _group_table(ann, bob)
    await _loop_move(game, ann, "a-1")
    await database_sync_to_async(Membership.objects.filter(user=ann).delete)()
    move_async.heard(game.pk, None)  # nothing heard: the state is still held
    trips.clear()
    with pytest.raises(Forbidden):
        await _loop_move(game, ann, "a-2")
    assert trips == [["known"], ["game", "mover"]]
    assert await database_sync_to_async(Action.objects.filter(game=game).count)() == 1


async def test_a_repeated_id_on_a_known_row_gets_its_first_outcome(on_the_loop, make_user, trips):
    ann, _bob, game = await _table(make_user)
    first = await _loop_move(game, ann, "a-1")
    await _loop_move(game, ann, "a-2", {"type": "roll", "hold": []})
    trips.clear()
    again = await _loop_move(game, ann, "a-1")
    assert again.duplicate and again.seq == first.seq == 1
    assert trips == [["known"], ["game", "mover"], ["earlier"]]
    assert await database_sync_to_async(Action.objects.filter(game=game).count)() == 2


async def test_a_refused_move_on_a_known_row_is_said_on_the_row_as_it_is(on_the_loop, make_user, trips):
    ann, _bob, game = await _table(make_user)
    await _loop_move(game, ann, "a-1")
    trips.clear()
    with pytest.raises(InvalidAction):
        await _loop_move(game, ann, "a-2", {"type": "score", "box": "nonsense", "column": 1})
    assert trips == [["game", "mover"]]  # no write was tried


async def test_a_turn_passed_to_a_player_at_the_table_is_one_round_trip(on_the_loop, make_user, trips):
    ann, bob, game = await _table(make_user)
    await _at_table(game, bob)
    await _loop_move(game, ann, "a-1")
    passed = await _loop_move(game, ann, "a-2", {"type": "score", "box": "chance", "column": 1})
    assert trips[-1] == ["known_passed"]
    assert [type(e).__name__ for e in passed.effects] == ["TurnPassed"]
    assert not await database_sync_to_async(TurnMail.objects.filter(game=game, user=bob).exists)()


async def test_a_turn_passed_to_an_absent_player_is_made_in_a_thread_with_its_mail(
    on_the_loop, make_user, trips
):
    ann, bob, game = await _table(make_user)
    await _loop_move(game, ann, "a-1")
    trips.clear()
    passed = await _loop_move(game, ann, "a-2", {"type": "score", "box": "chance", "column": 1})
    # Tried on the row as held, on condition that bob is at the table: not written; the long way finds
    # him away, and the move goes to the database thread, where notices promise his e-mail.
    assert trips == [["known_passed"], ["game", "mover"]]
    assert [type(e).__name__ for e in passed.effects] == ["TurnPassed", "AbsentPlayerToMove"]
    mails = TurnMail.objects.filter(game=game, user=bob).values_list("turn_started_at", flat=True)
    stored = await database_sync_to_async(Game.objects.get)(pk=game.pk)
    assert await database_sync_to_async(list)(mails) == [stored.turn_started_at]
    assert await database_sync_to_async(Action.objects.filter(game=game).count)() == 2
    # The row the thread's move left is known here as well: the next move may be one round trip.
    assert move_async._known[game.pk].seq == passed.seq and move_async._known[game.pk].version


async def test_a_turn_passed_to_a_computer_enqueues_its_task_in_the_move(on_the_loop, make_user, trips):
    cid = await database_sync_to_async(make_user)("cid")
    game = await _computer_table(cid)
    await _loop_move(game, cid, "c-1")
    trips.clear()
    passed = await _loop_move(game, cid, "c-2", {"type": "score", "box": "chance", "column": 1})
    assert trips == [["game", "mover"]]  # not tried on the row as held: the thread makes it
    assert [type(e).__name__ for e in passed.effects] == ["TurnPassed", "ComputerToMove"]
    tasks = DBTaskResult.objects.filter(task_path=PLAY_TASK, args_kwargs__args=[game.pk, passed.seq])
    assert await database_sync_to_async(tasks.count)() == 1


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
    assert rows == [False, True]  # bob's refused move read the row; ann's next one needs no read
    assert await _stored_state(game.pk) == second.known.state


def test_only_the_latest_games_are_held(monkeypatch):
    monkeypatch.setattr(move_async, "KNOWN_GAMES", 2)
    monkeypatch.setattr(move_async, "_known", {})
    for game_id in (1, 2, 3, 2):
        move_async._remember(game_id, Known(None, game_id, {}))
    assert list(move_async._known) == [3, 2]


def test_a_later_seq_heard_here_forgets_the_state(monkeypatch):
    """Another process (or the worker) moved the game: its event reaches this process's sockets, and the
    next move here reads the row instead of first trying one round trip on a row that has moved on."""
    monkeypatch.setattr(move_async, "_known", {})
    move_async._remember(7, Known(None, 5, {}))
    move_async.heard(7, None)  # a message without a seq (presence)
    move_async.heard(7, 5)  # this process's own move
    move_async.heard(8, 9)  # another game
    assert move_async._known[7].seq == 5
    move_async.heard(7, 6)
    assert 7 not in move_async._known
