"""Benchmark of the ratings' predictions ("Does it predict?").

Run: ``python -m bench.ratings_predict [--games N] [--seed S] [--kinds K,K] [--measure] [--json PATH]``.

Computer players of known strength (``games.bots.STRENGTHS``: easy, good, expert), ``PER_STRENGTH`` of
each with a rating of its own, play seeded games of 2 to 4 seats against each other, in every rating
kind the site has (``ratings.kinds.every()``: each game, and Farkle once per goal), straight through
the pure engines (no database): every action through ``games.bots.choose`` (what the site's computer
task calls), the dice from a seeded ``random.Random`` (Farkle with its default 6 dice). Each game
draws its number of seats (2, 3 or 4, evenly) and then its players at random from the kind's pool, in
a random turn order, so the strengths meet in every mix. Before each game the ratings' chance of each
seat winning is recorded (``ratings.skill.win_chances``: openskill's ``predict_win`` on the site's
model) beside the naive 1/n; after it, the places come from ``games.results.places.final_places``
(what the site stores and ranks a finished game by) and the new ratings from ``ratings.skill.update``,
the site's own update.

The report, per kind and over all kinds:

- each strength's final ratings on the shown scale (``ratings.skill.display``): the mean of its
  players, their spread, and the union of their mu +- 2 sigma intervals, and whether easy < good <
  expert holds (the means; every player; the intervals apart); beside them each strength's mean
  rating over the games, its mean chance, its share of the wins and its mean place;
- the calibration of the predicted chances over the games after the first ``BURN_IN`` of each kind
  (the ratings start as newcomers'): the Brier score (the mean over every seat of every game of
  (chance - outcome)^2, the outcome 1 for the winner, 1/k each for k seats sharing the win, else 0),
  the naive 1/n's, the Brier skill score 1 - model / naive, and a reliability table (the chances in
  tenths: how many, their mean, how often those seats won); the skill score, and each strength's
  chance against its wins, by table size.

``--measure`` first times one game of each kind at each strength (two players of that strength) and
estimates the full run; the default number of games per kind (``GAMES``) was chosen from it so that
the whole run takes under about 20 minutes on one core (docs/BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from statistics import fmean

PER_STRENGTH = 4
SEATS = (2, 3, 4)
BURN_IN = 0.2
BINS = 10
Z = 2  # the intervals: mu +- Z sigma
# Games per rating kind, from ``--measure`` (docs/BENCHMARKS.md, 2026-12-05: a seat of a card game
# costs 0.09 s in Triple Quintzee, 0.29 s in Triple Yahtzee 99 (its expert 0.47 s) and 0.16 s in Painted
# DiceZ, a seat of Farkle about 1 ms): about 17 minutes on one core in all (17-18 minutes measured with
# the machine's other core busy, 26 with both overloaded), each player in about a quarter of its kind's
# games (3 seats of 12 players on average).
GAMES = {
    "triple-quintzee": 1000,
    "triple-yahtzee-99": 400,
    "painted-dicez": 600,
    "farkle:10000": 10000,
    "farkle:5000": 10000,
    "farkle:3000": 10000,
}
DEFAULT_GAMES = 400  # a kind not listed (an engine added since)


@dataclass
class Player:
    name: str
    strength: str
    mu: float
    sigma: float
    games: int = 0


@dataclass
class Played:
    """One game as the benchmark keeps it: who sat where (in turn order), their ratings (mu, sigma) and
    the chances the ratings gave them before it, the naive ones, their places and outcomes, and how long
    it took."""

    players: list[str]
    strengths: list[str]
    before: list[tuple[float, float]]
    chances: list[float]
    naive: list[float]
    places: list[int]
    won: list[float]
    seconds: float


@dataclass
class KindRun:
    kind: str
    players: list[Player]
    games: list[Played] = field(default_factory=list)
    seconds: float = 0.0


def every_kind() -> list[str]:
    from ratings import kinds

    return kinds.every()


def game_of(kind: str) -> tuple[str, dict | None]:
    """A rating kind's game and the options that make it that kind ("farkle:3000": goal 3000)."""
    from ratings import kinds

    game, variant = kinds.split(kind)
    if variant is None:
        return game.slug, None
    return game.slug, {game.separating.name: variant}


