"""The worker's coach tasks (django-tasks, database backend).

Nothing is enqueued by the move that ends a game (the moves write through their own SQL, on two
transports): a sweep finds the games that ended without a review and enqueues one review task each.
It runs every COACH_SWEEP_EVERY seconds, each run enqueueing the next; `manage.py worker` enqueues
one at start, so games that ended while the worker was down are reviewed when it comes back."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tasks import task
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from coach import services

KEEP_RESULTS = timedelta(days=1)
SWEEP_BATCH = 50
WAITING = (TaskResultStatus.READY, TaskResultStatus.RUNNING)


@task()
def review_game(game_id: int) -> str:
    return services.review_game(game_id=game_id)


@task()
def sweep_reviews() -> int:
    enqueued = enqueue_missing_reviews()
    schedule_sweep()
    return enqueued


def enqueue_missing_reviews() -> int:
    """One review task for each ended game without a review and without a task waiting for it."""
    waiting = {
        (ak.get("kwargs") or {}).get("game_id")
        for ak in DBTaskResult.objects.filter(
            task_path=review_game.module_path, status__in=WAITING
        ).values_list("args_kwargs", flat=True)
    }
    missing = [pk for pk in services.reviewable().values_list("pk", flat=True)[:SWEEP_BATCH]]
    todo = [pk for pk in missing if pk not in waiting]
    for pk in todo:
        review_game.enqueue(game_id=pk)
    return len(todo)


def schedule_sweep() -> None:
    """Enqueue the next sweep unless one is waiting; forget old finished runs of both tasks."""
    now = timezone.now()
    runs = DBTaskResult.objects.filter(task_path=sweep_reviews.module_path)
    with transaction.atomic():
        if not runs.select_for_update().filter(status=TaskResultStatus.READY).exists():
            when = now + timedelta(seconds=settings.COACH_SWEEP_EVERY)
            sweep_reviews.using(run_after=when).enqueue()
    old = now - KEEP_RESULTS
    DBTaskResult.objects.filter(
        task_path__in=[sweep_reviews.module_path, review_game.module_path],
        status=TaskResultStatus.SUCCESSFUL,
        finished_at__lt=old,
    ).delete()
