"""Selectors for the lobby pages: open tables, games waiting for a player, a player's games."""

from __future__ import annotations

from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from games.access import watchable
from games.models import Game, Seat


def _with_seats(qs: QuerySet) -> QuerySet:
    return qs.select_related("creator", "group").prefetch_related("seats__user")


def _someone_waits(user) -> Exists:
    """Another person sits in the game (notices.services.someone_waits): a solo game, or one against
    computers only, waits for nobody, however long its turn has been this player's."""
    return Exists(Seat.objects.filter(game=OuterRef("pk"), user__computer="").exclude(user=user))


def games_waiting_for(user) -> QuerySet:
    """Games being played in which it is this player's turn and another person waits for it, the
    longest waiting first."""
    return _with_seats(
        Game.objects.filter(
            _someone_waits(user), status=Game.Status.PLAYING, seats__user=user, state__current=user.username
        )
    ).order_by("turn_started_at")


def open_games_for(user) -> QuerySet:
    """Tables still taking players that this user may join: public ones and their groups' ones."""
    return (
        _with_seats(
            Game.objects.filter(watchable(user), status=Game.Status.OPEN)
            .filter(
                Q(reserved_for__isnull=True) | Q(reserved_for=user)  # a challenge's: its player's alone
            )
            # A "Play again" table: the players of the game before it alone.
            .filter(Q(rematch_of__isnull=True) | Q(rematch_of__seats__user=user))
        )
        .annotate(taken=Count("seats", distinct=True))
        .order_by("-created_at")[:50]
    )


def my_games(user, finished: bool = True) -> dict:
    """A player's games by where they stand: waiting for their move, in progress, open, and (if asked)
    finished; games cancelled before their start are kept apart from finished ones, having never been
    played."""
    mine = Game.objects.filter(seats__user=user)
    if not finished:
        return {"your_turn": list(games_waiting_for(user)), "playing": _playing(mine, user)}
    ended = mine.filter(status__in=Game.OVER)
    cancelled = Q(status=Game.Status.ABANDONED, started_at__isnull=True)
    return {
        "your_turn": list(games_waiting_for(user)),
        "playing": _playing(mine, user),
        "waiting": list(_with_seats(mine.filter(status=Game.Status.OPEN)).order_by("-created_at")),
        "finished": list(_with_seats(ended.exclude(cancelled)).order_by("-finished_at")[:20]),
        "cancelled": list(_with_seats(ended.filter(cancelled)).order_by("-finished_at")[:10]),
    }


def _playing(mine, user) -> list:
    """In progress and not waiting for this player (someone else to move, or nobody else waits);
    the latest move first."""
    waits = Q(state__current=user.username) & Q(_someone_waits(user))
    playing = mine.filter(status=Game.Status.PLAYING).exclude(waits)
    return list(_with_seats(playing).order_by("-turn_started_at"))