def new_players(per_strength: int = PER_STRENGTH) -> list[Player]:
    from games import bots
    from ratings import skill

    mu, sigma = skill.initial()
    return [
        Player(f"{strength}-{i}", strength, mu, sigma)
        for strength in bots.STRENGTHS
        for i in range(1, per_strength + 1)
    ]


def play(slug: str, options: dict | None, seated: Sequence[Player], seed: str) -> dict:
    """One game to its end between ``seated`` (in turn order): the engine's final state. The dice and
    the players' choices come from two generators seeded by ``seed``."""
    from games import bots, rules
    from games.rules.dice import make_dice

    engine = rules.get(slug)
    dice = make_dice(random.Random(f"{seed}:dice"), painted=engine.dice_kind == "painted")
    choices = random.Random(f"{seed}:choices")
    strength = {p.name: p.strength for p in seated}
    state = engine.new_game([p.name for p in seated], options)
    while not engine.is_over(state):
        player = engine.current_player(state)
        action = bots.choose(slug, state, strength[player], choices)
        state = engine.apply(state, player, action, dice)
    return state


def outcomes(places: Sequence[int]) -> list[float]:
    """Each seat's share of the win: 1 for the winner, 1/k each for k seats placed first together."""
    first = sum(1 for p in places if p == 1)
    return [1 / first if p == 1 else 0.0 for p in places]


