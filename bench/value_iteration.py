"""The card experts before and after value iteration (games/bots/cardvalue.py, games/bots/fit.py's
``--iterate``): solo games of each game's expert on its fitted figures alone (before) and on its fitted
feature weights (after), the same seeded dice for both sides game for game, so the paired difference of
the final scores is what the weights add. On Quintzee, where the optimum is known, each game's loss
against it is measured too (the sum over its decisions of what each lost to the optimal one, Verhoeff's
measure): the calibration of the method.

Writes docs/benchmarks/bots.json (key "value_iteration", each game's figures kept until that game is
measured again) and the section of docs/BENCHMARKS.md with ``--write``.

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python -m bench.value_iteration --games 2000 --write
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Sequence

from bench import bots as bb
from bench import quintzee as bq
from games import rules
from games.bots import cards
from games.rules.dice import make_dice

SLUGS = ("quintzee", "painted-dicez", "triple-yahtzee-99", "triple-quintzee")
CHUNK = 25
SECTION = "## The card experts' value iteration"


def task(job: tuple) -> list[tuple[int, float]]:
    """``games`` solo games of the expert with (``on``) or without its fitted weights: each game's final
    score, and on Quintzee its loss against the optimum (else 0)."""
    slug, on, chunk, games = job
    module = cards._game(slug)
    fitted = module.fitted()
    kept = fitted.weights
    fitted.weights = kept if on else None
    cards._turns.clear()
    players = cards.CardPlayers(module)
    engine = rules.get(slug)
    optimum = None
    if slug == "quintzee":
        from games.bots import quintzee_expert

        optimum = quintzee_expert.PLAYERS
    out = []
    try:
        for g in range(games):
            # A string seed (hashed whole by random.Random): every game its own dice, the same both sides.
            seed = f"value-iteration-{slug}-{chunk}-{g}"
            dice = make_dice(random.Random(seed), painted=engine.dice_kind == "painted")
            rng = random.Random(f"{seed}-choices")
            state = engine.new_game(["solo"])
            lost = 0.0
            while not state["over"]:
                action = players.choose(state, "expert", rng)
                if optimum is not None and state["roll"] > 0:
                    lost += optimum.best(state).value - optimum.value(state, action)
                state = engine.apply(state, "solo", action, dice)
            out.append((engine.scores(state)["solo"], lost))
    finally:
        fitted.weights = kept
        cards._turns.clear()
    return out


def measure(slugs: Sequence[str], games: int, processes: int) -> dict:
    out: dict = {}
    for slug, sides in bb.two_sides(task, slugs, games, processes, CHUNK).items():
        before, after = ([s for s, _ in sides[on]] for on in (False, True))
        gain = bq.summary([a - b for a, b in zip(after, before, strict=True)])
        out[slug] = {
            "before": bq.summary(before),
            "after": bq.summary(after),
            "gain": gain,
            "gain_share": round(gain["mean"] / bq.summary(before)["mean"], 5),
        }
        if slug == "quintzee":
            out[slug]["loss_before"] = bq.summary([lost for _, lost in sides[False]])
            out[slug]["loss_after"] = bq.summary([lost for _, lost in sides[True]])
    return out


def lines(figures: dict) -> list[str]:
    calibration = json.loads(bb.JSON_OUT.read_text())["quintzee"]["heuristic"]["gap_to_optimum"]["share"]
    out = [
        SECTION,
        "",
        "Measured by `python -m bench.value_iteration` (commands below). Solo games of each card game's "
        "expert with seeded dice, the same for both sides game for game: before, on its fitted figures "
        "alone (each open box's fitted mean and the bonuses' chances; Triple Quintzee's columns by the "
        "Quintzee column optimum); after, the rest of the card a linear function of the game's features "
        "fitted by value iteration (games/bots/cardvalue.py, `python -m games.bots.fit <slug> --iterate "
        "R`). The gain is the paired difference of the final scores. The calibration's share to win "
        f"back: {100 * calibration:.1f} % (Quintzee's heuristic below its optimum, \"Quintzee's "
        'optimum").',
        "",
        "| game | games | before | after | gain (paired) | 95 % interval | gain share |",
        "|---|---:|---:|---:|---:|---|---:|",
    ]
    games = figures["games"]
    for slug, by in games.items():
        g, b, a = by["gain"], by["before"], by["after"]
        out.append(
            f"| {slug} | {g['n']} | {b['mean']:.2f} ({b['ci95'][0]:.2f} to {b['ci95'][1]:.2f}) "
            f"| {a['mean']:.2f} ({a['ci95'][0]:.2f} to {a['ci95'][1]:.2f}) | {g['mean']:+.2f} "
            f"| {g['ci95'][0]:+.2f} to {g['ci95'][1]:+.2f} | {100 * by['gain_share']:+.2f} % |"
        )
    q = games.get("quintzee")
    if q:
        b, a = q["loss_before"], q["loss_after"]
        out += [
            "",
            "Quintzee's loss against the optimum, a game (the optimum's values of the heuristic's own "
            f"decisions, Verhoeff's measure): before {b['mean']:.2f} ({b['ci95'][0]:.2f} to "
            f"{b['ci95'][1]:.2f}), after {a['mean']:.2f} ({a['ci95'][0]:.2f} to {a['ci95'][1]:.2f}) points.",
        ]
    out += ["", "Commands (seconds, processes):", ""]
    out += [
        f"- {slug}: `{by['command']}` ({by['seconds']:.0f} s, {by['processes']})"
        for slug, by in games.items()
    ]
    return [*out, ""]


def write(result: dict) -> None:
    """Merge ``result``'s games into bots.json's "value_iteration" (games not measured now are kept)."""
    figures = json.loads(bb.JSON_OUT.read_text())
    kept = figures.get("value_iteration", {"games": {}})
    kept["games"] = {**kept["games"], **result["games"]}
    figures["value_iteration"] = kept
    bb.JSON_OUT.write_text(json.dumps(figures, indent=1) + "\n")
    bb.put_section(SECTION, "\n".join(lines(kept)))


def main(argv: Sequence[str] | None = None) -> int:
    args = bb.two_sides_args("python -m bench.value_iteration", __doc__, 2000, "solo games", SLUGS, argv)
    started = time.perf_counter()
    result = {"games": measure(args.slugs.split(","), args.games, args.processes)}
    command = " ".join(["python -m bench.value_iteration", *(argv if argv is not None else sys.argv[1:])])
    seconds = round(time.perf_counter() - started, 1)
    for by in result["games"].values():
        by.update(command=command, seconds=seconds, processes=args.processes)
    sys.stdout.write(json.dumps(result, indent=1) + "\n")
    if args.write:
        write(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
