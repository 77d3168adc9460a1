"""Games played far enough to count: every person at the table makes a move of the game before a test
ends it (a game ended sooner is aborted, docs/ratings.md), through the services as a player would."""

from __future__ import annotations

from itertools import count

from games.models import Game
from games.tables import services as tables

_ids = count(1)
NOT_MOVES = ("resign", "skip")


def move(game: Game, user, *, points: bool = True) -> None:
    """One move of the game by ``user``, whose turn it is: one that ends the turn with points when the
    engine offers it (a score, a bank), else the first other move of the game. ``points=False``: the
    other moves first (Farkle's player rolls on until the dice score nothing: a turn of no points)."""
    game.refresh_from_db()
    actions = [a for a in game.engine.legal_actions(game.state) if a["type"] not in NOT_MOVES]
    ending = [a for a in actions if a["type"] in ("score", "bank")]
    others = [a for a in actions if a not in ending]
    action = ((ending or others) if points else (others or ending))[0]
    tables.game_apply_action(game_id=game.pk, user=user, client_id=f"played-{next(_ids)}", action=action)


def everyone_moves(game: Game, *, points: bool = True) -> Game:
    """Each person at ``game`` makes a move, in turn order, playing their turn to its end while another
    person has yet to move (a computer plays its own turns in the worker, which the tests run at once);
    the game as it is then. ``points``: as ``move``'s."""
    seats = {s.user.username: s.user for s in game.seats.select_related("user")}
    waiting = {name for name, user in seats.items() if not user.computer}
    for _ in range(200):
        game.refresh_from_db()
        if not waiting or game.status != Game.Status.PLAYING:
            break
        current = game.engine.current_player(game.state)
        move(game, seats[current], points=points)
        waiting.discard(current)
    game.refresh_from_db()
    assert not waiting, f"{sorted(waiting)} never came to move"
    return game
