"""Every write of ratings: a rated game's update (in the transaction that ends it), and the rebuild.

Both go through ``rate``: the places from games.results.places, the new ratings from ratings.skill.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import groupby

from django.contrib.auth import get_user_model
from django.db import connection, transaction

from games import rules
from games.models import Game, Seat
from games.results.places import places
from ratings import kinds, skill
from ratings.models import Rating, RatingChange

SEAT_FIELDS = ("user_id", "final_score", "laps", "winner", "resigned")
BATCH = 5000
# Rated games between the same two people that count in a rolling day (docs/ratings.md): the games
# after these are played unrated. Two accounts of one person, or two friends, otherwise pass a rating
# between them a game at a time; three is an evening's rated play between two people.
PAIR_GAMES_PER_DAY = 3
PAIR_WINDOW = timedelta(days=1)


@dataclass
class Current:
    """A player's rating as the update reads and leaves it."""

    mu: float
    sigma: float
    games: int = 0

    @classmethod
    def new(cls) -> Current:
        return cls(*skill.initial())


def is_rated(game, seats: list[Mapping]) -> bool:
    """Two or more seats played (by people or computers), the table did not opt out, never solo."""
    return game.rated and not game.is_solo and game.status == Game.Status.FINISHED and played(seats)


def played(seats: list[Mapping]) -> bool:
    """Two or more seats, and at least one of them played to the end (a game everyone resigned from
    says nothing of anyone)."""
    return len(seats) >= 2 and not all(seat["resigned"] for seat in seats)


def rate(
    game_id: int, kind: str, at: datetime, ranking, seats: list[Mapping], current: dict[int, Current]
) -> list[RatingChange]:
    """The changes one game makes (unsaved), ``current`` (by user id) updated in place."""
    order = places(ranking, seats)
    before = [current[seat["user_id"]] for seat in seats]
    after = skill.update([(c.mu, c.sigma) for c in before], order)
    changes = []
    for seat, place, old, (mu, sigma) in zip(seats, order, before, after, strict=True):
        changes.append(
            RatingChange(
                game_id=game_id,
                user_id=seat["user_id"],
                kind=kind,
                at=at,
                place=place,
                mu_before=old.mu,
                sigma_before=old.sigma,
                mu_after=mu,
                sigma_after=sigma,
                display_before=skill.display(old.mu, old.sigma),
                display_after=skill.display(mu, sigma),
                provisional=skill.provisional(sigma),
            )
        )
        old.mu, old.sigma, old.games = mu, sigma, old.games + 1
    return changes


def _row(user_id: int, kind: str, current: Current, at: datetime) -> Rating:
    return Rating(
        user_id=user_id,
        kind=kind,
        mu=current.mu,
        sigma=current.sigma,
        display=skill.display(current.mu, current.sigma),
        provisional=skill.provisional(current.sigma),
        games=current.games,
        updated_at=at,
    )


def game_rate(game: Game) -> list[RatingChange]:
    """Update the ratings of a game that has just ended; the caller holds its transaction (the game's
    end: games.effects.GameEnded). Nothing for a game that is not rated."""
    seats = list(Seat.objects.filter(game_id=game.pk).order_by("position").values(*SEAT_FIELDS))
    if not is_rated(game, seats):
        return []
    kind = kinds.of(game)
    users = [seat["user_id"] for seat in seats]
    rows = _locked(kind, users)
    # Counted after the players' rows are locked: a game of the same pair ending at once has committed
    # its changes by then, and is counted.
    if _pair_limit_reached(game, users):
        Game.objects.filter(pk=game.pk).update(rated=False)
        game.rated = False
        return []
    missing = [u for u in users if u not in rows]
    if missing:
        # Another game ending at once may create the same rows: theirs win, and are locked after.
        start = Current.new()
        Rating.objects.bulk_create(
            [_row(u, kind, start, game.finished_at) for u in missing], ignore_conflicts=True
        )
        rows |= _locked(kind, missing)
    # Two games of a player that end at once are rated in the order they get the rows; the rebuild
    # follows the end times, taken when the moves were made, before the locks: they must say the same.
    _after_the_last(game, rows)
    current = {u: Current(rows[u].mu, rows[u].sigma, rows[u].games) for u in users}
    changes = rate(game.pk, kind, game.finished_at, game.engine.ranking, seats, current)
    for user_id, row in rows.items():
        fresh = _row(user_id, kind, current[user_id], game.finished_at)
        fresh.pk = row.pk
        rows[user_id] = fresh
    Rating.objects.bulk_update(
        rows.values(), ["mu", "sigma", "display", "provisional", "games", "updated_at"]
    )
    return RatingChange.objects.bulk_create(changes)


