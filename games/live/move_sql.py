"""The SQL of a move, written by hand, and the conversion of its rows (games.live.moves decides the move).

A move runs on every roll of every table. Through the ORM its queries cost about 6 ms of CPU on the
benchmark machine, because Django compiles each query anew (about 1 ms apiece there): more than the
rules, the JSON and the websocket fan-out of the move together (docs/BENCHMARKS.md). Here the common
move is two round trips: the game row locked, then the mover's seat, an earlier action with the same
client id and the group membership (a second statement, so that a move that waited for the lock sees
what the move before it committed); then the log INSERT and the game UPDATE. The rare moves (a
repeated id, a skip, the last move) add a few statements of their own. A move on a row the process
knows is one statement ("known", below): one round trip.

Every statement has a name; games.live.moves asks for statements by name and a driver runs them: through
Django's connection in a thread (games.live.moves.apply_action), or on the event loop through psycopg's
async connections, where the common ones are prepared once per connection (games.live.move_async).
Placeholders are %s for both; JSON goes in as text. SQLite has no row locks: there the transaction
itself takes the write lock (transaction_mode IMMEDIATE in settings), which serialises moves the way
FOR UPDATE does on PostgreSQL.
"""

from __future__ import annotations

from datetime import UTC
from functools import cache
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import connection, models

from games import access
from games.live import seen
from games.models import Game
from infra.jsontext import dumps, loads

if TYPE_CHECKING:
    from games.live.records import Known, Logged

# Django's default table names (games_game ...); tests/games/test_hot_path.py holds them to the models.
# The game row is read column by column in the model's field order (row_to_game), so its columns come
# from the model itself.
GAME_COLUMNS = ", ".join(f"g.{f.column}" for f in Game._meta.concrete_fields)
# The state (3-8 KB of JSON, parsed on every move) is left out when the move pool's process holds the
# state of that very row already (games.live.records.Known: the same seq of the same game): most moves of
# a game come from the socket that made the last one. The last column says whether it was left out.
_SAME = "g.seq = %s AND g.created_at = %s"
_GAME_SELECT = ", ".join(
    f"CASE WHEN {_SAME} THEN NULL ELSE g.state END" if f.name == "state" else f"g.{f.column}"
    for f in Game._meta.concrete_fields
)
# By "app_label.Model". A game's group membership is the groups app's, above the game core: its rule
# (games.access.may_act_as_member) and presence (games.live.seen.at_table) are compiled from their ORM
# definitions into the statements when the apps are ready (``statements``).
TABLES = {
    "games.Game": "games_game",
    "games.Seat": "games_seat",
    "games.Action": "games_action",
    "games.Connection": "games_connection",
    settings.AUTH_USER_MODEL: "accounts_user",
}
LOCK_CLAUSE = " FOR UPDATE"
# The row's version (its xmin: the transaction that wrote it) as the "update" leaves it; the next move
# of the game made by the same process writes only if the row is still that version ("known"). SQLite
# has no xmin: there the statement returns nothing.
_VERSION = " RETURNING CAST(xmin AS text)"

# The statements' names, and the PostgreSQL types of the parameters of those prepared on the move
# pool's connections (None: plain text, the rare ones).
_TYPES: dict[str, str | None] = {
    "game": "integer, timestamptz, integer, timestamptz, bigint",
    "mover": "text, bigint, timestamptz, bigint, bigint",
    "insert": "bigint, integer, bigint, text, jsonb, jsonb, jsonb, timestamptz",
    "update": "jsonb, integer, timestamptz, bigint",
    "earlier": None,
    "absence": None,
    "resign": None,
    "seats": None,
    "results": None,
    "finish_game": None,
    "finish_seat": None,
}
_KNOWN_UPDATE_TYPES = (
    "jsonb, integer, timestamptz, bigint, text, integer, timestamptz, "  # the "update" and the row's version
    "bigint, bigint, integer, bigint, bigint, text"  # the seat, the membership and the action's id
)
_KNOWN_INSERT_TYPES = "integer, bigint, text, jsonb, jsonb, jsonb, timestamptz"
# A move that passes the turn to a person checks that player's presence: their position and the cut-off.
_AT_TABLE_TYPES = "integer, timestamptz"
_TYPES |= {
    "known": f"{_KNOWN_UPDATE_TYPES}, {_KNOWN_INSERT_TYPES}",
    "known_passed": f"{_KNOWN_UPDATE_TYPES}, {_AT_TABLE_TYPES}, {_KNOWN_INSERT_TYPES}",
}


