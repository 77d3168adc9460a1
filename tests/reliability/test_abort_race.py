"""A resignation and the other player's first move at the same instant, through two daphne processes on
PostgreSQL and Redis: the game's row lock orders them, and the game's end agrees with its log. If the
move came first, everyone has moved: the game is finished and rated; if the resignation came first,
the other player never moved: the game is aborted, unrated, and the move is refused. Every socket, on
either process, hears the same events, the last with the stored status."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async

from games.models import Action, Game
from games.tables import services as tables
from ratings.models import RatingChange
from ratings.services import PAIR_GAMES_PER_DAY
from tests.played import move
from tests.reliability.conftest import Socket, requires_real_backends, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)
ROUNDS = 6


def _table(ann, bob) -> Game:
    """ann has played her first turn to its end; bob, to move, has not moved yet."""
    game = tables.game_create(creator=ann, kind="farkle", options={"goal": 3000}, seats=2)
    tables.game_join(game_id=game.pk, user=bob)
    tables.game_start(game_id=game.pk, user=ann)
    game.refresh_from_db()
    while game.engine.current_player(game.state) == "ann":
        move(game, ann, points=False)
        game.refresh_from_db()
    return game


def _ended(game_id: int, bob) -> tuple[str, bool, int, bool]:
    game = Game.objects.get(pk=game_id)
    moved = Action.objects.filter(game_id=game_id, seat__user=bob).exclude(action__type="resign").exists()
    return game.status, moved, RatingChange.objects.filter(game_id=game_id).count(), game.rated


@requires_real_backends
async def test_a_resignation_and_a_first_move_at_once_end_the_game_as_its_log_says(make_user, daphne):
    servers = [daphne("a"), daphne("b")]
    ann, bob, wat = [await database_sync_to_async(make_user)(name) for name in ("ann", "bob", "wat")]
    cookies = {u.username: await database_sync_to_async(session_cookie)(u) for u in (ann, bob, wat)}
    outcomes = set()
    rated_games = 0
    for round_ in range(ROUNDS):
        game = await database_sync_to_async(_table)(ann, bob)
        # ann's and bob's sockets on different processes (which one, by round); a spectator on each.
        socks = {
            "ann": Socket(servers[round_ % 2], game.pk, cookies["ann"], "ann"),
            "bob": Socket(servers[(round_ + 1) % 2], game.pk, cookies["bob"], "bob"),
            "wat-a": Socket(servers[0], game.pk, cookies["wat"], "wat-a"),
            "wat-b": Socket(servers[1], game.pk, cookies["wat"], "wat-b"),
        }
        try:
            for sock in socks.values():
                await sock.open()
            resign = {"type": "action", "id": f"resign-{round_}", "action": {"type": "resign"}}
            roll = {"type": "action", "id": f"roll-{round_}", "action": {"type": "roll", "keep": []}}
            await asyncio.gather(socks["ann"].send(resign), socks["bob"].send(roll))
            resigned, rolled = await asyncio.gather(
                socks["ann"].reply_to(resign["id"], 20), socks["bob"].reply_to(roll["id"], 20)
            )
            status, moved, changes, rated = await database_sync_to_async(_ended)(game.pk, bob)
            assert resigned["type"] == "ack", resigned
            if moved:  # bob's roll came first: everyone had moved
                assert rolled["type"] == "ack" and status == Game.Status.FINISHED
                # Rated, unless the pair's rated games of the day are used up (three: ratings.services).
                assert changes == (2 if rated else 0)
                rated_games += rated
            else:  # the resignation came first: bob never moved
                assert (rolled["type"], rolled["code"]) == ("error", "not_playing"), rolled
                assert status == Game.Status.ABORTED and changes == 0
            outcomes.add(status)
            last = resigned["seq"]
            for sock in socks.values():
                while not any(m["type"] == "event" and m["seq"] == last for m in sock.inbox):
                    await sock.next("event", 20)
            heard = [[m for m in sock.inbox if m["type"] == "event"] for sock in socks.values()]
            assert all(events == heard[0] for events in heard), "a socket heard other events"
            assert heard[0][-1]["status"] == status
        finally:
            for sock in socks.values():
                await sock.close()
    assert outcomes <= {Game.Status.FINISHED, Game.Status.ABORTED}
    assert rated_games <= PAIR_GAMES_PER_DAY
