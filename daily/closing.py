"""The end of a challenge's day: its games still being played are ended, then all of them made public
and the day's seed revealed (docs/daily.md). Run by the worker (daily.tasks.close_day) once the day is
over; safe to run again."""

from __future__ import annotations

import contextlib
from datetime import date, datetime

from django.db import transaction
from django.utils import timezone

from daily import days
from daily.models import Attempt, Day
from games.errors import GameError
from games.models import Game
from games.tables import services as game_services

# The action id of the resignation the close makes for a player whose game is still being played.
CLOSE_ID = "daily-close"


def day_close(*, day: date, now: datetime | None = None) -> bool:
    """Close ``day`` if it is over: its games still being played are resigned for their players (an
    attempt not finished within its day counts as given up), every game of the day is made public and
    the day's seed is revealed (Day.closed_at). Whether the day is closed now (False: not over yet, or
    a game is still being played, for the caller to try again)."""
    now = now or timezone.now()
    if not days.is_over(day, now):
        return False
    with transaction.atomic():
        row = Day.objects.select_for_update().filter(date=day).first()
        if row is None or row.closed_at is not None:
            return row is not None
        # Under the day's lock: a game being created for the day (daily.services.attempt_start holds it)
        # has been written, and no other can follow, the day being over.
        playing = list(
            Attempt.objects.filter(day=row, game__status=Game.Status.PLAYING).select_related("user")
        )
    for attempt in playing:
        # A game that ended meanwhile, or refuses, is counted below.
        with contextlib.suppress(GameError):
            game_services.game_apply_action(
                game_id=attempt.game_id, user=attempt.user, client_id=CLOSE_ID, action={"type": "resign"}
            )
    with transaction.atomic():
        row = Day.objects.select_for_update().get(pk=row.pk)
        if row.closed_at is not None:
            return True
        if Attempt.objects.filter(day=row, game__status=Game.Status.PLAYING).exists():
            return False
        game_services.games_make_public(game_ids=list(row.attempts.values_list("game_id", flat=True)))
        row.closed_at = now
        row.save(update_fields=["closed_at"])
    return True
