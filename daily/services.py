"""The daily challenge's writes: a day's seed, created on demand, and a player's attempt (one game per
day, kind and player). One transaction each (docs/daily.md)."""

from __future__ import annotations

from datetime import date

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from daily import days, seeds, tasks
from daily.models import Attempt, Day
from games import catalogue
from games.errors import BadRequest, Conflict
from games.models import Game
from games.tables import services as game_services


def day_get(*, day: date) -> Day:
    """The challenge of ``day`` with its server seed, drawn now if nobody asked for the day before. Two
    first visitors at the same instant get the one row (the date is unique: the second insert fails and
    reads the first's). The day's close is scheduled with the row, in its transaction."""
    with transaction.atomic():
        row, created = Day.objects.get_or_create(date=day)
        if created:
            tasks.close_day.using(run_after=days.end_of(day)).enqueue(day.isoformat())
    return row


def attempt_start(*, user, kind: str) -> Game:
    """Today's game of ``kind`` for ``user``: created solo with the day's seeds (private until the day is
    closed), or the one they started already while it is being played (a double click, a second tab).
    Once it is over, finished or given up, there is no other attempt that day: Conflict."""
    game_kind = catalogue.kind(kind) if isinstance(kind, str) else None
    if game_kind is None:
        raise BadRequest(_("There is no game called %(kind)s."), kind=repr(kind))
    when = days.today()
    row = day_get(day=when)
    with transaction.atomic():
        # One Play of the day at a time: a second press waits, then finds the game the first made; and
        # the day's close (daily.closing) sees every game of the day once it holds this lock.
        row = Day.objects.select_for_update().get(pk=row.pk)
        if row.closed_at is not None or days.today() != when:  # midnight came while it waited
            raise Conflict(_("That day's challenge is over: today's is on the daily page."), "day_over")
        attempt = Attempt.objects.filter(day=row, kind=kind, user=user).select_related("game").first()
        if attempt is not None:
            if attempt.game.status == Game.Status.PLAYING:
                return attempt.game
            raise Conflict(
                _("You have played today's %(game)s already: one attempt a day."),
                "played",
                game=attempt.game.kind_name,
            )
        game = game_services.game_create(
            creator=user,
            kind=kind,
            seats=1,
            rated=False,
            server_seed=row.server_seed,
            shared_seed=True,
            client_seed=seeds.client_seed(when, kind),
            private=True,
        )
        Attempt.objects.create(day=row, kind=kind, user=user, game=game)
    return game
