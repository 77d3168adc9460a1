"""Every write to a group's seasons; only the group's creator opens, ends and deletes them.

Closing (the final table stored, the members told) is seasons.closing's, which the worker's task and
the pages' reads call too.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from django.db import transaction
from django.db.models import Max
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.errors import BadRequest, Conflict, Forbidden, NotFound
from groups.models import Group, Membership
from notices import services as notices
from ratings import kinds
from seasons import closing, selectors, tasks
from seasons.models import Season

# How far ahead a season may be opened, and how long one may last.
MAX_AHEAD = timedelta(days=365)
MAX_LENGTH = timedelta(days=366)


def day_start(day: date) -> datetime:
    """The first moment of ``day`` in the site's time zone."""
    return timezone.make_aware(datetime.combine(day, time.min), timezone.get_default_timezone())


def _group(group_id: int, user) -> Group:
    """The group, locked (one season write at a time per group), for its creator."""
    group = Group.objects.select_for_update().filter(pk=group_id).first()
    if group is None:
        raise NotFound(_("There is no such group."))
    if group.creator_id != user.pk:
        raise Forbidden(_("Only the group's creator manages its seasons."))
    return group


def _season(group: Group, number: int) -> Season:
    season = Season.objects.select_for_update().filter(group=group, number=number).first()
    if season is None:
        raise NotFound(_("This group has no such season."))
    return season


def _check_days(kind: str, first_day: date, last_day: date, today: date) -> None:
    if kind not in kinds.every():
        raise BadRequest(_("There is no such game."))
    if last_day < first_day:
        raise BadRequest(_("The last day cannot come before the first."))
    if first_day < today:
        raise BadRequest(_("A season cannot start in the past."))
    if first_day - today > MAX_AHEAD:
        raise BadRequest(_("A season must start within a year."))
    if last_day - first_day >= MAX_LENGTH:
        raise BadRequest(_("A season may last a year at most."))


def season_open(
    *, group_id: int, user, kind: str, first_day: date, last_day: date, now: datetime | None = None
) -> Season:
    """Open a season of ``kind`` (a rating kind's key: "farkle:3000") in the group, from ``first_day``
    to ``last_day`` (inclusive): its closing is enqueued for the moment after its last day, and the
    members are told."""
    now = now or timezone.now()
    _check_days(kind, first_day, last_day, timezone.localdate(now))
    with transaction.atomic():
        group = _group(group_id, user)
        closing.close_due(group_id=group.pk, now=now)  # a season past its end, not closed yet, is over
        name = kinds.name(kind)
        same = Season.objects.filter(group=group, kind=kind)
        if same.filter(closed_at__isnull=True).exists():
            raise Conflict(_("%(game)s already has a season in this group that is not over."), game=name)
        latest = same.aggregate(last=Max("last_day"))["last"]
        if latest is not None and first_day <= latest:
            raise Conflict(
                _("A season of %(game)s in this group ran until %(day)s: a new one starts after that day."),
                game=name,
                day=latest.isoformat(),
            )
        number = (Season.objects.filter(group=group).aggregate(n=Max("number"))["n"] or 0) + 1
        season = Season.objects.create(
            group=group,
            number=number,
            kind=kind,
            first_day=first_day,
            last_day=last_day,
            starts_at=day_start(first_day),
            ends_at=day_start(last_day + timedelta(days=1)),
            opened_by=user,
        )
        # In this transaction (django-tasks' database backend writes its row here): a season opened is
        # a season that will close, whatever happens next.
        tasks.close_season.using(run_after=season.ends_at).enqueue(season.pk)
        members = [m.user for m in Membership.objects.filter(group=group).select_related("user")]
        notices.season_opened(
            members,
            group=group,
            number=number,
            game=name,
            first_day=first_day.isoformat(),
            last_day=last_day.isoformat(),
            url=reverse("seasons:detail", args=[group.pk, number]),
            by=user,
        )
    return season


def season_end(*, group_id: int, number: int, user, now: datetime | None = None) -> Season:
    """End a running season now, before its last day is over: it closes at once, its table counting
    the games that ended until now."""
    now = now or timezone.now()
    with transaction.atomic():
        group = _group(group_id, user)
        season = _season(group, number)
        state = selectors.status(season, now)
        if state == selectors.CLOSED:
            raise Conflict(_("This season is over already."))
        if state == selectors.UPCOMING:
            raise Conflict(_("This season has not started yet: delete it instead."))
        if now < season.ends_at:
            season.ends_at = now
            season.last_day = timezone.localdate(now)
            season.ended_early = True
            season.save(update_fields=["ends_at", "last_day", "ended_early"])
        closing.season_close(season_id=season.pk, now=now)
        season.refresh_from_db()
    return season


def season_delete(*, group_id: int, number: int, user, now: datetime | None = None) -> None:
    """Delete a season that has not started (its closing task then finds nothing to close)."""
    now = now or timezone.now()
    with transaction.atomic():
        group = _group(group_id, user)
        season = _season(group, number)
        if selectors.status(season, now) != selectors.UPCOMING:
            raise Conflict(_("Only a season that has not started can be deleted; end it instead."))
        season.delete()
