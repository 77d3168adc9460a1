"""Quintzee's optimal solitaire player measured (docs/BENCHMARKS.md, "Quintzee's optimum"): N solitaire
games with seeded dice, each decision the exact optimum of games/bots/quintzee_optimum.py, all games
played at once with numpy (the same values the expert of games/bots/quintzee_expert.py reads, one state
per game); ``--engine N`` also plays N games through the engine and ``games.bots.choose``. Prints the
mean final score with its sd and 95 % interval, and with ``--write`` puts them in
docs/benchmarks/bots.json (key "quintzee") and the section of docs/BENCHMARKS.md.

``--heuristic N`` plays N solo games through the engine with the card games' heuristic method on
Quintzee (games/bots/cards.py on games/bots/quintzee_expert.py's evaluation, its figures fitted by
``python -m games.bots.fit quintzee`` as the other card games' are): its expert, and the site's good
and easy players, which are that method without the fitted figures. Their means stand beside the
optimum's: what the heuristic experts of the other card games may leave on the table. ``--games 0``
leaves the optimal player's figures as they are; each part is kept in bots.json until it is measured
again.

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python -m bench.quintzee --games 100000 --write
    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python -m bench.quintzee --games 0 --heuristic 2000 --write
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from games.bots import quintzee_optimum as qo
from games.bots.dicedp import DICE
from games.rules import quintzee as q

ROOT = Path(__file__).resolve().parents[1]
JSON_OUT = ROOT / "docs" / "benchmarks" / "bots.json"
DOC = ROOT / "docs" / "BENCHMARKS.md"
SECTION = "## Quintzee's optimum"
# `manage.py quintzee_optimum` on 2 cores shared with other work (wall clock, and its CPU time).
BUILD = {"build_seconds": 50.3, "build_cpu_seconds": 17.0}
SUBSETS = 1 << DICE  # the dice kept, as a bit per die of the sorted roll; 31 keeps all (scores now)


def _subsets() -> tuple[np.ndarray, np.ndarray]:
    """For every roll (252) and every subset of its sorted dice (32): the size of the subset and its row."""
    u = qo.dice().u
    rolls = u.rows[DICE]
    size = np.zeros((len(rolls), SUBSETS), dtype=np.intp)
    row = np.zeros((len(rolls), SUBSETS), dtype=np.intp)
    for s in range(SUBSETS):
        keep = [i for i in range(DICE) if s >> i & 1]
        size[:, s] = len(keep)
        row[:, s] = u.index(len(keep), rolls[:, keep]) if keep else 0
    return size, row


def _hold(dice: np.ndarray, final: np.ndarray, holds: list, size, row, rng) -> np.ndarray:
    """Each game's best hold of its sorted ``dice`` (n, 5), then its re-roll (sorted again)."""
    u = qo.dice().u
    r = u.index(DICE, dice)
    n = len(dice)
    values = np.empty((n, SUBSETS))
    # Gathers by hold size: every subset of a given size reads that size's table.
    for k in range(DICE):
        cols = np.flatnonzero(size[0] == k)  # subset sizes do not depend on the roll
        values[:, cols] = np.take_along_axis(holds[k], row[r][:, cols], axis=1)
    values[:, SUBSETS - 1] = final[np.arange(n), r]
    best = values.argmax(axis=1)
    keep = (best[:, None] >> np.arange(DICE)[None, :]) & 1
    fresh = rng.integers(0, 6, size=dice.shape)
    return np.sort(np.where(keep.astype(bool), dice, fresh), axis=1)


