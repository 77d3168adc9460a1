"""The live-play hot path kept lean (docs/BENCHMARKS.md): the database threads, one encoding per event,
and the queries of one move."""

from __future__ import annotations

import json
import threading

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.errors import InvalidAction
from games.live import broadcast, game_threads, move_sql
from games.models import Game
from games.tables import services


def test_layer_message_carries_the_json_text_once():
    event = {"type": "event", "seq": 3, "state": {"current": "ann", "dice": [1, 2, 3]}}
    message = broadcast.layer_message(event)
    assert message == {"type": "game.message", "text": json.dumps(event, separators=(",", ":")), "seq": 3}
    assert json.loads(message["text"]) == event


def test_access_revoked_travels_as_data_for_the_consumers_to_read():
    payload = {"type": "access_revoked", "user": "bob"}
    assert broadcast.layer_message(payload) == {"type": "game.message", "payload": payload}


def test_one_game_always_uses_the_same_database_thread(settings, monkeypatch):
    settings.WS_DB_THREADS = 4
    monkeypatch.setattr(game_threads, "_executors", [])
    executors = {n: game_threads.database_sync_to_async(len, n).call._executor for n in range(12)}
    assert len(set(executors.values())) == 4
    assert executors[1] is executors[5] is executors[9]
    assert game_threads.database_sync_to_async(len, 5).call._executor is executors[5]
    assert not game_threads.database_sync_to_async(len, 5).call._thread_sensitive
    for executor in set(executors.values()):
        executor.shutdown()


def test_one_thread_is_channels_own(settings):
    settings.WS_DB_THREADS = 1
    call = game_threads.database_sync_to_async(len, 7).call
    assert call._thread_sensitive
    assert call._executor is None


@pytest.mark.django_db
def test_a_move_costs_four_statements_and_names_its_player(make_user, scripted_dice):
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, kind="farkle", options={"goal": 3000}, seats=2)
    services.game_join(game_id=game.pk, user=bob)
    services.game_start(game_id=game.pk, user=ann)
    # A roll that scores: a Farkle (one roll in about 43) passes the turn, which writes its e-mail's row.
    scripted_dice([1, 2, 3, 3, 4, 6])
    with CaptureQueriesContext(connection) as queries:
        outcome = services.game_apply_action(
            game_id=game.pk, user=ann, client_id="a-1", action={"type": "roll", "keep": []}
        )
    sql = [q["sql"] for q in queries.captured_queries]
    statements = [s.split()[0] for q in sql for s in q.split(";\n")]
    statements = [s for s in statements if s in ("SELECT", "INSERT", "UPDATE", "DELETE")]
    # the game (locked), then the seat with the id check and the membership; the log insert and the
    # game update (each pair one call on PostgreSQL)
    assert statements == ["SELECT", "SELECT", "INSERT", "UPDATE"], statements
    assert len(sql) == (2 if connection.vendor == "postgresql" else 4) + sum(
        q.split()[0] in ("BEGIN", "SAVEPOINT", "RELEASE", "COMMIT") for q in sql
    )
    assert outcome.event["player"] == "ann"


def test_the_hand_written_sql_names_the_models_tables_and_columns():
    for model, table in move_sql.TABLES.items():
        assert apps.get_model(model)._meta.db_table == table
    # The group's membership as the groups app registered it, never named by the core.
    membership = apps.get_model("dicegroups.Membership")._meta.db_table
    assert f"FROM {connection.ops.quote_name(membership)}" in move_sql.statements()["mover"][0]
    columns = [f.column for f in Game._meta.concrete_fields]
    select = move_sql.statements()["game"][0].split(" FROM ")[0]
    read = [c if c.startswith("g.") else "g.state" for c in select.removeprefix("SELECT ").split(", ")]
    assert read[: len(columns)] == [f"g.{c}" for c in columns]  # then whether the state was left out


