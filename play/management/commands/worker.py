"""The site's background worker: django-tasks' db_worker, after making sure the turn e-mails' sweep is
scheduled, every computer player's turn has its task and every ended game its review (a worker that
was down, or killed in the middle of a task, picks up where it stopped).

A database fault (a terminated backend, a restart, "too many clients") raises out of db_worker: the
library records a task's failure on the connection that just broke, and its loop re-raises what is
not a locked SQLite file. The worker then reconnects and starts over, for up to
WORKER_DB_OUTAGE_LIMIT seconds without reaching the database; after that it exits non-zero, so that
its supervisor (docker-compose's restart policy, `make run`'s supervisord) starts it again rather
than a process stay up that runs nothing.

Every task kind is safe to run again (a computer's action plays once per seq, a review is written
once per game, a sweep only does what is due, a turn e-mail's row is locked while it is sent), so a
task that a stopped worker left "running" is marked failed and its work done again: at start, every
such row (the worker that ran it is gone, or, with several workers, is still running it and the work
is done twice, to the same effect); after a fault, this worker's own. A task that a database error
failed while the worker stayed up (the fault broke one of its transactions) is enqueued again.

The push messages (notices.push) have a queue of their own, run on a thread of this process with its
own database connections (``PushThread``): a push waits for a push service's answer, up to
PUSH_DEADLINE, and a player's devices could make that a wait per message; on the one loop that made
every computer move, turn e-mail and daily close wait behind it. Each loop claims only its own queue's
tasks. With --batch (the tests) one loop runs every queue, in the order the tasks were written.

Quiet by default: at the default verbosity db_worker logs every task it runs at INFO, a
sweep's two lines every few seconds, which buried the e-mails that `make run` prints to the same
console. Here verbosity 1 logs the tasks' warnings and failures only; -v 2 logs every task as db_worker
does at 1, -v 3 adds its debugging lines; -v 0 silences it as db_worker does."""

from __future__ import annotations

import logging
import threading
import time
from datetime import timedelta

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connections
from django.db.utils import InterfaceError, OperationalError
from django.utils import timezone
from django.utils.crypto import get_random_string
from django_tasks.base import TaskResultStatus
from django_tasks.signals import task_finished
from django_tasks_db.management.commands.db_worker import Command as DbWorkerCommand
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from coach import tasks as coach_tasks
from games.computers.tasks import recover
from notices import push
from notices.tasks import schedule_sweep

logger = logging.getLogger(__name__)
# What a lost or broken connection raises (psycopg's AdminShutdown, "the connection is closed",
# "too many clients already" and refused connections among them, as Django wraps them).
DATABASE_FAULTS = (OperationalError, InterfaceError)
FAULT_PATHS = {f"{fault.__module__}.{fault.__qualname__}" for fault in DATABASE_FAULTS}
# A task broken by a database fault runs again after this long (seconds): soon, but not in a tight
# loop should the fault last (each kind's sweep would ask for it again anyway, only later).
REDO_AFTER = timedelta(seconds=1)


# The two loggers db_worker sets the level of (django_tasks' own, and the database backend's).
TASK_LOGGERS = ("django_tasks", "django_tasks_db")


class QuietDbWorker(DbWorkerCommand):
    """db_worker with its log one step quieter: its 1 (every task at INFO) is our 2."""

    def configure_logging(self, verbosity: int) -> None:
        super().configure_logging(max(verbosity - 1, 0) if verbosity > 1 else verbosity)
        if verbosity == 1:
            for name in TASK_LOGGERS:
                logging.getLogger(name).setLevel(logging.WARNING)


class WorkerStopped(Exception):
    """What a task left running is marked failed with: its worker stopped while it ran."""


def fail_lost_tasks(worker_id: str | None = None) -> int:
    """Mark failed the tasks still marked running: all of them, or the one ``worker_id`` ran."""
    lost = [
        row
        for row in DBTaskResult.objects.running()
        if worker_id is None or row.worker_ids[-1:] == [worker_id]
    ]
    for row in lost:
        row.set_failed(WorkerStopped(f"its worker {row.worker_ids[-1:]} stopped while it ran this task"))
    if lost:
        logger.warning("%d task(s) left running by a stopped worker: marked failed, done again", len(lost))
    return len(lost)


