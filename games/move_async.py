"""A move on the event loop, with psycopg's async connections: the common move, on PostgreSQL.

A move made in a database thread waits twice for PostgreSQL, and each wait hands Python's GIL to the
event loop and takes it back: in a process bound to one core by the GIL that cost more than the
move's own work (docs/BENCHMARKS.md: 129 moves/s from a thread, 181 from the loop, same run of the
machine). Here the common move runs on the event loop itself: "BEGIN; SELECT ... FOR UPDATE" and
"INSERT; UPDATE; COMMIT" (games.move_sql, as statements prepared once per connection), the rules and
the JSON in between, and the broadcast after the commit. Every other case (a spectator, a repeated
id, a skip, a resignation, a refused action, the move that ends the game, a game not being played)
is rolled back untouched and returns None: the consumer then makes the move through
games.services.game_apply_action in a thread, which says why it is refused or does the rare work
through the ORM. No dice are lost that way: a move that is handed over has rolled nothing anybody
saw (it was rolled back), and the game-ending moves of these games (a score, a bank) roll no dice.

One connection pool per event loop (daphne has one), at most WS_DB_THREADS connections. Only when
WS_ASYNC_MOVES is on (production settings, on PostgreSQL).
"""

from __future__ import annotations

import asyncio
import logging
import weakref

from django.conf import settings
from django.db import connection
from django.utils import timezone
from psycopg import AsyncClientCursor
from psycopg.pq import TransactionStatus
from psycopg_pool import AsyncConnectionPool

from games import move_sql
from games.broadcast import layer_message, publish
from games.dice_source import RecordingDice
from games.errors import GameError
from games.models import Game, Seat
from games.services import MAX_CLIENT_ID, ActionOutcome, event_texts, play

logger = logging.getLogger(__name__)

_pools: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
HANDED_OVER = ("skip", "resign")


def enabled() -> bool:
    return settings.WS_ASYNC_MOVES and connection.vendor == "postgresql"


def connection_kwargs() -> dict:
    """psycopg's connection arguments for Django's default database, as the move pool opens them."""
    db = settings.DATABASES["default"]
    params = {"dbname": db["NAME"], "user": db["USER"], "password": db["PASSWORD"], "host": db["HOST"]}
    params = {key: value for key, value in params.items() if value}
    if db.get("PORT"):
        params["port"] = db["PORT"]
    return {**params, "autocommit": True, "cursor_factory": AsyncClientCursor}


async def _open_pool() -> AsyncConnectionPool:
    pool = AsyncConnectionPool(
        kwargs=connection_kwargs(),
        configure=_prepare,
        min_size=1,
        max_size=settings.WS_DB_THREADS,
        open=False,
        name="moves",
    )
    await pool.open()
    return pool


async def _prepare(conn) -> None:
    await conn.execute(move_sql.PREPARE_SQL)


async def pool() -> AsyncConnectionPool:
    loop = asyncio.get_running_loop()
    opening = _pools.get(loop)
    if opening is None:
        opening = _pools[loop] = asyncio.ensure_future(_open_pool())
    return await opening


async def close_pool() -> None:
    """Close this event loop's pool (tests; a server keeps it for its life)."""
    opening = _pools.pop(asyncio.get_running_loop(), None)
    if opening is not None:
        await (await opening).close()


async def apply_action(*, game_id: int, user, client_id: str, action) -> ActionOutcome | None:
    """Make the move and broadcast it; None if it is one for games.services.game_apply_action."""
    if not isinstance(client_id, str) or not 1 <= len(client_id) <= MAX_CLIENT_ID:
        return None
    if (
        not isinstance(action, dict)
        or not isinstance(action.get("type"), str)
        or action["type"] in HANDED_OVER
    ):
        return None
    async with (await pool()).connection() as conn:
        cursor = conn.cursor()
        try:
            outcome = await _move(cursor, game_id, user, client_id, action)
        finally:
            if conn.info.transaction_status != TransactionStatus.IDLE:
                await conn.execute("ROLLBACK")
    if outcome is not None:
        event, text = outcome
        await publish([(game_id, layer_message(event, text))])
        return ActionOutcome(seq=event["seq"], duplicate=False, event=event)
    return None


async def _move(cursor, game_id: int, user, client_id: str, action: dict) -> tuple[dict, str] | None:
    await cursor.execute(move_sql.BEGIN_LOAD_PREPARED_SQL, [client_id, user.pk, user.pk, game_id])
    cursor.nextset()
    row = await cursor.fetchone()
    if row is None:
        return None
    game, mover = move_sql.row_to_game(row)
    if mover.seat_pk is None or not mover.is_member or mover.earlier_seq is not None:
        return None
    if game.status != Game.Status.PLAYING:
        return None
    seat = Seat(pk=mover.seat_pk, game=game, user=user, position=mover.position)
    now = timezone.now()
    dice = RecordingDice(game.kind)
    try:
        state = play(game, user, action, dice, now)
    except GameError:
        return None  # refused: the service says why, with the same rules
    if game.engine.is_over(state):
        return None  # the last move: the service writes the results
    logged = move_sql.new_action(game, seat, client_id, action, dice.rolls, now)
    event, state_json, text = event_texts(game, logged, seat)
    insert, update = move_sql.write_params(logged, state_json)
    await cursor.execute(move_sql.INSERT_UPDATE_COMMIT_PREPARED_SQL, insert + update)
    return event, text
