"""PostgreSQL's own CPU per move: the move's statements sent as plain SQL, and as prepared statements.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/dicehall_loadbench python -m bench.pg_move --moves 3000

Makes --moves moves on one solo game the way games.live.move_async does (two round trips: "BEGIN; the game
FOR UPDATE; the mover" and "INSERT; UPDATE; COMMIT", with a state of the game's real size) on one
connection, once with the SQL text of games.live.move_sql and once with its PREPAREd statements, alternating
--rounds times. ``--known`` alternates prepared moves that read the game's state with prepared moves that
leave it out (games.live.move_async's known states) instead; ``--one-trip`` alternates those that leave
it out with moves in one round trip on the row as held ("BEGIN; the move_sql "known" statement; COMMIT",
games.live.moves.Known); ``--players 4`` stores the state of a
four-player Triple Yahtzee 99 game at mid-game (7.5 KB) rather than a solo Triple Quintzee's.
Reports, per move, the server backend's CPU (read from /proc: PostgreSQL must run on this machine), the
wall time and this process's CPU. The game and its log are deleted at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from datetime import UTC, datetime


def backend_cpu_s(pid: int) -> float:
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()  # noqa: SIM115 - read at once
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def big_state() -> str:
    """The JSON of a four-player Triple Yahtzee 99 game after 100 random actions (about 7.5 KB)."""
    from bench.decide import mid_game

    state, _ = mid_game("triple-yahtzee-99", ["a", "b", "c", "d"], actions=100, seed=1)
    return json.dumps(state, separators=(",", ":"))


def make_game() -> tuple[int, int, int, str]:
    from django.contrib.auth import get_user_model

    from games.tables import services

    users = get_user_model().objects
    user = users.filter(username="pg-move-bench").first() or users.create_user("pg-move-bench", password=None)
    game = services.game_create(creator=user, kind="triple-quintzee", seats=1)
    return user.pk, game.pk, game.seats.get().pk, json.dumps(game.state, separators=(",", ":"))


def drop_game(game_id: int) -> None:
    from games.models import Game

    Game.objects.filter(pk=game_id).delete()


async def one_trip_moves(cursor, text, moves: int, ids: tuple, tag: str, seq: int, created_at) -> None:
    """``moves`` moves as games.live.move_async makes them on a row it holds: one statement a move."""
    from games.live import move_sql
    from games.live.moves import Known

    user_id, game_id, seat_id, state = ids
    now = datetime.now(UTC)
    sql = f"BEGIN;{text('known')};COMMIT"
    await cursor.execute("SELECT CAST(xmin AS text) FROM games_game WHERE id = %s", [game_id])
    (version,) = await cursor.fetchone()
    for i in range(moves):
        seq += 1
        client_id = f"{tag}-{i}"
        held = Known(created_at, seq - 1, {}, version=version)
        insert = [game_id, seq, seat_id, client_id, '{"type":"roll"}', "[[1,2,3,4,5]]", "{}", now]
        mover = [seat_id, user_id, 0, client_id]
        params = move_sql.known_params(held, [state, seq, now, game_id], insert, mover)
        await cursor.execute(sql, params)
        cursor.nextset()
        rows = await cursor.fetchall()
        if not rows:
            raise RuntimeError("the move on the row as held wrote nothing")
        version = rows[0][0]


async def one_round(prepared: bool, moves: int, ids: tuple, tag: str, known=False, one_trip=False) -> dict:
    import psycopg

    from games.live import move_async, move_sql
    from games.live.moves import Known

    user_id, game_id, seat_id, state = ids
    now = datetime.now(UTC)
    async with await psycopg.AsyncConnection.connect(**move_async.connection_kwargs()) as conn:
        if prepared:
            await conn.execute(move_sql.prepare_sql())
        text = move_sql.prepared_sql if prepared else move_sql.sql
        load_sql = f"BEGIN;{text('game')};{text('mover')}"
        write_sql = f"{text('insert')};{text('update')};COMMIT"
        pid = conn.info.backend_pid
        cursor = conn.cursor()
        await cursor.execute("SELECT seq, created_at FROM games_game WHERE id = %s", [game_id])
        seq, created_at = await cursor.fetchone()
        cpu0, wall0, own0 = backend_cpu_s(pid), time.perf_counter(), time.process_time()
        if one_trip:
            await one_trip_moves(cursor, text, moves, ids, tag, seq, created_at)
        for i in range(0 if one_trip else moves):
            seq += 1
            client_id = f"{tag}-{i}"
            held = Known(created_at, seq - 1, {}) if known else None
            load = [*move_sql.game_params(game_id, held), client_id, user_id, user_id, game_id]
            await cursor.execute(load_sql, load)
            cursor.nextset()
            if bool((await cursor.fetchone())[-1]) != known:
                raise RuntimeError("the game row came with its state when it should not, or the reverse")
            cursor.nextset()
            await cursor.fetchone()
            insert = [game_id, seq, seat_id, client_id, '{"type":"roll"}', "[[1,2,3,4,5]]", "{}", now]
            await cursor.execute(write_sql, [*insert, state, seq, now, game_id])
        cpu1, wall1, own1 = backend_cpu_s(pid), time.perf_counter(), time.process_time()
    per = 1000 / moves
    return {
        "statements": "prepared" if prepared else "plain",
        "state": "one round trip (known)" if one_trip else "left out (known)" if known else "read",
        "backend_cpu_ms": round((cpu1 - cpu0) * per, 3),
        "wall_ms": round((wall1 - wall0) * per, 3),
        "client_cpu_ms": round((own1 - own0) * per, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pg_move", description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--known", action="store_true", help="compare reading the state with leaving it out")
    parser.add_argument("--one-trip", action="store_true", help="compare two round trips with one")
    parser.add_argument("--players", type=int, choices=(1, 4), default=1)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
    import django

    django.setup()
    from django.db import connection

    if connection.vendor != "postgresql":
        sys.exit("set DATABASE_URL to a migrated PostgreSQL database on this machine")
    ids = make_game()
    if args.players == 4:
        ids = (*ids[:3], big_state())
    # (prepared, known, one trip) of each kind of round
    kinds = [(False, False, False), (True, False, False)]
    if args.known:
        kinds = [(True, False, False), (True, True, False)]
    if args.one_trip:
        kinds = [(True, True, False), (True, True, True)]
    results = []
    try:
        for n in range(args.rounds):
            for prepared, known, one_trip in kinds:
                tag = f"{'p' if prepared else 's'}{'k' if known else ''}{'1' if one_trip else ''}{n}"
                results.append(asyncio.run(one_round(prepared, args.moves, ids, tag, known, one_trip)))
                print(json.dumps(results[-1]))
    finally:
        drop_game(ids[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
