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

from games import catalogue, rules
from games.models import Game, Seat
from games.rules import declare
from games.rules.dice import make_dice

POOL = 12


def _play(slug: str, rng: random.Random, options: dict) -> tuple[dict, list[dict]]:
    engine = rules.get(slug)
    dice = make_dice(rng, painted=engine.dice_kind == "painted")
    state = engine.new_game(["p"], options)
    events = []
    while not engine.is_over(state):
        state = engine.apply(state, "p", rng.choice(engine.legal_actions(state)), dice)
        events.append(state["last_event"])
    return state, events


def _pool(rng: random.Random) -> dict:
    pool = {}
    for kind in catalogue.kinds():
        option = kind.separating
        for variant in kind.variants():
            opts = declare.full_options(kind.engine, {option.name: variant} if option else {})
            key = (kind.slug, variant)
            pool[key] = []
            for _ in range(POOL):
                state, events = _play(kind.slug, rng, opts)
                pool[key].append(
                    {
                        "score": kind.engine.scores(state)["p"],
                        "laps": state.get("laps") if kind.ranking.uses_laps else None,
                        "summary": kind.figures.summary(state, "p", events),
                        "options": opts,
                    }
                )
    return pool


def _outcomes(kind: catalogue.GameKind, results: list[dict]) -> tuple[int | None, list[bool]]:
    """The seats' shared laps (everyone plays the same number) and who won, by the game's ranking."""
    laps = max(r["laps"] for r in results) if kind.ranking.uses_laps else None
    keys = [kind.ranking.key({"final_score": r["score"], "laps": laps}) for r in results]
    return laps, [key == min(keys) for key in keys]


def seed_finished_games(count: int, users: list, *, groups=(), seed: int = 1, days: int = 120) -> int:
    """Create ``count`` finished games among ``users`` (1-4 seats each), some in ``groups``."""
    rng = random.Random(seed)  # noqa: S311 - test data, not security
    pool = _pool(rng)
    keys = list(pool)
    variant_of = {k.slug: k.separating.name for k in catalogue.kinds() if k.separating}
    now = timezone.now()
    with transaction.atomic():
        games = []
        for _ in range(count):
            slug, variant = rng.choice(keys)
            seats = rng.choice((1, 2, 2, 3, 4))
            group = rng.choice(groups) if groups and rng.random() < 0.4 else None
            finished = now - timedelta(seconds=rng.randint(0, days * 86400))
            games.append(
                Game(
                    kind=slug,
                    options=pool[(slug, variant)][0]["options"],
                    max_seats=seats,
                    status=Game.Status.FINISHED,
                    group=group,
                    private=group is not None,
                    creator=None,
                    started_at=finished - timedelta(minutes=20),
                    finished_at=finished,
                    seq=0,
                )
            )
        games = Game.objects.bulk_create(games, batch_size=1000)
        seats = []
        for game in games:
            variant = game.options.get(variant_of.get(game.kind, ""))
            players = rng.sample(users, min(game.max_seats, len(users)))
            results = [rng.choice(pool[(game.kind, variant)]) for _ in players]
            laps, best = _outcomes(catalogue.kind(game.kind), results)
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
