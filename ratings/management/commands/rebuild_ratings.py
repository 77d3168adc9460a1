"""Forget every rating and replay every rated game in the order the games ended (ratings.services)."""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from ratings.services import ratings_rebuild


class Command(BaseCommand):
    help = "Rebuild every rating from the rated games, in the order they ended."

    def handle(self, *args, **options) -> None:
        start = time.perf_counter()
        done = ratings_rebuild()
        self.stdout.write(
            f"{done.games} rated games replayed: {done.changes} rating changes, {done.ratings} ratings "
            f"in {time.perf_counter() - start:.1f} s"
        )
