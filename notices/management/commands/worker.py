"""The site's background worker: django-tasks' db_worker, after making sure the turn e-mails' sweep is
scheduled and every computer player's turn has its task (a worker that was down, or killed in the
middle of a task, picks up where it stopped)."""

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from coach import tasks as coach_tasks
from games.computers.tasks import recover
from notices.tasks import schedule_sweep


class Command(BaseCommand):
    help = "Run the background worker (turn e-mails, computer players, the coach's reviews)."

    def add_arguments(self, parser):
        parser.add_argument("--batch", action="store_true", help="Run what is due, then stop (tests).")

    def handle(self, *args, batch=False, **options):
        schedule_sweep()
        # Games that ended while the worker was down are reviewed now, not a sweep later.
        coach_tasks.enqueue_missing_reviews()
        coach_tasks.schedule_sweep()
        # Any task still marked running was this worker's before it stopped: none is running now.
        recover(running_for=0)
        interval = settings.WORKER_POLL_INTERVAL
        call_command("db_worker", batch=batch, interval=interval, verbosity=options["verbosity"])
