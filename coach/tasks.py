"""The worker's coach tasks (django-tasks, database backend).

A game that ends enqueues its review in the move's own transaction (games.effects.GameEnded), so that
the review is stored with the end or not at all. `manage.py worker` enqueues at start a review for any
ended game without one and without a task waiting for it: games that ended before reviews were
enqueued so, and a review task that failed."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from django_tasks import task
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from coach import services
from games import effects

KEEP_RESULTS = timedelta(days=1)
SWEEP_BATCH = 50
WAITING = (TaskResultStatus.READY, TaskResultStatus.RUNNING)


@task()
def review_game(game_id: int) -> str:
    outcome = services.review_game(game_id=game_id)
    forget_old_results()
    return outcome


def game_ended(effect: effects.GameEnded) -> None:
    review_game.enqueue(game_id=effect.game.pk)


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


def forget_old_results() -> None:
    """Forget the finished review tasks older than KEEP_RESULTS."""
    DBTaskResult.objects.filter(
        task_path=review_game.module_path,
        status=TaskResultStatus.SUCCESSFUL,
        finished_at__lt=timezone.now() - KEEP_RESULTS,
    ).delete()
