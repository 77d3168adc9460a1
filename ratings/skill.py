"""The rating model and the figure players read: openskill's Plackett-Luce with its own defaults
(docs/ratings.md says why each choice). The mathematics is the library's; this module only chooses.

Every update, live or in the rebuild, goes through ``update``, so both arrive at the same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()  # mu 25, sigma 25/3, beta 25/6, tau 25/300: the library's defaults

# The shown figure: 1500 for a newcomer, SCALE points per unit of mu (a newcomer's sigma, 25/3, is
# about 333 points, near Glicko's 350 for a new lichess player).
BASE = 1500
SCALE = 40
# A rating stays provisional while sigma is above this (160 points on the shown scale): about the
# first 25 games, whatever the size of the tables (docs/ratings.md).
PROVISIONAL_SIGMA = 4.0


def initial() -> tuple[float, float]:
    """A new player's (mu, sigma)."""
    return MODEL.mu, MODEL.sigma


def update(before: Sequence[tuple[float, float]], places: Sequence[int]) -> list[tuple[float, float]]:
    """Each player's (mu, sigma) after a game, from their (mu, sigma) before it and their places (1 the
    first, equal places a tie), in the same order: one player per team, ranked by place."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [(team[0].mu, team[0].sigma) for team in rated]


def win_chances(ratings: Sequence[tuple[float, float]]) -> list[float]:
    """Each player's chance of winning a game of one-player teams, from their (mu, sigma), in the same
    order (they add up to 1): the model's own ``predict_win`` (for more than two players, the mean of
    the pairwise chances, normalised). The ratings' benchmark (bench/ratings_predict.py) checks how well
    these come true."""
    return MODEL.predict_win([[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings])


def display(mu: float, sigma: float) -> int:
    """The figure players read: openskill's ordinal taken at the mean (z=0), not at mu - 3 sigma, and
    scaled to 1500 for a newcomer. At z=3 a newcomer's figure climbs with every game as sigma falls,
    even a lost one; players read a rating that rises after a defeat as a fault, and the provisional
    mark says how sure the figure is instead."""
    return round(MODEL.rating(mu=mu, sigma=sigma).ordinal(z=0, alpha=SCALE, target=BASE - SCALE * MODEL.mu))


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA
