"""The worker's part of the daily challenge: each day closed once it is over (daily.closing)."""

from __future__ import annotations

from datetime import date, timedelta

from django.utils import timezone
from django_tasks import task

from daily import closing, days

# A day that could not be closed (a game still being played refused its resignation) is tried again.
RETRY = timedelta(minutes=1)


@task()
def close_day(day: str) -> bool:
    """Close the day (ISO date) if it is over; when it is not, or a game of it is still being played,
    the task is written again for later."""
    when = date.fromisoformat(day)
    if closing.day_close(day=when):
        return True
    now = timezone.now()
    later = days.end_of(when) if not days.is_over(when, now) else now + RETRY
    close_day.using(run_after=later).enqueue(day)
    return False
