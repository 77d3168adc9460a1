"""The worker's part of pairing: a queue looked at again when a waiting player's window widens or their
chosen wait for computers ends (pairing.services.seek_create schedules those moments and no others)."""

from __future__ import annotations

from django_tasks import task

from pairing import seating


@task()
def seat_queue(queue: str) -> None:
    seating.queue_seat(queue=queue)