def simulate(games: int, seed: int = 0, chunk: int = 2000) -> np.ndarray:
    """The final scores of ``games`` solitaire games played optimally, dice from numpy's PCG64 at ``seed``."""
    d = qo.dice()
    u = d.u
    values = qo.table()
    size, row = _subsets()
    rng = np.random.default_rng(seed)
    out = []
    for start in range(0, games, chunk):
        n = min(chunk, games - start)
        masks = np.zeros(n, dtype=np.int64)
        sums = np.zeros(n, dtype=np.int64)
        flags = np.zeros(n, dtype=np.int64)
        total = np.zeros(n, dtype=np.int64)
        for _ in range(len(q.BOXES)):
            boxes = qo.worths(values, masks, sums, flags)  # (n, 13, 252)
            final = boxes.max(axis=1)
            last = qo.expect(u, final)
            first = qo.expect(u, qo.best_hold(u, final, last))
            dice = np.sort(rng.integers(0, 6, size=(n, DICE)), axis=1)
            dice = _hold(dice, final, first, size, row, rng)
            dice = _hold(dice, final, last, size, row, rng)
            r = u.index(DICE, dice)
            box = boxes[np.arange(n), :, r].argmax(axis=1)
            total += _score(masks, sums, flags, box, r)
        out.append(total)
    return np.concatenate(out)


def _score(masks, sums, flags, box, r) -> np.ndarray:
    """The points of filling ``box`` with roll ``r`` (bonuses included); updates the states in place."""
    d = qo.dice()
    joker = (
        ((masks >> qo.YAHTZEE) & 1).astype(bool) & d.five[r] & ((masks >> d.five_face[r]) & 1).astype(bool)
    )
    points = np.where(joker, d.joker[box, r], d.plain[box, r]).astype(np.int64)
    gained = points + q.QUINTZEE_BONUS * (flags * d.five[r])
    upper = box < qo.UPPER
    reached = upper & (sums < qo.CAP) & (sums + points >= qo.CAP)
    gained += q.TOP_BONUS * reached
    sums[:] = np.where(upper, np.minimum(qo.CAP, sums + points), sums)
    flags[:] = flags | ((box == qo.YAHTZEE) & (points == q.QUINTZEE))
    masks[:] = masks | (1 << box)
    return gained


def engine_games(games: int, seed: int = 0) -> list[int]:
    """Final scores of ``games`` solo games through the engine, every action ``games.bots.choose``'s."""
    from games import bots, rules
    from games.rules.dice import make_dice

    if q.slug not in rules.ENGINES:
        rules.register(q)
    scores = []
    for g in range(games):
        state = q.new_game(["solo"])
        dice, rng = make_dice(random.Random(seed * 1_000_003 + g)), random.Random(g)
        while not state["over"]:
            state = q.apply(state, "solo", bots.choose(q.slug, state, "expert", rng), dice)
        scores.append(state["cards"]["solo"]["total"])
    return scores


HEURISTIC_STRENGTHS = ("expert", "good", "easy")
# How the figures the heuristic expert plays on were fitted (games/bots/fit.py), as Triple Quintzee's.
FIT = {
    "command": "python -m games.bots.fit quintzee --games 300 --rounds 3 --seed 1",
    "games": 300,
    "rounds": 3,
}


def heuristic_games(games: int, strength: str, seed: int = 0) -> list[int]:
    """Final scores of ``games`` solo games through the engine, played by the card players on Quintzee's
    evaluation at ``strength`` (expert: the fitted heuristic), dice and slips from one seeded generator
    per strength, as bench.bots plays the other card games."""
    from games.bots import cards, play
    from games.bots import quintzee_expert as qe

    rng = random.Random(f"quintzee-heuristic-{strength}-{seed}")
    # The method as the other card games had it: on its fitted figures, not the weights value iteration
    # fitted since (bench/value_iteration.py measures those against it).
    fitted = qe.fitted()
    kept, fitted.weights = fitted.weights, None
    cards._turns.clear()
    try:
        return [play.solo(q.slug, strength, rng, players=qe.HEURISTIC) for _ in range(games)]
    finally:
        fitted.weights = kept
        cards._turns.clear()


