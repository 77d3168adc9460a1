"""The three statements of the transaction every move makes, written by hand (services.game_apply_action).

A move runs on every roll of every table. Through the ORM its five queries cost about 6 ms of CPU on
the benchmark machine, because Django compiles each query anew (about 1 ms apiece there): more than the
rules, the JSON and the websocket fan-out of the move together, and the reason one server process
topped out near 80 moves a second (docs/BENCHMARKS.md). Here a move is one SELECT that locks the game
and fetches, in the same round trip, the mover's seat, an earlier action with the same client id and
the group membership check; one INSERT into the log; one UPDATE of the game row.

The values go through each field's own get_db_prep_save, so what is stored is exactly what the ORM
would have stored.
SQLite has no row locks: there the transaction itself takes the write lock (transaction_mode
IMMEDIATE in settings), which serialises moves the way FOR UPDATE does on PostgreSQL.
"""

from __future__ import annotations

from django.db import connection

from games.models import Action, Game, Seat
from groups.models import Membership

# Django's default table names (games_game ...); tests/games/test_hot_path.py holds them to the models.
LOAD_SQL = """
SELECT g.*, s.id AS seat_pk, s.position AS seat_position,
  (SELECT a.seq FROM games_action a
    WHERE a.game_id = g.id AND a.seat_id = s.id AND a.client_id = %s) AS earlier_seq,
  CASE WHEN g.group_id IS NULL THEN 1
    WHEN EXISTS (SELECT 1 FROM dicegroups_membership m WHERE m.group_id = g.group_id AND m.user_id = %s)
    THEN 1 ELSE 0 END AS is_member
FROM games_game g LEFT JOIN games_seat s ON s.game_id = g.id AND s.user_id = %s
WHERE g.id = %s"""
LOCK_CLAUSE = " FOR UPDATE OF g"
INSERT_SQL = """
INSERT INTO games_action (game_id, seq, seat_id, client_id, action, dice, result, created_at)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"""
UPDATE_SQL = "UPDATE games_game SET state = %s, seq = %s, turn_started_at = %s WHERE id = %s"
TABLES = {Game: "games_game", Seat: "games_seat", Action: "games_action", Membership: "dicegroups_membership"}


def lock_for_move(game_id: int, user_id: int, client_id: str) -> Game | None:
    """The game, locked until the transaction ends, or None if there is none.

    The instance carries four more attributes: ``seat_pk`` and ``seat_position`` (None for a
    spectator), ``earlier_seq`` (the seq of this seat's earlier action with this client id, if any)
    and ``is_member`` (1 unless the game belongs to a group the user has left).
    """
    sql = LOAD_SQL + LOCK_CLAUSE if connection.features.has_select_for_update_of else LOAD_SQL
    rows = list(Game.objects.raw(sql, [client_id, user_id, user_id, game_id]))
    return rows[0] if rows else None


def _prep(model, name: str, value):
    return model._meta.get_field(name).get_db_prep_save(value, connection)


def insert_action(
    game: Game, seat: Seat, client_id: str, action: dict, dice: list, result: dict, at
) -> Action:
    """Append one action to the log; the Action returned (without its id) is what the event reports."""
    with connection.cursor() as cursor:
        cursor.execute(
            INSERT_SQL,
            [
                game.pk,
                game.seq,
                seat.pk,
                client_id,
                _prep(Action, "action", action),
                _prep(Action, "dice", dice),
                _prep(Action, "result", result),
                _prep(Action, "created_at", at),
            ],
        )
    return Action(
        game=game,
        seq=game.seq,
        seat=seat,
        client_id=client_id,
        action=action,
        dice=dice,
        result=result,
        created_at=at,
    )


def save_move(game: Game) -> None:
    """Store the game's state, seq and turn clock (what a move that does not end the game changes)."""
    with connection.cursor() as cursor:
        cursor.execute(
            UPDATE_SQL,
            [
                _prep(Game, "state", game.state),
                game.seq,
                _prep(Game, "turn_started_at", game.turn_started_at),
                game.pk,
            ],
        )
