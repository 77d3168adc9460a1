"""The pool of moves (games.live.move_async) opens its connections with the database's own settings:
every OPTIONS value of DATABASE_URL (sslmode, application_name, connect_timeout, ...) reaches the
connections that make the moves, as it reaches the pages' connections."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.db import connection

from games.live import move_async
from games.models import Action
from tests.games.sockets import new_table

pytestmark = pytest.mark.django_db(transaction=True)

TAG = "dicehall-moves-under-test"


@pytest.fixture
def application_name(monkeypatch):
    """DATABASE_URL's ?application_name=..., as django-environ puts it into OPTIONS."""
    if connection.vendor != "postgresql":
        pytest.skip("the pool of moves is PostgreSQL's")
    monkeypatch.setitem(connection.settings_dict["OPTIONS"], "application_name", TAG)
    monkeypatch.setitem(connection.settings_dict["OPTIONS"], "connect_timeout", 7)
    return TAG


async def test_an_option_of_the_database_reaches_the_connections_that_make_the_moves(
    application_name, make_user
):
    await move_async.close_pool()  # a pool opened before the option was set has the old arguments
    ann, bob = await database_sync_to_async(make_user)("ann"), await database_sync_to_async(make_user)("bob")
    game = await new_table(ann, [bob], "farkle", {"goal": 3000})
    outcome = await move_async.apply_action(
        game_id=game.pk, user=ann, client_id="c1", action={"type": "roll", "keep": []}
    )
    assert outcome.seq == 1 and await Action.objects.filter(game_id=game.pk).acount() == 1
    moves = await move_async.pool()
    async with moves.connection() as conn:
        name = await (await conn.execute("SHOW application_name")).fetchone()
        assert name == (application_name,)
        assert conn.info.get_parameters()["connect_timeout"] == "7"
        # Seen by the server too, where an operator tells the moves' connections apart.
        seen = await (
            await conn.execute("SELECT application_name FROM pg_stat_activity WHERE pid = pg_backend_pid()")
        ).fetchone()
        assert seen == (application_name,)


def test_the_pool_keeps_its_own_overrides_over_djangos():
    params = move_async.connection_kwargs()
    assert params["autocommit"] is True and params["prepare_threshold"] is None
    assert params["cursor_factory"].__name__ == "AsyncClientCursor"
    assert "context" not in params
