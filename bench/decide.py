"""The CPU of deciding a move, without a database or a socket: games.live.moves.decide, fed the rows it
asks for, for each game at a mid-game state of four players.

    python -m bench.decide                # each game, 2,000 moves, best of 3 rounds
    python -m bench.decide --profile      # and cProfile's heaviest functions over all of them

What it measures is the part of a move that is ours alone (docs/BENCHMARKS.md): the envelope, the game
row made a Game, the engine's apply with recorded dice, the event with its scores and preview, its JSON,
and the parameters of the writes. The same state is moved from each time (a random legal action), so
every move is one the server would make at that point of a game.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import sys
import time

KINDS = {
    "farkle": {"goal": 3000, "dice": 6},
    "painted-dicez": None,
    "triple-quintzee": None,
    "triple-yahtzee-99": None,
}
PLAYERS = 4
WARM_MOVES = 40


def mid_game(kind: str, players: list[str], options=None, actions: int = WARM_MOVES, seed: int = 3):
    """A game of ``kind`` after ``actions`` random legal actions: (its state, the random generator)."""
    from games import rules
    from games.rules.dice import make_dice

    engine, rng = rules.get(kind), random.Random(seed)
    dice = make_dice(rng, painted=kind == "painted-dicez")
    state = engine.new_game(players, options)
    for _ in range(actions):
        if engine.is_over(state):
            break
        action = rng.choice(engine.legal_actions(state))
        state = engine.apply(state, engine.current_player(state), action, dice)
    return state, rng


def setup(kind: str, options):
    """(engine, users, the game row as the "game" statement returns it, state, rng) at mid-game."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from games import rules
    from games.live import move_sql
    from games.models import Game

    engine = rules.get(kind)
    users = [get_user_model()(pk=i + 1, username=f"bench{i}") for i in range(PLAYERS)]
    state, rng = mid_game(kind, [u.username for u in users], options)
    now = timezone.now()
    game = Game(
        pk=1, kind=kind, options=options or {}, max_seats=PLAYERS, status=Game.Status.PLAYING, state=state,
        seq=WARM_MOVES, created_at=now, started_at=now, turn_started_at=now,
    )  # fmt: skip
    # The statement's last column says whether the state was left out (a known state).
    row = [getattr(game, name) for name in move_sql._FIELDS] + (
        [False] if hasattr(move_sql, "game_params") else []
    )
    return engine, users, row, state, rng


def one_move(engine, users, row, state, action) -> None:
    """decide() for one action, answered as the database would answer a move that is not the last."""
    from games.live.moves import decide

    player = engine.current_player(state)
    user = next(u for u in users if u.username == player)
    decision = decide(game_id=1, user=user, client_id="bench-1", action=action)
    next(decision)
    batch = decision.send([[row], [(10 + users.index(user), users.index(user), None, 1)]])
    try:
        while True:
            if batch.statements[0][0] == "seats":  # the game ends: its seats and log
                answers = [[(100 + i, i) for i in range(PLAYERS)], [({},)] * WARM_MOVES]
                batch = decision.send(answers[: len(batch.statements)])
            else:
                batch = decision.send([None] * len(batch.statements))
    except StopIteration:
        return


def measure(kind: str, moves: int, rounds: int) -> float:
    """Microseconds of CPU per move, the best of ``rounds``."""
    engine, users, row, state, rng = setup(kind, KINDS[kind])
    actions = [rng.choice(engine.legal_actions(state)) for _ in range(moves)]
    best = float("inf")
    for _ in range(rounds):
        start = time.process_time()
        for action in actions:
            one_move(engine, users, row, state, action)
        best = min(best, (time.process_time() - start) / moves)
    return best * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.decide", description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    for kind in KINDS:
        print(f"{kind:18} {measure(kind, args.moves, args.rounds):7.1f} us of CPU per move")
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        for kind in KINDS:
            measure(kind, args.moves // 4, 1)
        profile.disable()
        pstats.Stats(profile, stream=sys.stdout).sort_stats("cumulative").print_stats(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
