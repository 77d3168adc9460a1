"""Playing to win, not for points, measured: two-player games of the card experts, the second seat's last
turn (the first seat's card full: the score to beat known) played for the exact chance of winning
(games/bots/cards.py, ``WinTurn``, ``PLAY_TO_WIN``) or, as before, for points, on the same seeded dice.
Until that turn both sides play the same game, so the paired difference of the second seat's wins (a
tie half) is what the win play adds.

Writes docs/benchmarks/bots.json (key "win_play") and the section of docs/BENCHMARKS.md with
``--write``.

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python -m bench.win_play --games 4000 --write
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Sequence

from bench import bots as bb
from bench import quintzee as bq
from games import bots, rules
from games.bots import cards
from games.rules.dice import make_dice

SLUGS = ("quintzee", "triple-quintzee")
CHUNK = 50
SECTION = "## The last turn played to win"


def task(job: tuple) -> list[float]:
    """``games`` two-player games of experts, each with its own seeded dice: the second seat's wins,
    its last turn played for the win (``on``) or for points."""
    slug, on, chunk, games = job
    cards.PLAY_TO_WIN = on
    cards._turns.clear()
    engine = rules.get(slug)
    out = []
    for g in range(games):
        # A string seed (hashed whole by random.Random): every game its own dice.
        seed = f"win-play-{slug}-{chunk}-{g}"
        dice = make_dice(random.Random(seed), painted=engine.dice_kind == "painted")
        rng = random.Random(f"{seed}-choices")
        state = engine.new_game(["first", "second"])
        while not state["over"]:
            player = engine.current_player(state)
            state = engine.apply(state, player, bots.choose(slug, state, "expert", rng), dice)
        winners = engine.winners(state)
        out.append(0.0 if "second" not in winners else 1.0 / len(winners))
    return out


def measure(slugs: Sequence[str], games: int, processes: int) -> dict:
    out: dict = {}
    for slug, sides in bb.two_sides(task, slugs, games, processes, CHUNK).items():
        diffs = [a - b for a, b in zip(sides[True], sides[False], strict=True)]
        out[slug] = {
            "points": bq.summary(sides[False]),
            "win": bq.summary(sides[True]),
            "gain": bq.summary(diffs),
            "games_changed": sum(1 for d in diffs if d),
        }
    return out


def lines(result: dict) -> list[str]:
    out = [
        SECTION,
        "",
        f"Measured by `{result['command']}` ({result['seconds']:.0f} s, {result['processes']} processes). "
        "Two-player games of experts with seeded dice; the second seat plays its last turn (the first "
        "seat's card full: the score to beat known) for the exact chance of winning "
        "(games/bots/cards.py, `WinTurn`) or, as before, for points. Until that turn the two sides "
        "play the same game; a tie counts half a win.",
        "",
        "| game | games | second seat wins, for points | for the win | gain (paired) | 95 % interval "
        "| games that changed |",
        "|---|---:|---:|---:|---:|---|---:|",
    ]
    for slug, by in result["games"].items():
        g = by["gain"]
        out.append(
            f"| {slug} | {g['n']} | {by['points']['mean']:.4f} | {by['win']['mean']:.4f} "
            f"| {g['mean']:+.4f} | {g['ci95'][0]:+.4f} to {g['ci95'][1]:+.4f} | {by['games_changed']} |"
        )
    return [*out, ""]


def write(result: dict) -> None:
    figures = json.loads(bb.JSON_OUT.read_text())
    figures["win_play"] = result
    bb.JSON_OUT.write_text(json.dumps(figures, indent=1) + "\n")
    bb.put_section(SECTION, "\n".join(lines(result)))


def main(argv: Sequence[str] | None = None) -> int:
    args = bb.two_sides_args("python -m bench.win_play", __doc__, 4000, "two-player games", SLUGS, argv)
    started = time.perf_counter()
    result = {"games": measure(args.slugs.split(","), args.games, args.processes)}
    result["seconds"] = round(time.perf_counter() - started, 1)
    result["processes"] = args.processes
    result["command"] = " ".join(["python -m bench.win_play", *(argv if argv is not None else sys.argv[1:])])
    sys.stdout.write(json.dumps(result, indent=1) + "\n")
    if args.write:
        write(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
