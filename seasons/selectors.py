"""Reads of seasons: which games a season counts, its table (live from the games while it runs, the
stored rows once it is closed), and what the group's page shows of its seasons."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.db.models import F, QuerySet, Sum
from django.utils import timezone

from games.models import Game, Seat
from ratings import kinds
from ratings.models import RatingChange
from seasons import league
from seasons.models import Season

UPCOMING, RUNNING, CLOSED = "upcoming", "running", "closed"
SHOWN_GAMES = 20


def status(season: Season, now: datetime | None = None) -> str:
    """Upcoming before its first day, running until it is closed (a season past its end that nobody
    has closed yet still reads as running: the next read closes it), closed once its table is stored."""
    if season.closed_at is not None:
        return CLOSED
    return UPCOMING if (now or timezone.now()) < season.starts_at else RUNNING


def counted_games(season: Season) -> QuerySet:
    """The games a season counts: the group's finished games of its kind (and separating option's
    value) that ended within its days, with more than one seat. Abandoned and cancelled games, solo
    games and games still being played do not count."""
    kind, variant = kinds.split(season.kind)
    games = Game.objects.filter(
        group_id=season.group_id,
        kind=kind.slug,
        status=Game.Status.FINISHED,
        finished_at__gte=season.starts_at,
        finished_at__lt=season.ends_at,
        max_seats__gt=1,
    )
    if variant is not None:
        games = games.filter(**{f"options__{kind.separating.name}": variant})
    return games


SEAT_FIELDS = ("game_id", "user__username", "user__computer", "final_score", "winner", "resigned", "laps")


def live_table(season: Season) -> list[league.Row]:
    """The season's table read from its games now (two queries, whatever their number)."""
    kind, _variant = kinds.split(season.kind)
    # Ordered by the seat's own columns: the model's default order (the game's creation) would join
    # every game of the site to sort by it.
    rows = (
        Seat.objects.filter(game__in=counted_games(season))
        .order_by("game_id", "position")
        .values_list(*SEAT_FIELDS)
    )
    seats = [
        {
            "game": game,
            "player": username,
            "computer": bool(computer),
            "final_score": score,
            "winner": winner,
            "resigned": resigned,
            "laps": laps,
        }
        for game, username, computer, score, winner, resigned, laps in rows
    ]
    # By the games' ids, which the seats gave: an index lookup each (a game's rating changes are all of
    # the season's kind), where a subquery of the games made PostgreSQL read every rating change.
    changes = (
        RatingChange.objects.filter(game_id__in={seat["game"] for seat in seats})
        .values("user__username")
        .annotate(delta=Sum(F("display_after") - F("display_before")))
        .order_by()
    )
    deltas = {c["user__username"]: c["delta"] for c in changes} if seats else {}
    return league.table(kind.ranking, seats, deltas)


@dataclass
class Shown:
    """A season as a page shows it: its name, status, table (league.Row or Standing rows, alike to a
    template) and champions."""

    season: Season
    status: str
    rows: list = field(default_factory=list)
    champions: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return kinds.name(self.season.kind)


def shown(season: Season, now: datetime | None = None) -> Shown:
    state = status(season, now)
    if state == CLOSED:
        rows = list(season.standings.all())
        return Shown(season, state, rows, [r.username for r in rows if r.rank == 1])
    if state == UPCOMING:
        return Shown(season, state)
    return Shown(season, state, live_table(season))


def season_of(group_id: int, number: int) -> Season | None:
    return Season.objects.filter(group_id=group_id, number=number).first()


def recent_games(season: Season) -> list[Game]:
    """The season's latest counted games, with their seats (the season's page lists them)."""
    games = counted_games(season).order_by("-finished_at", "-pk").prefetch_related("seats__user")
    return list(games[:SHOWN_GAMES])