def column_step(games: int) -> dict:
    """Triple Quintzee's expert before and after the step the calibration led to (games/bots/quintzee.py,
    COLUMN_VALUES: each column's rest valued by the exact optimum of a Quintzee column instead of the
    fitted means of its open boxes and its top bonus's chance), on bench.bots's seeds (the same games as
    "Computer players"), one process."""
    from bench import bots as bb
    from games.bots import cards
    from games.bots import quintzee as tq_bots

    out: dict = {}
    kept = tq_bots.COLUMN_VALUES
    try:
        for name, on in (("before", False), ("after", True)):
            tq_bots.COLUMN_VALUES = on
            cards._turns.clear()
            scores: list[int] = []
            for chunk in range(math.ceil(games / bb.CHUNK)):
                job = ("triple-quintzee", "expert", chunk, min(bb.CHUNK, games - chunk * bb.CHUNK))
                scores += bb.card_task(job)["scores"]
            out[name] = {"score": summary(scores)}
    finally:
        tq_bots.COLUMN_VALUES = kept
        cards._turns.clear()
    b, a = out["before"]["score"], out["after"]["score"]
    half = math.hypot((b["ci95"][1] - b["ci95"][0]) / 2, (a["ci95"][1] - a["ci95"][0]) / 2)
    diff = a["mean"] - b["mean"]
    out["gain"] = {"points": round(diff, 3), "ci95": [round(diff - half, 3), round(diff + half, 3)]}
    return out


def gap(low: dict, high_mean: float, high_half: float = 0.0) -> dict:
    """How far ``low``'s mean is below ``high_mean`` (with its own half interval), with a 95 % interval."""
    half = math.hypot((low["ci95"][1] - low["ci95"][0]) / 2, high_half)
    points = high_mean - low["mean"]
    return {
        "points": round(points, 3),
        "ci95": [round(points - half, 3), round(points + half, 3)],
        "share": round(points / high_mean, 5),
    }


def summary(values: Sequence[float]) -> dict:
    a = np.asarray(values, dtype=np.float64)
    mean, sd = float(a.mean()), float(a.std())
    half = 1.96 * sd / math.sqrt(len(a))
    return {
        "n": len(a),
        "mean": round(mean, 3),
        "sd": round(sd, 2),
        "ci95": [round(mean - half, 3), round(mean + half, 3)],
    }


def _contains(s: dict) -> str:
    return "yes" if s["ci95"][0] <= 254.59 <= s["ci95"][1] else "no"


