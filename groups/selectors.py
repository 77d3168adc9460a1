"""Reads for group pages: membership, games, leaderboards and head-to-head records."""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations

from games.highscores import FARKLE_GOALS, high_scores
from games.models import Game, Seat
from games.rules import ENGINES
from groups.models import Group


def is_member(group: Group, user) -> bool:
    return user.is_authenticated and group.memberships.filter(user=user).exists()


def head_to_head(group: Group) -> list[dict]:
    """For each pair of members who met in the group's finished games: games, wins each, draws.

    The higher final score beats the lower; a player who resigned loses to one who did not.
    """
    rows = Seat.objects.filter(game__group=group, game__status=Game.Status.FINISHED).values_list(
        "game_id", "user__username", "final_score", "resigned"
    )
    by_game: dict[int, list[tuple[str, int, bool]]] = defaultdict(list)
    for game_id, name, score, resigned in rows:
        by_game[game_id].append((name, score or 0, resigned))
    records: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for seats in by_game.values():
        for (a, sa, ra), (b, sb, rb) in combinations(sorted(seats), 2):
            rec = records[(a, b)]
            rec[0] += 1
            key_a, key_b = (not ra, sa), (not rb, sb)
            if key_a > key_b:
                rec[1] += 1
            elif key_b > key_a:
                rec[2] += 1
            else:
                rec[3] += 1
    return [
        {"a": a, "b": b, "games": g, "a_wins": wa, "b_wins": wb, "draws": d}
        for (a, b), (g, wa, wb, d) in sorted(records.items())
    ]


def leaderboards(group: Group, viewer) -> list[dict]:
    boards = []
    for slug, engine in ENGINES.items():
        goals = FARKLE_GOALS if slug == "farkle" else (None,)
        for goal in goals:
            board = high_scores(slug, goal=goal, group_id=group.pk, viewer=viewer, limit=10)
            board["name"] = engine.name + (f" — goal {goal}" if goal else "")
            boards.append(board)
    return boards


def group_page(group: Group, viewer) -> dict:
    games = Game.objects.filter(group=group).select_related("creator").prefetch_related("seats__user")
    return {
        "members": list(group.memberships.select_related("user").order_by("user__username")),
        "in_progress": list(
            games.filter(status__in=[Game.Status.OPEN, Game.Status.PLAYING]).order_by("-created_at")
        ),
        "recent": list(games.filter(status=Game.Status.FINISHED).order_by("-finished_at")[:10]),
        "leaderboards": leaderboards(group, viewer),
        "head_to_head": head_to_head(group),
    }
