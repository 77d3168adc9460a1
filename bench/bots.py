"""Benchmark of the computer players: seeded solo games at every strength.

Run: ``python -m bench.bots [--games N] [--turns N] [--quick]`` (or ``make bench-bots``).

Card games: ``--games`` solo games per game and strength (random, easy, good, expert), the final score.
Farkle: solo games to 10,000 with 6 and with 5 dice until ``--turns`` turns per strength are played:
the points each turn banks and the laps a game takes. Every action goes through ``games.bots.choose``
(random: a uniformly random legal action). The time of every decision (an action with a choice) is
taken with ``time.perf_counter``; the peak resident memory is the largest of the worker processes'.
Writes docs/benchmarks/bots.json and the "Computer players" section of docs/BENCHMARKS.md, except with
``--quick`` (a smoke run: few games, nothing written).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import sys
import time
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path
from statistics import fmean, pstdev

from games import bots, rules
from games.bots import play
from games.rules.dice import make_dice

CARD_GAMES = ("triple-quintzee", "triple-yahtzee-99", "painted-dicez", "quintzee")
STRENGTHS = ("random", *bots.STRENGTHS)
FARKLE_DICE = (6, 5)
GOAL = 10_000
CHUNK = 25  # games per task: small enough to share the work between the processes evenly
ROOT = Path(__file__).resolve().parent.parent
JSON_OUT = ROOT / "docs" / "benchmarks" / "bots.json"
DOC = ROOT / "docs" / "BENCHMARKS.md"
SECTION = "## Computer players"


def _seed(*parts) -> str:
    """Each task's seed: its parts joined, hashed whole by random.Random. (A sum of the parts' character
    codes, used until 2026-12-06, gave chunks 12 and 21 of a player the same games.)"""
    return "-".join(map(str, parts))


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def card_task(args: tuple) -> dict:
    slug, strength, chunk, games = args
    rng = random.Random(_seed(slug, strength, chunk))
    times: list[float] = []
    starts: list[float] = []
    scores = [
        play.solo(slug, strength, rng, timer=time.perf_counter, times=times, starts=starts)
        for _ in range(games)
    ]
    return {"scores": scores, "times": times, "starts": starts, "rss": _rss_mb()}


def farkle_game(dice_count: int, strength: str, rng: random.Random, times: list[float]) -> tuple[list, int]:
    """One solo Farkle game to 10,000: the points of each turn and the laps."""
    engine = rules.get("farkle")
    dice = make_dice(rng)
    state = engine.new_game([play.PLAYER], {"goal": GOAL, "dice": dice_count})
    turns: list[int] = []
    while not engine.is_over(state):
        before, taken = state["banked"][play.PLAYER], state["turns_taken"][play.PLAYER]
        start = time.perf_counter()
        action = bots.choose("farkle", state, strength, rng)
        if bots.decision("farkle", state):
            times.append(time.perf_counter() - start)
        state = engine.apply(state, play.PLAYER, action, dice)
        if state["turns_taken"][play.PLAYER] != taken:
            turns.append(state["banked"][play.PLAYER] - before)
    return turns, state["laps"]


def farkle_task(args: tuple) -> dict:
    dice_count, strength, chunk, turns_wanted = args
    rng = random.Random(_seed("farkle", dice_count, strength, chunk))
    times: list[float] = []
    points: list[int] = []
    laps: list[int] = []
    while len(points) < turns_wanted:
        turns, lap = farkle_game(dice_count, strength, rng, times)
        points.extend(turns)
        laps.append(lap)
    return {"points": points, "laps": laps, "times": times, "rss": _rss_mb()}


def summary(values: list[float]) -> dict:
    n = len(values)
    mean = fmean(values)
    sd = pstdev(values) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n else 0.0
    return {
        "n": n,
        "mean": round(mean, 2),
        "sd": round(sd, 2),
        "ci95": [round(mean - half, 2), round(mean + half, 2)],
    }


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def _timing(times: list[float]) -> dict:
    return {
        "decisions": len(times),
        "p50_ms": round(1000 * percentile(times, 0.5), 3),
        "p99_ms": round(1000 * percentile(times, 0.99), 3),
    }


def run(games: int, turns: int, processes: int, out=sys.stdout) -> dict:
    card_jobs = [
        (slug, strength, chunk, min(CHUNK, games - chunk * CHUNK))
        for slug in CARD_GAMES
        for strength in STRENGTHS
        for chunk in range(math.ceil(games / CHUNK))
    ]
    farkle_chunk = max(1, math.ceil(turns / 8))
    farkle_jobs = [
        (dice_count, strength, chunk, farkle_chunk)
        for dice_count in FARKLE_DICE
        for strength in STRENGTHS
        for chunk in range(math.ceil(turns / farkle_chunk))
    ]
    start = time.perf_counter()
    with Pool(processes) as pool:
        card_results = pool.map(card_task, card_jobs, chunksize=1)
        farkle_results = pool.map(farkle_task, farkle_jobs, chunksize=1)
    elapsed = time.perf_counter() - start
    result: dict = {"games": games, "turns": turns, "processes": processes, "seconds": round(elapsed, 1)}
    rss = max(r["rss"] for r in card_results + farkle_results)
    cards: dict = {}
    for slug in CARD_GAMES:
        cards[slug] = {}
        for strength in STRENGTHS:
            parts = [r for job, r in zip(card_jobs, card_results, strict=True) if job[:2] == (slug, strength)]
            scores = [s for r in parts for s in r["scores"]]
            times = [t for r in parts for t in r["times"]]
            starts = [t for r in parts for t in r["starts"]]
            cards[slug][strength] = {
                "score": summary(scores),
                **_timing(times),
                "first_roll_p99_ms": round(1000 * percentile(starts, 0.99), 3),
            }
        ratio = cards[slug]["expert"]["score"]["mean"] / cards[slug]["good"]["score"]["mean"]
        cards[slug]["expert_over_good"] = round(ratio, 3)
    farkle: dict = {}
    for dice_count in FARKLE_DICE:
        farkle[str(dice_count)] = {}
        for strength in STRENGTHS:
            parts = [
                r
                for job, r in zip(farkle_jobs, farkle_results, strict=True)
                if job[:2] == (dice_count, strength)
            ]
            farkle[str(dice_count)][strength] = {
                "points_per_turn": summary([p for r in parts for p in r["points"]]),
                "laps": summary([lap for r in parts for lap in r["laps"]]),
                **_timing([t for r in parts for t in r["times"]]),
            }
    load = os.getloadavg()[1]  # the machine may be shared: decision times depend on it
    result.update(cards=cards, farkle=farkle, peak_rss_mb=round(rss, 1), load_average_5min=round(load, 2))
    out.write(table(result) + "\n")
    return result


def _ci(s: dict) -> str:
    return f"{s['ci95'][0]:.1f} to {s['ci95'][1]:.1f}"


def table(result: dict) -> str:
    lines = [
        "| game | player | games | mean score | sd | 95 % interval | decision p50 | p99 | first roll p99 |",
        "|---|---|---:|---:|---:|---|---:|---:|---:|",
    ]
    for slug, by in result["cards"].items():
        for strength in STRENGTHS:
            r = by[strength]
            s = r["score"]
            lines.append(
                f"| {slug} | {strength} | {s['n']} | {s['mean']:.1f} | {s['sd']:.1f} | {_ci(s)} "
                f"| {r['p50_ms']:.2f} ms | {r['p99_ms']:.2f} ms | {r['first_roll_p99_ms']:.1f} ms |"
            )
    lines += [
        "",
        "| Farkle | player | turns | points per turn (sd) | 95 % interval | games | laps to 10,000 (sd) "
        "| 95 % interval | decision p50 | p99 |",
        "|---|---|---:|---:|---|---:|---:|---|---:|---:|",
    ]
    for dice_count, by in result["farkle"].items():
        for strength in STRENGTHS:
            r = by[strength]
            p, lap = r["points_per_turn"], r["laps"]
            lines.append(
                f"| {dice_count} dice | {strength} | {p['n']} | {p['mean']:.1f} ({p['sd']:.1f}) | {_ci(p)} "
                f"| {lap['n']} | {lap['mean']:.2f} ({lap['sd']:.2f}) | {_ci(lap)} "
                f"| {r['p50_ms']:.2f} ms | {r['p99_ms']:.2f} ms |"
            )
    ratios = ", ".join(f"{slug} {by['expert_over_good']:.3f}" for slug, by in result["cards"].items())
    lines += [
        "",
        f"Expert's mean over good's: {ratios}. Peak RSS of a worker: {result['peak_rss_mb']:.0f} MB.",
    ]
    return "\n".join(lines)


def write_doc(result: dict, command: str) -> None:
    section = "\n".join(
        [
            SECTION,
            "",
            f"Measured by `{command}` ({result['processes']} processes, {result['seconds']:.0f} s, load "
            f"average {result['load_average_5min']:.1f} on {os.cpu_count()} cores at the end; figures in "
            "docs/benchmarks/bots.json). Solo games with seeded dice, every action through "
            "`games.bots.choose`; random is a uniformly random legal action. Farkle: solo games to 10,000; "
            "points per turn counts a Farkle as 0. A decision is an action with a choice; a card game's "
            "first roll has none, and the card players compute the turn's tables then (first roll p99).",
            "",
            table(result),
            "",
        ]
    )
    put_section(SECTION, section)


def two_sides(task, slugs, games: int, processes: int, chunk: int) -> dict:
    """Run ``task((slug, on, chunk, games))`` over chunks of ``games`` for each slug with ``on`` False and
    True (two sides of one change on the same seeded games); each slug's results by side, in game order."""
    jobs = [
        (slug, on, c, min(chunk, games - c * chunk))
        for slug in slugs
        for on in (False, True)
        for c in range(math.ceil(games / chunk))
    ]
    with Pool(processes) as pool:
        results = pool.map(task, jobs, chunksize=1)
    return {
        slug: {
            on: [r for job, rs in zip(jobs, results, strict=True) if job[:2] == (slug, on) for r in rs]
            for on in (False, True)
        }
        for slug in slugs
    }


