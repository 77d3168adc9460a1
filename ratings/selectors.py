"""Reads of ratings for the pages and the game's socket: the lists, a game's table, a player's history.

Each is one query (two for a game's table), whatever the number of players or games.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Exists, OuterRef
from django.utils import timezone

from games.access import watchable
from games.models import Game, Seat
from ratings import kinds, skill
from ratings.models import Rating, RatingChange

# A player is on the rating lists while their last rated game of the kind is this recent (the issue's
# "active players only"): about a season, long enough for a game played once a fortnight.
ACTIVE_DAYS = 90
TOP = 100


def active_since(now: datetime | None = None) -> datetime:
    return (now or timezone.now()) - timedelta(days=ACTIVE_DAYS)


def rating_list(key: str, *, group=None, limit: int = TOP, now: datetime | None = None) -> list[dict]:
    """The people rated in ``key`` (active ones only), the best first: global, or the members of
    ``group``. The settled ratings come first, the provisional ones after them (docs/ratings.md: a
    lucky newcomer does not top the list); equal figures share a rank."""
    qs = Rating.objects.filter(kind=key, user__computer="", updated_at__gte=active_since(now))
    if group is not None:
        qs = qs.filter(Exists(group.memberships.filter(user_id=OuterRef("user_id"))))
    rows = list(
        qs.order_by("provisional", "-display", "user__username").values(
            "user__username", "display", "provisional", "games", "updated_at"
        )[:limit]
    )
    entries = []
    for i, row in enumerate(rows):
        same = i and (rows[i - 1]["display"], rows[i - 1]["provisional"]) == (
            row["display"],
            row["provisional"],
        )
        entries.append(
            {
                "rank": entries[-1]["rank"] if same else i + 1,
                "player": row["user__username"],
                "rating": row["display"],
                "provisional": row["provisional"],
                "games": row["games"],
                "last_played": row["updated_at"],
            }
        )
    return entries


def for_game(game: Game) -> dict | None:
    """The table's ratings for the game's page: each player's rating in the game's kind, and once a
    rated game has ended what it changed ("+14, now 1,532"). None for a game that is never rated."""
    if game.is_solo or not game.rated:
        return None
    key = kinds.of(game)
    players: dict[str, dict] = {}
    if game.status == Game.Status.FINISHED:
        for row in RatingChange.objects.filter(game=game).values(
            "user__username", "display_before", "display_after", "provisional"
        ):
            players[row["user__username"]] = {
                "rating": row["display_after"],
                "provisional": row["provisional"],
                "change": row["display_after"] - row["display_before"],
            }
    if not players:
        # Not ended yet (or ended unrated): the ratings the players bring to the table.
        rated = Rating.objects.filter(kind=key, user__seats__game=game).values_list(
            "user__username", "display", "provisional"
        )
        found = {name: (display, provisional) for name, display, provisional in rated}
        newcomer = (skill.display(*skill.initial()), True)
        for name in Seat.objects.filter(game=game).values_list("user__username", flat=True):
            display, provisional = found.get(name, newcomer)
            players[name] = {"rating": display, "provisional": provisional, "change": None}
    return {"kind": key, "name": kinds.name(key), "players": players}


def for_game_id(game_id: int, viewer=None) -> dict | None:
    """``for_game`` of the game ``game_id`` as ``viewer`` sees it (None if there is none): a player who
    chose to hide ratings during a game (accounts.User.hide_ratings_in_game) sees them at its end."""
    fields = ("kind", "options", "status", "max_seats", "rated")
    game = Game.objects.only(*fields).filter(pk=game_id).first()
    if game is None:
        return None
    if getattr(viewer, "hide_ratings_in_game", False) and game.status not in Game.OVER:
        return None
    return for_game(game)


def player_ratings(user) -> list[dict]:
    """A player's rating in every kind they have played rated, in the engines' order."""
    rows = {
        r["kind"]: r
        for r in Rating.objects.filter(user=user).values("kind", "display", "provisional", "games")
    }
    return [{"kind": key, "name": kinds.name(key), **rows[key]} for key in kinds.every() if key in rows]


def computer_ratings(key: str) -> list[dict]:
    """The computer players' ratings in ``key``, the best first, listed apart from the people's: they
    anchor the scale (docs/ratings.md), active or not."""
    rows = Rating.objects.filter(kind=key).exclude(user__computer="").order_by("-display", "user__username")
    return [
        {"player": username, "strength": strength, "rating": display, "games": games}
        for username, strength, display, games in rows.values_list(
            "user__username", "user__computer", "display", "games"
        )
    ]


def rating_of(user, key: str) -> dict | None:
    """A player's rating in ``key``: {"rating", "provisional", "games"}, or None before their first."""
    row = Rating.objects.filter(user=user, kind=key).values("display", "provisional", "games").first()
    if row is None:
        return None
    return {"rating": row["display"], "provisional": row["provisional"], "games": row["games"]}


def series(user, key: str, *, viewer=None) -> list[dict]:
    """A player's rating after each rated game of ``key``, oldest first (the statistics page's chart).
    Seen by another ``viewer``, the points of games that viewer may not see are left out (games.access),
    as the statistics leave them out."""
    qs = RatingChange.objects.filter(user=user, kind=key)
    if viewer is not None and viewer.pk != user.pk:
        qs = qs.filter(watchable(viewer, "game"))
    return [
        {"game": game, "at": at.isoformat(), "rating": after, "provisional": provisional}
        for game, at, after, provisional in qs.order_by("at", "game_id").values_list(
            "game_id", "at", "display_after", "provisional"
        )
    ]


def changes_of(user, game_ids) -> dict[int, dict]:
    """What each of these games changed of the player's rating: {game id: {"change", "rating"}}."""
    return {
        game: {"change": after - before, "rating": after, "provisional": provisional}
        for game, before, after, provisional in RatingChange.objects.filter(
            user=user, game_id__in=list(game_ids)
        ).values_list("game_id", "display_before", "display_after", "provisional")
    }


def rated_game_ids():
    """The games that changed ratings, as a query of their ids (for other apps' filters)."""
    return RatingChange.objects.values("game_id")


def display_by_game(user_ids) -> dict[tuple[int, str], int]:
    """(user id, game slug) -> the player's rating at that game: the highest of its variants'
    (Farkle to 3000 and to 10,000 are one game to the fair-play screen). One query."""
    out: dict[tuple[int, str], int] = {}
    for user_id, key, display in Rating.objects.filter(user_id__in=user_ids).values_list(
        "user_id", "kind", "display"
    ):
        slug = kinds.split(key)[0].slug
        out[(user_id, slug)] = max(display, out.get((user_id, slug), display))
    return out
