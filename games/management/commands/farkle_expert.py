"""Farkle's computer players (games/bots/farkle.py): the optimal expected points of a turn for 6 and 5
dice, and each strength's mean over simulated turns played through the engine, with its 95 % interval."""

from django.core.management.base import BaseCommand

from games.bots import STRENGTHS, farkle_expert

PLAYERS = (*reversed(STRENGTHS), "random")


class Command(BaseCommand):
    help = "Print the Farkle expert's expected points of a turn, exact and simulated, and the other players'."

    def add_arguments(self, parser):
        parser.add_argument("--turns", type=int, default=100_000, help="Simulated turns per dice count.")

    def handle(self, *args, turns=100_000, **options):
        for dice in (6, 5):
            exact = farkle_expert.expected_turn(dice)
            means = "; ".join(f"{p} {farkle_expert.simulate(turns, dice, strength=p)}" for p in PLAYERS)
            self.stdout.write(
                f"{dice} dice: optimal expected points of a turn {exact:.2f}; "
                f"simulated mean over {turns:,} turns (95 % interval): {means}"
            )
