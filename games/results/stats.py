"""A player's statistics per game kind, read in one query from the seats' stored summaries."""

from __future__ import annotations

import math
from statistics import fmean

from django.db.models import Exists, OuterRef

from games.access import watchable
from games.catalogue import GameKind, resolve
from games.models import Game, Seat
from games.rules.figures import rate

HISTOGRAM_BINS = 10
# Which games the figures count: all, those with people only, or those with a computer player at the table.
OPPONENTS = ("all", "people", "computers")


def with_computers(game_field: str = "game") -> Exists:
    """Whether the seat's game (``game_field``: the path to it) had a computer player at the table."""
    return Exists(Seat.objects.filter(game_id=OuterRef(f"{game_field}_id")).exclude(user__computer=""))


def _nice_width(span: int, bins: int) -> int:
    raw = max(1, math.ceil(span / bins))
    magnitude = 10 ** (len(str(raw)) - 1)
    for step in (1, 2, 5, 10):
        if raw <= step * magnitude:
            return step * magnitude
    return raw


def histogram(values: list[int], bins: int = HISTOGRAM_BINS) -> dict:
    """Counts of ``values`` in equal bins of a round width: {"edges": [lo, ...], "width", "counts"}."""
    if not values:
        return {"edges": [], "width": 0, "counts": []}
    width = _nice_width(max(values) - min(values) + 1, bins)
    low = (min(values) // width) * width
    n = (max(values) - low) // width + 1
    counts = [0] * n
    for v in values:
        counts[(v - low) // width] += 1
    return {"edges": [low + i * width for i in range(n)], "width": width, "counts": counts}


def player_stats(
    user, kind: str | GameKind, *, goal: int | None = None, opponents: str = "all", viewer=None
) -> dict:
    """Games, wins, scores, a histogram and a series, plus the kind's own figures (one query).

    Counts finished games the player did not resign from; for a game with a separating option
    (Farkle's goal) the figures are for one value of it, ``goal``, or its default. ``opponents``: all
    of them, only games among people, or only games with a computer player (OPPONENTS). Seen by
    another ``viewer``, only the games that viewer may see count (games.access): a private group's
    games show nothing of themselves to outsiders, not even in a player's figures.
    """
    if opponents not in OPPONENTS:
        raise ValueError(f"unknown opponents {opponents!r}")
    kind = resolve(kind)
    qs = Seat.objects.filter(
        user=user,
        game__kind=kind.slug,
        game__status=Game.Status.FINISHED,
        resigned=False,
        summary__isnull=False,
    )
    if viewer is not None and viewer.pk != user.pk:
        qs = qs.filter(watchable(viewer, "game"))
    option = kind.separating
    if option is not None:
        goal = goal or option.default
        qs = qs.filter(**{f"game__options__{option.name}": goal})
    qs = qs.annotate(computers=with_computers())
    if opponents != "all":
        qs = qs.filter(computers=opponents == "computers")
    rows = list(
        qs.order_by("game__finished_at", "pk").values(
            "final_score",
            "winner",
            "laps",
            "summary",
            "game_id",
            "game__finished_at",
            "game__max_seats",
            "computers",
        )
    )
    scores = [r["final_score"] for r in rows]
    wins = sum(1 for r in rows if r["winner"])
    result = {
        "kind": kind.slug,
        "goal": goal,
        "games": len(rows),
        "opponents": opponents,
        "solo_games": sum(1 for r in rows if r["game__max_seats"] == 1),
        "computer_games": sum(1 for r in rows if r["computers"]),
        "wins": wins,
        "win_rate": rate(wins, len(rows)),
        "average": round(fmean(scores), 1) if scores else None,
        "best": max(scores) if scores else None,
        "worst": min(scores) if scores else None,
        "histogram": histogram(scores),
        "series": [
            {
                "game": r["game_id"],
                "at": r["game__finished_at"].isoformat(),
                "score": r["final_score"],
                "computers": r["computers"],
            }
            for r in rows
        ],
    }
    if rows:
        result[kind.figures.section] = kind.figures.stats(rows)
    return result
