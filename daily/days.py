"""The challenge's days: dates in the site's time zone (settings.TIME_ZONE)."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from django.utils import timezone


def today(now: datetime | None = None) -> date:
    """The challenge's date at ``now`` (the present by default), in the site's time zone."""
    return timezone.localdate(now or timezone.now())


def end_of(day: date) -> datetime:
    """The first instant after ``day`` in the site's time zone: when its challenge is over."""
    return datetime.combine(day + timedelta(days=1), time.min, tzinfo=timezone.get_default_timezone())


def is_over(day: date, now: datetime | None = None) -> bool:
    return today(now) > day
