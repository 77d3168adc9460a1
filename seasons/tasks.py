"""The worker's part of seasons: closing a season at the moment after its last day (enqueued with
``run_after`` when the season is opened: seasons.services.season_open)."""

from __future__ import annotations

from django_tasks import task

from seasons import closing


@task()
def close_season(season_id: int) -> str:
    return closing.season_close(season_id=season_id)
