"""Closing a season: its final table stored as rows of its own, its champion told to the members.

A season closes once, at the moment after its last day (or when its creator ends it early): by the
worker's task enqueued when it was opened (seasons.tasks), or by whichever page reads the group's
seasons first after that moment, in case the worker was down. Either way the first to claim it stores
the table; every later call finds it closed and does nothing.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from groups.models import Membership
from notices import services as notices
from ratings import kinds
from seasons import league, live
from seasons.models import Season, Standing
from seasons.selectors import live_table


def season_close(*, season_id: int, now: datetime | None = None) -> str:
    """Close the season if its end has come: what became of it ("closed", "closed already", "not
    yet", "gone")."""
    now = now or timezone.now()
    with transaction.atomic():
        season = Season.objects.select_related("group").filter(pk=season_id).first()
        if season is None:
            return "gone"
        if season.closed_at is not None:
            return "closed already"
        if now < season.ends_at:
            return "not yet"
        # The claim: one UPDATE, which a second closer running at once waits for and then finds done
        # (PostgreSQL checks the condition again once the row's lock is granted).
        if not Season.objects.filter(pk=season.pk, closed_at__isnull=True).update(closed_at=now):
            return "closed already"
        rows = live_table(season)
        accounts = dict(
            get_user_model()
            .objects.filter(username__in=[r.player for r in rows])
            .values_list("username", "pk")
        )
        Standing.objects.bulk_create(
            [
                Standing(
                    season=season,
                    rank=row.rank,
                    user_id=accounts.get(row.player),
                    username=row.player,
                    games=row.games,
                    wins=row.wins,
                    half_points=row.half_points,
                    average=row.average,
                    best=row.best or 0,
                    rating_change=row.rating_change,
                )
                for row in rows
            ]
        )
        members = [m.user for m in Membership.objects.filter(group=season.group).select_related("user")]
        notices.season_closed(
            members,
            group=season.group,
            number=season.number,
            game=kinds.name(season.kind),
            champions=league.champions(rows),
            url=reverse("seasons:detail", args=[season.group_id, season.number]),
        )
        live.refresh_on_commit(season.group_id, [m.username for m in members])
    return "closed"


def close_due(*, group_id: int, now: datetime | None = None) -> int:
    """Close every season of the group whose end has passed and that nobody has closed yet (one query
    when there is none); how many this call closed."""
    now = now or timezone.now()
    due = Season.objects.filter(group_id=group_id, closed_at__isnull=True, ends_at__lte=now)
    return sum(season_close(season_id=pk, now=now) == "closed" for pk in due.values_list("pk", flat=True))
