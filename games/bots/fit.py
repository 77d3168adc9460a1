"""Fit the card games' value figures (games/bots/card_params.json) by simulation.

Run: ``python -m games.bots.fit <slug> [--games N] [--rounds R] [--seed S]``.

Round 0 plays ``N`` solo games with the good player (which needs no figures); every later round plays
``N`` games with the expert on the figures of the round before, and the figures kept are those of the
round the expert scored best with. Each round's figures are what the
player wrote in each box: the distribution of the raw value (top boxes by dice, colour boxes by value),
its mean and variance, how often a box counted as a three of a kind (Triple Yahtzee 99's upgrades) and
how often a five of a kind was scored (Triple Quintzee's bonus). Seeded: the same command writes the
same figures. The stored ones come from ``--games 300 --rounds 3`` (triple-quintzee), ``--games 150
--rounds 2`` (triple-yahtzee-99), ``--games 150 --rounds 3`` (painted-dicez) and ``--games 300 --rounds
3`` (quintzee, as Triple Quintzee's), seed 1.

``--iterate R`` fits the weights of each game's card features by value iteration instead (``iterate``),
on the stored figures. The stored weights come from ``--games 500 --iterate 14 --seed 1`` (quintzee) and
``--games 150 --iterate 5 --seed 1`` (triple-quintzee), both with lambda 0; Painted DiceZ's and Triple
Yahtzee 99's from rounds of 300 games and more, the weights of one round carried into the next
(docs/engine.md, "Value iteration", says which).

The games are played by the card players on the game's own evaluation (``cards._game``): the site's
players of the three card games; for Quintzee, whose expert on the site plays the exact optimum, the
card players on its evaluation (games/bots/quintzee_expert.py), whose fitted expert is then measured
against the optimum (bench/quintzee.py).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from collections.abc import Sequence
from statistics import fmean, pvariance

import numpy as np

from games.bots import cards, cardvalue, play
from games.rules import painted_dicez as pd
from games.rules import quintzee as q
from games.rules import triple_quintzee as tq
from games.rules import triple_yahtzee_99 as ty
from games.rules.dice import counts

# Wasting a turn keeps every box open; its figure is the value of that option, set by hand from the
# expert's mean loss of a scratch (no simulation fits it: the good player never wastes).
WASTE_VALUE = 20.0


def _counts_dist(values: list[int], face: int) -> list[float]:
    out = [0.0] * 6
    for v in values:
        out[v // face] += 1
    return [x / len(values) for x in out] if values else [1 / 6] * 6


def _value_dist(values: list[int], top: int) -> list[float]:
    out = [0.0] * (top + 1)
    for v in values:
        out[v] += 1
    return [x / len(values) for x in out]


def _basic(filled: dict[str, list]) -> tuple[dict, dict]:
    mean = {b: fmean(f[0] for f in fills) if fills else 0.0 for b, fills in filled.items()}
    var = {b: pvariance([f[0] for f in fills]) if len(fills) > 1 else 0.0 for b, fills in filled.items()}
    return mean, var


def _quintzee(filled: dict[str, list], games: int) -> dict:
    mean, var = _basic(filled)
    fills = [f[1] for fs in filled.values() for f in fs]
    five = sum(1 for d in fills if len(set(d)) == 1)
    by_column = {
        b: [fmean([v for v, _, c in filled[b] if c == col] or [mean[b]]) for col in tq.COLUMNS]
        for b in tq.BOXES
    }
    return {
        "mean": mean,
        "mean_by_column": by_column,
        "var": var,
        "dist": {b: _counts_dist([f[0] for f in filled[b]], tq.FACE[b]) for b in tq.TOP},
        "five_rate": five / len(fills),
    }


def _quintzee_one(filled: dict[str, list], games: int) -> dict:
    """Triple Quintzee's figures on one column: no means by column."""
    mean, var = _basic(filled)
    fills = [f[1] for fs in filled.values() for f in fs]
    five = sum(1 for d in fills if len(set(d)) == 1)
    return {
        "mean": mean,
        "var": var,
        "dist": {b: _counts_dist([f[0] for f in filled[b]], q.FACE[b]) for b in q.TOP},
        "five_rate": five / len(fills),
    }


