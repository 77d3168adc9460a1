"""A player's statistics per game kind, read in one query from the seats' stored summaries."""

from __future__ import annotations

import math
from collections import defaultdict
from statistics import fmean

from games.models import Game, Seat
from games.summaries import SCORING_BOXES

HISTOGRAM_BINS = 10


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


def _rate(part: float, whole: float) -> float | None:
    return round(part / whole, 4) if whole else None


def _card_stats(kind: str, summaries: list[dict]) -> dict:
    columns = 1 if kind == "painted-dicez" else 3
    n = len(summaries)
    bonus_slots = 2 if kind == "painted-dicez" else columns
    bonus_rate = [_rate(sum(1 for s in summaries if s["bonuses"][i]), n) for i in range(bonus_slots)]
    sums: dict[str, float] = defaultdict(float)
    counts: dict[str, int] = defaultdict(int)
    filled = scratches = 0
    for s in summaries:
        for key, value in s["boxes"].items():
            sums[key] += value
            counts[key] += 1
        filled += len(s["boxes"])
        scratches += s["scratches"]
    boxes = SCORING_BOXES[kind]
    if kind == "painted-dicez":
        average_per_box = {b: _avg(sums[b], counts[b]) for b in boxes}
    else:
        average_per_box = {b: [_avg(sums[f"{c}:{b}"], counts[f"{c}:{b}"]) for c in (1, 2, 3)] for b in boxes}
    return {
        "bonus_rate": bonus_rate,
        "five_kinds": sum(s["five_kinds"] for s in summaries),
        "average_per_box": average_per_box,
        "scratch_rate": _rate(scratches, filled),
        "upgrades": sum(s.get("upgrades", 0) for s in summaries) if kind == "triple-yahtzee-99" else None,
    }


def _avg(total: float, n: int) -> float | None:
    return round(total / n, 2) if n else None


def _farkle_stats(rows: list[dict]) -> dict:
    rolls = sum(r["summary"]["rolls"] for r in rows)
    farkles = sum(r["summary"]["farkles"] for r in rows)
    banks = [b for r in rows for b in r["summary"]["banks"]]
    won_laps = [r["laps"] for r in rows if r["winner"]]
    laps = [r["laps"] for r in rows if r["laps"] is not None]
    return {
        "average_laps": round(fmean(laps), 2) if laps else None,
        "best_laps": min(won_laps) if won_laps else None,
        "farkle_rate": _rate(farkles, rolls),
        "rolls": rolls,
        "farkles": farkles,
        "hot_dice": sum(r["summary"]["hot_dice"] for r in rows),
        "average_bank": round(fmean(banks), 1) if banks else None,
        "best_turn": max(banks) if banks else None,
        "turns_banked": len(banks),
    }


def player_stats(user, kind: str, *, goal: int | None = None) -> dict:
    """Games, wins, scores, a histogram and a series, plus the kind's own figures (one query).

    Counts finished games the player did not resign from; Farkle figures are for one goal.
    """
    qs = Seat.objects.filter(
        user=user, game__kind=kind, game__status=Game.Status.FINISHED, resigned=False, summary__isnull=False
    )
    if kind == "farkle":
        goal = goal or 10000
        qs = qs.filter(game__options__goal=goal)
    rows = list(
        qs.order_by("game__finished_at", "pk").values(
            "final_score", "winner", "laps", "summary", "game_id", "game__finished_at", "game__max_seats"
        )
    )
    scores = [r["final_score"] for r in rows]
    wins = sum(1 for r in rows if r["winner"])
    result = {
        "kind": kind,
        "goal": goal,
        "games": len(rows),
        "solo_games": sum(1 for r in rows if r["game__max_seats"] == 1),
        "wins": wins,
        "win_rate": _rate(wins, len(rows)),
        "average": round(fmean(scores), 1) if scores else None,
        "best": max(scores) if scores else None,
        "worst": min(scores) if scores else None,
        "histogram": histogram(scores),
        "series": [
            {"game": r["game_id"], "at": r["game__finished_at"].isoformat(), "score": r["final_score"]}
            for r in rows
        ],
    }
    if rows:
        if kind == "farkle":
            result["farkle"] = _farkle_stats(rows)
        else:
            result["card"] = _card_stats(kind, [r["summary"] for r in rows])
    return result
