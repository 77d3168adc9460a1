"""Reads for group pages: membership, games, leaderboards and head-to-head records."""

from __future__ import annotations

from django.core.cache import cache
from django.db import connection
from django.db.models import Count, Max
from django.utils import translation

from games import access, catalogue
from games.models import Game
from games.results.highscores import shown_board
from groups.models import Group


def is_member(group: Group, user) -> bool:
    return user.is_authenticated and access.is_member(group.pk, user)


def invited_group(token: str) -> Group | None:
    """The group whose current invitation link has this token, or None (revoked, replaced, or never)."""
    if not token:
        return None
    return Group.objects.select_related("creator").filter(invite_token=token).first()


HEAD_TO_HEAD_SQL = """
SELECT ua.username, ub.username, COUNT(*),
       SUM(CASE WHEN a.resigned < b.resigned
                  OR (a.resigned = b.resigned AND a.final_score > b.final_score) THEN 1 ELSE 0 END),
       SUM(CASE WHEN b.resigned < a.resigned
                  OR (a.resigned = b.resigned AND b.final_score > a.final_score) THEN 1 ELSE 0 END)
FROM games_seat a
JOIN games_seat b ON b.game_id = a.game_id AND a.user_id < b.user_id
JOIN games_game g ON g.id = a.game_id
JOIN accounts_user ua ON ua.id = a.user_id
JOIN accounts_user ub ON ub.id = b.user_id
WHERE g.group_id = %s AND g.status = %s
GROUP BY ua.username, ub.username
"""

# One player's records: from their own seats (the seats' user index), the other seats of each game.
RECORDS_OF_SQL = """
SELECT ub.username, COUNT(*),
       SUM(CASE WHEN a.resigned < b.resigned
                  OR (a.resigned = b.resigned AND a.final_score > b.final_score) THEN 1 ELSE 0 END),
       SUM(CASE WHEN b.resigned < a.resigned
                  OR (a.resigned = b.resigned AND b.final_score > a.final_score) THEN 1 ELSE 0 END)
FROM games_seat a
JOIN games_seat b ON b.game_id = a.game_id AND b.user_id <> a.user_id
JOIN games_game g ON g.id = a.game_id
JOIN accounts_user ub ON ub.id = b.user_id
WHERE a.user_id = %s AND g.group_id = %s AND g.status = %s
GROUP BY ub.username
ORDER BY ub.username
"""


def head_to_head(group: Group) -> list[dict]:
    """For each pair of players who met in the group's finished games: games, wins each, draws.

    The higher final score beats the lower; a player who resigned loses to one who did not. One
    aggregate query: the pairs come from a self-join of the seats.
    """
    with connection.cursor() as cursor:
        cursor.execute(HEAD_TO_HEAD_SQL, [group.pk, Game.Status.FINISHED])
        rows = cursor.fetchall()
    records = []
    for a, b, games, a_wins, b_wins in rows:
        if b < a:
            a, b, a_wins, b_wins = b, a, b_wins, a_wins
        records.append(
            {
                "a": a,
                "b": b,
                "games": games,
                "a_wins": a_wins,
                "b_wins": b_wins,
                "draws": games - a_wins - b_wins,
            }
        )
    return sorted(records, key=lambda r: (r["a"], r["b"]))


# The group page's lists are kept this long at most; a game of the group that ends changes their key.
BOARDS_KEPT_SECONDS = 600


def leaderboards(group: Group) -> list[dict]:
    """Top ten of each list within the group (the full lists, with the viewer's rank, are on /highscores/).

    Read once per finished game of the group and language, then kept: one query a list (seven lists:
    about 50 ms of a 20,000-game site's group page, docs/BENCHMARKS.md) for a page that is read far more
    often than the group's games end. The key holds the number of the group's finished games and the
    last one's end, so a game that ends is on the next page."""
    finished = Game.objects.filter(group=group, status=Game.Status.FINISHED).aggregate(
        count=Count("id"), last=Max("finished_at")
    )
    last = finished["last"].timestamp() if finished["last"] else 0
    key = f"group-boards:{group.pk}:{finished['count']}:{last}:{translation.get_language()}"
    boards = cache.get(key)
    if boards is None:
        boards = [
            shown_board(kind, goal=goal, group_id=group.pk, limit=10)
            for kind in catalogue.kinds()
            for goal in kind.variants()
        ]
        cache.set(key, boards, BOARDS_KEPT_SECONDS)
    return boards


def records_of(group: Group, player) -> list[dict]:
    """``player``'s record against each player they met in the group's finished games, by name: as
    ``head_to_head``'s, with ``player`` as "a"."""
    with connection.cursor() as cursor:
        cursor.execute(RECORDS_OF_SQL, [player.pk, group.pk, Game.Status.FINISHED])
        rows = cursor.fetchall()
    return [
        {
            "a": player.username,
            "b": b,
            "games": n,
            "a_wins": a_wins,
            "b_wins": b_wins,
            "draws": n - a_wins - b_wins,
        }
        for b, n, a_wins, b_wins in rows
    ]


def group_page(group: Group, viewer) -> dict:
    """What the group's page shows ``viewer``, a member: its head-to-head records are the viewer's own
    (every pair of a big group is a page of its own: a group of 60 has 1,711 pairs)."""
    games = Game.objects.filter(group=group).select_related("creator").prefetch_related("seats__user")
    return {
        "members": list(group.memberships.select_related("user").order_by("user__username")),
        "in_progress": list(
            games.filter(status__in=[Game.Status.OPEN, Game.Status.PLAYING]).order_by("-created_at")
        ),
        "recent": list(games.filter(status=Game.Status.FINISHED).order_by("-finished_at")[:10]),
        "leaderboards": leaderboards(group),
        "head_to_head": records_of(group, viewer),
    }


def groups_of(user):
    """The groups ``user`` is a member of, by name (none for a visitor without an account)."""
    return user.dice_groups.order_by("name") if user.is_authenticated else Group.objects.none()


def in_common(viewer, player) -> list[Group]:
    """The groups both players are members of, by name (one query)."""
    if not viewer.is_authenticated:
        return []
    return list(
        Group.objects.filter(memberships__user=viewer).filter(memberships__user=player).order_by("name")
    )