@pytest.mark.django_db
def test_the_game_row_read_by_hand_equals_the_orms(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, kind="triple-quintzee", seats=2)
    services.game_join(game_id=game.pk, user=bob)
    services.game_start(game_id=game.pk, user=ann)
    services.game_apply_action(game_id=game.pk, user=ann, client_id="a-1", action={"type": "roll"})
    with connection.cursor() as cursor:
        cursor.execute(move_sql.sql("game"), move_sql.game_params(game.pk))
        loaded = move_sql.row_to_game(cursor.fetchone())

        def mover(user, client_id):
            cursor.execute(move_sql.sql("mover"), [client_id, user.pk, timezone.now(), user.pk, game.pk])
            return cursor.fetchone()

        assert tuple(mover(bob, "nope"))[1:] == (1, None, 1, 0)  # nobody at the table
        assert mover(ann, "a-1")[2] == 1
    orm = Game.objects.get(pk=game.pk)
    for field in Game._meta.concrete_fields:
        assert getattr(loaded, field.attname) == getattr(orm, field.attname), field.name
    assert loaded.turn_started_at.tzinfo is not None


@pytest.mark.parametrize(
    "payload",
    [{"type": "event", "seq": 2, "state": {"a": [1, "é"]}}, {"state": {}}, {"type": "x", "state": None}],
)
def test_an_event_with_its_state_encoded_already_is_the_same_json(payload):
    text = broadcast.encode(payload, state=json.dumps(payload["state"]))
    assert json.loads(text) == payload
    assert broadcast.layer_message(payload, text)["text"] == text


class RecordingLayer:
    def __init__(self):
        self.sent = []

    async def group_send(self, group, message):
        self.sent.append((group, message["text"], threading.current_thread()))


# A database call, even one that makes no query: Channels closes stale connections of its thread around
# it, which touches the database whenever an earlier test left that thread a connection.
@pytest.mark.django_db
async def test_a_database_call_broadcasts_from_the_event_loop_once_it_returns(monkeypatch):
    layer = RecordingLayer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)

    def work(fail: bool) -> int:
        before = len(layer.sent)
        broadcast.send_now(7, {"type": "x"})
        broadcast.send_now(8, {"type": "y"})
        assert len(layer.sent) == before  # collected in the database thread, not sent from it
        if fail:
            raise ValueError("after the commit")
        return 3

    assert await game_threads.database_sync_to_async(work, 7)(False) == 3
    loop_thread = threading.current_thread()
    assert layer.sent == [("game.7", '{"type":"x"}', loop_thread), ("game.8", '{"type":"y"}', loop_thread)]
    with pytest.raises(ValueError):
        await game_threads.database_sync_to_async(work, 7)(True)
    assert len(layer.sent) == 4  # what was sent before the error still goes out


def test_outside_a_database_call_a_broadcast_is_sent_at_once(monkeypatch):
    layer = RecordingLayer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    assert broadcast.send_now(5, {"type": "z"})
    assert [(group, text) for group, text, _ in layer.sent] == [("game.5", '{"type":"z"}')]


@pytest.mark.django_db(transaction=True)
def test_a_move_is_broadcast_once_after_django_committed_it(make_user, monkeypatch, scripted_dice):
    # Dice that score: a Farkle would pass the turn, and the turn's row goes to the notices' group too.
    scripted_dice([1, 5, 2, 3, 4, 6])
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, kind="farkle", options={"goal": 3000}, seats=2)
    services.game_join(game_id=game.pk, user=bob)
    services.game_start(game_id=game.pk, user=ann)
    sent = []

    def send_to(group, message):
        # Django knows the transaction: its on_commit runs after the COMMIT, outside any atomic block.
        assert not connection.in_atomic_block and connection.get_autocommit()
        assert group == f"game.{game.pk}"
        sent.append((message["seq"], Game.objects.get(pk=game.pk).seq))

    monkeypatch.setattr(broadcast, "send_to", send_to)
    outcome = services.game_apply_action(
        game_id=game.pk, user=ann, client_id="a-1", action={"type": "roll", "keep": []}
    )
    assert sent == [(outcome.seq, 1)] == [(1, 1)]  # broadcast once, after the commit
    # A refused move stores nothing and broadcasts nothing; the connection is usable after it.
    with pytest.raises(InvalidAction):
        services.game_apply_action(
            game_id=game.pk, user=ann, client_id="a-2", action={"type": "bank", "keep": [9]}
        )
    assert len(sent) == 1
    assert Game.objects.get(pk=game.pk).seq == 1
    assert services.game_apply_action(
        game_id=game.pk, user=ann, client_id="a-1", action={"type": "roll"}
    ).duplicate
    assert len(sent) == 1
