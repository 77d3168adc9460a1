"""The statements of the transaction every move makes, written by hand (services.game_apply_action).

A move runs on every roll of every table. Through the ORM its five queries cost about 6 ms of CPU on
the benchmark machine, because Django compiles each query anew (about 1 ms apiece there): more than the
rules, the JSON and the websocket fan-out of the move together, and the reason one server process
topped out near 80 moves a second (docs/BENCHMARKS.md). Here a move is one SELECT that locks the game
and fetches, in the same round trip, the mover's seat, an earlier action with the same client id and
the group membership check; then one call that INSERTs into the log and UPDATEs the game row (two on
SQLite). The row is read with a plain cursor and turned into a Game the way the ORM would (Django's
RawQuerySet costs 0.8 ms more); JSON goes in and out as text, as JSONField stores it.

SQLite has no row locks: there the transaction itself takes the write lock (transaction_mode
IMMEDIATE in settings), which serialises moves the way FOR UPDATE does on PostgreSQL.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC

from django.conf import settings
from django.db import connection, models, transaction
from psycopg.pq import TransactionStatus

from games.models import Action, Game, Seat
from groups.models import Membership

# Django's default table names (games_game ...) and Game's columns in field order; tests/games/
# test_hot_path.py holds them to the models.
GAME_COLUMNS = (
    "id, kind, options, max_seats, absence_limit, status, group_id, creator_id, created_at, started_at, "
    "finished_at, turn_started_at, state, seq"
)
LOAD_SQL = """
SELECT g.id, g.kind, g.options, g.max_seats, g.absence_limit, g.status, g.group_id, g.creator_id,
  g.created_at, g.started_at, g.finished_at, g.turn_started_at, g.state, g.seq,
  s.id, s.position,
  (SELECT a.seq FROM games_action a
    WHERE a.game_id = g.id AND a.seat_id = s.id AND a.client_id = %s),
  CASE WHEN g.group_id IS NULL THEN 1
    WHEN EXISTS (SELECT 1 FROM dicegroups_membership m WHERE m.group_id = g.group_id AND m.user_id = %s)
    THEN 1 ELSE 0 END
