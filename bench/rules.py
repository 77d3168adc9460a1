"""Benchmark of the rules engines: random solo games chosen from legal_actions, with seeded dice.

Run: ``python -m bench.rules [--games N] [--seed S]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from types import ModuleType

from games.rules import ENGINES
from games.rules.dice import make_dice

# Random Farkle play ends with probability 1, but a bug that stalls a game must not hang the benchmark.
MAX_ACTIONS = 100_000


def play(engine: ModuleType, rng: random.Random, players: Sequence[str] = ("solo",)) -> int:
    """Play one random game to the end; return the number of actions applied."""
    dice = make_dice(rng, painted=engine.slug == "painted-dicez")
    state = engine.new_game(list(players))
    actions = 0
    while not engine.is_over(state):
        if actions >= MAX_ACTIONS:
            raise RuntimeError(f"{engine.slug}: no end after {MAX_ACTIONS} actions")
        action = rng.choice(engine.legal_actions(state))
        state = engine.apply(state, engine.current_player(state), action, dice)
        actions += 1
    return actions


def bench(engine: ModuleType, games: int, seed: int) -> tuple[float, float, int]:
    """(games per second, actions per second, actions) for ``games`` random solo games."""
    rng = random.Random(seed)
    start = time.perf_counter()
    actions = sum(play(engine, rng) for _ in range(games))
    elapsed = time.perf_counter() - start
    return games / elapsed, actions / elapsed, actions


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.rules", description=__doc__)
    parser.add_argument("--games", type=int, default=100, help="games per engine (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the dice and choices (default 1)")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    out = sys.stdout
    out.write(f"{args.games} random solo games per engine, seed {args.seed}\n")
    out.write(f"{'engine':<20}{'games/s':>12}{'actions/s':>14}{'actions/game':>14}\n")
    for slug, engine in ENGINES.items():
        games_per_s, actions_per_s, actions = bench(engine, args.games, args.seed)
        out.write(f"{slug:<20}{games_per_s:>12.1f}{actions_per_s:>14.0f}{actions / args.games:>14.1f}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