def play_kind(kind: str, games: int, seed: int = 1, per_strength: int = PER_STRENGTH, log=None) -> KindRun:
    """``games`` games of the rating kind ``kind``, the ratings of its players updated after each."""
    from games import rules
    from games.results.places import final_places
    from ratings import skill

    slug, options = game_of(kind)
    engine = rules.get(slug)
    run = KindRun(kind, new_players(per_strength))
    started = time.perf_counter()
    for i in range(games):
        draw = random.Random(f"{seed}:{kind}:{i}:table")
        seated = draw.sample(run.players, draw.choice(SEATS))  # the order drawn is the turn order
        before = [(p.mu, p.sigma) for p in seated]
        chances = skill.win_chances(before)
        start = time.perf_counter()
        state = play(slug, options, seated, f"{seed}:{kind}:{i}")
        seconds = time.perf_counter() - start
        places = final_places(engine, state)
        after = skill.update(before, places)
        for p, (mu, sigma) in zip(seated, after, strict=True):
            p.mu, p.sigma, p.games = mu, sigma, p.games + 1
        run.games.append(
            Played(
                players=[p.name for p in seated],
                strengths=[p.strength for p in seated],
                before=before,
                chances=list(chances),
                naive=[1 / len(seated)] * len(seated),
                places=places,
                won=outcomes(places),
                seconds=seconds,
            )
        )
        if log and (i + 1) % max(1, games // 10) == 0:
            log(f"  {kind}: {i + 1}/{games} games, {time.perf_counter() - started:.0f} s")
    run.seconds = time.perf_counter() - started
    return run


# --- the figures ------------------------------------------------------------------------------------


def after_burn_in(games: Sequence[Played], burn_in: float = BURN_IN) -> list[Played]:
    return list(games[int(len(games) * burn_in) :])


def forecasts(games: Iterable[Played]) -> list[tuple[float, float, float]]:
    """Every seat's (chance, naive chance, outcome)."""
    return [f for g in games for f in zip(g.chances, g.naive, g.won, strict=True)]


def brier(pairs: Iterable[tuple[float, float]]) -> float:
    """The mean of (chance - outcome)^2 over (chance, outcome) pairs."""
    pairs = list(pairs)
    return sum((p - o) ** 2 for p, o in pairs) / len(pairs)


def calibration(games: Sequence[Played]) -> dict:
    """The Brier scores of the ratings' chances and of the naive 1/n over ``games``, and the skill
    score (1 - model / naive: above 0 when the ratings predict better than 1/n)."""
    f = forecasts(games)
    model = brier((p, o) for p, _, o in f)
    naive = brier((n, o) for _, n, o in f)
    return {
        "games": len(games),
        "seats": len(f),
        "brier": model,
        "naive": naive,
        "skill": 1 - model / naive if naive else 0.0,
    }


def reliability(games: Sequence[Played], bins: int = BINS) -> list[dict]:
    """The chances in ``bins`` equal bins over 0..1 (the last includes 1): each non-empty bin's count,
    mean chance and observed win frequency (the mean outcome)."""
    rows: list[list[tuple[float, float]]] = [[] for _ in range(bins)]
    for p, _, o in forecasts(games):
        rows[min(int(p * bins), bins - 1)].append((p, o))
    return [
        {
            "low": i / bins,
            "high": (i + 1) / bins,
            "count": len(row),
            "predicted": fmean(p for p, _ in row),
            "observed": fmean(o for _, o in row),
        }
        for i, row in enumerate(rows)
        if row
    ]


def by_seats(games: Sequence[Played]) -> list[dict]:
    """The calibration of the games of each table size, and each strength's mean chance and share of
    the wins at that size."""
    from games import bots

    rows = []
    for n in SEATS:
        at = [g for g in games if len(g.players) == n]
        if not at:
            continue
        shares = {}
        for strength in bots.STRENGTHS:
            seats = [
                (c, w)
                for g in at
                for s, c, w in zip(g.strengths, g.chances, g.won, strict=True)
                if s == strength
            ]
            if seats:
                shares[strength] = {
                    "seats": len(seats),
                    "chance": fmean(c for c, _ in seats),
                    "won": fmean(w for _, w in seats),
                }
        rows.append({"table": n, **calibration(at), "strengths": shares})
    return rows


def strengths(players: Sequence[Player], games: Sequence[Played]) -> list[dict]:
    """Each strength's final ratings on the shown scale, and over ``games`` its mean chance, its share
    of the wins, its mean place (0 first, 1 last, whatever the table's size: what the model rates,
    a whole finishing order, where the chances are of winning only) and its players' mean shown rating
    as they sat down (less moved by the luck of the last games than the final one)."""
    from games import bots
    from ratings import skill

    rows = []
    for strength in bots.STRENGTHS:
        mine = [p for p in players if p.strength == strength]
        shown = [skill.display(p.mu, p.sigma) for p in mine]
        seats = [
            (c, w, (place - 1) / (len(g.places) - 1), skill.display(*rating))
            for g in games
            for s, c, w, place, rating in zip(g.strengths, g.chances, g.won, g.places, g.before, strict=True)
            if s == strength
        ]
        rows.append(
            {
                "strength": strength,
                "players": {
                    p.name: {"mu": p.mu, "sigma": p.sigma, "shown": d}
                    for p, d in zip(mine, shown, strict=True)
                },
                "mean": fmean(shown),
                "lowest": min(shown),
                "highest": max(shown),
                "low": min(skill.display(p.mu - Z * p.sigma, p.sigma) for p in mine),
                "high": max(skill.display(p.mu + Z * p.sigma, p.sigma) for p in mine),
                "sigma": fmean(p.sigma for p in mine) * skill.SCALE,
                "chance": fmean(c for c, _, _, _ in seats) if seats else None,
                "won": fmean(w for _, w, _, _ in seats) if seats else None,
                "place": fmean(p for _, _, p, _ in seats) if seats else None,
                "over_games": fmean(d for _, _, _, d in seats) if seats else None,
            }
        )
    return rows


def order(rows: Sequence[dict]) -> dict:
    """Whether each strength is above the one before it: by the means, player by player (the weakest
    of the stronger above the best of the weaker), and with the mu +- 2 sigma intervals apart."""
    pairs = list(pairwise(rows))
    return {
        "means": all(a["mean"] < b["mean"] for a, b in pairs),
        "players": all(a["highest"] < b["lowest"] for a, b in pairs),
        "intervals": all(a["high"] < b["low"] for a, b in pairs),
    }


def summarise(runs: Sequence[KindRun], burn_in: float = BURN_IN) -> dict:
    """Every figure of the report, per kind and over all kinds (plain data, for JSON)."""
    from games import bots

    kinds = {}
    kept: list[Played] = []
    for run in runs:
        later = after_burn_in(run.games, burn_in)
        kept += later
        rows = strengths(run.players, later)
        kinds[run.kind] = {
            "games": len(run.games),
            "seconds": run.seconds,
            "per_game": run.seconds / len(run.games) if run.games else 0.0,
            "strengths": rows,
            "order": order(rows),
            "calibration": calibration(later) if later else None,
            "reliability": reliability(later) if later else [],
            "by_seats": by_seats(later),
        }
    return {
        "burn_in": burn_in,
        "per_strength": len(runs[0].players) // len(bots.STRENGTHS) if runs else PER_STRENGTH,
        "kinds": kinds,
        "overall": {
            "games": sum(k["games"] for k in kinds.values()),
            "seconds": sum(k["seconds"] for k in kinds.values()),
            "order": {
                key: sum(k["order"][key] for k in kinds.values()) for key in ("means", "players", "intervals")
            },
            "calibration": calibration(kept) if kept else None,
            "reliability": reliability(kept) if kept else [],
            "by_seats": by_seats(kept),
        },
    }


# --- the report -------------------------------------------------------------------------------------


def _share(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def _shown(x: float | None) -> str:
    return "-" if x is None else f"{x:.0f}"


def _yes(flag: bool) -> str:
    return "yes" if flag else "**no**"


def _calibration_row(name: str, c: dict) -> str:
    figures = f"{c['brier']:.4f} | {c['naive']:.4f} | {c['skill']:+.3f}"
    return f"| {name} | {c['games']:,} | {c['seats']:,} | {figures} |"


def _reliability_table(rows: Sequence[dict]) -> list[str]:
    out = ["| chance | seats | mean chance | won |", "|---|---:|---:|---:|"]
    for r in rows:
        out.append(
            f"| {r['low']:.1f}-{r['high']:.1f} | {r['count']:,} "
            f"| {r['predicted']:.3f} | {r['observed']:.3f} |"
        )
    return out


def markdown(summary: dict) -> str:
    from ratings import kinds as rating_kinds

    burn = f"{summary['burn_in']:.0%}"
    out = [
        "**Final ratings** (shown scale; each strength's players: their mean, lowest-highest, the union of"
        f" their mu ± {Z} sigma; over the games after the first {burn}: its players' mean rating as they sat"
        " down, the strength's mean predicted chance, its share of the wins and its mean place, 0 first and"
        " 1 last):",
        "",
        "| kind | strength | mean | players | mu ± 2 sigma | sigma (shown) | over the games | chance | won "
        "| place |",
        "|---|---|---:|---|---|---:|---:|---:|---:|---:|",
    ]
    for kind, k in summary["kinds"].items():
        for r in k["strengths"]:
            out.append(
                f"| {rating_kinds.name(kind)} | {r['strength']} | {r['mean']:.0f} "
                f"| {r['lowest']}-{r['highest']} | {r['low']}-{r['high']} | {r['sigma']:.0f} "
                f"| {_shown(r['over_games'])} | {_share(r['chance'])} | {_share(r['won'])} "
                f"| {_share(r['place'])} |"
            )
    out += [
        "",
        "**Order easy < good < expert**: by the means; every player above every player of the weaker"
        " strength; the mu ± 2 sigma intervals apart.",
        "",
        "| kind | games | means | every player | intervals apart |",
        "|---|---:|---|---|---|",
    ]
    for kind, k in summary["kinds"].items():
        o = k["order"]
        out.append(
            f"| {rating_kinds.name(kind)} | {k['games']:,} | {_yes(o['means'])} | {_yes(o['players'])} "
            f"| {_yes(o['intervals'])} |"
        )
    total = len(summary["kinds"])
    o = summary["overall"]["order"]
    out.append(
        f"| all kinds | {summary['overall']['games']:,} | {o['means']} of {total} "
        f"| {o['players']} of {total} | {o['intervals']} of {total} |"
    )
    out += [
        "",
        f"**Calibration** (the games after the first {burn} of each kind; Brier: mean over seats of"
        " (chance - outcome)^2; skill: 1 - Brier / naive's):",
        "",
        "| kind | games | seats | Brier | naive 1/n | skill score |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for kind, k in summary["kinds"].items():
        if k["calibration"]:
            out.append(_calibration_row(rating_kinds.name(kind), k["calibration"]))
    if summary["overall"]["calibration"]:
        out.append(_calibration_row("all kinds", summary["overall"]["calibration"]))
    out += [
        "",
        "Skill score by table size:",
        "",
        "| kind | " + " | ".join(f"{n} seats" for n in SEATS) + " |",
        "|---|" + "---:|" * len(SEATS),
    ]
    for kind, k in [*summary["kinds"].items(), ("all kinds", summary["overall"])]:
        at = {r["table"]: r for r in k["by_seats"]}
        cells = [f"{at[n]['skill']:+.3f} ({at[n]['games']:,})" if n in at else "-" for n in SEATS]
        name = kind if kind == "all kinds" else rating_kinds.name(kind)
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    out += [
        "",
        "Each strength's mean chance / share of the wins by table size:",
        "",
        "| kind | strength | " + " | ".join(f"{n} seats" for n in SEATS) + " |",
        "|---|---|" + "---:|" * len(SEATS),
    ]
    for kind, k in summary["kinds"].items():
        at = {r["table"]: r["strengths"] for r in k["by_seats"]}
        for strength in [r["strength"] for r in k["strengths"]]:
            cells = [
                f"{at[n][strength]['chance']:.3f} / {at[n][strength]['won']:.3f}"
                if strength in at.get(n, {})
                else "-"
                for n in SEATS
            ]
            out.append(f"| {rating_kinds.name(kind)} | {strength} | " + " | ".join(cells) + " |")
    out += ["", "**Reliability**, all kinds:", ""]
    out += _reliability_table(summary["overall"]["reliability"])
    for kind, k in summary["kinds"].items():
        out += ["", f"Reliability, {rating_kinds.name(kind)}:", ""]
        out += _reliability_table(k["reliability"])
    out += [
        "",
        "| kind | games | run time | per game |",
        "|---|---:|---:|---:|",
    ]
    for kind, k in summary["kinds"].items():
        out.append(
            f"| {rating_kinds.name(kind)} | {k['games']:,} | {k['seconds']:.0f} s "
            f"| {k['per_game'] * 1000:.0f} ms |"
        )
    return "\n".join(out) + "\n"


# --- sizing -----------------------------------------------------------------------------------------


def measure(kinds: Sequence[str], games: int, seed: int, out) -> None:
    """The time of a two-seat game of each kind between two players of each strength (after one game
    that builds what the players build once), and what a run of ``GAMES`` would take: a game has 3
    seats on average, of each strength alike, so about 1.5 times a two-seat game of the strengths'
    mean."""
    from games import bots

    out.write("| kind | strength | first game | two-seat game | per seat |\n|---|---|---:|---:|---:|\n")
    estimate = 0.0
    for kind in kinds:
        slug, options = game_of(kind)
        seat_times = []
        for strength in bots.STRENGTHS:
            pair = [Player(f"{strength}-a", strength, 25, 8), Player(f"{strength}-b", strength, 25, 8)]
            start = time.perf_counter()
            play(slug, options, pair, f"{seed}:measure:{kind}:{strength}:warm")
            first = time.perf_counter() - start
            start = time.perf_counter()
            for i in range(games):
                play(slug, options, pair, f"{seed}:measure:{kind}:{strength}:{i}")
            each = (time.perf_counter() - start) / games
            seat_times.append(each / 2)
            out.write(f"| {kind} | {strength} | {first:.2f} s | {each:.3f} s | {each / 2:.3f} s |\n")
        planned = GAMES.get(kind, DEFAULT_GAMES)
        estimate += planned * fmean(seat_times) * fmean(SEATS)
        out.flush()
    out.write(f"estimated run with the default games: {estimate / 60:.1f} min\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ratings_predict", description=__doc__)
    parser.add_argument("--games", type=int, help="games per rating kind (default: GAMES, per kind)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", help="comma-separated rating kinds (default: every one)")
    parser.add_argument("--burn-in", type=float, default=BURN_IN)
    parser.add_argument(
        "--measure", type=int, nargs="?", const=3, help="time N games of each kind and strength"
    )
    parser.add_argument("--json", type=Path, help="write every figure there")
    args = parser.parse_args(argv)
    out = sys.stdout
    kinds = args.kinds.split(",") if args.kinds else every_kind()
    if args.measure:
        measure(kinds, args.measure, args.seed, out)
        return 0
    started = time.perf_counter()
    runs = []
    for kind in kinds:
        games = args.games or GAMES.get(kind, DEFAULT_GAMES)
        out.write(f"{kind}: {games} games\n")
        out.flush()
        runs.append(play_kind(kind, games, args.seed, log=lambda line: (out.write(line + "\n"), out.flush())))
    summary = summarise(runs, args.burn_in)
    elapsed = time.perf_counter() - started
    summary["seed"], summary["run_seconds"] = args.seed, elapsed
    out.write("\n" + markdown(summary))
    games = summary["overall"]["games"]
    out.write(f"\n{games:,} games in {elapsed:.0f} s ({elapsed / 60:.1f} min), seed {args.seed}\n")
    if args.json:
        args.json.write_text(json.dumps(summary, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
