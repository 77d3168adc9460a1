"""Finished games made quickly for the seasons' tests, as bulk seeding does (games.results.seed): the
rows a game's end leaves, with the end where a test wants it; and a fixed clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from games import rules
from games.models import Game, Seat
from games.rules import declare

# A fixed clock for the services: the season opened the day before its first day.
OPENED = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
FIRST = OPENED.date() + timedelta(days=1)  # 2026-03-02
LAST = FIRST + timedelta(days=6)  # 2026-03-08
END = datetime(2026, 3, 9, 0, 0, tzinfo=UTC)  # the moment after the last day


def finished(group, results, *, at, kind="farkle", goal=3000, status=Game.Status.FINISHED, seats=None):
    """A game of ``group`` that ended at ``at``; ``results``: (user, final score, winner) per seat."""
    engine = rules.get(kind)
    options = declare.full_options(engine, {"goal": goal} if declare.separating_option(engine) else {})
    game = Game.objects.create(
        kind=kind,
        options=options,
        max_seats=seats or len(results),
        status=status,
        group=group,
        private=group is not None,
        creator=results[0][0],
        started_at=at - timedelta(minutes=20),
        finished_at=at,
    )
    for position, (user, score, winner) in enumerate(results):
        Seat.objects.create(
            game=game,
            user=user,
            position=position,
            final_score=score,
            winner=winner,
            laps=10 if engine.ranking.uses_laps else None,
        )
    return game
