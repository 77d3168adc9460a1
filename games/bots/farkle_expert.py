"""Farkle's expert: the exact expected points of a turn under this project's rules, by dynamic
programming over (turn points, dice left), and the play that reaches them.

The rules are the engine's own (games/rules/farkle.py): its scoring of any set of dice, every
scoring selection of a roll, a bank needs 300 points and some die left on the table (after hot dice
the player must roll all dice again), a Farkle loses the turn's points.

The turn's points only grow (every selection scores), so the values are computed from the highest
turn total down. Above ``CAP`` points the turn is valued as "bank as soon as the rules allow":
reaching it from zero is rarer than one turn in a million, so the figures below it do not change.

``simulate`` and ``play_to_win_share`` measure the players through the engine (manage.py farkle_expert).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from functools import cache
from itertools import combinations_with_replacement
from math import factorial, sqrt
from typing import NamedTuple

from games.rules import farkle

CAP = 20_000
STEP = 50  # every score of the game is a multiple of 50


@cache
def rolls(n: int) -> tuple[tuple[tuple[int, ...], float], ...]:
    """Every roll of ``n`` dice as a sorted tuple of faces, with its probability."""
    out = []
    for faces in combinations_with_replacement(range(1, 7), n):
        ways = factorial(n)
        for count in Counter(faces).values():
            ways //= factorial(count)
        out.append((faces, ways / 6**n))
    return tuple(out)


@cache
def options(faces: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """The useful selections of a sorted roll as (dice set aside, points): for each number of dice
    the best points, since the same number of dice left with more points is always better."""
    best: dict[int, int] = {}
    for idx, value in farkle._sorted_keeps(faces):
        best[len(idx)] = max(best.get(len(idx), 0), value)
    return tuple(sorted(best.items()))


@cache
def groups(n: int) -> tuple[tuple[float, tuple[tuple[int, int], ...]], ...]:
    """The scoring rolls of ``n`` dice grouped by their useful selections, with each group's chance:
    rolls with the same selections play the same, and there are about a quarter as many groups."""
    chance: dict[tuple[tuple[int, int], ...], float] = defaultdict(float)
    for faces, p in rolls(n):
        choices = options(faces)
        if choices:  # no choice at all: a Farkle, the turn banks nothing
            chance[choices] += p
    return tuple((p, choices) for choices, p in chance.items())


class TurnValues:
    """E[t][n]: the expected points a turn banks, played optimally, when ``t`` points are set aside and
    ``n`` dice are about to be rolled (``dice`` = all of them, as after hot dice or at the start)."""

    def __init__(self, dice: int = 6, minimum: int = farkle.BANK_MINIMUM, cap: int = CAP):
        self.dice, self.minimum, self.cap = dice, minimum, cap
        self.table: list[list[float]] = [[0.0] * (dice + 1) for _ in range(cap // STEP + 1)]
        for i in range(cap // STEP, -1, -1):
            for n in range(1, dice + 1):
                self.table[i][n] = self._roll_value(i * STEP, n)

    def roll_value(self, t: int, n: int) -> float:
        """The expected banked points of rolling ``n`` dice with ``t`` points set aside."""
        if t > self.cap:
            return self._roll_value(t, n)
        return self.table[t // STEP][n]

    def _roll_value(self, t: int, n: int) -> float:
        total = 0.0
        after = self.after
        for p, choices in groups(n):
            best = 0.0
            for kept, value in choices:
                worth = after(t + value, n - kept)
                if worth > best:
                    best = worth
            total += p * best
        return total

    def after(self, t: int, left: int) -> float:
        """The best of banking ``t`` and rolling on, with ``left`` dice not set aside."""
        if left == 0:  # hot dice: all of them must be rolled again, banking is not allowed
            return self.roll_value(t, self.dice) if t <= self.cap else t
        bank = t if t >= self.minimum else 0.0
        if t > self.cap:
            return bank or self.roll_value(t, left)
        return max(bank, self.roll_value(t, left))

    def choose(self, t: int, roll: list[int]) -> dict:
        """The expert's action for a roll on the table: the engine's action and its expected value."""
        n = len(roll)
        best = None
        for idx, value in farkle._keeps(tuple(roll)):
            left = n - len(idx)
            points = t + value
            candidates = [("roll", self.roll_value(points, left or self.dice))]
            if left and points >= self.minimum:
                candidates.append(("bank", float(points)))
            for kind, expected in candidates:
                if best is None or expected > best[2] + 1e-9:
                    best = (kind, list(idx), expected)
        if best is None:
            raise ValueError("a Farkle has no action")
        return {"action": {"type": best[0], "keep": best[1]}, "expected": best[2]}


@cache
def turn_values(dice: int = 6) -> TurnValues:
    return TurnValues(dice)


def expected_turn(dice: int = 6) -> float:
    """The optimal expected points of a turn from zero."""
    return turn_values(dice).roll_value(0, dice)


class Sample(NamedTuple):
    """A simulated mean with the half-width of its 95 % interval (normal approximation)."""

    mean: float
    half_width: float

    @classmethod
    def of(cls, values: list[float]) -> Sample:
        mean = sum(values) / len(values)
        variance = sum((v - mean) ** 2 for v in values) / max(len(values) - 1, 1)
        return cls(mean, 1.96 * sqrt(variance / len(values)))

    def __str__(self) -> str:
        return f"{self.mean:.2f} +/- {self.half_width:.2f}"


def simulate(turns: int, dice: int = 6, seed: int = 1, strength: str = "expert") -> Sample:
    """A computer player's mean banked points per turn over ``turns`` turns played through the engine
    and the bots' contract, each the first turn of a new solo game, with seeded dice and bot."""
    import random

    from games import bots

    rng = random.Random(seed)  # noqa: S311 - reproducible dice for a measurement, not the game's
    bot_rng = random.Random(seed + 1)  # noqa: S311 - the easy player's slips, reproducible too

    def roll(n: int) -> list[int]:
        return [rng.randint(1, 6) for _ in range(n)]

    banked = []
    for _ in range(turns):
        state = farkle.new_game(["bot"], {"goal": max(farkle.GOALS), "dice": dice})
        while not state["turns_taken"]["bot"]:
            action = bots.choose(farkle.slug, state, strength, bot_rng)
            state = farkle.apply(state, "bot", action, roll)
        banked.append(state["banked"]["bot"])
    return Sample.of(banked)


def play_to_win_share(
    games: int, players: int = 2, goal: int = 10000, dice: int = 6, seed: int = 1
) -> Sample:
    """The expert's share of the wins (a shared win split evenly) in games against ``players - 1``
    players who only maximise each turn's expected points, its seat turning round from game to game:
    what playing to win (games/bots/farkle_win.py) is worth. A fair share is ``1 / players``."""
    import random

    from games import bots

    rng = random.Random(seed)  # noqa: S311 - reproducible dice for a measurement, not the game's

    def roll(n: int) -> list[int]:
        return [rng.randint(1, 6) for _ in range(n)]

    shares = []
    for game in range(games):
        seats = [f"seat{i}" for i in range(players)]
        player = seats[game % players]
        state = farkle.new_game(seats, {"goal": goal, "dice": dice})
        while not state["over"]:
            if state["current"] == player:
                action = bots.choose(farkle.slug, state, "expert", rng)
            else:
                action = bots.best(farkle.slug, state).action
            state = farkle.apply(state, state["current"], action, roll)
        won = farkle.winners(state)
        shares.append(1 / len(won) if player in won else 0.0)
    return Sample.of(shares)
