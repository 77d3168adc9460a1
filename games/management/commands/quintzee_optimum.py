"""Rebuild Quintzee's exact solitaire optimum (games/bots/quintzee_optimum.py) and write the table the
expert and the coach read (games/bots/data/quintzee_optimum.npz)."""

import time

from django.core.management.base import BaseCommand

from games.bots import quintzee_optimum


class Command(BaseCommand):
    help = "Build Quintzee's optimal solitaire table and write it to games/bots/data/quintzee_optimum.npz."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="Build and compare, write nothing.")

    def handle(self, *args, check=False, **options):
        started = time.perf_counter()
        values = quintzee_optimum.build(
            report=lambda level, masks: self.stdout.write(f"{level} boxes filled: {masks} cards")
        )
        took = time.perf_counter() - started
        self.stdout.write(f"start value {values[0, 0, 0]:.6f} (Verhoeff: 254.5896), built in {took:.1f} s")
        if check:
            shipped = quintzee_optimum.table()
            reachable = quintzee_optimum.reachable()
            worst = float(abs(shipped - values)[reachable].max())
            self.stdout.write(f"largest difference from the shipped table: {worst:.2e}")
            return
        quintzee_optimum.save(values)
        self.stdout.write(f"wrote {quintzee_optimum.PATH}")