def two_sides_args(prog: str, doc: str | None, games: int, what: str, slugs, argv) -> argparse.Namespace:
    """The command line of a benchmark of two sides (``two_sides``): games per game and side, the games'
    slugs, the processes, and whether to write the figures."""
    parser = argparse.ArgumentParser(prog=prog, description=doc)
    parser.add_argument("--games", type=int, default=games, help=f"{what} per game and side")
    parser.add_argument("--slugs", default=",".join(slugs))
    parser.add_argument("--processes", type=int, default=2, choices=(1, 2))
    parser.add_argument("--write", action="store_true", help="write bots.json and docs/BENCHMARKS.md")
    return parser.parse_args(argv)


def put_section(title: str, section: str) -> None:
    """Put ``section`` (starting with its ``title`` line) in DOC in place of the one there, or at the end."""
    text = DOC.read_text()
    if title in text:
        head, rest = text.split(title, 1)
        tail = rest.split("\n## ", 1)
        text = head + section + ("\n## " + tail[1] if len(tail) > 1 else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    DOC.write_text(text)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bots", description=__doc__)
    parser.add_argument("--games", type=int, help="solo games per card game and strength (default 2000)")
    parser.add_argument("--turns", type=int, help="Farkle turns per dice count and strength (default 100000)")
    parser.add_argument("--processes", type=int, default=2, choices=(1, 2))
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run that writes nothing (default 8 games, 400 turns)"
    )
    args = parser.parse_args(argv)
    args.games = args.games or (8 if args.quick else 2000)
    args.turns = args.turns or (400 if args.quick else 100_000)
    result = run(args.games, args.turns, args.processes)
    if not args.quick:
        # Other benchmarks' figures in the file (bench/quintzee.py's "quintzee") are kept.
        kept = json.loads(JSON_OUT.read_text()) if JSON_OUT.exists() else {}
        JSON_OUT.write_text(json.dumps({**kept, **result}, indent=1) + "\n")
        write_doc(result, " ".join(["python -m bench.bots", *(argv if argv is not None else sys.argv[1:])]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
