"""The worker's tasks run in the test's own process: db_worker's loop in batch mode (its command sets
signal handlers, which only the main thread may), until nothing is due."""

from __future__ import annotations

from django_tasks_db.management.commands.db_worker import Worker


def run_due_tasks() -> None:
    Worker(
        queue_names=["default"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="test-worker",
        excluded_queue_names=[],
    ).run()
