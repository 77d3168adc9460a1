"""Farkle's computer players (games/bots/farkle.py): the optimal expected points of a turn for 6 and 5
dice, each strength's mean over simulated turns played through the engine, with its 95 % interval, and
on request what the expert's play to win is worth against players who only maximise a turn's points."""

from django.core.management.base import BaseCommand

from games.bots import STRENGTHS, farkle_expert

PLAYERS = (*reversed(STRENGTHS), "random")
TABLES = (2, 3)


class Command(BaseCommand):
    help = "Print the Farkle expert's expected points of a turn, exact and simulated, and the other players'."

    def add_arguments(self, parser):
        parser.add_argument("--turns", type=int, default=100_000, help="Simulated turns per dice count.")
        parser.add_argument(
            "--games",
            type=int,
            default=0,
            help="Also play this many games to 10000 per dice count and table size (2, 3 players): "
            "the play-to-win expert against experts for points only.",
        )

    def handle(self, *args, turns=100_000, games=0, **options):
        for dice in (6, 5):
            exact = farkle_expert.expected_turn(dice)
            means = "; ".join(f"{p} {farkle_expert.simulate(turns, dice, strength=p)}" for p in PLAYERS)
            self.stdout.write(
                f"{dice} dice: optimal expected points of a turn {exact:.2f}; "
                f"simulated mean over {turns:,} turns (95 % interval): {means}"
            )
        for dice in (6, 5) if games else ():
            shares = "; ".join(self._share(games, n, dice) for n in TABLES)
            self.stdout.write(f"{dice} dice, play to win: share of the wins over {games:,} games: {shares}")

    def _share(self, games: int, players: int, dice: int) -> str:
        share = farkle_expert.play_to_win_share(games, players, dice=dice)
        return f"{players} players {share.mean:.3f} +/- {share.half_width:.3f} (fair {1 / players:.3f})"
