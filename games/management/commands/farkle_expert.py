"""Farkle's expert (games/bots/farkle_expert.py): the optimal expected points of a turn for 6 and 5
dice, and the expert's mean over simulated turns played through the engine."""

from django.core.management.base import BaseCommand

from games.bots import farkle_expert


class Command(BaseCommand):
    help = "Print the Farkle expert's expected points of a turn, exact and simulated."

    def add_arguments(self, parser):
        parser.add_argument("--turns", type=int, default=100_000, help="Simulated turns per dice count.")

    def handle(self, *args, turns=100_000, **options):
        for dice in (6, 5):
            exact = farkle_expert.expected_turn(dice)
            simulated = farkle_expert.simulate(turns, dice)
            self.stdout.write(
                f"{dice} dice: optimal expected points of a turn {exact:.2f}; "
                f"the expert's mean over {turns:,} simulated turns {simulated:.2f}"
            )