FROM games_game g LEFT JOIN games_seat s ON s.game_id = g.id AND s.user_id = %s
WHERE g.id = %s"""
LOCK_CLAUSE = " FOR UPDATE OF g"
INSERT_SQL = """
INSERT INTO games_action (game_id, seq, seat_id, client_id, action, dice, result, created_at)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"""
UPDATE_SQL = "UPDATE games_game SET state = %s, seq = %s, turn_started_at = %s WHERE id = %s"
# PostgreSQL takes both in one call (the client-side binding psycopg uses with Django allows it).
INSERT_AND_UPDATE_SQL = INSERT_SQL + ";\n" + UPDATE_SQL
INSERT_UPDATE_COMMIT_SQL = INSERT_AND_UPDATE_SQL + ";\nCOMMIT"
TABLES = {Game: "games_game", Seat: "games_seat", Action: "games_action", Membership: "dicegroups_membership"}


def _numbered(sql: str) -> str:
    """``sql`` with its %s placeholders as $1, $2 ... (PREPARE's)."""
    parts = sql.split("%s")
    return "".join(f"{part}${n}" for n, part in enumerate(parts[:-1], 1)) + parts[-1]


# The same statements as server-side prepared statements, for connections that make moves all day
# (games.move_async's pool): PostgreSQL then parses and plans them once per connection, not on every
# move, which takes about 40 % off its CPU per move (0.65 instead of 1.1 ms, docs/BENCHMARKS.md). They
# are still sent as one string per round trip with the values inlined (EXECUTE name('...', ...)),
# which costs the Python side less than the extended protocol's pipeline.
PREPARE_SQL = ";\n".join(
    [
        "PREPARE dicehall_move_load(text, bigint, bigint, bigint) AS " + _numbered(LOAD_SQL + LOCK_CLAUSE),
        "PREPARE dicehall_move_insert(bigint, integer, bigint, text, jsonb, jsonb, jsonb, timestamptz) AS "
        + _numbered(INSERT_SQL),
        "PREPARE dicehall_move_update(jsonb, integer, timestamptz, bigint) AS " + _numbered(UPDATE_SQL),
    ]
)
BEGIN_LOAD_PREPARED_SQL = "BEGIN;EXECUTE dicehall_move_load(%s, %s, %s, %s)"
INSERT_UPDATE_COMMIT_PREPARED_SQL = (
    "EXECUTE dicehall_move_insert(%s, %s, %s, %s, %s, %s, %s, %s);"
    "EXECUTE dicehall_move_update(%s, %s, %s, %s);COMMIT"
)

_FIELDS = [f.attname for f in Game._meta.concrete_fields]
_JSON = [i for i, f in enumerate(Game._meta.concrete_fields) if isinstance(f, models.JSONField)]
_DATETIMES = [i for i, f in enumerate(Game._meta.concrete_fields) if isinstance(f, models.DateTimeField)]


@dataclass
class Mover:
    """What the locked row says of the user who sent the move."""

    seat_pk: int | None  # None: a spectator
    position: int | None
    earlier_seq: int | None  # the seq of this seat's earlier action with the same client id
    is_member: bool  # False if the game belongs to a group the user has left


def lock_for_move(
    game_id: int, user_id: int, client_id: str, *, begin: bool = False
) -> tuple[Game, Mover] | None:
    """The game, locked until the transaction ends, and the mover; None if there is no such game.

    ``begin``: the same call starts the transaction (see MoveTransaction)."""
    sql = LOAD_SQL + LOCK_CLAUSE if connection.features.has_select_for_update_of else LOAD_SQL
    with connection.cursor() as cursor:
        if begin:
            cursor.execute("BEGIN;" + sql, [client_id, user_id, user_id, game_id])
            cursor.nextset()
        else:
            cursor.execute(sql, [client_id, user_id, user_id, game_id])
        row = cursor.fetchone()
    return None if row is None else row_to_game(row)


def row_to_game(row) -> tuple[Game, Mover]:
    """The Game and the Mover of a row of LOAD_SQL."""
    values = list(row[: len(_FIELDS)])
    # What the fields' from_db_value and the backend's converters would do: jsonb and SQLite's text
    # arrive as JSON text (a connection Django did not set up parses jsonb itself); SQLite's datetimes
    # arrive naive, in UTC.
    for i in _JSON:
        if isinstance(values[i], str):
            values[i] = json.loads(values[i])
    if settings.USE_TZ:
        for i in _DATETIMES:
            if values[i] is not None and values[i].tzinfo is None:
                values[i] = values[i].replace(tzinfo=UTC)
    game = Game.from_db(connection.alias, _FIELDS, values)
    seat_pk, position, earlier_seq, is_member = row[len(_FIELDS) :]
    return game, Mover(seat_pk, position, earlier_seq, bool(is_member))


def new_action(game: Game, seat: Seat, client_id: str, action: dict, dice: list, at) -> Action:
    """The log entry of the move just applied to ``game`` (not stored yet: write_move does)."""
    return Action(
        game=game,
        seq=game.seq,
        seat=seat,
        client_id=client_id,
        action=action,
        dice=dice,
        result=game.state.get("last_event") or {},
        created_at=at,
    )


class MoveTransaction:
    """The transaction of one move: Django's atomic block, or on PostgreSQL two round trips in all.

    Through Django (and psycopg) a transaction is BEGIN, the statements, COMMIT: each a round trip,
    and each round trip costs the server process far more than its own CPU, as the database thread
    gives up Python's GIL while it waits and takes it back from the event loop after
    (docs/BENCHMARKS.md). As the outermost transaction on PostgreSQL, a move instead sends BEGIN with
    its locking SELECT and COMMIT with its INSERT and UPDATE, on a connection Django keeps in
    autocommit mode; the ORM statements of the rare moves (a repeated id, a skip, a resignation, the
    last move) run inside it too, as none of them opens an atomic block. Anything raised rolls it back.
    On SQLite, or inside another transaction (tests), it is an ordinary atomic block.

    ``on_commit`` runs a function once the move is committed, in both cases.
    """

    def __init__(self):
        self.manual = (
            connection.vendor == "postgresql"
            and not connection.in_atomic_block
            and connection.get_autocommit()
        )
        self.committed = False
        self._after: list = []

    def __enter__(self):
        if not self.manual:
            self._atomic = transaction.atomic()
            self._atomic.__enter__()
        return self

    def __exit__(self, exc_type, exc, tb):
        if not self.manual:
            return self._atomic.__exit__(exc_type, exc, tb)
        if not self.committed:
            # An error, or a move that wrote nothing (a repeated id): end the transaction.
            self._rollback()
            return False
        for func in self._after:
            func()
        return False

    def _rollback(self) -> None:
        raw = connection.connection
        if raw is None or raw.info.transaction_status == TransactionStatus.IDLE:
            return
        try:
            with connection.cursor() as cursor:
                cursor.execute("ROLLBACK")
        except Exception:  # noqa: BLE001 - the connection is broken: the error being raised says why
            connection.close()

    def on_commit(self, func) -> None:
        if self.manual:
            self._after.append(func)
        else:
            transaction.on_commit(func)


def write_params(logged: Action, state_json: str) -> tuple[list, list]:
    """The parameters of INSERT_SQL and UPDATE_SQL for a move."""
    game = logged.game
    insert = [
        game.pk,
        logged.seq,
        logged.seat.pk,
        logged.client_id,
        json.dumps(logged.action),
        json.dumps(logged.dice),
        json.dumps(logged.result),
        _CREATED_AT.get_db_prep_save(logged.created_at, connection),
    ]
    turn_started_at = _TURN_STARTED_AT.get_db_prep_save(game.turn_started_at, connection)
    return insert, [state_json, game.seq, turn_started_at, game.pk]


def write_move(logged: Action, state_json: str, tx: MoveTransaction | None = None) -> None:
    """Append the move to the log and store the game's new state, seq and turn clock.

    ``state_json`` is the game state encoded (the caller sends the same text to the players). In a
    manual MoveTransaction the same call commits it, so it must be the move's last statement.
    """
    insert, update = write_params(logged, state_json)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            commit = tx is not None and tx.manual
            cursor.execute(INSERT_UPDATE_COMMIT_SQL if commit else INSERT_AND_UPDATE_SQL, insert + update)
            if commit:
                tx.committed = True
        else:
            cursor.execute(INSERT_SQL, insert)
            cursor.execute(UPDATE_SQL, update)


_CREATED_AT = Action._meta.get_field("created_at")
_TURN_STARTED_AT = Game._meta.get_field("turn_started_at")
