"""The worker's tasks (django-tasks, database backend; `manage.py worker` runs them).

The sweep sends the turn e-mails that are due. Their rows are written in the moves' own transactions,
so nothing enqueues a task per move: the sweep runs when the next e-mail is due, and at least every
NOTICE_SWEEP_EVERY seconds, each run enqueueing the next (one waits at a time). `manage.py worker`
enqueues one at start, so a worker that was down, or killed in the middle of a run, picks up where
it stopped."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tasks import task
from django_tasks.base import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from games.computers.tasks import recover
from notices import services

KEEP_RESULTS = timedelta(days=1)


@task()
def send_due_turn_mails() -> dict:
    outcomes = Counter(services.deliver(pk) for pk in services.due_mails())
    # The same regular look finds any computer player's turn whose task was lost.
    if written := recover():
        outcomes["computer_tasks"] = written
    schedule_sweep()
    return dict(outcomes)


def _path() -> str:
    return send_due_turn_mails.module_path


def schedule_sweep() -> None:
    """Enqueue the next sweep, or bring the waiting one forward to when the next e-mail is due;
    forget old finished ones."""
    now = timezone.now()
    runs = DBTaskResult.objects.filter(task_path=_path())
    due = services.next_due()
    latest = now + timedelta(seconds=settings.NOTICE_SWEEP_EVERY)
    when = latest if due is None else max(now, min(due, latest))
    with transaction.atomic():
        waiting = runs.select_for_update().filter(status=TaskResultStatus.READY).order_by("run_after").first()
        if waiting is None:
            send_due_turn_mails.using(run_after=when).enqueue()
        elif waiting.run_after > when:
            DBTaskResult.objects.filter(pk=waiting.pk).update(run_after=when)
    runs.filter(status=TaskResultStatus.SUCCESSFUL, finished_at__lt=now - KEEP_RESULTS).delete()
