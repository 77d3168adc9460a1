"""Benchmark of the fair-play screen (safety.screening): seeded solo games of computer players, some
following the expert (the Hint's move: the judge's best) a share of the time, judged decision by
decision as the coach judges them, then screened by the site's own ``screen``.

Run: ``python -m bench.screening [--players N] [--cheaters N] [--quick]``. Single process; prints the
share of each population the screen lists at several thresholds (Markdown: docs/benchmarks/screening.md,
summed up in docs/BENCHMARKS.md).

Populations (per game): honest "good" and "easy" computers, and "mixed" players who each take, decision
by decision, the expert's move with a personal chance of 0-40 %, else the good or the easy computer's
(their own mix); cheaters who take the expert's move 100 %, 90 % or 70 % of the time, else the good
computer's, or 90 % / 70 % else the easy computer's. Ratings put the good computers and every cheater in
one band (a cheater wins: their rating is the strong players'), the mixed in the band below and the
easy in the one below that.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from coach import judge
from games import bots, rules
from games.rules.dice import make_dice
from safety import screening

PLAYER = "p"
GAMES = {"quintzee": ({}, 8), "farkle": ({"goal": 3000}, 30)}  # options, games per player
RATINGS = {"good": 1700, "mixed": 1500, "easy": 1300, "cheat": 1700}
THRESHOLDS = (3.0, 4.0, 5.0, 6.0)
# (name, expert share, the computer played otherwise)
CHEATERS = (
    ("expert 100 %", 1.0, "good"),
    ("expert 90 %, else good", 0.9, "good"),
    ("expert 70 %, else good", 0.7, "good"),
    ("expert 90 %, else easy", 0.9, "easy"),
    ("expert 70 %, else easy", 0.7, "easy"),
)
HONEST = ("good", "easy", "mixed")


def chooser(population: str, rng: random.Random):
    """How one player of ``population`` chooses: (slug, state) -> action."""
    if population in ("good", "easy"):
        return lambda slug, state: bots.choose(slug, state, population, rng)
    if population == "mixed":
        expert, good = rng.uniform(0, 0.4), rng.random()
        share, otherwise = expert, None
    else:
        share, otherwise = next((s, o) for name, s, o in CHEATERS if name == population)

    def choose(slug: str, state: dict) -> dict:
        if rng.random() < share:
            return bots.stake(slug, state).best.action
        strength = otherwise or ("good" if rng.random() < good else "easy")
        return bots.choose(slug, state, strength, rng)

    return choose


def record(slug: str, options: dict, games: int, player: str, population: str, seed: str) -> screening.Record:
    """One player's games of ``slug``, every decision judged and rounded as the coach stores it."""
    rng = random.Random(seed)
    choose = chooser(population, rng)
    engine = rules.get(slug)
    decisions = best = 0
    accuracy_sum = 0.0
    for _ in range(games):
        dice = make_dice(rng)
        state = engine.new_game([PLAYER], options)
        while not engine.is_over(state):
            action = choose(slug, state)
            if judge.judged(slug, state, PLAYER, action):
                j = judge.judge(slug, state, action, options)
                decisions += 1
                best += round(j.cost, 3) == 0
                accuracy_sum += round(j.accuracy, 2)
            state = engine.apply(state, PLAYER, action, dice)
    rating = RATINGS["cheat" if population not in HONEST else population]
    return screening.Record(player, slug, rating, games, decisions, best, accuracy_sum)


def run(players: int, cheaters: int, out=sys.stdout) -> dict:
    populations = [(p, players) for p in HONEST] + [(name, cheaters) for name, _s, _o in CHEATERS]
    results = {}
    for slug, (options, games) in GAMES.items():
        start = time.perf_counter()
        records, of = [], {}
        for population, count in populations:
            for i in range(count):
                name = f"{population}#{i}"
                records.append(record(slug, options, games, name, population, f"{slug}-{population}-{i}"))
                of[name] = population
        screened = screening.screen(records)
        results[slug] = {"screened": screened, "of": of, "seconds": time.perf_counter() - start}
        print(_table(slug, options, games, screened, of, populations, results[slug]["seconds"]), file=out)
    return results


def listed_share(screened, of, population: str, threshold: float) -> tuple[int, int]:
    mine = [s for s in screening.relisted(screened, threshold) if of[s.record.player] == population]
    return sum(s.listed for s in mine), len(mine)


def _table(slug, options, games, screened, of, populations, seconds) -> str:
    head = f"| {slug} {options or ''} | decisions (mean) | share best | accuracy | "
    head += " | ".join(f"listed at z ≥ {t:g}" for t in THRESHOLDS) + " |"
    lines = [head, "|" + "---|" * (4 + len(THRESHOLDS))]
    for population, _count in populations:
        mine = [s for s in screened if of[s.record.player] == population]
        n = len(mine)
        if not n:
            continue
        mean = sum(s.record.decisions for s in mine) / n
        share = sum(s.record.share for s in mine) / n
        accuracy = sum(s.record.accuracy for s in mine) / n
        cells = []
        for t in THRESHOLDS:
            k, total = listed_share(screened, of, population, t)
            cells.append(f"{k}/{total} ({100 * k / total:.0f} %)")
        row = f"| {population} | {mean:.0f} | {share:.3f} | {accuracy:.1f} | "
        lines.append(row + " | ".join(cells) + " |")
    alarms = []
    for t in THRESHOLDS:
        k = sum(listed_share(screened, of, p, t)[0] for p in HONEST)
        total = sum(listed_share(screened, of, p, t)[1] for p in HONEST)
        alarms.append(f"{k}/{total}")
    lines.append("| false alarms (honest) | | | | " + " | ".join(alarms) + " |")
    honest = [s for s in screened if of[s.record.player] in HONEST]
    highest = max(min(s.share_z, s.accuracy_z) for s in honest)
    lines.append(f"\nThe highest honest player's z (the smaller of share and accuracy): {highest:.1f}.")
    lines.append(f"\n{games} games per player; {seconds:.0f} s.\n")
    return "\n".join(lines)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=60, help="honest players per population")
    parser.add_argument("--cheaters", type=int, default=6, help="players per cheating population")
    parser.add_argument("--quick", action="store_true", help="a smoke run: few players")
    args = parser.parse_args(argv)
    if args.quick:
        args.players, args.cheaters = 8, 2
    run(args.players, args.cheaters)


if __name__ == "__main__":
    main()