def _three(box: str, value: int, dice: list) -> bool:
    if box in ty.FACE_BOXES:
        return dice.count(ty.FACE[box]) >= 3
    return box in ty.LOWER_COUNTED and value > 0 and max(counts(dice).values()) >= 3


def _yahtzee99(filled: dict[str, list], games: int) -> dict:
    mean, var = _basic(filled)
    # Optional boxes: their worth per slot is what they average over every game, filled or not.
    slots = [f[0] for f in filled["yahtzee_bonus"]] + [0] * (3 * games - len(filled["yahtzee_bonus"]))
    mean["yahtzee_bonus"] = fmean(slots)
    var["yahtzee_bonus"] = pvariance(slots)
    for w in ty.WASTE:
        mean[w], var[w] = 0.0, 0.0
    three = {
        b: fmean(_three(b, f[0], f[1]) for f in filled[b]) if filled[b] else 0.0
        for b in (*ty.FACE_BOXES, *sorted(ty.LOWER_COUNTED))
    }
    return {
        "mean": mean,
        "var": var,
        "dist": {b: _counts_dist([f[0] for f in filled[b]], ty.FACE[b]) for b in ty.UPPER},
        "three": three,
        "waste": WASTE_VALUE,
    }


def _painted(filled: dict[str, list], games: int) -> dict:
    mean, var = _basic(filled)
    colours = [f[0] for b in pd.CENTER for f in filled[b]]
    for b in pd.CENTER:  # the five colours play alike: one figure for all
        mean[b], var[b] = fmean(colours), pvariance(colours)
    return {
        "mean": mean,
        "var": var,
        "dist": {b: _counts_dist([f[0] for f in filled[b]], pd.FACE[b]) for b in pd.UPPER},
        "colour_dist": _value_dist(colours, 30),
    }


SUMMARISE = {tq.slug: _quintzee, ty.slug: _yahtzee99, pd.slug: _painted, q.slug: _quintzee_one}
BOXES = {tq.slug: tq.BOXES, ty.slug: ty.BOXES, pd.slug: pd.BOXES, q.slug: q.BOXES}


def simulate(slug: str, strength: str, games: int, rng: random.Random) -> tuple[dict, float]:
    filled: dict[str, list] = defaultdict(list)
    for b in BOXES[slug]:
        filled[b] = []
    players = cards.CardPlayers(cards._game(slug))

    def seen(event: dict) -> None:
        dice = [d[0] if isinstance(d, list) else d for d in event["dice"]]
        filled[event["box"]].append((event["points"], dice, event["column"]))

    scores = [play.solo(slug, strength, rng, seen, players=players) for _ in range(games)]
    return SUMMARISE[slug](filled, games), fmean(scores)


# Value iteration's ridge: small against the features' scale (0-1 for a box, up to 35 for a bonus),
# toward the figures' own model (``first_weights``), so that a feature no card of a round showed (Painted
# DiceZ's worth of a box with one turn left, for every box the round never left last) keeps the figures'
# worth rather than 0.
RIDGE = 1e-3
LAMBDA = 0.0