def _texts(member: str, present_p: str, present_s: str) -> dict[str, str]:
    """The statements' SQL, given the rules they share with the ORM as SQL: ``member``, whether the
    user (its %s) may act in game ``g`` as far as its group is concerned; ``present_p`` and
    ``present_s``, whether the player of seat ``p`` (``s``) is at the table since a cut-off (its %s)."""
    game_select = f"SELECT {_GAME_SELECT}, {_SAME} FROM games_game g WHERE g.id = %s"  # noqa: S608
    mover = f"""SELECT s.id, s.position,
  (SELECT a.seq FROM games_action a WHERE a.game_id = g.id AND a.seat_id = s.id AND a.client_id = %s),
  CASE WHEN {member} THEN 1 ELSE 0 END,
  (SELECT COALESCE(SUM(1 << p.position), 0) FROM games_seat p WHERE p.game_id = g.id AND {present_p})
FROM games_game g LEFT JOIN games_seat s ON s.game_id = g.id AND s.user_id = %s
WHERE g.id = %s"""  # noqa: S608 - model tables and compiled conditions, no values
    # The player to move: when last seen at the table, whether there now, whether there since the turn
    # began, whether a computer, and who.
    absence = f"""SELECT s.last_seen, {present_s},
  s.last_seen >= %s, u.computer, u.id
FROM games_seat s JOIN accounts_user u ON u.id = s.user_id WHERE s.game_id = %s AND s.position = %s"""  # noqa: S608
    texts = {
        "game": game_select,
        "mover": mover,
        "insert": """INSERT INTO games_action
  (game_id, seq, seat_id, client_id, action, dice, result, created_at)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s)""",
        "update": "UPDATE games_game SET state = %s, seq = %s, turn_started_at = %s WHERE id = %s",
        "earlier": (
            "SELECT seq, action, dice, result, created_at FROM games_action WHERE game_id = %s AND seq = %s"
        ),
        "absence": absence,
        "resign": "UPDATE games_seat SET resigned = %s WHERE id = %s",
        # Every seat at the game's end, and whether it has played: a computer's always counts as
        # played; a person's once it made a move of the game (a resignation or a skip is none:
        # moves.NOT_PLAYED).
        "seats": """SELECT s.id, s.position, u.computer <> '' OR EXISTS (SELECT 1 FROM games_action a
    WHERE a.game_id = s.game_id AND a.seat_id = s.id AND a.action->>'type' NOT IN ('resign', 'skip'))
FROM games_seat s JOIN accounts_user u ON u.id = s.user_id WHERE s.game_id = %s ORDER BY s.position""",
        "results": "SELECT result FROM games_action WHERE game_id = %s ORDER BY seq",
        "finish_game": "UPDATE games_game SET status = %s, finished_at = %s WHERE id = %s",
        "finish_seat": (
            "UPDATE games_seat SET final_score = %s, winner = %s, resigned = %s, laps = %s, summary = %s "
            "WHERE id = %s"
        ),
    }
    return texts | {
        "known": _known_statement(member, None),
        "known_passed": _known_statement(member, present_p),
    }


def _known_statement(member: str, present_p: str | None) -> str:
    """A move of a game whose row this process left at a version it knows (games.live.records.Known),
    in one statement and so in one round trip: the UPDATE writes only if the row is still that version
    (its xmin, seq and creation; any write to the row makes a new xmin) and the mover's seat, group
    membership and action id are as the two-round-trip move would find them; every other write of the
    move takes its rows FROM the updated one, so that nothing at all is written when the row has moved
    on. It answers the row's new version, or no row (the move is then made again the long way).

    ``present_p`` (a move that passes the turn to a person): it writes only if that player is at the
    table. One who is not is told of the turn by the apps that handle effects.AbsentPlayerToMove, in
    the move's transaction, which the long way holds."""
    at_table = ""
    if present_p:
        at_table = f"""
  AND EXISTS (SELECT 1 FROM games_seat p
    WHERE p.game_id = g.id AND p.position = %s AND {present_p})"""  # noqa: S608 - compiled, no values
    update = f"""UPDATE games_game g SET state = %s, seq = %s, turn_started_at = %s
WHERE g.id = %s AND g.xmin = CAST(%s AS xid) AND g.seq = %s AND g.created_at = %s AND g.status = 'playing'
  AND EXISTS (SELECT 1 FROM games_seat s
    WHERE s.id = %s AND s.game_id = g.id AND s.user_id = %s AND s.position = %s)
  AND {member}
  AND NOT EXISTS (SELECT 1 FROM games_action a
    WHERE a.game_id = g.id AND a.seat_id = %s AND a.client_id = %s){at_table}
RETURNING g.id, CAST(g.xmin AS text) AS version"""  # noqa: S608 - compiled conditions, no values
    insert = """INSERT INTO games_action
  (game_id, seq, seat_id, client_id, action, dice, result, created_at)
SELECT moved.id, %s, %s, %s, %s, %s, %s, %s FROM moved"""
    return f"WITH moved AS ({update}),\nlogged AS ({insert})\nSELECT version FROM moved"


@cache
def statements() -> dict[str, tuple[str, str | None]]:
    """name: (SQL, the PostgreSQL types of its parameters if it is prepared), once the apps are ready
    (the membership model is the groups app's, registered with games.access when it starts)."""
    texts = _texts(
        member=access.may_act_as_member_sql("g.group_id"),
        present_p=seen.at_table_sql(game="p.game_id", user="p.user_id"),
        present_s=seen.at_table_sql(game="s.game_id", user="s.user_id"),
    )
    return {name: (text, _TYPES[name]) for name, text in texts.items()}


