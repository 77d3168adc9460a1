"""The site's background worker: django-tasks' db_worker, after making sure the turn e-mails' sweep is
scheduled (a worker that was down, or killed in the middle of a sweep, picks up where it stopped)."""

from django.core.management import call_command
from django.core.management.base import BaseCommand

from coach import tasks as coach_tasks
from notices.tasks import schedule_sweep


class Command(BaseCommand):
    help = "Run the background worker (turn e-mails, the coach's reviews)."

    def add_arguments(self, parser):
        parser.add_argument("--batch", action="store_true", help="Run what is due, then stop (tests).")

    def handle(self, *args, batch=False, **options):
        schedule_sweep()
        # Games that ended while the worker was down are reviewed now, not a sweep later.
        coach_tasks.enqueue_missing_reviews()
        coach_tasks.schedule_sweep()
        call_command("db_worker", batch=batch, interval=1, verbosity=options["verbosity"])