def iterate(slug: str, games: int, rounds: int, rng: random.Random, lam: float = LAMBDA) -> list[float]:
    """Fit the weights of the game's card features by value iteration (games/bots/cardvalue.py): each
    round plays ``games`` solo games with the expert on the weights before (the first round on the
    fitted figures' own model, ``first_weights``), refits the weights by least squares to a target for
    the card at each turn's start, and stores them. The target is the turn's exact value over its dice
    plus the card's worth before it (a Bellman backup); with ``lam`` above 0, mixed with what the game
    then scored: ``lam`` x (the turn's points + the next turn's target) + (1 - ``lam``) x the backup, a
    lambda-return. That carries a card's end back to its start in fewer rounds on Quintzee (0.7: 5.0
    points a game lost to the optimum after four rounds of 300 games, against 5.5 with backups alone),
    but its targets are noisier, and on Triple Quintzee, whose scores spread five times as wide, three
    rounds of 0.7 after five of backups fell back by about 80 points a game (150 games a round): the
    default is the backup alone. Returns each round's mean score (played on the round's weights)."""
    module = cards._game(slug)
    fit = module.fitted()
    w = fit.weights if fit.weights is not None else fit.first_weights()
    players = cards.CardPlayers(module)
    means = []
    for r in range(rounds):
        module.fitted().weights = w  # stored at the end of the round before, but for the first
        cards._turns.clear()
        rows: list = []
        targets: list = []
        scores = []
        for _ in range(games):
            turns: list[tuple[float, int]] = []  # (backup, the card's total) at each turn's start

            def each(state: dict, w=w, turns=turns, rows=rows) -> None:
                if state["roll"] == 0:
                    card = state["cards"][state["current"]]
                    phi = module.card_features(card)
                    rows.append(phi)
                    turns.append((cards._turn(module, state, True).start() + phi @ w, card["total"]))

            scores.append(play.solo(slug, "expert", rng, players=players, each=each))
            targets += _lambda_returns(turns, scores[-1], lam)
        x, y = np.array(rows), np.array(targets)
        prior = module.fitted().first_weights()
        w = np.linalg.solve(x.T @ x + RIDGE * np.eye(x.shape[1]), x.T @ y + RIDGE * prior)
        means.append(fmean(scores))
        sys.stdout.write(f"value iteration {r + 1}: mean score {means[-1]:.1f} on the weights before\n")
        sys.stdout.flush()
        figures = cardvalue.params(slug) | {"weights": [round(float(v), 6) for v in w]}
        _store(slug, figures)
    return means


def _lambda_returns(turns: list[tuple[float, int]], final: int, lam: float) -> list[float]:
    """Each turn's target: (1 - lam) x its backup + lam x (the points it scored + the next one's target);
    the card after the last turn is full, worth 0."""
    out = [0.0] * len(turns)
    later, total = 0.0, final
    for t in range(len(turns) - 1, -1, -1):
        backup, before = turns[t]
        out[t] = later = (1 - lam) * backup + lam * (total - before + later)
        total = before
    return out


def _store(slug: str, figures: dict) -> None:
    path = cardvalue.PARAMS
    data = json.loads(path.read_text()) if path.exists() else {}
    data[slug] = figures
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    cardvalue.params.cache_clear()
    module = cards._game(slug)
    module.fitted.cache_clear()
    cards._turns.clear()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.bots.fit", description=__doc__)
    parser.add_argument("slug", choices=sorted(SUMMARISE))
    parser.add_argument("--games", type=int, default=200, help="games per round (default 200)")
    parser.add_argument("--rounds", type=int, default=2, help="expert rounds after round 0 (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the dice (default 1)")
    parser.add_argument(
        "--iterate",
        type=int,
        default=0,
        metavar="R",
        help="R rounds of value iteration of the feature weights on the stored figures (no refit of them)",
    )
    parser.add_argument("--lam", type=float, default=LAMBDA, help=f"value iteration's lambda ({LAMBDA})")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)  # noqa: S311 - reproducible simulation, not security
    if args.iterate:
        iterate(args.slug, args.games, args.iterate, rng, args.lam)
        return 0
    figures, mean = simulate(args.slug, "good", args.games, rng)
    sys.stdout.write(f"round 0 (good): mean score {mean:.1f}\n")
    _store(args.slug, figures)
    # Each round plays on the figures of the round before; the figures kept are those the expert
    # scored best with (refitting on one's own play can oscillate).
    best, best_mean = figures, -1.0
    for r in range(1, args.rounds + 1):
        used = figures
        figures, mean = simulate(args.slug, "expert", args.games, rng)
        sys.stdout.write(f"round {r} (expert on round {r - 1}'s figures): mean score {mean:.1f}\n")
        sys.stdout.flush()
        if mean > best_mean:
            best, best_mean = used, mean
        _store(args.slug, figures)
    _store(args.slug, best)
    return 0


if __name__ == "__main__":
    sys.exit(main())