def write(result: dict) -> None:
    """Merge ``result`` into bots.json's "quintzee" (parts not measured now are kept) and write the
    section of docs/BENCHMARKS.md from all of it."""
    figures = json.loads(JSON_OUT.read_text())
    merged = {**figures.get("quintzee", {}), **result}
    figures["quintzee"] = merged
    JSON_OUT.write_text(json.dumps(figures, indent=1) + "\n")
    lines = [SECTION, "", *_optimal_lines(merged)]
    if "heuristic" in merged:
        lines += ["", *_heuristic_lines(merged)]
    section = "\n".join([*lines, ""])
    text = DOC.read_text()
    if SECTION in text:
        head, rest = text.split(SECTION, 1)
        tail = rest.split("\n## ", 1)
        text = head + section + ("\n## " + tail[1] if len(tail) > 1 else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    DOC.write_text(text)


def _row(player: str, s: dict, contains: bool = True) -> str:
    last = _contains(s) if contains else f"{qo.START_VALUE - s['mean']:.2f}"
    return (
        f"| {player} | {s['n']} | {s['mean']:.2f} | {s['sd']:.2f} | {s['ci95'][0]:.2f} to {s['ci95'][1]:.2f}"
        f" | {last} |"
    )


def _optimal_lines(result: dict) -> list[str]:
    s = result["expert"]["score"]
    lines = [
        f"Measured by `{result['command']}` ({result['seconds']:.0f} s, one thread; figures in "
        'docs/benchmarks/bots.json, key "quintzee"). Quintzee\'s expert plays the exact solitaire optimum '
        "(games/bots/quintzee_optimum.py: "
        f"start value {result['optimum']:.4f}, Verhoeff's 254.5896; table built in "
        f"{result['table']['build_seconds']:.0f} s, {result['table']['bytes'] / 1e6:.2f} MB). "
        "Solitaire games with seeded dice, all played at once on the table's values.",
        "",
        "| player | games | mean score | sd | 95 % interval | contains 254.59 |",
        "|---|---:|---:|---:|---|---|",
        _row("optimal", s),
    ]
    if "engine" in result:
        lines.append(_row("expert through the engine", result["engine"]["score"]))
    return lines


def _heuristic_lines(result: dict) -> list[str]:
    h = result["heuristic"]
    e = h["expert"]["score"]
    to_opt, to_measured = h["gap_to_optimum"], h["gap_to_optimal_player"]
    lines = [
        "### The heuristic card-game method on Quintzee",
        "",
        f"Measured by `{h['command']}` ({h['seconds']:.0f} s, one process). The card games' heuristic "
        "method, unchanged (games/bots/cards.py: exact expectation over the rolls left, a placement worth "
        "its points now plus the change in a fitted value of the card: each open box's fitted mean, the "
        "chance of the top bonus from the top boxes' fitted distributions, future Quintzee bonuses at the "
        "fitted rate of five of a kinds once the Quintzee box holds 50), on Quintzee's card "
        "(games/bots/quintzee_expert.py: Triple Quintzee's evaluation on one column worth 1x, with the "
        f"Joker), its figures fitted as Triple Quintzee's were (`{h['fit']['command']}`: "
        f"{h['fit']['games']} games a round, the good player's round, then {h['fit']['rounds']} rounds of "
        "the expert on the figures before, the best round's kept). Solo games through the engine, dice "
        "and slips seeded per player.",
        "",
        "| player | games | mean score | sd | 95 % interval | below 254.59 |",
        "|---|---:|---:|---:|---|---:|",
    ]
    names = {"expert": "heuristic expert", "good": "good (site)", "easy": "easy (site)"}
    lines += [_row(names[k], h[k]["score"], contains=False) for k in HEURISTIC_STRENGTHS if k in h]
    lines += [
        "",
        f"The heuristic expert scores {e['mean']:.2f} against the optimum's {result['optimum']:.2f}: "
        f"{to_opt['points']:.2f} points a game below it (95 % interval {to_opt['ci95'][0]:.2f} to "
        f"{to_opt['ci95'][1]:.2f}), {100 * to_opt['share']:.1f} % of the optimum; "
        f"{to_measured['points']:.2f} ({to_measured['ci95'][0]:.2f} to {to_measured['ci95'][1]:.2f}) below "
        "the optimal player's measured mean above. That is what the method leaves on the table in a game "
        "it can be checked on; Triple Yahtzee 99 and Painted DiceZ are played by the same method on their "
        "own fitted figures, and so was Triple Quintzee until the step below.",
    ]
    others = _others(to_opt["share"])
    if others:
        lines[-1] += (
            " If their experts fell as far short of their own optima, in share of the optimum (an estimate, "
            "not a measurement: their cards are bigger and their optima unknown), the solo means of "
            '"Computer players" would leave about ' + ", ".join(others) + " points a game on the table."
        )
    if "column_step" in h:
        lines += ["", *_step_lines(h["column_step"])]
    return lines


def _step_lines(step: dict) -> list[str]:
    g = step["gain"]

    def row(name: str, s: dict) -> str:
        interval = f"{s['ci95'][0]:.1f} to {s['ci95'][1]:.1f}"
        return f"| {name} | {s['n']} | {s['mean']:.1f} | {s['sd']:.1f} | {interval} |"

    return [
        "#### A first step for Triple Quintzee",
        "",
        f"Measured by `{step['command']}` ({step['seconds']:.0f} s, one process; bench.bots's seeds, "
        "the same games for both). The calibration says the method misses how a box's worth changes with "
        "the card. Triple Quintzee's expert now values the rest of each column by the exact optimum of a "
        "Quintzee column (games/bots/quintzee_optimum.py's table, by the column's open boxes and its top "
        "subtotal up to 63, times the column's multiplier) instead of the fitted means of its open boxes "
        "and its top bonus's chance; the future Quintzee bonuses keep their fitted rate (Triple "
        "Quintzee's rule is its own).",
        "",
        "| Triple Quintzee expert | games | mean score | sd | 95 % interval |",
        "|---|---:|---:|---:|---|",
        row("before (fitted means)", step["before"]["score"]),
        row("after (column optimum)", step["after"]["score"]),
        "",
        f"Gain {g['points']:.1f} points a game (95 % interval {g['ci95'][0]:.1f} to {g['ci95'][1]:.1f}, "
        "the two samples' intervals combined as if they were independent). The before row is the Triple "
        'Quintzee expert of "Computer players", game for game; that table shows the expert before this step '
        "until `make bench-bots` runs again.",
    ]


def _others(share: float) -> list[str]:
    """What each other card game's expert would leave if it fell short of its optimum by ``share``."""
    cards = json.loads(JSON_OUT.read_text()).get("cards", {})
    out = []
    for slug, by in cards.items():
        if slug == q.slug or "expert" not in by:
            continue
        mean = by["expert"]["score"]["mean"]
        out.append(f"{mean * share / (1 - share):.0f} ({slug}, {mean:.1f})")
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.quintzee", description=__doc__)
    parser.add_argument("--games", type=int, default=100_000, help="optimal games (0: none)")
    parser.add_argument("--engine", type=int, default=0, help="also play this many games through the engine")
    parser.add_argument(
        "--heuristic", type=int, default=0, help="heuristic games per strength (expert, good, easy)"
    )
    parser.add_argument(
        "--column-step", type=int, default=0, help="Triple Quintzee expert games before and after the step"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--write", action="store_true", help="write bots.json and docs/BENCHMARKS.md")
    args = parser.parse_args(argv)
    command = " ".join(["python -m bench.quintzee", *(argv if argv is not None else sys.argv[1:])])
    result: dict = {}
    if args.games:
        started = time.perf_counter()
        scores = simulate(args.games, args.seed)
        result = {
            "optimum": round(float(qo.table()[0, 0, 0]), 6),
            "table": {"path": str(qo.PATH.relative_to(ROOT)), "bytes": qo.PATH.stat().st_size, **BUILD},
            "expert": {"score": summary(scores)},
        }
        if args.engine:
            result["engine"] = {"score": summary(engine_games(args.engine, args.seed))}
        result["seconds"] = round(time.perf_counter() - started, 1)
        result["command"] = command
    if args.heuristic:
        started = time.perf_counter()
        before = json.loads(JSON_OUT.read_text()).get("quintzee", {})
        optimal = result.get("expert", before.get("expert"))["score"]
        heuristic: dict = {"fit": FIT}
        for strength in HEURISTIC_STRENGTHS:
            heuristic[strength] = {"score": summary(heuristic_games(args.heuristic, strength, args.seed))}
        e = heuristic["expert"]["score"]
        heuristic["gap_to_optimum"] = gap(e, qo.START_VALUE)
        half = (optimal["ci95"][1] - optimal["ci95"][0]) / 2
        heuristic["gap_to_optimal_player"] = gap(e, optimal["mean"], half)
        heuristic["seconds"] = round(time.perf_counter() - started, 1)
        heuristic["command"] = command
        result["heuristic"] = heuristic
    if args.column_step:
        started = time.perf_counter()
        step = column_step(args.column_step)
        step["seconds"] = round(time.perf_counter() - started, 1)
        step["command"] = command
        heuristic = result.get("heuristic") or json.loads(JSON_OUT.read_text())["quintzee"]["heuristic"]
        result["heuristic"] = {**heuristic, "column_step": step}
    sys.stdout.write(json.dumps(result, indent=1) + "\n")
    if args.write:
        write(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
