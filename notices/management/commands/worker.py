"""The site's background worker: django-tasks' db_worker, after making sure the turn e-mails' sweep is
scheduled and every computer player's turn has its task (a worker that was down, or killed in the
middle of a task, picks up where it stopped).

Quiet by default (issue 32): at the default verbosity db_worker logs every task it runs at INFO, a
sweep's two lines every few seconds, which buried the e-mails that `make run` prints to the same
console. Here verbosity 1 logs the tasks' warnings and failures only; -v 2 logs every task as db_worker
does at 1, -v 3 adds its debugging lines; -v 0 silences it as db_worker does.
"""

import logging

from django.conf import settings
from django_tasks_db.management.commands.db_worker import Command as DbWorkerCommand

from coach import tasks as coach_tasks
from games.computers.tasks import recover
from notices.tasks import schedule_sweep

# The two loggers db_worker sets the level of (django_tasks' own, and the database backend's).
TASK_LOGGERS = ("django_tasks", "django_tasks_db")


class Command(DbWorkerCommand):
    help = "Run the background worker (turn e-mails, computer players, the coach's reviews)."

    def add_arguments(self, parser):
        super().add_arguments(parser)
        parser.set_defaults(interval=settings.WORKER_POLL_INTERVAL)

    def configure_logging(self, verbosity: int) -> None:
        # db_worker's levels one step down: its 1 (every task at INFO) is our 2.
        super().configure_logging(max(verbosity - 1, 0) if verbosity > 1 else verbosity)
        if verbosity == 1:
            for name in TASK_LOGGERS:
                logging.getLogger(name).setLevel(logging.WARNING)

    def handle(self, *args, **options):
        schedule_sweep()
        # Games that ended while the worker was down are reviewed now, not a sweep later.
        coach_tasks.enqueue_missing_reviews()
        coach_tasks.schedule_sweep()
        # Any task still marked running was this worker's before it stopped: none is running now.
        recover(running_for=0)
        super().handle(*args, **options)