def redo_after_database_fault(sender, task_result, **kwargs) -> None:
    """A task that a database fault broke inside one of its transactions (Django drops the connection
    then, and the library records the failure on a new one) is enqueued again, as its kind's sweep
    would do later: a computer's move half a minute later, otherwise."""
    if task_result.status != TaskResultStatus.FAILED or not task_result.errors:
        return
    if task_result.errors[-1].exception_class_path in FAULT_PATHS:
        task = task_result.task.using(run_after=timezone.now() + REDO_AFTER)
        task.enqueue(*task_result.args, **task_result.kwargs)


def catch_up(worker_id: str | None = None) -> None:
    """What the worker does before it runs tasks: the lost ones failed, their work asked for again."""
    fail_lost_tasks(worker_id)
    schedule_sweep()
    # Games that ended before their end enqueued a review, or whose review failed, are reviewed now.
    coach_tasks.enqueue_missing_reviews()
    recover(running_for=0)


class PushThread(threading.Thread):
    """The push queue's loop: django-tasks-db's Worker on ``push.QUEUE`` alone. A database fault ends
    its run as it ends the main loop's; it reconnects (its connections are its thread's own) and its
    own task left running is failed, as the main loop does, until the process stops. A daemon: a stop
    of the process ends it, and what it was sending is failed at the next start (a turn's e-mail
    then goes)."""

    def __init__(self, worker_id: str) -> None:
        super().__init__(name="push-worker", daemon=True)
        self.worker_id = worker_id

    def run(self) -> None:
        faults = 0
        while True:
            worker = Worker(
                queue_names=[push.QUEUE],
                interval=settings.WORKER_POLL_INTERVAL,
                batch=False,
                backend_name="default",
                startup_delay=False,
                max_tasks=None,
                worker_id=self.worker_id,
                excluded_queue_names=[],
            )
            try:
                if faults:
                    fail_lost_tasks(self.worker_id)
                worker.run()
                return
            except DATABASE_FAULTS as exc:
                faults += 1
                logger.warning("push worker: database fault, reconnecting (%d): %s", faults, exc)
            # Anything else out of the loop itself (a task's own failures are recorded by the library):
            # logged and the loop started again, since a thread that ended here would leave the
            # process up and sending no push messages at all.
            except Exception:
                faults += 1
                logger.exception("push worker: its loop failed, starting it again")
            finally:
                connections.close_all()
            time.sleep(min(0.1 * 2 ** min(faults, 5), 2.0))


class Command(BaseCommand):
    help = "Run the background worker (turn e-mails, computer players, the coach's reviews)."

    def add_arguments(self, parser):
        parser.add_argument("--batch", action="store_true", help="Run what is due, then stop (tests).")

    def handle(self, *args, batch=False, **options):
        worker_id = get_random_string(32)
        limit = settings.WORKER_DB_OUTAGE_LIMIT
        failing_since = None
        faults = 0
        task_finished.connect(redo_after_database_fault, dispatch_uid="worker.redo_after_database_fault")
        pushes = None if batch else PushThread(f"{worker_id}-push")
        while True:
            attempt, reached = time.monotonic(), False
            try:
                # At start every running task is lost; after a fault, the one this worker ran.
                catch_up(worker_id if faults else None)
                failing_since, reached = None, True
                if pushes is not None and pushes.ident is None:
                    pushes.start()  # after the first catch-up, which fails every task left running
                # Never with the autoreloader (DEBUG's default): it runs the worker in a thread, whose
                # death on a fault left the process up, running nothing.
                call_command(
                    QuietDbWorker(),
                    batch=batch,
                    queue_name="*" if batch else "default",
                    interval=settings.WORKER_POLL_INTERVAL,
                    reload=False,
                    worker_id=worker_id,
                    verbosity=options["verbosity"],
                )
                return
            except DATABASE_FAULTS as exc:
                faults += 1
                connections.close_all()
                now = time.monotonic()
                # A database that never answered this attempt failed from its start: the pool may have
                # waited DB_POOL_TIMEOUT before it said so.
                failing_since = failing_since or (now if reached else attempt)
                if now - failing_since >= limit:
                    raise CommandError(f"no database for {limit:g} s, giving up: {exc}") from exc
                logger.warning("database fault, reconnecting (%d): %s", faults, exc)
                time.sleep(min(0.1 * 2 ** min(faults, 5), 2.0, limit - (now - failing_since)))