def sql(name: str) -> str:
    """The statement as Django's connection runs it (the game row locked where the database can)."""
    text = statements()[name][0]
    if name == "game" and connection.features.has_select_for_update:
        text += LOCK_CLAUSE
    if name == "update" and connection.vendor == "postgresql":
        text += _VERSION
    return text


def _numbered(text: str) -> str:
    """``text`` with its %s placeholders as $1, $2 ... (PREPARE's)."""
    parts = text.split("%s")
    return "".join(f"{part}${n}" for n, part in enumerate(parts[:-1], 1)) + parts[-1]


# The common statements as server-side prepared statements, for connections that make moves all day
# (games.live.move_async's pool): PostgreSQL then parses and plans them once per connection, not on every
# move, which takes about 40 % off its CPU per move (docs/BENCHMARKS.md). They are still sent as one
# string per round trip with the values inlined (EXECUTE name('...', ...)), which costs the Python side
# less than the extended protocol's pipeline.
PREPARED = {name: f"dicehall_{name}" for name, types in _TYPES.items() if types}


def prepare_sql() -> str:
    """The PREPARE statements of a connection of the move pool."""
    return ";\n".join(
        f"PREPARE {PREPARED[name]}({types}) AS "
        + _numbered(text + {"game": LOCK_CLAUSE, "update": _VERSION}.get(name, ""))
        for name, (text, types) in statements().items()
        if types
    )


def prepared_sql(name: str) -> str:
    """The statement as the move pool runs it: EXECUTE of its prepared form, or its plain text."""
    text, types = statements()[name]
    if types is None:
        return text
    return f"EXECUTE {PREPARED[name]}({', '.join(['%s'] * text.count('%s'))})"


# --- rows and parameters ---------------------------------------------------------------------------

FIELDS = [f.attname for f in Game._meta.concrete_fields]
_STATE = FIELDS.index("state")
_JSON = [i for i, f in enumerate(Game._meta.concrete_fields) if isinstance(f, models.JSONField)]
_DATETIMES = [i for i, f in enumerate(Game._meta.concrete_fields) if isinstance(f, models.DateTimeField)]


def from_json(value):
    """A JSON column's value: jsonb and SQLite's text arrive as JSON text through Django's connection
    (a connection Django did not set up parses jsonb itself)."""
    return loads(value) if isinstance(value, str) else value


def from_datetime(value):
    """A datetime column's value, aware: SQLite's arrive naive, in UTC."""
    if value is not None and settings.USE_TZ and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value


def to_datetime(value):
    """A datetime as the database takes it as a parameter."""
    return connection.ops.adapt_datetimefield_value(value)


def game_params(game_id: int, known: Known | None = None) -> list:
    """The "game" statement's parameters: the row of ``game_id``, its state left out if it is ``known``'s."""
    seq, created_at = (known.seq, to_datetime(known.created_at)) if known else (-1, None)
    return [seq, created_at, seq, created_at, game_id]


def row_to_game(row, known: Known | None = None) -> Game:
    """The Game of a row of the "game" statement, as the ORM would build it."""
    *values, same = row
    for i in _JSON:
        values[i] = from_json(values[i])
    for i in _DATETIMES:
        values[i] = from_datetime(values[i])
    if same:
        values[_STATE] = known.state
    return Game.from_db(connection.alias, FIELDS, values)


def known_params(known: Known, update: list, insert: list, mover: list, at_table: list | None = None) -> list:
    """The "known" statements' parameters: the "update" and "insert" ones with the row's version and
    the mover's (seat pk, user pk, position, client id) as the guard checks them; "known_passed" adds
    the position of the player to move and the time since which a socket's ping counts (``at_table``)."""
    seat_pk, user_pk, position, client_id = mover
    guard = [known.version, known.seq, to_datetime(known.created_at), seat_pk, user_pk, position]
    return [*update, *guard, user_pk, seat_pk, client_id, *(at_table or []), *insert[1:]]


def game_values(game: Game) -> tuple:
    """Every column of the game as the model holds it, for known_game."""
    return tuple(getattr(game, name) for name in FIELDS)


def known_game(known: Known) -> Game:
    """The Game of the row as ``known`` holds it (a fresh instance: a move changes the one it is given)."""
    return Game.from_db(connection.alias, FIELDS, list(known.row))


def write_params(logged: Logged, state_json: str) -> tuple[list, list]:
    """The parameters of the "insert" and "update" statements of a move."""
    game = logged.game
    insert = [
        game.pk,
        logged.seq,
        logged.seat.pk,
        logged.client_id,
        dumps(logged.action),
        dumps(logged.dice),
        dumps(logged.result),
        to_datetime(logged.created_at),
    ]
    return insert, [state_json, game.seq, to_datetime(game.turn_started_at), game.pk]
