"""Moves on the event loop, with psycopg's async connections: how the websockets move on PostgreSQL.

A move made in a database thread waits twice for PostgreSQL, and each wait hands Python's GIL to the
event loop and takes it back: in a process bound to one core by the GIL that cost more than the
move's own work (docs/BENCHMARKS.md). Here the move runs on the event loop itself. What it does is
decided by games.live.moves.decide, the same function the thread driver runs; this module only
carries its statements: BEGIN with the first batch of a transaction, COMMIT with the last (prepared
once per connection where games.live.move_sql says so), ROLLBACK when the decision refuses the move or
ends without writing (a repeated id). Every move goes this way, the rare ones included, so a move's
dice are rolled once and stored, acknowledged and broadcast as rolled. It keeps the state of the
games this process moved last (``_known``): their next move here is one batch (BEGIN, the writes on
condition that the row is as held, COMMIT), one round trip.

One connection pool per event loop (daphne has one), at most WS_DB_THREADS connections. Only when
WS_ASYNC_MOVES is on (the default) and the database is PostgreSQL.

A move whose connection breaks (its backend terminated, PostgreSQL restarted) is made once more on a
fresh connection, after the pool has checked the connections it holds, which died with it as a rule:
the player sees the move applied, never an error. A backend terminated with the others can
pass that check while it is still dying: a move given one is tried again as well, at most once per
connection of the pool, each dead one being discarded. Before the batch that carries the COMMIT
nothing was committed. When that batch is the one that broke, the move may have committed all the
same: the second attempt then finds its id in the log and answers it as decide answers any repeated
id, with its first outcome (a duplicate ack), so that it is applied once either way.
"""

from __future__ import annotations

import asyncio
import logging
import weakref

from django.conf import settings
from django.db import connection, connections
from psycopg import AsyncClientCursor, OperationalError
from psycopg import sql as psycopg_sql
from psycopg.pq import TransactionStatus
from psycopg.types.json import set_json_loads
from psycopg_pool import AsyncConnectionPool

from games.live import move_sql
from games.live import moves as moves_in_thread
from games.live.broadcast import publish
from games.live.game_threads import database_sync_to_async
from games.live.moves import ActionOutcome, Batch, Decision, Handover, Known, decide
from infra.jsontext import loads

logger = logging.getLogger(__name__)

_pools: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

# The state each game was left in by the last move this process committed, most recent last: the next
# move of the game reads its row without the state when nobody has moved since (games.live.move_sql).
# About 6-28 kB of memory a game (docs/BENCHMARKS.md).
KNOWN_GAMES = 1024
_known: dict[int, Known] = {}


def _remember(game_id: int, known: Known) -> None:
    _known.pop(game_id, None)
    _known[game_id] = known
    if len(_known) > KNOWN_GAMES:
        del _known[next(iter(_known))]


def heard(game_id: int, seq: int | None) -> None:
    """A socket of this process heard of move ``seq`` of the game: forget a state older than that, so
    that the next move here reads the row rather than first trying one round trip on it (another
    process, or the worker, moved the game). Only saves work: a move on a stale row writes nothing."""
    known = _known.get(game_id)
    if known is not None and seq is not None and seq > known.seq:
        del _known[game_id]


def enabled() -> bool:
    return settings.WS_ASYNC_MOVES and connection.vendor == "postgresql"


def connection_kwargs() -> dict:
    """psycopg's connection arguments for Django's default database, as the move pool opens them.

    Django's own (the backend's ``get_connection_params()``: the name, the credentials and every
    OPTIONS value, sslmode, sslrootcert, application_name, connect_timeout, ...), so that the moves'
    connections are opened as securely and as recognisably as the pages' are; then the pool's own
    overrides. Left out of Django's: its cursor class and its adapters, which are for its synchronous
    connections (the moves use an async client cursor and psycopg's own loaders, orjson for JSON)."""
    params = connections["default"].get_connection_params()
    for django_only in ("cursor_factory", "context"):
        params.pop(django_only, None)
    # prepare_threshold None: the move's statements are prepared by name (move_sql.prepare_sql()), and
    # psycopg's own bookkeeping of what to prepare hashed every query text, values inlined, on every move.
    return {**params, "autocommit": True, "cursor_factory": AsyncClientCursor, "prepare_threshold": None}