def _after_the_last(game: Game, rows: dict[int, Rating]) -> None:
    """The game's end time moved to just after the last rated game of any of its players (their rows,
    locked, say when that one ended) when its move read the clock before that one's but was rated
    after it (it waited longer for its game's row or theirs). Otherwise it stays as the move set it."""
    last = max((row.updated_at for row in rows.values() if row.games), default=None)
    if last is not None and game.finished_at <= last:
        game.finished_at = last + timedelta(microseconds=1)
        Game.objects.filter(pk=game.pk).update(finished_at=game.finished_at)


def _pair_limit_reached(game: Game, users: list[int]) -> bool:
    """Whether two people at ``game`` have played PAIR_GAMES_PER_DAY rated games together (of any kind)
    in the day before it ended; computers are nobody's second account."""
    people = list(
        get_user_model().objects.filter(pk__in=users, computer="").order_by("pk").values_list("pk", flat=True)
    )
    since = game.finished_at - PAIR_WINDOW
    for i, first in enumerate(people):
        for second in people[i + 1 :]:
            together = RatingChange.objects.filter(user_id=second).values("game_id")
            recent = RatingChange.objects.filter(user_id=first, at__gt=since, game_id__in=together)
            if recent.exclude(game_id=game.pk).count() >= PAIR_GAMES_PER_DAY:
                return True
    return False


def _locked(kind: str, users: list[int]) -> dict[int, Rating]:
    """The players' rows of ``kind``, locked (in the order of their keys, so that two games ending at
    once wait for each other instead of deadlocking)."""
    qs = Rating.objects.select_for_update().filter(kind=kind, user_id__in=users).order_by("pk")
    return {row.user_id: row for row in qs}


# --- the rebuild ------------------------------------------------------------------------------------


def rated_seats() -> Iterable[tuple]:
    """Every seat of every finished, rated game with more than one seat, in the order the games ended
    (then by id, then by position): (game id, kind, options, finished at, *SEAT_FIELDS)."""
    return (
        Seat.objects.filter(game__status=Game.Status.FINISHED, game__rated=True, game__max_seats__gt=1)
        .order_by("game__finished_at", "game_id", "position")
        .values_list("game_id", "game__kind", "game__options", "game__finished_at", *SEAT_FIELDS)
        .iterator(chunk_size=BATCH)
    )


@dataclass
class Rebuilt:
    games: int
    changes: int
    ratings: int


def replay(rows: Iterable[tuple]) -> tuple[list[RatingChange], dict[tuple[int, str], Current], dict]:
    """Every game of ``rows`` (as ``rated_seats`` gives them) rated in order, in memory: the changes,
    the ratings at the end, and when each was last changed."""
    current: dict[tuple[int, str], Current] = {}
    last: dict[tuple[int, str], datetime] = {}
    changes: list[RatingChange] = []
    game_ids = set()
    rankings: dict[str, object] = {}

    for game_id, seats_rows in groupby(rows, key=lambda row: row[0]):
        seat_rows = list(seats_rows)
        _, slug, options, at = seat_rows[0][:4]
        seats = [dict(zip(SEAT_FIELDS, row[4:], strict=True)) for row in seat_rows]
        if not played(seats):  # the rest of is_rated: rated_seats' filter
            continue
        kind = kinds.key(slug, options)
        if slug not in rankings:
            rankings[slug] = rules.get(slug).ranking
        ranking = rankings[slug]
        here = {}
        for seat in seats:
            pair = (seat["user_id"], kind)
            here[seat["user_id"]] = current.get(pair) or current.setdefault(pair, Current.new())
            last[pair] = at
        changes += rate(game_id, kind, at, ranking, seats, here)
        game_ids.add(game_id)
    return changes, current, {"games": len(game_ids), "last": last}


def ratings_rebuild() -> Rebuilt:
    """Forget every rating and replay every rated game in the order they ended: the ratings the live
    updates arrived at, change for change (tests/ratings: the rebuild test)."""
    with transaction.atomic():
        if connection.vendor == "postgresql":
            # A game ending meanwhile waits (its select_for_update) until the rebuilt ratings are
            # committed, then updates them; it would otherwise find its players' rows deleted and
            # start them again from a newcomer's. SQLite writes one transaction at a time anyway.
            with connection.cursor() as cursor:
                cursor.execute(f"LOCK TABLE {Rating._meta.db_table} IN EXCLUSIVE MODE")
        changes, current, info = replay(rated_seats())
        RatingChange.objects.all().delete()
        Rating.objects.all().delete()
        RatingChange.objects.bulk_create(changes, batch_size=BATCH)
        rows = [_row(user, kind, c, info["last"][(user, kind)]) for (user, kind), c in current.items()]
        Rating.objects.bulk_create(rows, batch_size=BATCH)
    return Rebuilt(games=info["games"], changes=len(changes), ratings=len(rows))
