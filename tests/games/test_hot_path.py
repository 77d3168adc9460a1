"""The live-play hot path kept lean (docs/BENCHMARKS.md): the database threads, one encoding per event,
and the queries of one move."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import broadcast, dbpool, move_sql, services


def test_layer_message_carries_the_json_text_once():
    event = {"type": "event", "seq": 3, "state": {"current": "ann", "dice": [1, 2, 3]}}
    message = broadcast.layer_message(event)
    assert message == {"type": "game.message", "text": json.dumps(event, separators=(",", ":"))}
    assert json.loads(message["text"]) == event


def test_access_revoked_travels_as_data_for_the_consumers_to_read():
    payload = {"type": "access_revoked", "user": "bob"}
    assert broadcast.layer_message(payload) == {"type": "game.message", "payload": payload}


def test_one_game_always_uses_the_same_database_thread(settings, monkeypatch):
    settings.WS_DB_THREADS = 4
    monkeypatch.setattr(dbpool, "_executors", [])
    executors = {n: dbpool.database_sync_to_async(len, n)._executor for n in range(12)}
    assert len(set(executors.values())) == 4
    assert executors[1] is executors[5] is executors[9]
    assert dbpool.database_sync_to_async(len, 5)._executor is executors[5]
    assert not dbpool.database_sync_to_async(len, 5)._thread_sensitive
    for executor in set(executors.values()):
        executor.shutdown()


def test_one_thread_is_channels_own(settings):
    settings.WS_DB_THREADS = 1
    call = dbpool.database_sync_to_async(len, 7)
    assert call._thread_sensitive
    assert call._executor is None


@pytest.mark.django_db
def test_a_move_costs_three_statements_and_names_its_player(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    game = services.game_create(creator=ann, kind="farkle", options={"goal": 3000}, seats=2)
    services.game_join(game_id=game.pk, user=bob)
    services.game_start(game_id=game.pk, user=ann)
    with CaptureQueriesContext(connection) as queries:
        outcome = services.game_apply_action(
            game_id=game.pk, user=ann, client_id="a-1", action={"type": "roll", "keep": []}
        )
    sql = [q["sql"] for q in queries.captured_queries]
    statements = [q.split()[0] for q in sql if q.split()[0] in ("SELECT", "INSERT", "UPDATE", "DELETE")]
    # the game (locked) with the seat, the id check and the membership; the log insert; the game update
    assert statements == ["SELECT", "INSERT", "UPDATE"], statements
    assert outcome.event["player"] == "ann"


def test_the_hand_written_sql_names_the_models_tables():
    for model, table in move_sql.TABLES.items():
        assert model._meta.db_table == table