async def _open_pool() -> AsyncConnectionPool:
    pool = AsyncConnectionPool(
        kwargs=connection_kwargs(),
        configure=_prepare,
        min_size=1,
        max_size=settings.WS_DB_THREADS,
        max_idle=settings.CONN_MAX_AGE,
        open=False,
        name="moves",
    )
    await pool.open()
    return pool


async def _prepare(conn) -> None:
    # The game row's JSON (the whole state) is parsed on every move: orjson instead of json.
    set_json_loads(loads, conn)
    # OPTIONS' assume_role is not a connection argument: Django sets the role on each connection it
    # opens, and so does the pool, so that the moves act as the same role as the pages.
    role = connections["default"].settings_dict["OPTIONS"].get("assume_role")
    if role:
        await conn.execute(psycopg_sql.SQL("SET ROLE {}").format(psycopg_sql.Identifier(role)))
    await conn.execute(move_sql.prepare_sql())


async def pool() -> AsyncConnectionPool:
    loop = asyncio.get_running_loop()
    opening = _pools.get(loop)
    if opening is None:
        opening = _pools[loop] = asyncio.ensure_future(_open_pool())
    return await opening


async def close_pool() -> None:
    """Close this event loop's pool (tests, and a server shutting down)."""
    opening = _pools.pop(asyncio.get_running_loop(), None)
    if opening is not None:
        await (await opening).close()


class _ConnectionBroke(Exception):
    """The move's connection broke under it (see the module's docstring)."""


async def apply_action(*, game_id: int, user, client_id, action) -> ActionOutcome:
    """Make the move in one transaction and broadcast it once that has committed."""
    moves = await pool()
    # A connection that broke is discarded, so that after as many tries as the pool holds connections
    # one is fresh; the pool's check after the first break makes that the second try as a rule.
    for tries_left in range(settings.WS_DB_THREADS, -1, -1):
        try:
            outcome, committed = await _attempt(
                moves, game_id=game_id, user=user, client_id=client_id, action=action
            )
            break
        except _ConnectionBroke as broke:
            if not tries_left:
                raise broke.__cause__ from None
            logger.warning(
                "game %s: the move's connection broke (%r); trying again", game_id, broke.__cause__
            )
            if tries_left == settings.WS_DB_THREADS:
                await moves.check()
        except Handover as handover:
            # Its effects' handlers run in its transaction, through the ORM: made in the game's database
            # thread, which broadcasts it (games.live.game_threads). The row it leaves is known here too.
            outcome = await database_sync_to_async(moves_in_thread.apply_action, game_id)(
                game_id=game_id, user=user, client_id=client_id, action=action, spare=handover.rolls
            )
            if outcome.known is not None and outcome.known.version is not None:
                _remember(game_id, outcome.known)
            return outcome
    if committed and outcome.known is not None:  # the COMMIT went with the move's last statements
        _remember(game_id, outcome.known)
    if not outcome.duplicate:
        await publish(moves_in_thread.broadcast_messages(game_id, outcome))
    return outcome


async def _attempt(moves: AsyncConnectionPool, *, game_id: int, user, client_id, action):
    """One try at the move: its outcome, and whether it committed."""
    decision = decide(
        game_id=game_id,
        user=user,
        client_id=client_id,
        action=action,
        known=_known.get(game_id),
        handover=True,
    )
    batch = next(decision)  # the envelope is checked before a connection is taken
    async with moves.connection() as conn:
        try:
            outcome = await _run(conn.cursor(), decision, batch)
            committed = conn.info.transaction_status == TransactionStatus.IDLE
        except OperationalError as exc:
            if conn.closed:
                decision.close()
                raise _ConnectionBroke from exc
            raise
        finally:
            if not conn.closed and conn.info.transaction_status != TransactionStatus.IDLE:
                await conn.execute("ROLLBACK")
    return outcome, committed


async def _run(cursor, decision: Decision, batch: Batch) -> ActionOutcome:
    while True:
        answer = await _execute(cursor, batch)
        try:
            batch = decision.send(answer)
        except StopIteration as stop:
            return stop.value


async def _execute(cursor, batch: Batch) -> list:
    statements = [move_sql.prepared_sql(name) for name, _ in batch.statements]
    text = ("BEGIN;" if batch.begin else "") + ";".join(statements) + (";COMMIT" if batch.last else "")
    await cursor.execute(text, [value for _, params in batch.statements for value in params])
    if batch.begin:
        cursor.nextset()
    answers = []
    for i in range(len(statements)):
        if i:
            cursor.nextset()
        answers.append(await cursor.fetchall() if cursor.description else None)
    return answers
