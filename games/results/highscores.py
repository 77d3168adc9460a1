"""High-score lists: per game kind, global or per group, for all time, this month or this week.

Each engine declares how its results rank (docs/engine.md): card games by total; Farkle ranks the
winners of one goal by fewest laps, then higher final score. Ties go to the earlier game. Every entry is
one finished seat (a player may appear more than once), and it says whether the game was solo.

Computer players never enter a list (they are not competing with the people on it); a person's result
from a game with computer players counts like any other, and its entry says so (``computers``).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import reduce

from django.db.models import Q, QuerySet
from django.utils import timezone

from games.access import watchable
from games.catalogue import GameKind, resolve
from games.models import Game, Seat
from games.results.stats import with_computers

PERIODS = ("all", "month", "week")
TOP = 25


def period_start(period: str, now: datetime | None = None) -> datetime | None:
    """The start of this calendar month or week (Monday) in the site's time zone; None for all time."""
    if period not in PERIODS:
        raise ValueError(f"unknown period {period!r}")
    if period == "all":
        return None
    now = timezone.localtime(now or timezone.now())
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    return day.replace(day=1) if period == "month" else day - timedelta(days=day.weekday())


@dataclass(frozen=True)
class Board:
    kind: GameKind
    period: str
    goal: int | None
    group_id: int | None
    viewer: object = None  # None: every game (the site's own use); else only those the viewer may see

    def seats(self) -> QuerySet:
        qs = Seat.objects.filter(
            game__kind=self.kind.slug, game__status=Game.Status.FINISHED, resigned=False, user__computer=""
        )
        if self.viewer is not None:
            qs = qs.filter(watchable(self.viewer, "game"))
        start = period_start(self.period)
        if start is not None:
            qs = qs.filter(game__finished_at__gte=start)
        if self.group_id is not None:
            qs = qs.filter(game__group_id=self.group_id)
        if self.kind.ranking.winners_only:
            qs = qs.filter(winner=True)
        option = self.kind.separating
        if option is not None:
            qs = qs.filter(**{f"game__options__{option.name}": self.goal or option.default})
        # RULINGS: the last player standing wins as they stand, but only a complete result (a full
        # card, a goal reached) enters a list; summaries stored before "complete" existed were complete.
        return qs.filter(Q(summary__complete=True) | Q(summary__complete__isnull=True))

    def ordering(self) -> list:
        return [*self.kind.ranking.order, "game__finished_at", "pk"]

    def better_than(self, seat: Seat) -> Q:
        """Entries that rank strictly above ``seat`` (equal figures share a rank): better on the first
        key of the ranking, or equal on it and better on the next, and so on."""
        above, equal = [], Q()
        for key in self.kind.ranking.order:
            field = key.lstrip("-")
            value = getattr(seat, field)
            above.append(equal & Q(**{f"{field}__{'gt' if key.startswith('-') else 'lt'}": value}))
            equal &= Q(**{field: value})
        return reduce(operator.or_, above)

    def as_good_as(self, seat: Seat) -> Q:
        """Entries that rank above ``seat`` or level with it."""
        return self.better_than(seat) | Q(
            **{k.lstrip("-"): getattr(seat, k.lstrip("-")) for k in self.kind.ranking.order}
        )

    def figures(self, seat: Seat) -> tuple:
        return tuple(getattr(seat, key.lstrip("-")) for key in self.kind.ranking.order)


# Only what an entry shows: sorting wide rows (cards, summaries, states) made the all-time lists slow.
ENTRY_FIELDS = (
    "final_score",
    "laps",
    "game_id",
    "user__username",
    "game__finished_at",
    "game__max_seats",
    "game__group_id",
)


def _entry(seat: Seat, rank: int, kind: GameKind) -> dict:
    return {
        "rank": rank,
        "player": seat.user.username,
        "score": seat.final_score,
        "laps": seat.laps if kind.ranking.uses_laps else None,
        "game": seat.game_id,
        "finished_at": seat.game.finished_at.isoformat(),
        "solo": seat.game.max_seats == 1,
        "computers": seat.computers,
        "group": seat.game.group_id,
    }


def high_scores(
    kind: str | GameKind,
    *,
    period: str = "all",
    goal: int | None = None,
    group_id: int | None = None,
    viewer=None,
    limit: int = TOP,
) -> dict:
    """The top entries and, for a signed-in viewer, their own best entry with its rank.

    A viewer's lists hold only the games they may see (games.access): a private group's results are
    its members' alone, so an entry's group is always one of the viewer's (or deleted: None).
    """
    kind = resolve(kind)
    board = Board(kind, period, kind.variant(goal), group_id, viewer)
    rows = list(
        board.seats()
        .select_related("user", "game")
        .only(*ENTRY_FIELDS)
        .annotate(computers=with_computers())
        .order_by(*board.ordering())[:limit]
    )
    entries = []
    for i, seat in enumerate(rows):
        prev = rows[i - 1] if i else None
        same = prev is not None and board.figures(prev) == board.figures(seat)
        entries.append(_entry(seat, entries[-1]["rank"] if same else i + 1, kind))
    mine = None
    if viewer is not None and viewer.is_authenticated:
        best = (
            board.seats()
            .filter(user=viewer)
            .select_related("user", "game")
            .annotate(computers=with_computers())
            .order_by(*board.ordering())
            .first()
        )
        if best is not None:
            rank = board.seats().filter(board.better_than(best)).count() + 1
            mine = _entry(best, rank, kind)
    return {
        "kind": kind.slug,
        "period": period,
        "goal": board.goal,
        "group": group_id,
        "entries": entries,
        "viewer_best": mine,
    }


def personal_bests(game: Game) -> set[str]:
    """The players of a finished game whose result in it beats every result of theirs finished before
    it on the game's all-time list (its goal's, for Farkle), when they had one: a first result is
    nobody's personal best yet. Said as it was when the game ended, whatever came after."""
    if game.status != Game.Status.FINISHED or game.finished_at is None:
        return set()
    kind = resolve(game.kind)
    option = kind.separating
    board = Board(kind, "all", game.options.get(option.name) if option else None, None)
    bests = set()
    for seat in board.seats().filter(game=game).select_related("user"):
        earlier = board.seats().filter(user_id=seat.user_id, game__finished_at__lt=game.finished_at)
        if earlier.exists() and not earlier.filter(board.as_good_as(seat)).exists():
            bests.add(seat.user.username)
    return bests


def shown_board(kind: GameKind, **kwargs) -> dict:
    """A list as a page shows it: ``high_scores`` with its name and how it ranks."""
    board = high_scores(kind, **kwargs)
    return {**board, "name": kind.display_name(board["goal"]), "ranking": kind.ranking}
