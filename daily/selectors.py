"""Reading the daily challenge: a day's page, kind by kind (docs/daily.md). Nothing here holds a die: the
results are scores, laps and grades, and a game is linked only for its own player until its day is
closed (the games are private until then: games.access)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date

from daily import grades, seeds
from daily.models import Attempt, Day
from games import catalogue
from games.catalogue import GameKind
from games.models import Game

FINISHED, GAVE_UP, PLAYING = "finished", "gave_up", "playing"
STATUS = {Game.Status.FINISHED: FINISHED, Game.Status.ABANDONED: GAVE_UP, Game.Status.PLAYING: PLAYING}
EARLIER_DAYS = 7


@dataclass(frozen=True)
class Result:
    """One player's attempt as the page shows it."""

    player: str
    user_id: int
    game: int
    status: str
    score: int | None
    laps: int | None
    accuracy: float | None
    reviewed: bool  # the coach's review is written (accuracy None then: no decision to judge)
    public: bool  # anyone signed in may open the game (its day is closed)
    finished_at: object = None
    rank: int | None = None

    @property
    def over(self) -> bool:
        return self.status != PLAYING

    @property
    def grade(self) -> str | None:
        """None for an attempt given up (docs/daily.md): the coach reviews its moves, but a grade
        would rank a game that was not played out."""
        return grades.letter(self.accuracy) if self.status == FINISHED else None

    def ranked(self, rank: int) -> Result:
        return replace(self, rank=rank)


@dataclass
class KindPart:
    """One kind of game on a day's page."""

    kind: GameKind
    name: str
    mine: Result | None = None
    visible: bool = False  # the others' results may be shown to this viewer
    results: list[Result] = field(default_factory=list)  # ranked finished ones, then those given up
    playing: int = 0  # attempts still being played
    count: int = 0  # every attempt of the day
    share: str = ""  # the viewer's result to pass on, once finished (daily.views.share_text)

    @property
    def slug(self) -> str:
        return self.kind.slug

    @property
    def uses_laps(self) -> bool:
        return self.kind.ranking.uses_laps


def kind_name(kind: GameKind) -> str:
    """The name of a kind's daily game, played with its default options: "Farkle (10000)"."""
    return kind.display_name(kind.variant())


def attempts_of(day: Day) -> list[tuple[str, Result]]:
    """Every attempt of ``day`` with its kind, in one query."""
    rows = Attempt.objects.filter(day=day).values(
        "kind",
        "user_id",
        "user__username",
        "game_id",
        "game__status",
        "game__private",
        "game__finished_at",
        "game__seats__final_score",
        "game__seats__laps",
        "game__seats__review__accuracy",
        "game__review__id",
    )
    return [
        (
            row["kind"],
            Result(
                player=row["user__username"],
                user_id=row["user_id"],
                game=row["game_id"],
                status=STATUS.get(row["game__status"], PLAYING),
                score=row["game__seats__final_score"],
                laps=row["game__seats__laps"],
                accuracy=row["game__seats__review__accuracy"],
                reviewed=row["game__review__id"] is not None,
                public=not row["game__private"],
                finished_at=row["game__finished_at"],
            ),
        )
        for row in rows
    ]


def rank(kind: GameKind, results: list[Result]) -> list[Result]:
    """The finished attempts by the kind's own ranking (docs/engine.md: Farkle by laps, the card games by
    score), the earlier game first in a tie, which shares its rank; then those given up, unranked."""
    finished = [r for r in results if r.status == FINISHED and r.score is not None]

    def key(r: Result) -> tuple:
        return kind.ranking.key({"final_score": r.score, "laps": r.laps or 0})

    finished.sort(key=lambda r: (key(r), r.finished_at, r.game))
    ranked: list[Result] = []
    for position, result in enumerate(finished, start=1):
        tied = ranked and key(ranked[-1]) == key(result)
        ranked.append(result.ranked(ranked[-1].rank if tied else position))
    gave_up = sorted((r for r in results if r.status == GAVE_UP), key=lambda r: r.player.casefold())
    return ranked + gave_up


def day_parts(*, user, day: Day, today: date) -> list[KindPart]:
    """Each kind of the catalogue on ``day`` as ``user`` sees it: their attempt, and the others' results
    once their own attempt of that kind is over or the day is (before, only how many played)."""
    by_kind: dict[str, list[Result]] = {}
    for slug, result in attempts_of(day):
        by_kind.setdefault(slug, []).append(result)
    parts = []
    for kind in catalogue.kinds():
        results = by_kind.get(kind.slug, [])
        mine = next((r for r in results if r.user_id == user.pk), None)
        part = KindPart(kind=kind, name=kind_name(kind), mine=mine, count=len(results))
        part.playing = sum(r.status == PLAYING for r in results)
        # A player still in their attempt never sees the others' results, even past the day's end (the
        # close that resigns the day's games runs on the worker, which may be late or down).
        still_playing = mine is not None and not mine.over
        part.visible = not still_playing and (day.date < today or mine is not None)
        if part.visible:
            part.results = rank(kind, results)
        parts.append(part)
    return parts


def earlier_days(before: date, limit: int = EARLIER_DAYS) -> list[date]:
    """The latest days of the challenge before ``before`` that anyone asked for, newest first."""
    return list(Day.objects.filter(date__lt=before).order_by("-date").values_list("date", flat=True)[:limit])


def later_day(after: date, today: date) -> date | None:
    """The next day of the challenge after ``after`` up to ``today``, if any."""
    return (
        Day.objects.filter(date__gt=after, date__lte=today)
        .order_by("date")
        .values_list("date", flat=True)
        .first()
    )


def game_day(game: Game) -> date | None:
    """The day of the challenge ``game`` is an attempt of (its page links there), or None: a query only
    for a solo game dealt with a daily client seed."""
    dealt = game.client_seeds or []
    if game.max_seats != 1 or len(dealt) != 1 or not str(dealt[0]).startswith(f"{seeds.PREFIX}-"):
        return None
    return Attempt.objects.filter(game=game).values_list("day__date", flat=True).first()
