"""Reading the coach's reviews: a game's for its replay, a player's accuracy over time."""

from __future__ import annotations

from django.db.models import Count, F, FloatField, Sum

from coach.models import Review, SeatReview
from games import i18n, rules
from games.access import watchable
from games.models import Game
from games.rules import declare

WORST_SHOWN = 3
CHART_GAMES = 30
# The chart's drawing box (viewBox units); the page scales it.
CHART_W, CHART_H, CHART_PAD = 300, 100, 8


def replay_review(game: Game) -> dict | None:
    """The replay's review: None when no person sat at the table; {"ready": False} while the worker
    has not written it; else each person's summary and, by step, what the coach says of it."""
    seats = list(game.seats.select_related("user").order_by("position"))
    if all(s.user.computer for s in seats):
        return None
    review = Review.objects.filter(game=game).first()
    if review is None:
        return {"ready": False}
    names = {s.pk: s.user.username for s in seats}
    shown, steps = [], {}
    for seat_review in SeatReview.objects.filter(review=review).order_by("seat__position"):
        player = names[seat_review.seat_id]
        for d in seat_review.decisions:
            steps[d["seq"]] = {"player": player, **_note(d)}
        # By accuracy, the one scale of points and winning chances alike (in points, the same order).
        costly = (d for d in seat_review.decisions if d["cost"] > 0)
        worst = sorted(costly, key=lambda d: (d["accuracy"], -d["cost"]))
        shown.append(
            {
                "player": player,
                "accuracy": seat_review.accuracy,
                "total_cost": seat_review.total_cost,
                "decisions": seat_review.decision_count,
                "worst": [{"seq": d["seq"], **_note(d)} for d in worst[:WORST_SHOWN]],
            }
        )
    return {"ready": True, "seats": shown, "steps": steps}


def _note(d: dict) -> dict:
    """A decision as the page shows it, its words in the active language (a review written before
    decisions kept their messages keeps its English)."""
    return {
        # Reviews written before decisions kept them have neither: the page then names the step.
        "turn": d.get("turn"),
        "roll": d.get("roll"),
        "cost": d["cost"],
        "measure": d.get("measure", "points"),
        "accuracy": d["accuracy"],
        "text": _words(d, "say", "text"),
        "expert_text": _words(d, "expert_say", "expert_text"),
        "best": d["cost"] == 0,
    }


def _words(d: dict, message: str, english: str) -> str:
    return i18n.render([d[message]]) if d.get(message) else d[english]


def accuracy_over_time(user, kind: str, viewer=None) -> dict:
    """The player's accuracy in their latest reviewed games of this kind, oldest first, and the
    polyline of a small chart of it (0 % at the bottom, 100 % at the top). Seen by another
    ``viewer``, only the games that viewer may see (games.access)."""
    reviews = SeatReview.objects.filter(user=user, kind=kind, accuracy__isnull=False)
    if viewer is not None and viewer.pk != user.pk:
        reviews = reviews.filter(watchable(viewer, "seat__game"))
    rows = list(
        reviews.order_by("-finished_at", "-pk").values(
            "seat__game_id", "finished_at", "accuracy", "total_cost", "decision_count"
        )[:CHART_GAMES]
    )
    rows.reverse()
    games = [
        {
            "game": r["seat__game_id"],
            "finished_at": r["finished_at"],
            "accuracy": r["accuracy"],
            "total_cost": r["total_cost"],
            "decisions": r["decision_count"],
        }
        for r in rows
    ]
    points = _chart_points([g["accuracy"] for g in games])
    for game, (x, y) in zip(games, points, strict=True):
        game["x"], game["y"] = x, y
    mean = sum(g["accuracy"] for g in games) / len(games) if games else None
    return {
        "games": games,
        "polyline": " ".join(f"{x},{y}" for x, y in points),
        "mean": mean,
        "width": CHART_W,
        "height": CHART_H,
        "pad": CHART_PAD,
        "top": CHART_PAD,
        "middle": CHART_PAD + (CHART_H - 2 * CHART_PAD) / 2,
        "bottom": CHART_H - CHART_PAD,
        "right": CHART_W - CHART_PAD,
    }


def _chart_points(values: list[float]) -> list[tuple[float, float]]:
    inner_w, inner_h = CHART_W - 2 * CHART_PAD, CHART_H - 2 * CHART_PAD
    n = len(values)
    return [
        (
            round(CHART_PAD + (inner_w * i / (n - 1) if n > 1 else inner_w / 2), 1),
            round(CHART_PAD + inner_h * (1 - v / 100), 1),
        )
        for i, v in enumerate(values)
    ]


TREND_GAMES = 20


def accuracy_trend(user, viewer=None, limit: int = TREND_GAMES) -> dict:
    """The player's accuracy in their latest reviewed games of every kind, oldest first, for the
    profile's chart: {"points": [{"game", "kind", "name", "at", "accuracy"}], "mean"}; ``name`` is the
    game's as its pages write it ("Farkle (3000)"). With a ``viewer`` (the player too: a game of a group
    they left is no longer theirs to open), only the games that viewer may see (games.access). One
    query."""
    reviews = SeatReview.objects.filter(user=user, accuracy__isnull=False)
    if viewer is not None:
        reviews = reviews.filter(watchable(viewer, "seat__game"))
    rows = list(
        reviews.order_by("-finished_at", "-pk").values_list(
            "seat__game_id", "kind", "seat__game__options", "finished_at", "accuracy"
        )[:limit]
    )
    rows.reverse()
    points = [
        {
            "game": game,
            "kind": kind,
            "name": declare.game_name(rules.get(kind), options or {}),
            "at": at,
            "accuracy": round(accuracy, 1),
        }
        for game, kind, options, at, accuracy in rows
    ]
    mean = sum(row[4] for row in rows) / len(rows) if rows else None
    return {"points": points, "mean": mean}


def judged_totals(*, since, games, kind: str | None = None) -> list[dict]:
    """Per person and game kind (``kind``: that one only), their reviewed decisions in ``games`` (a
    query of game ids) that ended since ``since``: {"user_id", "username", "kind", "games",
    "decisions", "best", "accuracy_sum"} (``best``: the decisions that cost nothing;
    ``accuracy_sum``: the decisions' accuracies added up, from each game's mean). One query,
    aggregated in SQL."""
    reviews = SeatReview.objects.filter(finished_at__gte=since, decision_count__gt=0, seat__game__in=games)
    rows = (
        (reviews.filter(kind=kind) if kind else reviews)
        .values("user_id", "user__username", "kind")
        .annotate(
            games=Count("pk"),
            decisions=Sum("decision_count"),
            best=Sum("best_count"),
            accuracy_sum=Sum(F("accuracy") * F("decision_count"), output_field=FloatField()),
        )
        .order_by("user_id", "kind")
    )
    return [{**row, "username": row.pop("user__username")} for row in rows]
