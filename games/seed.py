"""Bulk finished games for benchmarks and query-count tests: real engine results, written in bulk.

A few random solo games per kind are really played through the engines; their final cards (and, for
Farkle, their events) are reused for many seats, so statistics, history and high-score pages see
realistic data without replaying thousands of games.
"""

from __future__ import annotations

import random
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from games import rules
from games.models import Game, Seat
from games.rules.dice import make_dice
from games.summaries import seat_summary

POOL = 12


def _play(slug: str, rng: random.Random, options: dict) -> tuple[dict, list[dict]]:
    engine = rules.get(slug)
    dice = make_dice(rng, painted=slug == "painted-dicez")
    state = engine.new_game(["p"], options)
    events = []
    while not engine.is_over(state):
        state = engine.apply(state, "p", rng.choice(engine.legal_actions(state)), dice)
        events.append(state["last_event"])
    return state, events


def _pool(rng: random.Random) -> dict:
    pool = {}
    for slug in rules.ENGINES:
        options = [{"goal": g, "dice": 6} for g in (10000, 5000, 3000)] if slug == "farkle" else [{}]
        for opts in options:
            key = (slug, opts.get("goal"))
            pool[key] = []
            for _ in range(POOL):
                state, events = _play(slug, rng, opts)
                pool[key].append(
                    {
                        "score": rules.get(slug).scores(state)["p"],
                        "laps": state.get("laps"),
                        "summary": seat_summary(slug, state, "p", events),
                        "options": opts,
                    }
                )
    return pool


def seed_finished_games(count: int, users: list, *, groups=(), seed: int = 1, days: int = 120) -> int:
    """Create ``count`` finished games among ``users`` (1-4 seats each), some in ``groups``."""
    rng = random.Random(seed)  # noqa: S311 - test data, not security
    pool = _pool(rng)
    keys = list(pool)
    now = timezone.now()
    with transaction.atomic():
        games = []
        for _ in range(count):
            slug, goal = rng.choice(keys)
            seats = rng.choice((1, 2, 2, 3, 4))
            group = rng.choice(groups) if groups and rng.random() < 0.4 else None
            finished = now - timedelta(seconds=rng.randint(0, days * 86400))
            games.append(
                Game(
                    kind=slug,
                    options=pool[(slug, goal)][0]["options"],
                    max_seats=seats,
                    status=Game.Status.FINISHED,
                    group=group,
                    creator=None,
                    started_at=finished - timedelta(minutes=20),
                    finished_at=finished,
                    seq=0,
                )
            )
        games = Game.objects.bulk_create(games, batch_size=1000)
        seats = []
        for game in games:
            goal = game.options.get("goal")
            players = rng.sample(users, min(game.max_seats, len(users)))
            results = [rng.choice(pool[(game.kind, goal)]) for _ in players]
            if game.kind == "farkle":
                # Everyone in one game plays the same number of laps; winners are those at the goal.
                laps = max(r["laps"] for r in results)
                best = [r["score"] >= goal for r in results]
            else:
                laps = None
                top = max(r["score"] for r in results)
                best = [r["score"] == top for r in results]
            for position, (user, result, won) in enumerate(zip(players, results, best, strict=True)):
                seats.append(
                    Seat(
                        game=game,
                        user=user,
                        position=position,
                        final_score=result["score"],
                        winner=won,
                        laps=laps,
                        summary=result["summary"],
                    )
                )
        Seat.objects.bulk_create(seats, batch_size=2000)
    return len(games)
